#!/usr/bin/env bash
# Predicted nrep against a fixed nrep of 5000: does `mpiguide nrep` save observations without
# making the launch-to-launch spread of the medians worse?
#
# MPI_Allreduce and MPI_Bcast at p=2 from 1 B to 1 MiB. One prediction (`mpiguide nrep`), then
# LAUNCHES launches of `bench --nrep-file` interleaved with LAUNCHES launches of
# `bench --nrep=5000`. For each group it prints the total observations, the total time, and the
# spread of the per-launch medians: for every (call, msize) the coefficient of variation of its
# LAUNCHES medians, averaged over the (call, msize) cells, with a 95 % bootstrap interval
# (launches resampled with replacement, 2000 replicates); next to it a robust spread (per cell
# 1.4826 MAD / median of the launch medians, median over cells), which one disturbed launch
# cannot dominate. Target: at most one fifth of the observations for a spread no more than 1.5
# times that of nrep=5000 (judged on the mean COV).
#
# Usage: bench/nrep.sh [BUILD_DIR] [LAUNCHES] [OUTDIR]   (defaults: build/openmpi 10 out/nrep)
# Environment: NREP_ARGS (prediction; default PGMPI cov_median: COV of the last 50 running
# medians below 0.005, 50..5000 step 10, the maximum of three predictions), SIZES (default
# min=0,max=20), NP (default 2), BENCH_ARGS (extra options of both bench groups).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/openmpi}
launches=${2:-10}
out=${3:-out/nrep}
np=${NP:-2}
sizes=${SIZES:-min=0,max=20}
nrep_args=${NREP_ARGS:---pred-method=cov_median --var-thres=0.005 --var-win=50 --rep-prediction=min=50,max=5000,step=10 --predictions=3}
bench_args=${BENCH_ARGS:-}
calls=MPI_Allreduce,MPI_Bcast
bin="$build/bin/mpiguide"
launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
rm -f "$out"/pred-*.dat "$out"/full-*.dat "$out"/times.txt

now() { date +%s.%N; }
run() { # run NAME ARGS...: one launch, its wall time appended to times.txt
  local name=$1
  shift
  local t0 t1
  t0=$(now)
  timeout 3600 "$launcher" -n "$np" "$bin" "$@" --quiet
  t1=$(now)
  echo "$name $(echo "$t1 - $t0" | bc -l)" >>"$out/times.txt"
}

echo "# prediction: mpiguide nrep $nrep_args" >&2
# shellcheck disable=SC2086
run predict nrep --calls-list=$calls --msize-interval=$sizes $nrep_args --output-file="$out/pred.txt"
for i in $(seq 1 "$launches"); do
  echo "# launch $i of $launches (predicted, then 5000)" >&2
  # shellcheck disable=SC2086
  run pred bench --calls-list=$calls --msize-interval=$sizes --nrep-file="$out/pred.txt" \
    $bench_args --output-file="$out/pred-$i.dat"
  # shellcheck disable=SC2086
  run full bench --calls-list=$calls --msize-interval=$sizes --nrep=5000 \
    $bench_args --output-file="$out/full-$i.dat"
done

