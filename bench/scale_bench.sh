# shellcheck shell=bash disable=SC2034
# Sourced by bench/scale.sh and bench/own_code.sh: the one `mpiguide bench` launch both measure
# as the job grows, so that the two scripts time the same work. Sets scale_bench_args from the
# environment (CALLS, ALGS, SIZES, NREP; defaults: docs/at-scale.md) and nrep.
calls=${CALLS:-MPI_Allreduce,MPI_Bcast}
algs=${ALGS:-default,allreduce_as_reduce_bcast,bcast_as_scatter_allgather}
sizes=${SIZES:-8,1024}
nrep=${NREP:-10}
scale_bench_args=(bench --calls-list="$calls" --algs="$algs" --msizes-list="$sizes" --nrep="$nrep"
  --proc-sync=window --fitpoints=2 --exchanges=2 --quiet)
