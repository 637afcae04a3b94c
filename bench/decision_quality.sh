#!/usr/bin/env bash
# Are tune's decisions trustworthy? For each MPI: `mpiguide tune` twice on the same input (A and
# B), then an independent re-measurement of A's profiles in REMEASURE fresh launches (the
# default and the tuned library interleaved, as tune's validation measures them).
#
#   stability  the agreement of A's and B's profiles (`mpiguide compare A B`): Jaccard index
#              = entries with the same choice / entries either has (1 when neither has any)
#   precision  the share of A's kept entries whose speed-up holds in the re-measurement
#              (median over its launches of default / tuned >= 1.05)
#   regressions  A's kept entries where tuned is more than 5 % slower than the default in the
#              re-measurement (speed-up, or the ratio of the medians over the launches, below
#              1/1.05; must be none)
#
# Targets: Jaccard >= 0.8, precision >= 0.95, no regression. Timing-sensitive: run
# it alone (flock -x /work/machine.lock on the shared machine). Every launch is bounded by
# timeout.
#
# Under SMPI (MPIS=smpi: the build/smpi tree, a simulated cluster, docs/at-scale.md) the launcher
# is smpirun on PLATFORM (default examples/platforms/cluster-16x16.xml, every node, one rank per
# core, block placement) under SELECTOR (default ompi), NP defaults to 256, the default input is
# the small simulated one below, and LAUNCHES, VALIDATE and REMEASURE default to 1 (simulated
# time is deterministic: more launches repeat the same numbers). The targets there are
# Jaccard 1.0 and precision 1.0. NP below the platform's cores takes its first NP / cores-per-node
# nodes (smpirun uses the hostfile's first NP lines): NP=512 on jupiter-36x16.xml is 32 x 16.
# Under a `ulimit -v` near NP x 100 MB (every rank's default message pool, all in one process;
# 512 ranks under `ulimit -v 40000000` skip measurements "out of memory"), shrink the pools:
# MPIGUIDE_CONFIG=FILE holding `size_msg_buffer_bytes 4194304` (docs/at-scale.md). A measurement
# skipped for lack of memory (tune and bench exit with code 5, the raw data has a `#@skipped=`
# line for it) ends the summary with an INCOMPLETE line, and the exit code is 1.
#
# Usage: bench/decision_quality.sh [OUTDIR]   (default out/decision_quality)
# Environment: MPIS (default "openmpi mpich"; or smpi), NP (default 2), INPUT (default: the small
# input below), LAUNCHES (check launches per tune, default 3), VALIDATE (validation launches,
# default 2), REMEASURE (default 3), BUILD (default build: trees BUILD/<mpi>), LAUNCH_ARGS (more
# launcher options, e.g. "-bind-to core" for MPICH), RUNS (default 1: with N > 1 the whole
# measurement runs N times, into OUTDIR/run-1 .. run-N, and OUTDIR/runs.txt counts per MPI the
# runs that met each target: one run says little on a machine whose speed changes by launch).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/decision_quality}
runs=${RUNS:-1}
if [ "$runs" -gt 1 ]; then
  mkdir -p "$out"
  for k in $(seq 1 "$runs"); do
    echo "# run $k of $runs" >&2
    RUNS=1 "$0" "$out/run-$k"
  done
  for k in $(seq 1 "$runs"); do cat "$out/run-$k/summary.txt"; done | awk -v runs="$runs" '
    /^== / { mpi = $2; sub(/,$/, "", mpi); if (!(mpi in n)) order[++m] = mpi; n[mpi]++ }
    /^stability:/ { j = $0; sub(/.*jaccard=/, "", j); j += 0; js[mpi] += j; jok[mpi] += j >= 0.8 }
    /^precision:/ { p = $2; if (p ~ /^[0-9.]+$/) { pn[mpi]++; pok[mpi] += p + 0 >= 0.95 } }
    /^regressions:/ { reg[mpi] += $2 }
    END {
      for (i = 1; i <= m; i++) {
        x = order[i]
        printf "%s: %d runs; stability >= 0.8 in %d (mean Jaccard %.3f); precision >= 0.95 in %d of %d runs with a kept entry; regressions %d\n",
               x, n[x], jok[x], js[x] / n[x], pok[x], pn[x], reg[x]
      }
    }' | tee "$out/runs.txt"
  echo "# written: $out/runs.txt (each run: $out/run-K/summary.txt)" >&2
  exit 0
fi
mpis=${MPIS:-openmpi mpich}
case " $mpis " in
  *" smpi "*)
    [ "$mpis" = smpi ] || { echo "decision_quality: MPIS=smpi runs alone (a simulated cluster, its own defaults)" >&2; exit 2; }
    sim=1 ;;
  *) sim=0 ;;
