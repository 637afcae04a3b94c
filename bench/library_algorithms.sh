#!/usr/bin/env bash
# Library algorithms next to the default and the mock-ups: one `mpiguide bench` run per
# (MPI, p) measures, for every intercepted collective at 8 B, 1 KiB, 64 KiB and 1 MiB, the
# default, every library algorithm (`*_lib_*`) and every mock-up, side by side in batches of 10
# (--interleave, on the same buffers), the sizes in shuffled order, and prints per (collective, size) the median of the default, the best library
# algorithm and the best candidate of all, with default / best-library and default /
# best-of-all. Ratios above 1: the library's own default leaves time on the table. Medians of
# one run side by side, never an assertion.
# Usage: bench/library_algorithms.sh [BUILD_DIR...] [-- NPS]
#   (default build/openmpi build/mpich, each if it exists; NPS "2 4")
#   NREP (default 40) and TIME_MS (default 150) bound each measurement; OUT=dir keeps the raw
#   rows and summaries there.
set -euo pipefail
cd "$(dirname "$0")/.."
builds=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do builds+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
nps=${*:-2 4}
if [ ${#builds[@]} -eq 0 ]; then
  for b in build/openmpi build/mpich; do [ -d "$b" ] && builds+=("$b"); done
fi
[ ${#builds[@]} -gt 0 ] || { echo "library_algorithms.sh: no build directory" >&2; exit 2; }
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export HYDRA_LAUNCHER=fork MPIGUIDE_PROGRESS=off
calls=MPI_Allgather,MPI_Allreduce,MPI_Alltoall,MPI_Bcast,MPI_Gather,MPI_Reduce
calls=$calls,MPI_Reduce_scatter_block,MPI_Reduce_scatter,MPI_Scan,MPI_Scatter,MPI_Gatherv,MPI_Scatterv
for build in "${builds[@]}"; do
  launcher=$(sed -n 's/^MPIEXEC_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
  mpi=$(sed -n 's/^MPIGUIDE_MPI:[A-Z]*=//p' "$build/CMakeCache.txt")
  [ -n "$mpi" ] || mpi=$(basename "$build")
  for np in $nps; do
    tag=$(basename "$build")-np$np
    echo "=== $mpi, p = $np ==="
    timeout 1800 "$launcher" -n "$np" "$build/bin/mpiguide" bench --calls-list=$calls \
      --algs=all --msizes-list=8,1024,65536,1048576 --datatype=MPI_INT --op=MPI_SUM \
      --nrep="${NREP:-40}" --rt-bench-time-ms="${TIME_MS:-150}" --shuffle --interleave=10 --seed=9 \
      --summary=median --output-file="$out/$tag.dat" >"$out/$tag.summary" 2>"$out/$tag.err" || {
      echo "bench failed ($out/$tag.err):"; tail -5 "$out/$tag.err"; exit 1; }
    # rows: test alg msize n median lo hi
    awk '
      /^#/ || NF < 5 { next }
      {
        k = $1 " " $3
        if (!(k in seen)) { seen[k] = 1; key[n++] = k }
        if ($2 == "default") def[k] = $5
        else {
          if (!(k in all) || $5 < all[k]) { all[k] = $5; alln[k] = $2 }
          if ($2 ~ /_lib_/ && (!(k in lib) || $5 < lib[k])) { lib[k] = $5; libn[k] = $2 }
        }
      }
      function us(x) { return sprintf("%.1f", x * 1e6) }
      END {
        for (i = 0; i < n; i++) {
          k = key[i]; split(k, f, " ")
          if (!(k in def)) continue
          l = (k in lib) ? lib[k] : 0; b = (k in all) ? all[k] : 0
          printf "%-26s %8s %10s %10s %-44s %8s %10s %-44s %8s\n", f[1], f[2], us(def[k]),
                 l ? us(l) : "-", l ? libn[k] : "-", l ? sprintf("%.2f", def[k] / l) : "-",
                 b ? us(b) : "-", b ? alln[k] : "-", b ? sprintf("%.2f", def[k] / b) : "-"
        }
      }' "$out/$tag.summary" | sort -k1,1 -k2,2n >"$out/$tag.rows"
    { printf "%-26s %8s %10s %10s %-44s %8s %10s %-44s %8s\n" collective size default_us lib_us \
        "best library algorithm" def/lib best_us "best of all" def/best
      cat "$out/$tag.rows"; } | tee "$out/$tag.table"
    echo
  done
done
echo "raw rows, summaries and tables: $out"
