#!/usr/bin/env bash
# The cluster workflow under a real Slurm scheduler (scripts/slurm-local.sh): submits
# examples/tune.slurm at 2 tasks with a tiny input, waits for the job, checks that the raw data
# and profiles record the launcher and the nodes / tasks per node Slurm allocated, that the
# profiles, summary and report exist and the job's output says where they are, runs an ordinary
# MPI program through srun with the documented --export of LD_PRELOAD and MPIGUIDE_PROFILES and
# checks that its report names the profile's algorithm at each profiled size, and that tune
# started with a wrong --mpi plugin fails at once, naming the launch. Stops the cluster.
#
# The tool under test is the test variant (mpiguide-testalgs) with MPIGUIDE_TEST_SLOW_DEFAULT=
# MPI_Allgather, so there is a violation to find and a profile to use whatever the machine.
# Exit 77 (skipped; ctest SKIP_RETURN_CODE) with a `SKIP:` line when the daemons cannot be
# started here; with MPIGUIDE_REQUIRE_SLURM=1 (CI) that is a failure instead.
# usage: slurm_e2e.sh MPI TESTALGS_BIN LIBMPIGUIDE APP WORKDIR SOURCE_DIR
set -euo pipefail
[ $# -eq 6 ] || {
    echo "usage: $0 MPI TESTALGS_BIN LIBMPIGUIDE APP WORKDIR SOURCE_DIR" >&2
    exit 2
}
mpi=$1 bin=$2 lib=$3 app=$4 work=$5 src=$6
case $mpi in
openmpi) plugin=pmix wrong=pmi2 ;;
mpich) plugin=pmi2 wrong=pmix ;;
*)
    echo "FAIL: unknown MPI $mpi" >&2
    exit 1
    ;;
esac
np=2
job_limit_s=180 # the whole tune job; it takes 5-60 s
out=$work/out

fail() {
    echo "FAIL ($mpi): $*"
    exit 1
}
skip() {
    if [ "${MPIGUIDE_REQUIRE_SLURM:-0}" = 1 ]; then
        fail "Slurm is required here (MPIGUIDE_REQUIRE_SLURM=1) but: $*"
    fi
    echo "SKIP: slurm.tune ($mpi): $*"
    exit 77
}
show() { # FILE: its last lines, to see why a check failed
    [ -r "$1" ] && sed "s|^|  $(basename "$1"): |" "$1" | tail -n 40 || true
}

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
if [ "$(id -u)" -ne 0 ] && ! timeout 10 sudo -n true 2>/dev/null; then
    skip "the Slurm daemons need root, and sudo asks for a password"
fi

# A cluster of our own, in a short directory (unix socket paths) that nobody else uses.
export MPIGUIDE_SLURM_DIR
MPIGUIDE_SLURM_DIR=$(mktemp -d /tmp/mpiguide-slurm-test.XXXXXX)
stop_cluster() {
    local rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
        show "$work/job.out"
        for f in slurmctld slurmd; do show "$MPIGUIDE_SLURM_DIR/$f.log"; done
    fi
    timeout 120 "$src/scripts/slurm-local.sh" stop >"$work/stop.log" 2>&1 ||
        echo "warning: slurm-local.sh stop failed: $(tail -n 3 "$work/stop.log")"
    rmdir "$MPIGUIDE_SLURM_DIR" 2>/dev/null || true
    rm -f "$MPIGUIDE_SLURM_DIR.lock"
    exit $rc
}
trap stop_cluster EXIT
t0=$(date +%s)
if ! timeout 600 "$src/scripts/slurm-local.sh" start >"$work/start.log" 2>&1; then
    skip "scripts/slurm-local.sh start failed: $(grep 'slurm-local: error' "$work/start.log" | tail -n 1 || tail -n 1 "$work/start.log")"
fi
export SLURM_CONF=$MPIGUIDE_SLURM_DIR/slurm.conf
echo "cluster up in $(($(date +%s) - t0)) s: $(timeout 10 sinfo -h -o '%N %T %c CPUs')"
timeout 20 srun --mpi=list 2>&1 | grep -qw "$plugin" ||
    fail "srun --mpi=list has no $plugin plugin: $(timeout 20 srun --mpi=list 2>&1 | tr '\n' ' ')"

# The example wants a tree with bin/mpiguide and lib/libmpiguide.so: the test tool, and the
# real library for the application (tune preloads the tool's own library in its validation).
tree=$work/tree
mkdir -p "$tree/bin" "$tree/lib"
ln -s "$bin" "$tree/bin/mpiguide"
ln -s "$lib" "$tree/lib/libmpiguide.so"
cat >"$work/in.txt" <<'IN'
# a few collectives, two sizes, few repetitions: seconds per launch
MPI_Allgather --msizes-list=64,1024 --nrep=30 --rt-bench-time-ms=300
MPI_Bcast     --msizes-list=64,1024 --nrep=30 --rt-bench-time-ms=300
MPI_Allreduce --msizes-list=64,1024 --nrep=30 --rt-bench-time-ms=300
IN

