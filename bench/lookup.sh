#!/usr/bin/env bash
# Selection lookup micro-benchmark: per-call selection with a profile of 10,000
# ranges, no MPI. Prints ns per selection (target: at most 50) next to a linear scan.
# Usage: bench/lookup.sh [CC]   (default cc)
set -euo pipefail
cd "$(dirname "$0")/.."
cc=${1:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cc" -O2 -std=gnu17 -Isrc -Iinclude -o "$tmp/lookup" bench/lookup.c src/profile/seltab.c \
  src/profile/parse.c src/profile/load.c src/catalog/catalog.c src/util/file.c src/algid/algid.c
"$tmp/lookup"
