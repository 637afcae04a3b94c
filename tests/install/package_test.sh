#!/usr/bin/env bash
# The package test of one build tree (CTest install.package, label `package`):
# builds the .deb with CPack, checks its name, version, dependencies and file names, unpacks it
# into a scratch root, then builds and runs a small program against the unpacked package with
# pkg-config and with find_package, and runs the packaged tool.
#   package_test.sh BUILD_DIR MPI VERSION LIBDIR WORK_DIR CPACK CMAKE CC LIBRARY CONSUMER_DIR
# LIBRARY is the tree's libmpiguide (its MPI library names the expected dependency).
set -euo pipefail
build=$1 mpi=$2 version=$3 libdir=$4 work=$5 cpack=$6 cmake=$7 cc=$8 lib=$9 src=${10}
name=mpiguide-$mpi
fail() {
    echo "package_test ($name): FAIL: $*" >&2
    exit 1
}
case "$mpi" in
openmpi) other=mpich ;;
mpich) other=openmpi ;;
*) fail "unknown MPI $mpi" ;;
esac
rm -rf "$work"
mkdir -p "$work"
root=$work/root

# --- the .deb ---
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/cpack" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log"; fail "cpack failed"; }
shopt -s nullglob
debs=("$work"/cpack/*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one .deb in $work/cpack, found ${#debs[@]}"
deb=${debs[0]}
expect=${name}_${version}_$(dpkg --print-architecture).deb
[ "$(basename "$deb")" = "$expect" ] || fail "package file $(basename "$deb"), expected $expect"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = "$name" ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), expected $version"
# Depends names the Debian package of the MPI library libmpiguide is linked with, and nothing
# of the other MPI
mpilib=$(ldd "$lib" | awk '$1 ~ /^libmpi(ch)?\.so/ { print $3; exit }')
[ -n "$mpilib" ] || fail "ldd $lib names no MPI library"
runtime=$(dpkg -S "$(readlink -f "$mpilib")" | cut -d: -f1)
depends=$(field Depends)
grep -Eq "(^|, )$runtime( |,|$)" <<<"$depends" ||
    fail "Depends: $depends -- lacks $runtime, the package of $mpilib"
if grep -q "$other" <<<"$depends"; then fail "Depends: $depends -- names $other"; fi
echo "package: $(basename "$deb"), Depends: $depends"

# Every file carries the MPI's name, so the other MPI's package never owns the same path.
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }')
clash=$(grep -v "$name" <<<"$files" || true)
[ -z "$clash" ] || fail "files without $name in their path: $clash"
for f in "usr/$libdir/lib$name.so.$version" "usr/$libdir/lib$name.so.${version%%.*}" \
    "usr/$libdir/lib$name.so" "usr/bin/$name" "usr/include/$name/mpiguide.h" \
    "usr/$libdir/pkgconfig/$name.pc" "usr/$libdir/cmake/$name/$name-config.cmake" \
    "usr/$libdir/cmake/$name/$name-config-version.cmake"; do
    grep -qx "\./$f" <<<"$files" || fail "missing ./$f; the package holds: $files"
done

dpkg-deb -x "$deb" "$root"
# nothing installed points back into the build tree (text files, run paths)
stale=$(grep -rlIF -- "$build" "$root" || true)
[ -z "$stale" ] || fail "files naming the build tree $build: $stale"
for elf in "$root/usr/bin/$name" "$root/usr/$libdir/lib$name.so.$version"; do
    rpath=$(objdump -p "$elf" | awk '$1 ~ /^(RPATH|RUNPATH)$/ { print $2 }')
    case "$rpath" in *"$build"*) fail "$elf: run path $rpath names the build tree" ;; esac
done

# check_consumer LABEL OUTPUT_FILE: the consumer ran against the unpacked library
check_consumer() {
    local out=$2 loaded
    cat "$out"
    grep -qx "version $version" "$out" || fail "$1: header version is not $version"
    grep -qx "collective MPI_Allreduce" "$out" || fail "$1: mpiguide_collective_name"
    grep -Eqx "algorithm allreduce_as_reduce_bcast of [1-9][0-9]*" "$out" ||
        fail "$1: mpiguide_algorithm_name / _count"
    loaded=$(sed -n 's/^library //p' "$out")
    case "$(readlink -f "$loaded")" in
    "$(readlink -f "$root")"/*) ;;
    *) fail "$1: libmpiguide loaded from $loaded, not from the unpacked package" ;;
    esac
}

# --- pkg-config: the .pc finds its prefix from its own place; the MPI's .pc comes from the system
export PKG_CONFIG_PATH=$root/usr/$libdir/pkgconfig
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
[ "$(pkg-config --modversion "$name")" = "$version" ] || fail "pkg-config --modversion $name"
cflags=$(pkg-config --cflags "$name") || fail "pkg-config --cflags $name"
libs=$(pkg-config --libs "$name") || fail "pkg-config --libs $name"
echo "pkg-config: $cflags $libs"
incdir=$(pkg-config --variable=includedir "$name")
[ "$(readlink -f "$incdir")" = "$(readlink -f "$root/usr/include/$name")" ] ||
    fail "pkg-config includedir $incdir is not $root/usr/include/$name"
mkdir -p "$work/pc"
# shellcheck disable=SC2086 # flags are words
"$cc" "$src/consumer.c" $cflags $libs -o "$work/pc/consumer" || fail "build with pkg-config"
LD_LIBRARY_PATH=$root/usr/$libdir "$work/pc/consumer" >"$work/pc/out" || fail "pkg-config consumer"
check_consumer pkg-config "$work/pc/out"

# --- find_package: mpiguide-<mpi> and NAMES mpiguide-<mpi>, target mpiguide::mpiguide ---
"$cmake" -S "$src" -B "$work/cm" -DCMAKE_PREFIX_PATH="$root/usr" -DCMAKE_C_COMPILER="$cc" \
    -DMG_MPI="$mpi" -DMG_VERSION="$version" >"$work/cm.log" 2>&1 ||
    { cat "$work/cm.log"; fail "find_package configure"; }
found=$(sed -n "s/^$name""_DIR:PATH=//p" "$work/cm/CMakeCache.txt")
[ "$(readlink -f "$found")" = "$(readlink -f "$root/usr/$libdir/cmake/$name")" ] ||
    fail "find_package found $name in $found"
"$cmake" --build "$work/cm" >>"$work/cm.log" 2>&1 || { cat "$work/cm.log"; fail "find_package build"; }
"$work/cm/consumer" >"$work/cm/out" || fail "find_package consumer"
check_consumer find_package "$work/cm/out"
tool=$(cat "$work/cm/tool.txt")
[ "$tool" = "$root/usr/bin/$name" ] || fail "mpiguide::cli is $tool"
"$tool" --version | grep -qx "mpiguide $version ($mpi)" || fail "$tool --version"
# the tool finds the library next to it through its run path ($ORIGIN/../<libdir>)
loaded=$(ldd "$tool" | awk -v so="lib$name.so.${version%%.*}" '$1 == so { print $3 }')
[ "$(readlink -f "$loaded")" = "$(readlink -f "$root/usr/$libdir/lib$name.so.$version")" ] ||
    fail "$tool loads ${loaded:-no lib$name} instead of the packaged library"

# --- a project that found the other MPI first is refused, with the reason ---
if othercc=$(command -v "mpicc.$other"); then
    if "$cmake" -S "$src" -B "$work/wrong" -DCMAKE_PREFIX_PATH="$root/usr" \
        -DCMAKE_C_COMPILER="$cc" -DMG_MPI="$mpi" -DMG_VERSION="$version" \
        -DMG_FIND_MPI_FIRST=ON -DMPI_C_COMPILER="$othercc" >"$work/wrong.log" 2>&1; then
        fail "find_package($name) accepted a project using $other"
    fi
    grep -q "$name is built for" "$work/wrong.log" || { cat "$work/wrong.log"; fail "wrong-MPI message"; }
else
    echo "mpicc.$other not installed: the wrong-MPI case is not checked"
fi
echo "package_test ($name): OK"
