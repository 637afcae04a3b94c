# Sourced by the SMPI tests: the work directory, a block-placed hostfile for the small
# platform, the launcher line, and fail(). Expects SRC (source tree), WORK, and optionally NP.
set -u
PLATFORM=$SRC/examples/platforms/small-8x8.xml
rm -rf "$WORK" && mkdir -p "$WORK" || { echo "FAIL: cannot create $WORK"; exit 1; }
cd "$WORK" || exit 1
"$SRC/scripts/smpi-hostfile.sh" "$PLATFORM" >hosts || { echo "FAIL: smpi-hostfile.sh"; exit 1; }
# the launcher on the small platform (paths without spaces: smpirun splits them)
LAUNCH="smpirun -platform $PLATFORM -hostfile $WORK/hosts"
fail() {
    echo "FAIL: $*"
    for f in "$WORK"/*.log; do [ -f "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | grep -v 'INFO\]' | tail -30; done
    exit 1
}