esac
np=${NP:-$([ $sim = 1 ] && echo 256 || echo 2)}
launches=${LAUNCHES:-$([ $sim = 1 ] && echo 1 || echo 3)}
validate=${VALIDATE:-$([ $sim = 1 ] && echo 1 || echo 2)}
remeasure=${REMEASURE:-$([ $sim = 1 ] && echo 1 || echo 3)}
build=${BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HYDRA_LAUNCHER=fork
mkdir -p "$out"
input=${INPUT:-$out/input.txt}
if [ -z "${INPUT:-}" ] && [ $sim = 1 ]; then
  # the simulated cluster: collectives whose Open MPI selector has violations at 256 ranks
  # (Gather, Scatter, Allgather, Allreduce at 8 or 64 B: docs/workflow.md) and one without,
  # sizes that simulate in seconds; 10 observations (they are equal up to the window's timing)
  cat >"$input" <<'IN'
MPI_Allgather  --msizes-list=8,64 --nrep=10 --fitpoints=2 --exchanges=2
MPI_Allreduce  --msizes-list=8,64 --nrep=10 --fitpoints=2 --exchanges=2
MPI_Bcast      --msizes-list=8,64 --nrep=10 --fitpoints=2 --exchanges=2
MPI_Gather     --msizes-list=8,64 --nrep=10 --fitpoints=2 --exchanges=2
MPI_Scatter    --msizes-list=8,64 --nrep=10 --fitpoints=2 --exchanges=2
IN
elif [ -z "${INPUT:-}" ]; then
  # small on purpose: sizes where 2-rank runs of Open MPI and MPICH have violations, and sizes
  # where they have none (the no-regression side), each measurement bounded in time
  cat >"$input" <<'IN'
MPI_Allgather  --msizes-list=8,4096,262144 --nrep=400 --rt-bench-time-ms=150
MPI_Allreduce  --msizes-list=8,4096,262144 --nrep=400 --rt-bench-time-ms=150
MPI_Bcast      --msizes-list=8,4096,262144 --nrep=400 --rt-bench-time-ms=150
MPI_Reduce_scatter_block --msizes-list=8,4096,262144 --nrep=400 --rt-bench-time-ms=150
MPI_Scan       --msizes-list=8,4096,262144 --nrep=400 --rt-bench-time-ms=150
IN
fi

summary=$out/summary.txt
: >"$summary"
for mpi in $mpis; do
  tree=$build/$mpi
  bin=$tree/bin/mpiguide
  dir=$out/$mpi
  rm -rf "$dir" && mkdir -p "$dir"
  if [ $sim = 1 ]; then
    # the SMPI tool holds the library itself; the ranks' variables go in front of smpirun
    lib=
    [ -x "$bin" ] || { echo "decision_quality: no build in $tree (scripts/build.sh smpi)" >&2; exit 1; }
    platform=$(readlink -f "${PLATFORM:-examples/platforms/cluster-16x16.xml}")
    scripts/smpi-hostfile.sh "$platform" >"$dir/hosts"
    launcher="smpirun -np $np -platform $platform -hostfile $(readlink -f "$dir/hosts")"
    launcher="$launcher --cfg=smpi/coll-selector:${SELECTOR:-ompi} --log=root.thres:warning${LAUNCH_ARGS:+ $LAUNCH_ARGS}"
  else
    lib=$(readlink -f "$tree/lib/libmpiguide.so")
    [ -x "$bin" ] && [ -f "$lib" ] || { echo "decision_quality: no build in $tree (scripts/build.sh $mpi)" >&2; exit 1; }
    launcher="mpirun.$mpi -np $np${LAUNCH_ARGS:+ $LAUNCH_ARGS}"
    [ "$mpi" = openmpi ] && [ "$np" -gt "$(nproc)" ] && launcher="$launcher --oversubscribe"
  fi
  for run in A B; do
    echo "# $mpi: tune $run ($launches check launches, $validate validation launches)" >&2
    rc=0
    timeout 3600 "$bin" tune --launcher "$launcher" -f "$input" -o "$dir/$run" --launches "$launches" \
      --validate-launches "$validate" -s --quiet >"$dir/tune-$run.log" 2>&1 || rc=$?
    # 5: measurements skipped for lack of memory, the rest written (counted below)
    [ $rc -eq 0 ] || [ $rc -eq 5 ] ||
      { tail -20 "$dir/tune-$run.log" >&2; echo "decision_quality: tune $run failed ($mpi)" >&2; exit 1; }
    [ $rc -ne 5 ] || incomplete=1
  done
  timeout 600 "$bin" compare "$dir/A" "$dir/B" >"$dir/compare.txt" 2>&1 || true
  agree=$(grep '^profile agreement:' "$dir/compare.txt" || echo "profile agreement: not available")

  # the independent re-measurement of A's profiles: A's check data and fresh validation launches
  rem=$dir/remeasure
  mkdir -p "$rem"
  ln -s "$(readlink -f "$dir/A/raw")" "$rem/raw"
  for k in $(seq 1 "$remeasure"); do
    mkdir -p "$rem/tuned/launch-$k"
    echo "# $mpi: re-measurement $k of $remeasure" >&2
    while read -r call args; do
      case $call in '' | '#'*) continue ;; esac
      # as tune's validation: under SMPI the variables in front of smpirun, nothing preloaded
      if [ $sim = 1 ]; then pre=(env MPIGUIDE_PROFILES="$dir/A/profiles" MPIGUIDE_GUARD=0) post=()
      else pre=() post=(env LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$dir/A/profiles" MPIGUIDE_GUARD=0); fi
      rc=0
      # shellcheck disable=SC2086
      timeout 3600 "${pre[@]}" $launcher "${post[@]}" "$bin" bench \
        $args --calls-list="$call" --algs=default,tuned --interleave=10 --spread --shuffle --quiet \
        --output-file="$rem/tuned/launch-$k/$call.dat" </dev/null >/dev/null \
        2>"$rem/tuned/launch-$k/$call.log" || rc=$?
      [ $rc -eq 0 ] || [ $rc -eq 5 ] || { cat "$rem/tuned/launch-$k/$call.log" >&2; exit 1; }
      [ $rc -ne 5 ] || incomplete=1
      cat "$rem/tuned/launch-$k/$call.log" >&2
    done <"$input"
  done
  timeout 600 "$bin" analyze -s "$rem" >/dev/null 2>&1 || true

  # A's kept entries, and what the re-measurement says about each (tuned.csv: collective,
  # msize, entry, default_median_s, tuned_median_s, default_over_tuned, ..., verdict)
  awk -F, -v remfile="$rem/tables/tuned.csv" '
    BEGIN {
      while ((getline line < remfile) > 0) {
        split(line, f, ",")
        if (f[1] == "collective") continue
        def[f[1] " " f[2]] = f[4]; tun[f[1] " " f[2]] = f[5]; sp[f[1] " " f[2]] = f[6]
      }
    }
    $1 != "collective" && $NF == "kept" {
      k = $1 " " $2; kept++
      if (!(k in sp)) { printf "  %s: not re-measured\n", k; missing++; next }
      # the re-measured speed-up is the median over its launches of default / tuned measured
      # side by side (paired by rounds, docs/check.md); tuned more than 5 % slower than the
      # default is a regression, by that speed-up or by the two medians over all launches
      hold = sp[k] + 0 >= 1.05
      regress = sp[k] + 0 < 1 / 1.05 || (def[k] + 0 > 0 && tun[k] + 0 > 1.05 * def[k])
      holds += hold; regressions += regress
      printf "  %s B -> %s: validated in A %.3f, re-measured %.3f (medians %.3f)%s%s\n", k, $3,
             $6, sp[k], (tun[k] > 0 ? def[k] / tun[k] : 0), hold ? "" : " (does not hold)",
             regress ? " REGRESSION" : ""
    }
    END {
      printf "kept=%d holds=%d regressions=%d missing=%d\n", kept, holds, regressions, missing
    }' "$dir/A/tables/tuned.csv" >"$dir/precision.txt"
  tail -n 1 "$dir/precision.txt" >"$dir/precision.counts"
  read -r kept holds regressions missing < <(sed 's/[a-z]*=//g' "$dir/precision.counts")
  if [ "$kept" -gt 0 ]; then
    precision=$(echo "scale=3; $holds / $kept" | bc)
  else
    precision="n/a (no kept entry)"
  fi
  keptb=$(awk -F, '$1 != "collective" && $NF == "kept"' "$dir/B/tables/tuned.csv" | wc -l)
  rejected=$(awk -F, '$1 != "collective" && $NF ~ /^rejected/' "$dir/A/tables/tuned.csv" | wc -l)
  # measurements skipped for lack of memory leave their entries out of both tunes, which then
  # agree on nothing (512 simulated ranks under `ulimit -v` with the default message pool,
  # docs/at-scale.md): counted from their `#@skipped=` lines, and the run fails below
  skipped=$(cat "$dir"/A/raw/launch-*/*.dat "$dir"/A/tuned/launch-*/*.dat \
    "$dir"/B/raw/launch-*/*.dat "$dir"/B/tuned/launch-*/*.dat "$rem"/tuned/launch-*/*.dat \
    2>/dev/null | grep -c '^#@skipped=' || true)
  [ "$skipped" -eq 0 ] || incomplete=1
  {
    echo "== $mpi, $np ranks: $(grep -m1 '^#@mpi_library=' "$dir/A/raw/launch-1/MPI_Barrier.dat" | cut -d= -f2-)"
    echo "stability: $agree"
    echo "kept entries: A $kept (A rejected $rejected by its validation), B $keptb"
    echo "precision: $precision ($holds of $kept kept entries of A hold >= 1.05 in $remeasure re-measurement launches)"
    echo "regressions: $regressions kept entries with tuned more than 5 % slower than default"
    sed -n '1,$p' "$dir/precision.txt" | grep '^  ' || true
    [ "$skipped" -eq 0 ] ||
      echo "INCOMPLETE: $skipped measurements skipped for lack of memory (#@skipped lines in A, B and remeasure/tuned/launch-*/*.dat): the figures above leave them out"
  } | tee -a "$summary"
done
echo "# written: $summary" >&2
[ -z "${incomplete:-}" ] || { echo "decision_quality: measurements skipped for lack of memory (summary.txt)" >&2; exit 1; }
