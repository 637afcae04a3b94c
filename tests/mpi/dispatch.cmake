# The one dispatcher (src/dispatch/dispatch.c): mpiguide_plan and mpiguide_run agree for every id of
# `mpiguide info`, defaults, mock-ups and the library algorithms discovered at run time alike
# (tests/mpi/plan_ids.c; the matrix checks the same on every case of every algorithm).
mg_mpi_test(plan_ids SOURCES mpi/plan_ids.c NPS 1 3 TIMEOUT 120)
