#!/usr/bin/env bash
# A private one-node Slurm cluster on this machine, to try the cluster workflow (sbatch
# examples/tune.slurm, srun of a tuned application) on a workstation or in CI.
#   scripts/slurm-local.sh start    munged, slurmctld, slurmd on loopback; waits for the node
#   scripts/slurm-local.sh stop     cancels its jobs, stops the daemons it started, removes its state
#   scripts/slurm-local.sh status   exit 0 when all three daemons run and the node answers
#   scripts/slurm-local.sh env      prints `export SLURM_CONF=...` (for eval)
#   scripts/slurm-local.sh install  only installs the Debian packages (slurm-wlm, munge)
# MPIGUIDE_SLURM_DIR: the state directory (default ${TMPDIR:-/tmp}/mpiguide-slurm): key, socket,
# slurm.conf, logs, spool. Everything the cluster has lives there and nothing outside is
# touched, so several clusters (one per directory) can run side by side; each picks free ports.
# The daemons run as root (slurmd must start jobs as their users): as another user the script
# reruns itself with sudo.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=${MPIGUIDE_SLURM_DIR:-${TMPDIR:-/tmp}/mpiguide-slurm}
conf=$dir/slurm.conf
marker=$dir/.mpiguide-slurm-local # says this directory was made by this script
wait_s=${MPIGUIDE_SLURM_WAIT:-60}  # how long start waits for the node, stop for the jobs

die() {
    echo "slurm-local: error: $*" >&2
    exit 1
}
say() { echo "slurm-local: $*" >&2; }

usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# The unix socket paths inside $dir must stay under the 108-byte limit of sun_path.
case $dir in
/*) ;;
*) dir=$PWD/$dir conf=$dir/slurm.conf marker=$dir/.mpiguide-slurm-local ;;
esac
[ ${#dir} -le 80 ] || die "MPIGUIDE_SLURM_DIR=$dir: longer than 80 characters (socket paths)"

as_root() {
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "$1 needs root, and sudo is not installed"
        exec sudo MPIGUIDE_SLURM_DIR="$dir" MPIGUIDE_SLURM_WAIT="$wait_s" "$0" "$1"
    fi
}

install_packages() {
    # slurm-wlm: slurmctld, slurmd, the client commands and the pmix/pmi2 MPI plugins;
    # munge: the authentication Slurm's daemons and clients use.
    "$here/deps.sh" slurm-wlm munge || die "installing slurm-wlm and munge failed"
    local t
    for t in munged mungekey slurmctld slurmd sinfo srun sbatch; do
        command -v "$t" >/dev/null || die "$t not found after installing slurm-wlm and munge"
    done
}

# The pid of daemon NAME (munged, slurmctld, slurmd) if it runs and is ours: its pid file is in
# $dir and its command line names $dir (a reused pid belongs to some other process).
our_pid() {
    local f=$dir/$1.pid pid
    [ -r "$f" ] || return 1
    pid=$(tr -dc 0-9 <"$f")
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir/" || return 1
    echo "$pid"
}

running() { our_pid munged >/dev/null && our_pid slurmctld >/dev/null && our_pid slurmd >/dev/null; }

# The node's state as Slurm sees it (idle, mixed, allocated, ...), empty when it does not answer.
node_state() { SLURM_CONF=$conf timeout 10 sinfo -h -o %T 2>/dev/null | head -1 || true; }

port_free() {
    local hex
    hex=$(printf ':%04X' "$1")
    ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v h="$hex" '$2 ~ h"$" {f=1} END {exit !f}'
}

# Two adjacent free TCP ports (slurmctld, slurmd) from a random start, so clusters in different
# directories, or a site's own Slurm on 6817/6818, do not collide.
pick_ports() {
    local p
    for _ in $(seq 1 50); do
        p=$((20000 + RANDOM % 20000))
        if port_free "$p" && port_free $((p + 1)); then
            echo "$p"
            return 0
        fi
    done
    die "no two free TCP ports found between 20000 and 40000"
}

show_logs() {
    local f
    for f in munged slurmctld slurmd; do
        [ -r "$dir/$f.log" ] || continue
        echo "--- last lines of $dir/$f.log" >&2
        tail -n 15 "$dir/$f.log" >&2
    done
}

write_conf() {
    local port=$1 host node
    host=$(hostname -s)
    # The node line as slurmd itself measures this machine (CPUs, sockets, cores, threads,
    # memory): a node configured with more than it has would be drained at once.
    node=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
    [ -n "$node" ] || die "slurmd -C did not describe this machine"
    cat >"$conf" <<EOF
# Written by scripts/slurm-local.sh: a private one-node cluster on loopback.
ClusterName=mpiguide
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroups: they are not available in every container, and one node needs no fencing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# No default MPI plugin: jobs say --mpi=pmix (Open MPI) or --mpi=pmi2 (MPICH), as they must
# on clusters whose default differs.
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 $node State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

stop_daemon() {
    local name=$1 pid k
    pid=$(our_pid "$name") || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for k in $(seq 1 100); do
        [ -d "/proc/$pid" ] || return 0
        sleep 0.1
    done
    say "$name (pid $pid) did not stop within 10 s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
}

do_stop() {
    [ -e "$marker" ] || {
        if [ -d "$dir" ]; then
            say "$dir was not made by slurm-local.sh; nothing stopped"
        else
            say "not running ($dir does not exist)"
        fi
        return 0
    }
    if our_pid slurmctld >/dev/null; then
        # Cancel the jobs first: their step daemons (slurmstepd) outlive slurmd.
        local ids k
        mapfile -t ids < <(SLURM_CONF=$conf timeout 10 squeue -h -o %i 2>/dev/null || true)
        if [ ${#ids[@]} -gt 0 ]; then
            say "cancelling jobs ${ids[*]}"
            SLURM_CONF=$conf timeout 10 scancel "${ids[@]}" 2>/dev/null || true
            for k in $(seq 1 "$wait_s"); do
                [ -z "$(SLURM_CONF=$conf timeout 10 squeue -h -o %i 2>/dev/null || true)" ] && break
                sleep 1
            done
        fi
    fi
    stop_daemon slurmd
    stop_daemon slurmctld
    stop_daemon munged
    rm -rf -- "$dir"
    say "stopped; $dir removed"
}

do_start() {
    install_packages
    if running; then
        say "already running in $dir (node $(node_state))"
        echo "export SLURM_CONF=$conf"
        return 0
    fi
    # Leftovers of a cluster whose daemons died: stop what still runs, start afresh.
    [ -e "$marker" ] && do_stop
    [ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] ||
        die "$dir exists and was not made by slurm-local.sh; set MPIGUIDE_SLURM_DIR elsewhere"
    # munged wants its socket directory searchable by everyone, its key private.
    mkdir -p "$dir" || die "cannot create $dir"
    chmod 755 "$dir"
    : >"$marker"
    mkdir -p "$dir/munge" "$dir/ctld" "$dir/spool" "$dir/tmp"
    chmod 755 "$dir/munge"
    mkdir "$dir/key" && chmod 700 "$dir/key"
    mungekey --create --keyfile="$dir/key/munge.key" 2>"$dir/mungekey.log" ||
        die "mungekey could not create $dir/key/munge.key: $(cat "$dir/mungekey.log")"

    # The daemons must not inherit the lock (fd 9): it would stay held as long as they run.
    if ! munged --socket="$dir/munge/munge.socket" --key-file="$dir/key/munge.key" \
        --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
        --seed-file="$dir/key/munged.seed" 2>>"$dir/munged.log" 9>&-; then
        show_logs
        do_stop
        die "munged did not start"
    fi
    local port k state=""
    # Slurm's daemons fail at once when munged does not answer yet.
    for k in $(seq 1 50); do
        munge -n -S "$dir/munge/munge.socket" 2>/dev/null |
            unmunge -S "$dir/munge/munge.socket" >/dev/null 2>&1 && break
        [ "$k" -lt 50 ] || {
            show_logs
            do_stop
            die "munged does not answer on $dir/munge/munge.socket"
        }
        sleep 0.1
    done
    port=$(pick_ports)
    write_conf "$port"
    # Both daemons fork into the background once they have read the configuration.
    if ! slurmctld -f "$conf" 2>>"$dir/slurmctld.log" 9>&- ||
        ! slurmd -f "$conf" 2>>"$dir/slurmd.log" 9>&-; then
        show_logs
        do_stop
        die "slurmctld or slurmd did not start"
    fi
    for k in $(seq 1 "$wait_s"); do
        state=$(node_state)
        case $state in idle | mixed | allocated) break ;; esac
        sleep 1
    done
    case $state in
    idle | mixed | allocated) ;;
    *)
        show_logs
        do_stop
        die "the node did not become idle within ${wait_s} s (state: ${state:-no answer})"
        ;;
    esac
    say "running in $dir: controller 127.0.0.1:$port, node $(hostname -s) ($(sed -n 's/^NodeName=[^ ]* NodeAddr=[^ ]* \(CPUs=[0-9]*\).*\(RealMemory=[0-9]*\).*/\1 \2 MB/p' "$conf")), $state"
    say "use it with: export SLURM_CONF=$conf   (stop it with: $0 stop)"
    echo "export SLURM_CONF=$conf"
}

do_status() {
    local name pid st=0
    for name in munged slurmctld slurmd; do
        if pid=$(our_pid "$name"); then
            echo "$name: running (pid $pid)"
        else
            echo "$name: not running"
            st=3
        fi
    done
    if [ $st -eq 0 ]; then
        echo "node: $(node_state)"
        echo "export SLURM_CONF=$conf"
    fi
    return $st
}

[ $# -eq 1 ] || usage
case $1 in
start)
    as_root start
    exec 9>>"${dir}.lock" || die "cannot open ${dir}.lock"
    flock -w 120 9 || die "another slurm-local.sh holds ${dir}.lock"
    do_start
    ;;
stop)
    as_root stop
    exec 9>>"${dir}.lock" || die "cannot open ${dir}.lock"
    flock -w 120 9 || die "another slurm-local.sh holds ${dir}.lock"
    do_stop
    ;;
status) do_status ;;
env) echo "export SLURM_CONF=$conf" ;;
install)
    as_root install
    install_packages
    ;;
-h | --help | help) usage ;;
*) usage ;;
esac
