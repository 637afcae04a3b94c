#!/usr/bin/env bash
# arch.layers: the folders of src/ form the layers that docs/dev/design.md lists (the fenced
# block after "```layers", bottom first, one layer per line). A file may use its own folder and
# folders of lower layers only; folders of one layer do not use each other, so there is no cycle
# between folders. "Use" is read twice: from the #include lines of every source, and from the
# symbols every object file of the library and the tool references (nm), so a call through a
# declaration written by hand is caught too.
#   layers.sh --src DIR --build DIR --design FILE [--inject FILE:INCLUDED]...
# --inject adds an include edge that is not in the tree (the test that the check can fail).
# Exit 0 when every reference points down, 1 with one line per reference that does not.
set -uo pipefail
src="" build="" design="" inject=()
while [ $# -gt 0 ]; do
  case "$1" in
    --src) src=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --design) design=$2; shift 2 ;;
    --inject) inject+=("$2"); shift 2 ;;
    *) echo "layers.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -d "$src" ] && [ -f "$design" ] && [ -d "$build" ] ||
  { echo "layers.sh: --src, --build and --design are required" >&2; exit 2; }
command -v nm >/dev/null || { echo "layers.sh: nm not found (binutils)" >&2; exit 2; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT

# layer of each folder: "folder rank"
awk '/^```layers/{on=1; next} on && /^```/{exit} on && NF {n++; for (i = 1; i <= NF; i++) print $i, n}' \
  "$design" >"$tmp/layers"
[ -s "$tmp/layers" ] || { echo "layers.sh: no \`\`\`layers block in $design" >&2; exit 2; }

# include edges "from-file included-file" (paths relative to src/)
(cd "$src" && find . \( -name '*.c' -o -name '*.h' -o -name '*.def' \) -print | sed 's|^\./||' | sort) \
  >"$tmp/files"
while read -r f; do
  d=$(dirname "$f")
  grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$src/$f" |
    sed -E 's/.*"([^"]+)"/\1/' | while read -r inc; do
      if [ -f "$src/$d/$inc" ]; then
        t=$(realpath -m --relative-to="$src" "$src/$d/$inc")
      elif [ -f "$src/$inc" ]; then
        t=$inc
      else
        continue # the public header, mpi.h, generated files
      fi
      echo "$f $t"
    done
done <"$tmp/files" >"$tmp/incs"
for e in "${inject[@]+"${inject[@]}"}"; do echo "${e%%:*} ${e#*:}" >>"$tmp/incs"; done

# symbol edges "from-file to-file symbol" from the objects of the library and the tool
find "$build/CMakeFiles/mgpure.dir" "$build/CMakeFiles/mgcore.dir" \
  "$build/CMakeFiles/mpiguide_cli.dir" -name '*.o' 2>/dev/null | sort >"$tmp/objs"
[ -s "$tmp/objs" ] || { echo "layers.sh: no object files under $build (build first)" >&2; exit 2; }
while read -r o; do
  case "$o" in
    */generated/defects_known.c.o) f=defects/known.txt ;; # the defect table, compiled in
    */src/*) f=${o##*/src/}; f=${f%.o}; [ -f "$src/$f" ] || continue ;; # stale: source gone
    *) continue ;;
  esac
  nm "$o" | awk -v f="$f" '$1 == "U" {print "U", $2, f} $2 ~ /^[TDBRCV]$/ {print "D", $3, f}'
done <"$tmp/objs" >"$tmp/syms"
awk '$1 == "D" {def[$2] = $3} $1 == "U" {n++; sym[n] = $2; from[n] = $3}
     END {for (i = 1; i <= n; i++) if (sym[i] in def) print from[i], def[sym[i]], sym[i]}' \
  "$tmp/syms" >"$tmp/refs"

# the check: folder = the first path component under src/
awk -v incs="$tmp/incs" -v refs="$tmp/refs" '
  function folder(p) { sub(/\/.*/, "", p); return p }
  function check(from, to, how,   a, b) {
    a = folder(from); b = folder(to)
    if (a == b) return
    edges++
    if (!(a in rank)) { if (!(a in told)) print "folder " a " (" from ") is in no layer"; told[a]; bad++; return }
    if (!(b in rank)) { if (!(b in told)) print "folder " b " (" to ") is in no layer"; told[b]; bad++; return }
    if (rank[b] < rank[a]) return
    print from " " how " " to ": " a " (layer " rank[a] ") -> " b " (layer " rank[b] ")" \
          (rank[a] == rank[b] ? ", the same layer" : ", a higher layer")
    bad++
  }
  FILENAME != incs && FILENAME != refs { rank[$1] = $2; nl = $2 > nl ? $2 : nl; next }
  FILENAME == incs { check($1, $2, "includes"); next }
  FILENAME == refs { check($1, $2, "uses " $3 " of"); next }
  END {
    if (bad) { print "arch.layers: " bad " reference(s) between folders that do not point down"; exit 1 }
    print "arch.layers: " edges " references between folders of " nl " layers, all pointing down"
  }' "$tmp/layers" "$tmp/incs" "$tmp/refs"
