#!/usr/bin/env bash
# Would the current analysis have chosen the same profile entries in both tunes of a pair? For
# every output of bench/decision_quality.sh given, and each MPI in it, re-analyses the check
# data of tune A and of tune B (raw/ only: the validation is not repeated) with this build's
# `mpiguide analyze` and compares the two sets of profiles (`mpiguide compare`). Prints each
# pair's agreement and the totals over all pairs.
#
# Why: a change of the decision rules can be judged on every pair of tunes measured so far, at
# no machine time, instead of on one or two new timing runs whose outcome is mostly the
# machine's noise (docs/check.md, "ties"). It judges the check's choices only; the validation
# then keeps or rejects them.
#
# Usage: bench/reanalyse_choices.sh DQ_OUTDIR...   (e.g. out/dq*)
# Environment: BUILD (default build; any tree's mpiguide analyses every MPI's data).
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: bench/reanalyse_choices.sh DQ_OUTDIR..." >&2; exit 2; }
dirs=()
for d in "$@"; do dirs+=("$(readlink -f "$d")"); done # before the cd below
build=$(readlink -f "${BUILD:-$(dirname "$0")/../build}")
cd "$(dirname "$0")/.."
bin=
for t in "$build"/openmpi "$build"/mpich; do [ -x "$t/bin/mpiguide" ] && { bin=$t/bin/mpiguide; break; }; done
[ -n "$bin" ] || { echo "reanalyse_choices: no build in $build (scripts/build.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for dq in "${dirs[@]}"; do
  for mpi in openmpi mpich; do
    if [ ! -d "$dq/$mpi/A/raw" ] || [ ! -d "$dq/$mpi/B/raw" ]; then continue; fi
    n=$((n + 1))
    for run in A B; do
      d=$tmp/$n/$run
      mkdir -p "$d"
      ln -s "$(readlink -f "$dq/$mpi/$run/raw")" "$d/raw"
      "$bin" analyze -o "$d" "$d" >"$tmp/$n/analyze-$run.log" 2>&1 ||
        { echo "reanalyse_choices: analyze failed for $dq/$mpi/$run:" >&2; tail -3 "$tmp/$n/analyze-$run.log" >&2; exit 1; }
    done
    line=$("$bin" compare "$tmp/$n/A" "$tmp/$n/B" 2>/dev/null | grep '^profile agreement:' || true)
    [ -n "$line" ] || { echo "reanalyse_choices: compare failed for $dq/$mpi" >&2; exit 1; }
    echo "$dq $mpi: ${line#profile agreement: }" | tee -a "$tmp/lines"
  done
done
[ "$n" -gt 0 ] || { echo "reanalyse_choices: no decision-quality output (DIR/<mpi>/{A,B}/raw) given" >&2; exit 1; }
# totals over the pairs: entries with the same choice, a different one, in one tune only
sed -n 's/.*same=\([0-9]*\) different=\([0-9]*\) only_a=\([0-9]*\) only_b=\([0-9]*\).*/\1 \2 \3 \4/p' "$tmp/lines" |
  awk -v pairs="$n" '{s += $1; d += $2; o += $3 + $4}
    END {printf "total over %d pairs: same=%d different=%d only_one=%d pooled_jaccard=%.3f\n", pairs, s, d, o, (s + d + o) ? s / (s + d + o) : 1}'
