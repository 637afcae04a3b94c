#!/usr/bin/env bash
# Performance of `mpiguide analyze` (target: 10^6 raw rows in under 2 s). Generates an OUTDIR
# with ROWS synthetic observations (3 launches x 10 collectives x 8 sizes x default + 3
# mock-ups, log-normal noise, one planted violation per collective), times the analysis and
# prints the rows, the seconds and the ratio to the 2 s target (< 1 passes).
#   bench/analyze_rows.sh [MPIGUIDE_BINARY] [ROWS]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-${MPIGUIDE:-build/openmpi/bin/mpiguide}}
rows=${2:-1000000}
target=2.0
[ -x "$bin" ] || { echo "analyze_rows: $bin: not built (give the mpiguide binary)" >&2; exit 2; }
out=$(mktemp -d /tmp/mg_analyze_rows.XXXXXX)
trap 'rm -rf "$out"' EXIT

colls="MPI_Allgather MPI_Allreduce MPI_Alltoall MPI_Bcast MPI_Gather MPI_Reduce MPI_Scan MPI_Scatter MPI_Reduce_scatter_block MPI_Reduce_scatter"
launches=3 nsizes=8 nalgs=4 ncolls=10
per=$(( rows / (launches * ncolls * nsizes * nalgs) ))
for l in $(seq 0 $((launches - 1))); do
  dir="$out/raw/launch-$l"
  mkdir -p "$dir"
  for c in $colls; do
    awk -v coll="$c" -v per="$per" -v nsizes="$nsizes" -v seed="$l$RANDOM" 'BEGIN {
      srand(seed);
      print "#@nprocs=4"; print "#@nodes=1"; print "#@ppn=4"; print "#@mpi_library=synthetic";
      split("default " tolower(substr(coll, 5)) "_as_a " tolower(substr(coll, 5)) "_as_b " \
            tolower(substr(coll, 5)) "_as_c", alg, " ");
      for (s = 0; s < nsizes; s++) {
        m = 2 ^ (2 * s); base = 5e-6 + m * 1e-9;
        for (i = 0; i < per; i++)           # interleaved, as the benchmark measures
          for (a = 1; a <= 4; a++) {
            f = (a == 2 && s >= 5) ? 0.8 : (a == 4 ? 1.3 : 1.0);
            u1 = rand(); u2 = rand(); if (u1 < 1e-12) u1 = 1e-12;
            z = sqrt(-2 * log(u1)) * cos(6.283185307 * u2);
            printf "%s %s %d %d %.6e\n", coll, alg[a], i, m, base * f * exp(0.05 * z);
          }
      }
    }' > "$dir/$c.dat"
  done
  awk -v per=1000 'BEGIN { print "#@nprocs=4"; srand(7);
    for (i = 0; i < per; i++) printf "MPI_Barrier default %d 0 %.6e\n", i, 3e-6 * (1 + 0.1 * rand()) }' \
    > "$dir/MPI_Barrier.dat"
done
total=$(cat "$out"/raw/launch-*/*.dat | grep -vc '^#')

# bash's `time`: wall clock and CPU seconds. The analysis is single-threaded, so on an idle core
# the two agree; on a loaded machine the CPU time is the number to compare with the target.
TIMEFORMAT='%R %U %S'
{ time "$bin" analyze "$out" > "$out/analyze.log"; } 2> "$out/time"
grep -E "^  brave|^Quality" "$out/analyze.log" | cut -c1-60
read -r real user sys < "$out/time"
awk -v r="$real" -v u="$user" -v s="$sys" -v rows="$total" -v t="$target" 'BEGIN {
  c = u + s; printf "analyze_rows: %d rows in %.3f s CPU (%.3f s wall clock; target %.1f s): " \
  "ratio %.3f %s\n", rows, c, r, t, c / t, c < t ? "PASS" : "FAIL"; exit c < t ? 0 : 1 }'
