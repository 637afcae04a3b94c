#!/usr/bin/env bash
# The random differential test at scale (issue 12; not in CI): N random calls per MPI, split
# evenly over p = 2, 3, 4 and over the collectives `mpiguide selftest --random` knows, each
# run through the library's own collective, every algorithm of it and a sequential reference.
# Prints per MPI and algorithm the cases, how many ran, declined and mismatched (summed over p),
# every new library defect with its reproducer (written by --repro), the known library defects
# met, and the mock-up defects; exits 1 when any mock-up defect, new library defect or
# unexplained mismatch was found (the goal is 0 mock-up defects).
#
# Usage: bench/fuzz_collectives.sh [MPI...]          (default: openmpi mpich; build/MPI trees)
# Environment: N (calls per MPI, default 100000), SEED (default 1), NPS (default "2 3 4"),
# OUT (default out/fuzz: outputs and reproducers), TIMEOUT (seconds per launch, default 36000).
# Time: Open MPI ~1 ms per call and algorithm at p = 2..4 on 2 cores, the 100,000 calls in
# minutes; MPICH busy-polls when ranks exceed cores (p = 3, 4 on 2 cores: ~100 ms per call),
# so its full run takes hours there: use a smaller N, or a machine with 4 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
mpis=("$@")
[ ${#mpis[@]} -gt 0 ] || mpis=(openmpi mpich)
n=${N:-100000}
seed=${SEED:-1}
nps=(${NPS:-2 3 4})
out=${OUT:-out/fuzz}
ncoll=12 # collectives with random cases (src/selftest/rcase.c, mg_rcase_supported)
per=$(((n + ${#nps[@]} * ncoll - 1) / (${#nps[@]} * ncoll)))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export HYDRA_LAUNCHER=fork
status=0
for mpi in "${mpis[@]}"; do
  bin=build/$mpi/bin/mpiguide
  [ -x "$bin" ] || { echo "fuzz_collectives.sh: $bin missing (scripts/build.sh $mpi)" >&2; exit 2; }
  mkdir -p "$out"
  echo "=== $mpi: $per calls per collective at p = ${nps[*]} (N=$n, seed $seed) ==="
  logs=()
  for p in "${nps[@]}"; do
    log=$out/$mpi-p$p.out
    logs+=("$log")
    start=$(date +%s)
    timeout "${TIMEOUT:-36000}" "mpirun.$mpi" -n "$p" "$bin" selftest --random "$per" \
      --seed "$seed" --repro "$out/repro-$mpi-p$p" >"$log" 2>&1
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
  awk '/^known library defect / { n[$4] += $5; rest[$4] = $0; sub(/^[^(]*\(/, "(", rest[$4]) }
       END { for (d in n) printf "known library defect %s %d call(s) %s\n", d, n[d], rest[d] }' \
    "${logs[@]}" | sort
  echo "findings (each with its reproducer and the command that builds and runs it):"
  grep -hE -A3 '^(LIBRARY DEFECT|MOCK-UP DEFECT|MISMATCH)' "${logs[@]}" || echo "  none"
done
exit $status
