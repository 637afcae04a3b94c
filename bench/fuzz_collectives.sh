#!/usr/bin/env bash
# The random differential test at scale (not in CI): N random calls per MPI at each of
# p = 2, 3, 4, split evenly over the collectives `mpiguide selftest --random` knows, each run
# through the library's own collective, every algorithm of it and a sequential reference.
# Prints per MPI and algorithm the cases, how many ran, declined and mismatched (summed over p),
# every new library defect with its reproducer (written by --repro), the known library defects
# met, and the mock-up defects; exits 1 when any mock-up defect, new library defect or
# unexplained mismatch was found (the goal is 0 mock-up defects).
#
# Usage: bench/fuzz_collectives.sh [MPI...]          (default: openmpi mpich; build/MPI trees)
# Environment: N (calls per MPI and p, default 100000), SEED (default 1), NPS (default "2 3 4"),
# COLLS (collectives to draw, e.g. "MPI_Iallreduce MPI_Ibcast"; default: every blocking one, as
# `selftest --random` draws nonblocking collectives only when named),
# OUT (default out/fuzz: outputs and reproducers), TIMEOUT (seconds per launch, default 36000),
# YIELD (default 1: MPICH launches with more ranks than cores preload bench/ucx_yield.c, so that
# a polling rank yields its core; 0 runs MPICH unmodified, ~100 ms per call at p = 3 on 2 cores).
# Time on 2 cores: Open MPI ~3-5 min per p; MPICH with YIELD=1 about the same.
set -uo pipefail
cd "$(dirname "$0")/.."
mpis=("$@")
[ ${#mpis[@]} -gt 0 ] || mpis=(openmpi mpich)
n=${N:-100000}
seed=${SEED:-1}
nps=(${NPS:-2 3 4})
out=${OUT:-out/fuzz}
colls=(${COLLS:-})
ncoll=${#colls[@]}
# without COLLS: the blocking collectives with random cases (src/selftest/rcase.c,
# mg_rcase_supported)
[ "$ncoll" -gt 0 ] || ncoll=16
per=$(((n + ncoll - 1) / ncoll))
cores=$(nproc)
yield_so=""
if [ "${YIELD:-1}" = 1 ]; then
  yield_dir=$(mktemp -d)
  trap 'rm -rf "$yield_dir"' EXIT
  yield_so=$yield_dir/ucx_yield.so
  cc -O2 -shared -fPIC -o "$yield_so" bench/ucx_yield.c -ldl ||
    { echo "fuzz_collectives.sh: cannot build bench/ucx_yield.c" >&2; exit 2; }
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export HYDRA_LAUNCHER=fork
status=0
for mpi in "${mpis[@]}"; do
  bin=build/$mpi/bin/mpiguide
  [ -x "$bin" ] || { echo "fuzz_collectives.sh: $bin missing (scripts/build.sh $mpi)" >&2; exit 2; }
  mkdir -p "$out"
  echo "=== $mpi: $per calls per collective at each p = ${nps[*]} (N=$n per p, seed $seed) ==="
  logs=()
  for p in "${nps[@]}"; do
    log=$out/$mpi-p$p.out
    logs+=("$log")
    preload=()
    if [ "$mpi" = mpich ] && [ -n "$yield_so" ] && [ "$p" -gt "$cores" ]; then
      preload=(env LD_PRELOAD="$yield_so")
      echo "p=$p: more ranks than cores ($cores): MPICH polls through bench/ucx_yield.c"
    fi
    start=$(date +%s)
    timeout "${TIMEOUT:-36000}" "mpirun.$mpi" -n "$p" "${preload[@]}" "$bin" selftest --random "$per" \
      --seed "$seed" --repro "$out/repro-$mpi-p$p" "${colls[@]}" >"$log" 2>&1
    rc=$?
    echo "p=$p: exit $rc, $(($(date +%s) - start)) s; $(grep '^library defects:' "$log")"
    [ $rc -eq 0 ] || status=1
  done
  # per algorithm, summed over p (the table rows: collective algorithm cases ran declined mismatch)
  awk '$1 ~ /^MPI_/ && NF >= 6 && $3 ~ /^[0-9]+$/ {
         k = $1 " " $2; if (!(k in c)) order[++m] = k
         c[k] += $3; r[k] += $4; d[k] += $5; x[k] += $6 }
       END { printf "%-26s %-44s %8s %8s %8s %9s\n", "collective", "algorithm", "cases", "ran",
               "declined", "mismatch"
             for (i = 1; i <= m; i++) { split(order[i], f, " ")
               printf "%-26s %-44s %8d %8d %8d %9d\n", f[1], f[2], c[order[i]], r[order[i]],
                 d[order[i]], x[order[i]] } }' "${logs[@]}"
  awk '/^library defects:/ { gsub(/[,;]/, ""); nw += $3; kn += $5
         for (i = 1; i <= NF; i++) { if ($i == "mock-up") mk += $(i + 2)
           if ($i == "unexplained") un += $(i + 2); if ($i == "errors:") er += $(i + 1) } }
       END { printf "total: library defects %d new, %d known; mock-up defects %d; unexplained %d; errors %d\n",
               nw, kn, mk, un, er }' "${logs[@]}"
  awk '/^known library defect / { n[$4] += $5; rest[$4] = $0; sub(/^.* call\(s\), */, "", rest[$4]) }
       END { for (d in n) printf "known library defect %s %d call(s), %s\n", d, n[d], rest[d] }' \
    "${logs[@]}" | sort
  echo "findings (each with its reproducer and the command that builds and runs it):"
  grep -hE -A3 '^(LIBRARY DEFECT|MOCK-UP DEFECT|MISMATCH)' "${logs[@]}" || echo "  none"
done
exit $status