# More tasks than the node has CPUs would wait forever (PartitionConfig) without overcommit.
over=()
cpus=$(timeout 10 sinfo -h -o %c | head -1)
[ "${cpus:-0}" -ge $np ] || over=(--overcommit)

# Submitted from the work directory, as a user would from theirs; sizes on the command line.
t0=$(date +%s)
jobid=$(cd "$work" && MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Allgather MPI=$mpi MPIGUIDE=$tree \
    INPUT=$work/in.txt OUT=$out LAUNCHES=2 \
    timeout 30 sbatch --parsable -N 1 -n $np "${over[@]}" --time=$((job_limit_s / 60)) \
    -o "$work/job.out" "$src/examples/tune.slurm") || fail "sbatch failed"
jobid=${jobid%%;*}
state=""
while :; do
    state=$(timeout 10 squeue -h -j "$jobid" -o '%T %r' 2>/dev/null || true)
    [ -n "$state" ] || break
    waited=$(($(date +%s) - t0))
    # The node is ours alone: a job still pending after a minute never starts.
    if [ $waited -gt $job_limit_s ] || { [ "${state%% *}" = PENDING ] && [ $waited -gt 60 ]; }; then
        timeout 10 scancel "$jobid" || true
        fail "job $jobid still $state after $waited s; cancelled"
    fi
    sleep 2
done
info=$(timeout 10 scontrol show job "$jobid") || fail "scontrol show job $jobid failed"
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<"$info" | head -1; }
jstate=$(field JobState) jexit=$(field ExitCode)
echo "job $jobid: $jstate, exit $jexit, $(($(date +%s) - t0)) s"
[ "$jstate" = COMPLETED ] && [ "$jexit" = 0:0 ] || fail "job $jobid ended $jstate with exit $jexit"

# What Slurm allocated, from Slurm itself.
nodes=$(field NumNodes) tasks=$(field NumTasks)
[ "$tasks" = $np ] || fail "Slurm gave $tasks tasks, not the $np asked for"
ppn=$(((tasks + nodes - 1) / nodes)) # block distribution: the first nodes are full

# The job's output says it finished and where everything is.
grep -q "^tune.slurm: done. Results in $out:" "$work/job.out" || fail "job output does not say where the results are"
for f in raw summary.txt report.html profiles tables/tuned.txt; do
    grep -q "^  $out/$f " "$work/job.out" || fail "job output does not list $out/$f"
done
grep -q "srun --mpi=$plugin --kill-on-bad-exit=1" "$work/job.out" || fail "tune did not launch through srun --mpi=$plugin"

# Raw data of both check launches and of the validation: launcher and job shape as allocated.
ndat=0
for dat in "$out"/raw/launch-1/*.dat "$out"/raw/launch-2/*.dat "$out"/tuned/launch-1/*.dat \
    "$out"/tuned/launch-2/*.dat; do
    [ -f "$dat" ] || fail "missing raw data: $dat"
    for kv in launcher=srun nprocs=$tasks nodes=$nodes ppn=$ppn; do
        grep -qx "#@$kv" "$dat" || fail "$dat: expected #@$kv, found $(grep -E "^#@${kv%%=*}=" "$dat" || echo nothing)"
    done
    ndat=$((ndat + 1))
done
[ $ndat -ge 14 ] || fail "only $ndat raw files (2 launches x (3 collectives + barrier) + 2 x 3 validations)"
[ ! -e "$out/raw/launch-3" ] || fail "3 check launches for --launches 2 (tasks ran as singletons?)"

# Profiles: the slow Allgather default was found, and the profile records the allocation.
prf=$out/profiles/MPI_Allgather_p$tasks.prf
[ -f "$prf" ] || fail "no profile $prf; profiles: $(ls "$out/profiles")"
grep -qx "#@nodes=$nodes" "$prf" || fail "$prf: #@nodes is not $nodes: $(grep '^#@nodes' "$prf")"
grep -qx "#@ppn=$ppn" "$prf" || fail "$prf: #@ppn is not $ppn: $(grep '^#@ppn' "$prf")"
timeout 30 "$bin" profile check "$out/profiles" >"$work/profile-check.txt" 2>&1 ||
    fail "mpiguide profile check rejects $out/profiles: $(cat "$work/profile-check.txt")"
grep -q '<svg' "$out/report.html" || fail "report.html has no chart"
grep -q 'MPI_Allgather' "$out/tables/tuned.txt" || fail "no MPI_Allgather in tables/tuned.txt"

# The algorithm the profile selects for SIZE bytes ("" when no range holds it).
profile_alg() {
    awk -v m="$1" '
        { sub(/#.*/, "") } NF == 0 { next }
        { line[++n] = $0 }
        END {
            k = 3; nalg = line[3] + 0
            for (i = 1; i <= nalg; i++) { split(line[k + i], f, " "); alg[f[1]] = f[2] }
            k += nalg + 1; nr = line[k] + 0
            for (i = 1; i <= nr; i++) {
                split(line[k + i], f, " ")
                if (m + 0 >= f[1] + 0 && m + 0 <= f[2] + 0) { print alg[f[3]]; exit }
            }
        }' "$prf"
}