# per launch and (call, msize): the median of the valid observations (flag 0 or no flag)
medians() { # medians GROUP -> lines "launch call msize median"
  for f in "$out/$1"-*.dat; do
    local l=${f##*-}
    l=${l%.dat}
    awk -v l="$l" '!/^#/ && NF >= 5 && (NF == 5 || $6 == 0) {print l, $1, $4, $5}' "$f"
  done | sort -k1,1n -k2,2 -k3,3n -k4,4g | awk '
    { key = $1 " " $2 " " $3
      if (key != prev && prev != "") flush()
      prev = key; v[++n] = $4 }
    function flush() { m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
                       print prev, m; n = 0 }
    END { if (prev != "") flush() }'
}
medians pred >"$out/medians-pred.txt"
medians full >"$out/medians-full.txt"

obs() { cat "$out/$1"-*.dat | awk '!/^#/ && NF >= 5' | wc -l; }
secs() { awk -v g="$1" '$1 == g {s += $2} END {printf "%.1f", s}' "$out/times.txt"; }

# spread of the per-launch medians with a launch bootstrap, for one group
spread() { # spread FILE SEED -> "mean_cov lo hi cells robust_spread"
  awk -v seed="$2" -v B=2000 '
    { c = $2 " " $3; if (!(c in cid)) { cid[c] = ++nc }; L[$1] = 1
      m[cid[c], $1] = $4; if ($1 > nl) nl = $1 }
    function isort(a, n,    i, j, x) {
      for (i = 2; i <= n; i++) { x = a[i]; j = i - 1
        while (j >= 1 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
    }
    function mid(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function cov(idx,    k, j, s, ss, x, mean, var, tot, nn) {
      tot = 0
      for (k = 1; k <= nc; k++) {
        s = 0; ss = 0
        for (j = 1; j <= nl; j++) { x = m[k, idx[j]]; s += x; ss += x * x }
        mean = s / nl; var = (ss - nl * mean * mean) / (nl - 1); if (var < 0) var = 0
        tot += sqrt(var) / mean
      }
      return tot / nc
    }
    END {
      for (j = 1; j <= nl; j++) id[j] = j
      est = cov(id)
      # robust spread: per cell 1.4826 MAD / median of the launch medians (one wild launch
      # does not dominate it), then the median over cells
      for (k = 1; k <= nc; k++) {
        for (j = 1; j <= nl; j++) v[j] = m[k, j]
        isort(v, nl); md = mid(v, nl)
        for (j = 1; j <= nl; j++) v[j] = v[j] > md ? v[j] - md : md - v[j]
        isort(v, nl); rob[k] = 1.4826 * mid(v, nl) / md
      }
      isort(rob, nc); med = mid(rob, nc)
      srand(seed)
      for (b = 1; b <= B; b++) {
        for (j = 1; j <= nl; j++) r[j] = 1 + int(rand() * nl)
        rep[b] = cov(r)
      }
      isort(rep, B)
      printf "%.4f %.4f %.4f %d %.4f\n", est, rep[int(0.025 * B)], rep[int(0.975 * B) + 1], nc, med
    }' "$1"
}
read -r sp_pred lo_pred hi_pred cells md_pred <<<"$(spread "$out/medians-pred.txt" 1)"
read -r sp_full lo_full hi_full _ md_full <<<"$(spread "$out/medians-full.txt" 2)"
obs_pred=$(obs pred)
obs_full=$(obs full)
t_pred=$(secs pred)
t_full=$(secs full)
t_predict=$(secs predict)

echo
echo "nrep.sh: $calls, p=$np, sizes 2^($sizes) B, $launches interleaved launches per group, $cells (call, msize) cells"
echo "prediction: mpiguide nrep $nrep_args ($t_predict s, once)"
printf "%-12s %13s %9s %32s %12s\n" group observations seconds "spread: mean COV [95% CI]" "robust"
printf "%-12s %13d %9s %14s [%s, %s] %12s\n" predicted "$obs_pred" "$t_pred" "$sp_pred" "$lo_pred" "$hi_pred" "$md_pred"
printf "%-12s %13d %9s %14s [%s, %s] %12s\n" nrep=5000 "$obs_full" "$t_full" "$sp_full" "$lo_full" "$hi_full" "$md_full"
ratio_obs=$(echo "$obs_pred / $obs_full" | bc -l)
ratio_sp=$(echo "$sp_pred / $sp_full" | bc -l)
ratio_rob=$(echo "$md_pred / $md_full" | bc -l)
printf "observations: %.3f of nrep=5000 (target <= 0.2); spread: %.2f times (target <= 1.5), robust spread %.2f times\n" \
  "$ratio_obs" "$ratio_sp" "$ratio_rob"
awk -v o="$ratio_obs" -v s="$ratio_sp" 'BEGIN { print ((o <= 0.2 && s <= 1.5) ? "target met" : "target missed") }'
