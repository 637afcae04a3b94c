#!/usr/bin/env bash
# The tool's own cost as the job grows, on a simulated cluster (SMPI, docs/at-scale.md): per
# number of ranks p (default 16, 64, 256, 1024; 16 per node of examples/platforms/fattree-64x16.xml,
# block placement) one `mpiguide bench` launch under smpirun with window synchronisation, its
# analysis, and an application (bench/record_merge.c) whose record rank 0 merges at MPI_Finalize.
# Printed per p (CPU seconds, not wall: on a shared machine the wall clock measures the other
# jobs too):
#   raw_B          bytes of raw data the launch wrote
#   bench_cpu_s    CPU seconds of the launch (user + system; mostly SimGrid simulating messages)
#   coll_cpu_s     CPU seconds of bench/collectives_baseline.c at the same p: the collectives the
#                  launch measures (the same calls, algorithms, sizes and number of calls per
#                  measurement, on MPI_COMM_WORLD), the one MPI_Comm_dup the harness makes and
#                  libmpiguide's MPI_Init, without the harness
#   harness_cpu_s  bench_cpu_s - coll_cpu_s: the harness's own cost (clock fits, windows, the
#                  reductions of the times to rank 0, the raw data), its simulation included
#   bench_sim_s, coll_sim_s, harness_sim_s  the same in simulated seconds (SMPI's "Simulated
#                  time" of each launch): what the job would take on the simulated machine
#   bench_rss_KB   peak resident memory of the smpirun process: all p simulated ranks and
#                  SimGrid in one process (rank 0's own share cannot be told apart there)
#   app_rss_KB     the same for the small application below without the record: SimGrid, the
#                  p ranks and libmpiguide's static data, without the benchmark's
#   extra_KB_rank  (bench_rss_KB - app_rss_KB) / p: what the benchmark adds per rank
#   analyze_cpu_s, analyze_rss_KB  CPU seconds and peak memory of `mpiguide analyze` of the data
#   merge_cpu_s    CPU seconds of rank 0's MPI_Finalize with MPIGUIDE_RECORD minus without it:
#                  the gathering and merge of every rank's record slots, simulation included
#   bare_cpu_s     CPU seconds of the merge's collectives alone (bench/record_merge.c with
#                  BARE_BYTES, in a run with the record on, before MPI_Finalize: the same
#                  MPI_Allreduce, MPI_Reduce, MPI_Gather, MPI_Bcast and MPI_Gatherv of the same
#                  bytes per rank, nothing merged or written)
#   own_merge_cpu_s  merge_cpu_s - bare_cpu_s: mpiguide's own part of the merge (packing,
#                  merging, formatting and writing the record)
#   merge_sim_s    simulated seconds of the merge's communication: the record's #@wall_s (MPI_Init
#                  to the merge, simulated) minus the application's time before MPI_Finalize
#   bare_sim_s     simulated seconds of the bare collectives
#   record_B       bytes of the record written
#   sync_err_s     #@clock_sync_error_s of the raw header (the clock fit under the windows)
#   flagged        observations flagged by the window synchronisation (start missed, overrun)
# and for each column the exponent of a least-squares fit of log(value) against log(p) over all
# p, over the p whose job spans several nodes (p > PPN), and between the two largest p (1 is
# linear growth; columns that stay constant or are zero say so instead); then the verdict on the
# columns that are the tool's own cost (raw_B, harness_sim_s, merge_sim_s, extra_KB_rank,
# analyze_*, record_B, sync_err_s, flagged): each must grow at most linearly (exponent <= 1.1
# over the multi-node p). The others measure SimGrid's host work or the MPI's collectives
# (docs/at-scale.md, "What the tool's own cost means under simulation").
#
# Usage: bench/scale.sh [OUTDIR]   (default out/scale)
# Environment: BUILD (default build/smpi), PS (default "16 64 256 1024"), PPN (16), PLATFORM,
# SELECTOR (ompi), CALLS (MPI_Allreduce,MPI_Bcast), ALGS (default plus one mock-up of each),
# SIZES (8,1024), NREP (10), RECORD_CALLS (calls per collective and size of the application, 5),
# WIRE_BYTES (bytes one record slot takes in the merge's MPI_Gatherv; default: sizeof(struct
# wire) read by readelf (binutils, which gcc needs) from the application's debug information,
# which the RelWithDebInfo build has).
# Every launch is bounded by timeout and runs under nice (the simulation takes one core).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=${1:-out/scale}
build=${BUILD:-build/smpi}
case $build in /*) ;; *) build=$src/$build ;; esac
ps=${PS:-16 64 256 1024}
ppn=${PPN:-16}
platform=${PLATFORM:-$src/examples/platforms/fattree-64x16.xml}
case $platform in /*) ;; *) platform=$src/$platform ;; esac
selector=${SELECTOR:-ompi}
# shellcheck source=bench/scale_bench.sh
. "$src/bench/scale_bench.sh"
rcalls=${RECORD_CALLS:-5}
bin=$build/bin/mpiguide
lib=$build/lib/libmpiguide-smpi.a
[ -x "$bin" ] && [ -f "$lib" ] || { echo "scale.sh: no SMPI build in $build (scripts/build.sh smpi)" >&2; exit 1; }
command -v smpirun >/dev/null || { echo "scale.sh: no smpirun (scripts/deps.sh installs libsimgrid-dev)" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)

# the application of the record merge, linked with the library whole (docs/workflow.md)
app=$out/record_merge
smpicc -O2 "$src/bench/record_merge.c" -o "$app" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive \
  >"$out/record_merge.build.log" 2>&1 || { cat "$out/record_merge.build.log" >&2; exit 1; }
base=$out/collectives_baseline
smpicc -O2 -I"$src/include" "$src/bench/collectives_baseline.c" -o "$base" -Wl,--whole-archive "$lib" \
  -Wl,--no-whole-archive >"$out/baseline.build.log" 2>&1 || { cat "$out/baseline.build.log" >&2; exit 1; }
# awk reads to the end: leaving early would stop readelf with SIGPIPE, which pipefail makes fatal
wire=${WIRE_BYTES:-$(readelf --debug-dump=info "$app" 2>/dev/null | awk '
    /DW_TAG_structure_type/ { s = 1; n = ""; next }
    s && /DW_AT_name/ { n = $NF }
    s && /DW_AT_byte_size/ { if (n == "wire" && w == "") w = $NF; s = 0 }
    END { if (w != "") print w }')}
[ -n "$wire" ] || { echo "scale.sh: the size of a record slot is unknown (no debug information; set WIRE_BYTES)" >&2; exit 1; }
# calls per measurement under --proc-sync=window without --window (src/bench/measurement.c,
# observe.c): the probe, the three calls that size the window, the observations
per_meas=$((nrep + 4))

# time_of FILE: "cpu_seconds max_rss_KB" from /usr/bin/time -f '%U %S %M'
time_of() { tail -n 1 "$1" | awk '{ printf "%.2f %d\n", $1 + $2, $3 }'; }
# finalize_of LOG: "cpu_s before_finalize_sim_s" from record_merge's line
finalize_of() {
  sed -n 's/^record_merge: p=[0-9]* finalize_cpu_s=\([0-9.e+-]*\) before_finalize_sim_s=\([0-9.e+-]*\).*$/\1 \2/p' "$1"
}
# bare_of LOG: "bare_cpu_s bare_sim_s" from record_merge's line with BARE_BYTES
bare_of() { sed -n 's/^record_merge: .* bare_cpu_s=\([0-9.e+-]*\) bare_sim_s=\([0-9.e+-]*\)$/\1 \2/p' "$1"; }
# sim_of LOG: SMPI's simulated time of the launch (--cfg=smpi/display-timing:yes)
sim_of() { sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' "$1" | tail -n 1; }

table=$out/table.txt
fmt_h='%-5s %7s %11s %10s %13s %11s %10s %13s %12s %10s %13s %13s %14s %11s %10s %15s %11s %11s %8s %10s %7s\n'
# shellcheck disable=SC2059
printf "$fmt_h" p raw_B bench_cpu_s coll_cpu_s harness_cpu_s bench_sim_s coll_sim_s harness_sim_s \
  bench_rss_KB app_rss_KB extra_KB_rank analyze_cpu_s analyze_rss_KB merge_cpu_s bare_cpu_s own_merge_cpu_s \
  merge_sim_s bare_sim_s record_B sync_err_s flagged >"$table"
for p in $ps; do
  [ $((p % ppn)) -eq 0 ] || { echo "scale.sh: p=$p is not a multiple of PPN=$ppn" >&2; exit 2; }
  dir=$out/p$p
  mkdir -p "$dir/raw/launch-1"
  "$src/scripts/smpi-hostfile.sh" "$platform" $((p / ppn)) "$ppn" >"$dir/hosts"
  launch="smpirun -np $p -platform $platform -hostfile $dir/hosts --cfg=smpi/coll-selector:$selector --log=root.thres:warning"
  timed="$launch --cfg=smpi/display-timing:yes --log=smpi_utils.thres:info"
  echo "# p=$p: bench" >&2
  # shellcheck disable=SC2086
  /usr/bin/time -f '%U %S %M' -o "$dir/bench.time" nice timeout 3600 $timed "$bin" "${scale_bench_args[@]}" \
    --output-file="$dir/raw/launch-1/bench.dat" \
    >"$dir/bench.log" 2>&1 || { tail -20 "$dir/bench.log" >&2; echo "scale.sh: bench at p=$p failed" >&2; exit 1; }
  echo "# p=$p: baseline (the measured collectives without the harness)" >&2
  # shellcheck disable=SC2086
  /usr/bin/time -f '%U %S %M' -o "$dir/base.time" nice timeout 3600 $timed "$base" "$calls" "$algs" "$sizes" "$per_meas" \
    >"$dir/base.log" 2>&1 || { tail -20 "$dir/base.log" >&2; echo "scale.sh: baseline at p=$p failed" >&2; exit 1; }
  echo "# p=$p: analyze" >&2
  /usr/bin/time -f '%U %S %M' -o "$dir/analyze.time" nice "$bin" analyze -o "$dir/analysis" "$dir" \
    >"$dir/analyze.log" 2>&1 || { tail -20 "$dir/analyze.log" >&2; echo "scale.sh: analyze at p=$p failed" >&2; exit 1; }
  echo "# p=$p: record merge" >&2
  # the record first: its rows are the slots every rank sends (each rank has the same calls),
  # which the bare collectives then carry, in a run with the record on (the same state of the
  # simulation as the merge's; they call PMPI_*, so the record does not see them)
  for mode in record plain bare; do
    envs=() args=("$rcalls")
    case $mode in
      record) rm -f "$dir/app.rec"; envs=(MPIGUIDE_RECORD="$dir/app.rec") ;;
      bare)
        [ -s "$dir/app.rec" ] || { echo "scale.sh: no record written at p=$p" >&2; exit 1; }
        envs=(MPIGUIDE_RECORD="$dir/app-bare.rec")
        args+=($(($(sed -n 's/^#@end=//p' "$dir/app.rec") * wire))) ;;
    esac
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S %M' -o "$dir/app-$mode.time" env "${envs[@]}" nice timeout 3600 $launch --cfg=smpi/simulate-computation:no "$app" "${args[@]}" \
      >"$dir/app-$mode.log" 2>&1 || { tail -20 "$dir/app-$mode.log" >&2; echo "scale.sh: record_merge ($mode) at p=$p failed" >&2; exit 1; }
  done
  read -r bench_s bench_rss < <(time_of "$dir/bench.time")
  read -r base_s _ < <(time_of "$dir/base.time")
  bench_sim=$(sim_of "$dir/bench.log") base_sim=$(sim_of "$dir/base.log")
  read -r b_cpu b_sim < <(bare_of "$dir/app-bare.log")
  read -r an_s an_rss < <(time_of "$dir/analyze.time")
  read -r _ app_rss < <(time_of "$dir/app-plain.time")
  read -r w0 _ < <(finalize_of "$dir/app-plain.log")
  read -r w1 s1 < <(finalize_of "$dir/app-record.log")
  recwall=$(sed -n 's/^#@wall_s=//p' "$dir/app.rec")
  raw=$(cat "$dir"/raw/launch-1/*.dat | wc -c)
  rec=$(wc -c <"$dir/app.rec")
  err=$(sed -n 's/^#@clock_sync_error_s=//p' "$dir/raw/launch-1/bench.dat" | head -1)
  flagged=$(awk '!/^#/ && NF >= 6 && $6 != 0 { n++ } END { print n + 0 }' "$dir/raw/launch-1/bench.dat")
  awk -v p="$p" -v raw="$raw" -v bs="$bench_s" -v bb="$base_s" -v bsim="$bench_sim" -v csim="$base_sim" \
    -v br="$bench_rss" -v apr="$app_rss" -v as="$an_s" -v ar="$an_rss" -v w0="$w0" -v w1="$w1" -v s1="$s1" \
    -v bc="$b_cpu" -v bsm="$b_sim" -v rw="$recwall" -v rec="$rec" -v err="${err:-0}" -v fl="$flagged" \
    'BEGIN { m = w1 - w0
             printf "%-5d %7d %11.2f %10.2f %13.2f %11.3e %10.3e %13.3e %12d %10d %13.1f %13.2f %14d %11.3f %10.3f %15.3f %11.3e %11.3e %8d %10.3e %7d\n",
             p, raw, bs, bb, bs - bb, bsim, csim, bsim - csim, br, apr, (br - apr) / p, as, ar, m, bc, m - bc,
             rw - s1, bsm, rec, err, fl }' | tee -a "$table" >&2
done

# the exponent of log(value) = a + e log(p): least squares over all rows, over the rows whose job
# spans several nodes (p > PPN: from one node to several the network changes, not p), and
# between the last two; then the verdict on the tool's own cost (docs/at-scale.md says why these
# columns and not the others: the others are SimGrid's host work or the MPI's own collectives)
own="raw_B harness_sim_s merge_sim_s extra_KB_rank analyze_cpu_s analyze_rss_KB record_B sync_err_s flagged"
awk -v ppn="$ppn" -v own="$own" '
  function fit(i, lo,    j, c, sx, sy, sxx, sxy) {
    for (j = 1; j <= rows; j++)
      if (P[j] > lo && V[j, i] > 0) { c++; sx += X[j]; sy += log(V[j, i]); sxx += X[j] * X[j]; sxy += X[j] * log(V[j, i]) }
    return c < 2 ? "n/a" : sprintf("%.2f", (c * sxy - sx * sy) / (c * sxx - sx * sx))
  }
  NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; n = NF; next }
  { rows++; P[rows] = $1; X[rows] = log($1); for (i = 2; i <= n; i++) V[rows, i] = $i + 0; for (i = 2; i <= n; i++) S[rows, i] = $i }
  END {
    printf "growth exponents (log-log least squares over %d values of p; nodes: over the p > %d, whose job spans nodes; last: between the two largest p; 1 = linear):\n", rows, ppn
    split(own, o, " "); for (j in o) isown[o[j]] = 1
    for (i = 2; i <= n; i++) {
      varies = 0; zero = 0
      for (j = 1; j <= rows; j++) { if (S[j, i] != S[1, i]) varies = 1; if (V[j, i] <= 0) zero++ }
      if (!varies) { verdict[i] = "constant"; printf "  %-15s constant (%s)\n", name[i], S[1, i]; continue }
      if (rows - zero < 2) { verdict[i] = "n/a"; printf "  %-15s n/a (%d of %d values are 0)\n", name[i], zero, rows; continue }
      last = (V[rows - 1, i] > 0 && V[rows, i] > 0) ? sprintf("%.2f", log(V[rows, i] / V[rows - 1, i]) / (X[rows] - X[rows - 1])) : "n/a"
      nodes = fit(i, ppn)
      verdict[i] = nodes
      printf "  %-15s all %6s  nodes %6s  last %6s%s\n", name[i], fit(i, 0), nodes, last,
             zero ? sprintf("  (fits over the %d non-zero values)", rows - zero) : ""
    }
    for (j = 1; j <= rows; j++) if (P[j] > ppn) multi++
    if (multi < 2) {
      printf "verdict: not judged (the goal is judged over the p > %d, and %d of them were run; at least 2 needed)\n", ppn, multi
      exit
    }
    printf "the tool'"'"'s own cost, goal at most linear (nodes exponent <= 1.1; n/a: at most one non-zero value):\n"
    over = 0; judged = 0
    for (i = 2; i <= n; i++) {
      if (!isown[name[i]]) continue
      judged++
      ok = verdict[i] == "constant" || verdict[i] == "n/a" || verdict[i] + 0 <= 1.1
      if (!ok) over++
      printf "  %-15s %-8s %s\n", name[i], verdict[i], ok ? "ok" : "OVER 1.1"
    }
    printf "verdict: %s (%d columns judged; the others are SimGrid'"'"'s host work or the collectives themselves)\n",
           over ? over " over 1.1" : "all at most linear", judged
  }' "$table" >"$out/exponents.txt"
cat "$table" "$out/exponents.txt"
echo "# written: $table, $out/exponents.txt (each p: $out/pP/)" >&2
