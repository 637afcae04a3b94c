#!/usr/bin/env bash
# mpiguide's own code in the host CPU work of a simulated launch, as the job grows
# (docs/at-scale.md): bench/scale.sh's `mpiguide bench` launch run under callgrind, which counts
# the instructions executed in each rank's copy of the program (SMPI runs rank r from
# mpiguide_PID_r.so) apart from SimGrid's, the C library's and the kernel's. Instructions, not
# sampled time: a count does not depend on the load of the machine nor on the sample size, and
# the cache misses a rank takes when SimGrid switches back to it are the simulator's memory
# footprint, not work the tool does (perf's cpu-clock samples count them; this machine's VM has
# no hardware counters to tell them apart).
# Printed per p: total_Ir (every instruction of the launch), own_Ir (in the ranks' copies of
# mpiguide), own_Ir_rank (own_Ir / p); then the exponents of log(value) against log(p) (least
# squares over all p, and between the two largest) and, for the functions with the most own
# instructions at the largest p, their instructions per rank at every p: a function whose work
# per rank grows with p is the one to look at.
#
# Usage: bench/own_code.sh [OUTDIR]   (default out/own_code)
# Environment: BUILD (build/smpi), PS ("16 64 256": under callgrind a 256-rank launch takes
# about 15 minutes on a loaded 2-core machine), PPN (16), PLATFORM (examples/platforms/fattree-64x16.xml), SELECTOR
# (ompi), TOP (functions listed, 12), and bench/scale_bench.sh's CALLS, ALGS, SIZES, NREP.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=${1:-out/own_code}
build=${BUILD:-build/smpi}
ps=${PS:-16 64 256}
ppn=${PPN:-16}
platform=${PLATFORM:-$src/examples/platforms/fattree-64x16.xml}
case $platform in /*) ;; *) platform=$src/$platform ;; esac
selector=${SELECTOR:-ompi}
top=${TOP:-12}
# shellcheck source=bench/scale_bench.sh
. "$src/bench/scale_bench.sh"
bin=$build/bin/mpiguide
[ -x "$bin" ] || { echo "own_code.sh: no SMPI build in $build (scripts/build.sh smpi)" >&2; exit 1; }
for t in smpirun valgrind callgrind_annotate; do
  command -v $t >/dev/null || { echo "own_code.sh: $t is missing (scripts/deps.sh)" >&2; exit 1; }
done
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)

table=$out/table.txt funcs=$out/functions.txt
printf '%-5s %15s %13s %11s\n' p total_Ir own_Ir own_Ir_rank >"$table"
: >"$funcs"
for p in $ps; do
  [ $((p % ppn)) -eq 0 ] || { echo "own_code.sh: p=$p is not a multiple of PPN=$ppn" >&2; exit 2; }
  dir=$out/p$p
  mkdir -p "$dir"
  "$src/scripts/smpi-hostfile.sh" "$platform" $((p / ppn)) "$ppn" >"$dir/hosts"
  echo "# p=$p: bench under callgrind" >&2
  nice timeout 7200 smpirun -wrapper "valgrind --tool=callgrind --dump-line=no --callgrind-out-file=$dir/callgrind.out" \
    -np "$p" -platform "$platform" -hostfile "$dir/hosts" --cfg=smpi/coll-selector:"$selector" \
    --log=root.thres:warning "$bin" "${scale_bench_args[@]}" --output-file="$dir/bench.dat" \
    >"$dir/bench.log" 2>&1 || { tail -20 "$dir/bench.log" >&2; echo "own_code.sh: bench at p=$p failed" >&2; exit 1; }
  callgrind_annotate --threshold=100 "$dir/callgrind.out" >"$dir/annotate.txt"
  # every rank's copy is one object (/tmp/mpiguide_PID_RANK.so): one line per function and rank,
  # summed over the ranks per function
  awk -v p="$p" '
    /PROGRAM TOTALS/ { t = $1; gsub(",", "", t) }
    / \[.*\/mpiguide_[0-9]+_[0-9]+\.so\]$/ {
      ir = $1; gsub(",", "", ir); fn = $0
      sub(/^ *[0-9,]+ +(\([^)]*\) +)?/, "", fn); sub(/ \[[^]]*\]$/, "", fn)
      own += ir; f[fn] += ir
    }
    END {
      printf "%-5d %15.0f %13.0f %11.0f\n", p, t, own, own / p >> "'"$table"'"
      for (k in f) printf "%d\t%.0f\t%s\n", p, f[k] / p, k >> "'"$funcs"'"
    }' "$dir/annotate.txt"
done

awk 'NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; n = NF; next }
  { x = log($1); rows++
    for (i = 2; i <= n; i++) {
      y = log($i); sx[i] += x; sy[i] += y; sxx[i] += x * x; sxy[i] += x * y
      px[i] = lx[i]; py[i] = ly[i]; lx[i] = x; ly[i] = y
    } }
  END {
    printf "growth exponents (log-log least squares over %d values of p; last: between the two largest p; 1 = linear):\n", rows
    for (i = 2; i <= n; i++)
      printf "  %-12s all %6.2f  last %6.2f\n", name[i],
        (rows * sxy[i] - sx[i] * sy[i]) / (rows * sxx[i] - sx[i] * sx[i]), (ly[i] - py[i]) / (lx[i] - px[i])
  }' "$table" >"$out/exponents.txt"
# the functions with the most own instructions at the largest p, per rank at every p
last=${ps##* }
awk -F '\t' -v last="$last" -v top="$top" -v ps="$ps" '
  { v[$3, $1] = $2; if ($1 == last) big[$3] = $2 }
  END {
    np = split(ps, P, " ")
    printf "own instructions per rank, the %d largest functions at p=%s:\n", top, last
    printf "%-60s", "function"; for (j = 1; j <= np; j++) printf " %10s", "p=" P[j]; printf "\n"
    for (k = 0; k < top; k++) {
      best = ""; for (fn in big) if (best == "" || big[fn] > big[best]) best = fn
      if (best == "") break
      printf "%-60s", substr(best, 1, 60); for (j = 1; j <= np; j++) printf " %10.0f", v[best, P[j]]; printf "\n"
      delete big[best]
    }
  }' "$funcs" >"$out/top.txt"
cat "$table" "$out/exponents.txt" "$out/top.txt"
echo "# written: $table, $out/exponents.txt, $out/top.txt (each p: $out/pP/)" >&2
