# The cluster workflow under a real Slurm scheduler (label `slurm`): tests/slurm/slurm_e2e.sh
# starts a private one-node cluster with scripts/slurm-local.sh, submits examples/tune.slurm at
# 2 tasks through srun (--mpi=pmix for Open MPI, --mpi=pmi2 for MPICH), checks its data,
# profiles and report, runs a tuned program through srun, and stops the cluster. Exit 77 means
# the daemons cannot be started on this machine: ctest shows it as skipped, never as passed
# (and with MPIGUIDE_REQUIRE_SLURM=1 the driver fails instead). Included by tests/CMakeLists.txt.
if(TARGET mpiguide_testalgs_cli AND TARGET intercept_app)
  add_test(NAME slurm.tune.np2
    COMMAND timeout 900 bash ${CMAKE_CURRENT_SOURCE_DIR}/slurm/slurm_e2e.sh ${MPIGUIDE_MPI}
            $<TARGET_FILE:mpiguide_testalgs_cli> $<TARGET_FILE:mpiguide> $<TARGET_FILE:intercept_app>
            ${CMAKE_CURRENT_BINARY_DIR}/slurm_e2e ${CMAKE_SOURCE_DIR})
  # The job takes both cores of a small machine: nothing else runs beside it.
  set_tests_properties(slurm.tune.np2 PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 RUN_SERIAL TRUE
    ENVIRONMENT "${MG_MPI_ENV}")
endif()
