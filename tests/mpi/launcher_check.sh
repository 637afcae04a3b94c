#!/usr/bin/env bash
# The launcher check without a scheduler: the tool started directly (a singleton) with the
# environment srun gives its tasks. Told it is one of 2 tasks, every MPI subcommand must refuse
# to measure (exit 1, one error line from task 0 only, no output directory); told it is the
# only task, it runs and records `#@launcher=srun`. The real case (srun with the wrong --mpi
# plugin) is in tests/slurm/slurm_e2e.sh.
# usage: launcher_check.sh MPIGUIDE_BIN WORKDIR
set -uo pipefail
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || { echo "FAIL: cannot create $work"; exit 1; }
printf 'MPI_Bcast --msizes-list=8 --nrep=3\n' >"$work/in.txt"
alone="srun started 2 tasks, but each is alone in MPI_COMM_WORLD"
npass=0 nfail=0
# case: NAME | ENV (srun's variables) | SUBCOMMAND ARGS | EXIT | STDERR must match ('' = empty)
cases=(
    "bench task 0|SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0|bench --calls-list=MPI_Bcast --msizes-list=8 --nrep=3|1|$alone"
    "bench task 1 is quiet|SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=1|bench --calls-list=MPI_Bcast --msizes-list=8 --nrep=3|1|"
    "check|SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0|check -f $work/in.txt -o $work/out --quiet|1|$alone"
    "nrep|SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0|nrep --calls-list=MPI_Bcast --msizes-list=8|1|$alone"
    "selftest|SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0|selftest bcast|1|$alone"
    "one task runs|SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=1 SLURM_PROCID=0|bench --calls-list=MPI_Bcast --msizes-list=8 --nrep=3 --quiet --output-file=$work/one.dat|0|"
    "batch step is no srun|SLURM_JOB_ID=7 SLURM_NTASKS=2 SLURM_PROCID=0|bench --calls-list=MPI_Bcast --msizes-list=8 --nrep=3 --quiet --output-file=$work/batch.dat|0|"
)
for c in "${cases[@]}"; do
    IFS='|' read -r name envs args want_rc want_err <<<"$c"
    # shellcheck disable=SC2086 # ENV and ARGS are word lists
    timeout 60 env $envs "$bin" $args >"$work/stdout" 2>"$work/stderr"
    rc=$?
    err=$(cat "$work/stderr")
    why=""
    [ "$rc" = "$want_rc" ] || why="exit $rc, expected $want_rc"
    if [ -z "$want_err" ]; then
        [ -z "$err" ] || why="$why; stderr not empty"
    else
        [ "$(grep -c "$want_err" "$work/stderr")" = 1 ] || why="$why; expected one line '$want_err'"
    fi
    if [ -n "$why" ]; then
        nfail=$((nfail + 1))
        echo "FAIL: $name: env $envs mpiguide $args: ${why#; }"
        sed 's/^/  stderr: /' "$work/stderr" | head -5
    else
        npass=$((npass + 1))
    fi
done
# No measurement happened where the check refused; the launcher is recorded where it ran.
if [ -e "$work/out/raw" ]; then nfail=$((nfail + 1)); echo "FAIL: check created $work/out/raw"; fi
for f in one:srun batch:none; do
    if grep -qx "#@launcher=${f#*:}" "$work/${f%%:*}.dat" 2>/dev/null; then
        npass=$((npass + 1))
    else
        nfail=$((nfail + 1))
        echo "FAIL: $work/${f%%:*}.dat: expected #@launcher=${f#*:}"
    fi
done
echo "$npass passed, $nfail failed"
[ $nfail -eq 0 ]
