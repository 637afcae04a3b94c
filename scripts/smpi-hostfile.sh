#!/usr/bin/env bash
# Writes an SMPI hostfile for a platform's <cluster>: NODES nodes (default all) with PPN ranks
# each (default the cluster's core count), in block placement: ranks 0..PPN-1 on the first
# node, the next PPN on the second, ... (smpirun deals ranks out line by line, one per line,
# and starts over at the top when -np exceeds the lines). The node and rank-per-node counts in
# mpiguide's raw data and records (#@nodes, #@ppn) come out as written here.
#   scripts/smpi-hostfile.sh examples/platforms/small-8x8.xml > hosts     # 8 x 8
#   scripts/smpi-hostfile.sh examples/platforms/jupiter-36x16.xml 32 16 > hosts
# Host names are PREFIX RADICAL SUFFIX of the first <cluster> of the file; RADICAL lists
# numbers and ranges ("0-35", "0-3;7;10-12").
set -euo pipefail
usage() { echo "usage: smpi-hostfile.sh PLATFORM.xml [NODES [PPN]]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
platform=$1
[ -r "$platform" ] || { echo "smpi-hostfile.sh: $platform: cannot read" >&2; exit 2; }
# the first <cluster ...> tag, on one line, comments removed
tag=$(perl -0pe 's/<!--.*?-->//gs; s/\s+/ /g' "$platform" | grep -o '<cluster[^>]*>' | head -1 || true)
[ -n "$tag" ] || { echo "smpi-hostfile.sh: $platform: no <cluster> tag" >&2; exit 2; }
attr() { sed -n "s/.*[[:space:]]$1=[\"']\([^\"']*\)[\"'].*/\1/p" <<<"$tag"; }
prefix=$(attr prefix) suffix=$(attr suffix) radical=$(attr radical) cores=$(attr core)
[ -n "$radical" ] || { echo "smpi-hostfile.sh: $platform: the cluster has no radical" >&2; exit 2; }
cores=${cores:-1}
hosts=()
IFS=';,' read -ra parts <<<"$radical"
for part in "${parts[@]}"; do
  if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
    for ((i = BASH_REMATCH[1]; i <= BASH_REMATCH[2]; i++)); do hosts+=("$prefix$i$suffix"); done
  elif [[ $part =~ ^[0-9]+$ ]]; then
    hosts+=("$prefix$part$suffix")
  else
    echo "smpi-hostfile.sh: $platform: radical part '$part' is not N or N-M" >&2; exit 2
  fi
done
nodes=${2:-${#hosts[@]}} ppn=${3:-$cores}
[[ $nodes =~ ^[1-9][0-9]*$ ]] || { echo "smpi-hostfile.sh: NODES '$nodes' is not a positive number" >&2; exit 2; }
[[ $ppn =~ ^[1-9][0-9]*$ ]] || { echo "smpi-hostfile.sh: PPN '$ppn' is not a positive number" >&2; exit 2; }
if [ "$nodes" -gt "${#hosts[@]}" ]; then
  echo "smpi-hostfile.sh: $platform has ${#hosts[@]} nodes, not $nodes" >&2; exit 2
fi
if [ "$ppn" -gt "$cores" ]; then
  echo "smpi-hostfile.sh: warning: $ppn ranks per node on $cores cores (the raw data will say oversubscribed=1)" >&2
fi
for ((n = 0; n < nodes; n++)); do
  for ((k = 0; k < ppn; k++)); do echo "${hosts[n]}"; done
done
