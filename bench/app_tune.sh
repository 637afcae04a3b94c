#!/usr/bin/env bash
# Tuning real applications for themselves: hpcc (the HPC Challenge benchmark) and
# LAMMPS (its `melt` example), unmodified, as Debian ships them built against Open MPI. Each is
# recorded under libmpiguide (MPIGUIDE_RECORD), tuned for its record (`mpiguide tune --for`),
# recorded once more tuned (the coverage), then run without libmpiguide and tuned, interleaved
# in pairs (ABBA: default first in odd pairs), LAUNCHES times each. Prints per collective the
# share of its calls and of its time that ran a measured decision (a profile entry) and how many
# calls ran a mock-up, and each application's figures of merit, default against tuned (medians
# over the launches, and the median of the paired ratios with its 95 % interval, as
# bench/online.sh). Where nothing beats the default, the profiles
# hold only default ranges and the figures of merit differ by noise only: that is the result.
# Run it alone on the machine (timings): flock -x /work/machine.lock bench/app_tune.sh
# usage: bench/app_tune.sh [BUILD_DIR] [LAUNCHES] [NP]   (default build/openmpi, 5, 2)
#        bench/app_tune.sh --report WORKDIR                 (the tables of an earlier run)
#        APPS=lammps bench/app_tune.sh ...                  (some of the applications only)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/apps.sh
report_only=
apps=${APPS:-hpcc lammps}
if [ "${1:-}" = --report ]; then
    report_only=$2
    set -- build/openmpi "$(ls "$report_only/${apps%% *}"/default-*.fom | wc -l)" 2
fi
build=$(cd "${1:-build/openmpi}" && pwd)
launches=${2:-5}
np=${3:-2}
lib=$build/lib/libmpiguide.so
tool=$build/bin/mpiguide
[ -x "$tool" ] && [ -f "$lib" ] || { echo "app_tune.sh: no build in $build" >&2; exit 2; }
"$tool" --version | grep -q openmpi || { echo "app_tune.sh: $build is not an Open MPI build (Debian's hpcc and lammps are)" >&2; exit 2; }

# the applications, from Debian's archive (their own packages, built against Open MPI)
apps_install

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun="mpirun.openmpi -np $np"
work=${report_only:-$(mktemp -d /tmp/app_tune.XXXXXX)}
echo "app_tune.sh: work directory $work, $np ranks, $launches launches each way" >&2

# run APP DIR [ENV...]: one run of the application in a fresh directory DIR
run() {
    local app=$1 dir=$2
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    app_launch "$app" "$dir" "$np" "$mpirun" "$@"
}

# launch_arm ARM I: launch I of $app's arm ARM (default or tuned) into $w, with its figures
launch_arm() {
    local d=$w/$1-$2
    case $1 in
    default) run "$app" "$d" ;;
    tuned) run "$app" "$d" LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$w/tune/profiles" ;;
    esac && app_merit "$app" "$d" >"$d.fom"
}

for app in $apps; do
    [ -z "$report_only" ] || break
    w=$work/$app
    mkdir -p "$w"
    echo "app_tune.sh: $app: recording" >&2
    run "$app" "$w/record" LD_PRELOAD="$lib" MPIGUIDE_RECORD="$w/record.txt" ||
        { echo "app_tune.sh: $app: the recording run failed ($w/record/out.txt)" >&2; exit 1; }
    echo "app_tune.sh: $app: tune --for the record" >&2
    "$tool" tune --launcher "$mpirun" --for "$w/record.txt" -o "$w/tune" --launches 3 --cover 0.99 \
        --quiet \
        >"$w/tune.log" 2>&1 || { echo "app_tune.sh: $app: tune failed ($w/tune.log)" >&2; exit 1; }
    echo "app_tune.sh: $app: recording the tuned run (coverage)" >&2
    run "$app" "$w/covered" LD_PRELOAD="$lib" MPIGUIDE_PROFILES="$w/tune/profiles" \
        MPIGUIDE_RECORD="$w/tuned.txt" ||
        { echo "app_tune.sh: $app: the tuned run failed ($w/covered/out.txt)" >&2; exit 1; }
    abba_pairs "$launches" default tuned launch_arm "app_tune.sh: $app"
done

echo
echo "Tuning for the application: $np ranks, $(mpirun.openmpi --version | head -1), $(nproc) cores"
echo
echo "Coverage of each collective by a measured decision, by calls and by time (tuned run, record of it):"
printf '%-8s %-16s %8s %8s %12s %8s %9s %9s\n' application collective calls covered time_s covered mockup of_coll
for app in $apps; do
    awk -v app=$app '
        function row(name, n, nc, tt, tc, m) {
            printf "%-8s %-16s %8d %7.1f%% %12.6f %7.1f%% %9d %8.1f%%\n", app, name, n,
                   (n > 0 ? 100 * nc / n : 0), tt, (tt > 0 ? 100 * tc / tt : 0), m,
                   (all > 0 ? 100 * tt / all : 0)
        }
        /^MPI_/ {
            c = $1
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            calls[c] += v["calls"]; ccov[c] += v["covered"]; t[c] += v["time_s"]
            cov[c] += v["covered_s"]; mock[c] += v["mockup"]; all += v["time_s"]
            N += v["calls"]; NC += v["covered"]; TC += v["covered_s"]; M += v["mockup"]
        }
        END {
            for (c in t) row(c, calls[c], ccov[c], t[c], cov[c], mock[c])
            row("(all)", N, NC, all, TC, M)
        }' "$work/$app/tuned.txt" | sort -k8,8gr
done
echo
echo "Profile entries that chose a mock-up (all others are default ranges):"
for app in $apps; do
    found=0
    for f in "$work/$app/tune/profiles"/*.prf; do
        [ -f "$f" ] || continue
        while read -r line; do
            echo "  $app $(basename "$f" .prf): $line"
            found=1
        done < <(grep '^#@range=' "$f" | grep -v ' default: ' | sed 's/^#@range=//' | cut -c1-150)
    done
    [ $found -eq 1 ] || echo "  $app: none: no mock-up beat the default at the recorded sizes"
done
echo
echo "Figures of merit, median over $launches launches, default (no libmpiguide) and tuned, interleaved:"
printf '%-11s %-22s %14s %14s %9s %8s %16s\n' application figure default tuned tuned/def paired "paired 95 %"
for app in $apps; do
    w=$work/$app
    fom_rows "$app" "$w" default tuned
done
echo
echo "Records, plans, profiles and logs: $work"
