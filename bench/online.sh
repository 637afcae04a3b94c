#!/usr/bin/env bash
# Online mode (MPIGUIDE_ONLINE=1, docs/online.md) on unmodified applications, default against
# online, interleaved over LAUNCHES launches each (in pairs, default first in odd pairs, online
# first in even ones):
# bench/coll_times.c (each (collective, size) timed in a loop), hpcc and LAMMPS's `melt`
# (Debian's packages, built against Open MPI, as in bench/app_tune.sh). Prints per application
# the whole run's wall-clock time (launch included) and its own figures, medians over the
# launches, online / default, and the median of the launches' paired ratios with its 95 %
# interval (apps.sh, fom_rows); for coll_times also per (collective, size) the time per call and
# what online mode decided there (the first launch's report). With OFFLINE=1 also an offline tune of coll_times (`mpiguide tune --for` its record)
# and, where the tune kept a speed-up, the share of it online mode's first run captured (calls
# of that (collective, size) including their exploring). Ratios measured side by side, never
# assertions. Run it alone on the machine: flock -x /work/machine.lock bench/online.sh
# SLOW=MPI_Name runs every arm (default, online, offline tune and tuned) on the test variant of
# the library and tool (libmpiguide-testalgs.so, mpiguide-testalgs) with that collective's
# default 200 us slower wherever it runs (MPIGUIDE_TEST_SLOW_DEFAULT with _ALL=1,
# docs/dev/interfaces.md): a library with a known violation, for the capture where the
# unmodified library has none at NP ranks.
#   usage: bench/online.sh [BUILD_DIR] [LAUNCHES] [NP] [APPS]
#          (default build/openmpi, 5, 2, "coll_times hpcc lammps")
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/apps.sh
build=$(cd "${1:-build/openmpi}" && pwd)
launches=${2:-5}
np=${3:-2}
apps=${4:-coll_times hpcc lammps}
lib=$build/lib/libmpiguide.so
tool=$build/bin/mpiguide
base_env=() # every arm's (SLOW: the test variant everywhere, the default arm included)
if [ -n "${SLOW:-}" ]; then
    lib=$build/lib/libmpiguide-testalgs.so
    tool=$build/bin/mpiguide-testalgs
    base_env=(LD_PRELOAD="$lib" MPIGUIDE_TEST_SLOW_DEFAULT="$SLOW" MPIGUIDE_TEST_SLOW_DEFAULT_ALL=1)
fi
[ -x "$tool" ] && [ -f "$lib" ] || { echo "online.sh: no build in $build" >&2; exit 2; }
mpicc=$(sed -n 's/^MPI_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
case " $apps " in *" hpcc "* | *" lammps "*)
    "$tool" --version | grep -q openmpi ||
        { echo "online.sh: hpcc and lammps need an Open MPI build (Debian's are)" >&2; exit 2; }
    apps_install
    ;;
esac

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HYDRA_LAUNCHER=fork
mpirun="$launcher -np $np"
work=$(mktemp -d /tmp/online_bench.XXXXXX)
mkdir -p "$work/bin" && "$mpicc" -O2 -o "$work/bin/coll_times" bench/coll_times.c
echo "online.sh: work directory $work, $np ranks, $launches launches each way" >&2

# run APP DIR [ENV...]: one launch in a fresh DIR; its wall-clock seconds in DIR/wall
run() {
    local app=$1 dir=$2 t0
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    t0=$(date +%s.%N)
    case $app in
    coll_times) (cd "$dir" && timeout 900 $mpirun env "${base_env[@]}" "$@" "$work/bin/coll_times" >out.txt 2>&1) ;;
    hpcc | lammps) app_launch "$app" "$dir" "$np" "$mpirun" "${base_env[@]}" "$@" ;;
    esac
    echo "$(date +%s.%N) - $t0" | bc >"$dir/wall"
}

# the figures of one launch: "name value better" lines
merit() {
    local app=$1 dir=$2
    echo "wall_s $(cat "$dir/wall") low"
    case $app in
    coll_times)
        grep -q '^coll_times total .* correct' "$dir/out.txt" || echo "WRONG_RESULT 1 low"
        awk '/^coll_times total/ { print "loops_s", $3, "low" }' "$dir/out.txt"
        ;;
    hpcc | lammps) app_merit "$app" "$dir" ;;
    esac
}