# An ordinary MPI program, tuned through srun as docs/interception.md shows it.
report=$work/app-report.txt
timeout 120 srun --mpi=$plugin -N "$nodes" -n "$tasks" "${over[@]}" --time=2 --kill-on-bad-exit=1 \
    --export="ALL,LD_PRELOAD=$lib,MPIGUIDE_PROFILES=$out/profiles,MPIGUIDE_REPORT=$report" \
    "$app" --sizes=64,1024 >"$work/app.out" 2>&1 || { show "$work/app.out"; fail "the tuned program failed under srun"; }
grep -Eq "^intercept_app: [0-9]+ passed, 0 failed" "$work/app.out" || { show "$work/app.out"; fail "the tuned program computed wrong results"; }
[ -f "$report" ] || fail "the tuned program wrote no report (MPIGUIDE_REPORT did not reach the tasks)"
nsel=0
for m in 64 1024; do
    want=$(profile_alg $m)
    [ -n "$want" ] || continue
    got=$(sed -n "s/^#@pgmpi alg MPI_Allgather $m //p" "$report")
    [ "$got" = "$want" ] || fail "tuned program: MPI_Allgather of $m B ran '${got:-nothing}', the profile selects $want"
    echo "tuned program through srun: MPI_Allgather $m B ran $got (as the profile says)"
    nsel=$((nsel + 1))
done
[ $nsel -gt 0 ] || fail "the profile selects a mock-up for neither 64 nor 1024 B: $(cat "$prf")"

# The command the job printed for applications works as printed (MPIGUIDE_REPORT=1: footer on
# stderr), run from another directory.
line=$(grep -A1 '^Run an application with them' "$work/job.out" | tail -n 1)
case $line in "  srun --mpi=$plugin -N $nodes -n $tasks "*" ./app") ;; *) fail "job output has no srun line for applications: '$line'" ;; esac
(cd / && eval "timeout 120 ${line% ./app} $(printf %q "$app") --sizes=64") >"$work/printed.out" 2>&1 ||
    { show "$work/printed.out"; fail "the printed srun line failed"; }
want=$(profile_alg 64)
if [ -n "$want" ]; then
    grep -qx "#@pgmpi alg MPI_Allgather 64 $want" "$work/printed.out" ||
        { show "$work/printed.out"; fail "the printed srun line did not run $want for MPI_Allgather of 64 B"; }
    echo "printed srun line: MPI_Allgather 64 B ran $want"
fi

# A launch with the wrong plugin fails at once, and tune says which launch failed. MPICH's
# tasks become singletons (mpiguide's launcher check), Open MPI's stop in MPI_Init.
set +e
timeout 120 "$bin" tune --launcher "srun --mpi=$wrong -N 1 -n $np ${over[*]} --time=2 --kill-on-bad-exit=1" \
    -f "$work/in.txt" -o "$work/wrong" --launches 1 >"$work/wrong.log" 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || { show "$work/wrong.log"; fail "tune with srun --mpi=$wrong: exit $rc, expected 1"; }
grep -q "check launch 1 of 1 failed with exit code" "$work/wrong.log" || { show "$work/wrong.log"; fail "tune does not name the failed launch"; }
if [ "$mpi" = mpich ]; then
    grep -q "srun started $np tasks, but each is alone in MPI_COMM_WORLD" "$work/wrong.log" ||
        { show "$work/wrong.log"; fail "no launcher-check error for singleton tasks"; }
fi
[ -z "$(ls "$work/wrong/profiles" 2>/dev/null)" ] || fail "tune with the wrong plugin wrote profiles"
echo "tune with srun --mpi=$wrong: exit 1, $(grep -m1 'mpiguide: error' "$work/wrong.log")"
echo "1 passed, 0 failed"
