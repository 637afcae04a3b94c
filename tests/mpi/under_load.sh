#!/bin/sh
# The tests of label `load`: runs CMD while one extra busy process per core (nproc)
# competes for the machine, and stops them whatever happens: at CMD's end, on SIGTERM/SIGINT/
# SIGHUP (a timeout), and, when this shell is killed outright, through busy's PR_SET_PDEATHSIG.
# Prints the load it started and exits with CMD's exit code.
# usage: under_load.sh BUSY_PROGRAM CMD [ARG...]
set -u
busy=$1
shift
n=$(nproc)
pids=
cmd=
stop() {
    [ -n "$cmd" ] && kill "$cmd" 2>/dev/null
    [ -n "$pids" ] && kill $pids 2>/dev/null
    for p in $pids; do wait "$p" 2>/dev/null; done
    pids=
}
trap stop EXIT
trap 'stop; exit 143' TERM INT HUP
i=0
while [ $i -lt "$n" ]; do
    "$busy" 3600 &
    pids="$pids $!"
    i=$((i + 1))
done
echo "under_load: $n busy process(es) on $n core(s):$pids"
start=$(date +%s)
"$@" &
cmd=$!
wait $cmd
rc=$?
echo "under_load: the command took $(($(date +%s) - start)) s under load, exit code $rc"
stop
exit $rc