online_env=(LD_PRELOAD="$lib" MPIGUIDE_ONLINE=1)
# launch_arm ARM I: launch I of $app's arm ARM (default or online) into $w, with its figures
launch_arm() {
    local d=$w/$1-$2
    case $1 in
    default) run "$app" "$d" ;;
    online) run "$app" "$d" "${online_env[@]}" MPIGUIDE_REPORT="$d/report.txt" ;;
    esac && merit "$app" "$d" >"$d.fom"
}
for app in $apps; do
    w=$work/$app
    mkdir -p "$w"
    abba_pairs "$launches" default online launch_arm "online.sh: $app"
done

if [ "${OFFLINE:-0}" = 1 ] && [[ " $apps " == *" coll_times "* ]]; then
    w=$work/coll_times
    echo "online.sh: coll_times: record, offline tune --for it, tuned launches" >&2
    run coll_times "$w/record" LD_PRELOAD="$lib" MPIGUIDE_RECORD="$w/record.txt"
    "$tool" tune --launcher "$mpirun${SLOW:+ env ${base_env[*]:1}}" --for "$w/record.txt" -o "$w/tune" --launches 3 --quiet \
        >"$w/tune.log" 2>&1 || { echo "online.sh: tune failed ($w/tune.log)" >&2; exit 1; }
    for i in $(seq 1 "$launches"); do
        run coll_times "$w/tuned-$i" LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$w/tune/profiles"
    done
fi

echo
echo "Online mode against the default: $np ranks, $("$tool" --version | head -1), $(nproc) cores"
echo "(load average at the end: $(cut -d' ' -f1-3 /proc/loadavg): above the core count, other processes shared the cores)"
echo
echo "Whole runs, median over $launches launches each, interleaved (online includes its exploring):"
printf '%-11s %-22s %14s %14s %9s %8s %16s\n' application figure default online online/def paired "paired 95 %"
for app in $apps; do
    w=$work/$app
    fom_rows "$app" "$w" default online
done
grep -h WRONG "$work"/*/*.fom 2>/dev/null && echo "WRONG RESULTS: see $work"

if [[ " $apps " == *" coll_times "* ]]; then
    w=$work/coll_times
    echo
    echo "coll_times per (collective, size): seconds per call, median over the launches; online's"
    echo "decision in its first launch (state, winner, speed-up and 95 % interval, calls explored);"
    [ -d "$w/tuned-1" ] && echo "tuned: the offline tune's profiles; captured: (default - online) / (default - tuned), the share of the tune's saving online mode's first run kept"
    printf '%-14s %7s %11s %11s %8s %11s %8s %9s  %s\n' collective bytes default online on/def tuned tu/def captured \
        "online decision"
    for key in $(awk '/^coll_times MPI_/ { print $2 ":" $3 }' "$w/default-1/out.txt"); do
        c=${key%:*} s=${key#*:}
        per() { (cat "$w"/"$1"-*/out.txt 2>/dev/null || true) |
            awk -v c="$c" -v s="$s" '$1 == "coll_times" && $2 == c && $3 == s { print $4 }' | median; }
        d=$(per default) o=$(per online) t=$(per tuned)
        dec=$(awk -v c="$c" -v s="$s" '$1 == "#@mpiguide" && $2 == "online" && $3 == c {
                for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                if (v["msize"] == s && (v["op"] == "-" || v["op"] == "MPI_SUM"))
                    print v["state"], v["winner"], v["speedup"], v["ci95"], "explored=" v["explored"]
            }' "$w/online-1/report.txt" 2>/dev/null | head -1 || true)
        awk -v c="$c" -v s="$s" -v d="$d" -v o="$o" -v t="${t:-}" -v dec="$dec" 'BEGIN {
            tu = t != "" ? sprintf("%11.4g %8.3f", t, t / d) : sprintf("%11s %8s", "-", "-")
            cap = (t != "" && d / t > 1.05) ? sprintf("%8.0f%%", 100 * (d - o) / (d - t)) : sprintf("%9s", "-")
            printf "%-14s %7d %11.4g %11.4g %8.3f %s %s  %s\n", c, s, d, o, o / d, tu, cap, dec }'
    done
fi
echo
echo "Launch directories and reports: $work"
