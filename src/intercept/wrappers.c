/* The MPI_* entry points of libmpiguide: one wrapper per MG_CF_INTERCEPT row of
 * collectives.def, generated here (nobody writes a collective wrapper by hand), plus
 * MPI_Init, MPI_Init_thread, MPI_Finalize and the two calls that carry the opt-out info key.
 * Everything else (nonblocking and persistent collectives too) goes to the MPI untouched. */
#include "intercept.h"
#include "probe.h"
#include "libalg/libalg_mpi.h"

/* The wrapper of MPI_<Name>: its fast half (switched off: straight to PMPI; it touches no
 * argument register, so pass-through stays exact even under the other MPI, whose handles may
 * be wider than ours), the repeat of the last default call on the communicator (mg_fast_*, a
 * leaf without a stack frame), its slow half (online mode's repeats on a countdown, then the
 * inline decision; the default is a
 * tail call with the caller's own arguments), the rest (mock-up, fallbacks, opt-out, threads)
 * out of line, and a hidden alias mg_c_<Name> for the
 * Fortran entry points (which must not go through the dynamic symbol of another tool). */
#define MG_UNPAREN(...) __VA_ARGS__
#define MG_WRAPPER(ID, Name, PARAMS, ARGS, FILL)                                                   \
    static MG_SLOW int mg_more_##Name(int alg, int tuned, int64_t msize, MG_UNPAREN PARAMS) {      \
        mg_args a = mg_fill FILL;                                                                  \
        return mg_intercept_more(MPIGUIDE_COLL_##ID, alg, tuned, msize, &a);                       \
    }                                                                                              \
    static MG_SLOW int mg_slow_##Name PARAMS {                                                     \
        if (__builtin_expect(mg_general == MG_GENERAL_ONLINE, 0)) {                                \
            mg_args o = mg_fill FILL;                                                              \
            if (mg_repeat_online(MPIGUIDE_COLL_##ID, &o)) return PMPI_##Name ARGS;                 \
        }                                                                                          \
        int64_t msize = 0;                                                                         \
        int tuned = 0;                                                                             \
        int alg = mg_decide(MPIGUIDE_COLL_##ID, mg_fill FILL, &msize, &tuned);                     \
        if (__builtin_expect(alg == MG_DEFAULT, 1)) {                                              \
            MG_TEST_DEFAULT_ROUTE(MPIGUIDE_COLL_##ID);                                             \
            return PMPI_##Name ARGS;                                                               \
        }                                                                                          \
        return mg_more_##Name(alg, tuned, msize, MG_UNPAREN ARGS);                                 \
    }                                                                                              \
    static MG_SLOW int mg_fast_##Name PARAMS {                                                     \
        mg_args a = mg_fill FILL;                                                                  \
        if (__builtin_expect(mg_repeat(MPIGUIDE_COLL_##ID, &a), 1)) return PMPI_##Name ARGS;       \
        return mg_slow_##Name ARGS;                                                                \
    }                                                                                              \
    MG_EXPORT int MPI_##Name PARAMS {                                                              \
        if (__builtin_expect(mg_on[MPIGUIDE_COLL_##ID], 0)) return mg_fast_##Name ARGS;            \
        return PMPI_##Name ARGS;                                                                   \
    }                                                                                              \
    extern __typeof__(MPI_##Name) mg_c_##Name                                                      \
        __attribute__((alias("MPI_" #Name), visibility("hidden")));

#define MG_COLL(ID, Name, sname, flags, PARAMS, ARGS, FILL, DEFAULT_CALL)                          \
    MG_WHEN_INTERCEPTED(flags)(MG_WRAPPER(ID, Name, PARAMS, ARGS, FILL))
#include "catalog/collectives.def"
#undef MG_COLL

MG_EXPORT int MPI_Init(int *argc, char ***argv) {
    mg_libalg_preinit(MPI_THREAD_SINGLE);
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) mg_intercept_start(argc ? *argc : 0, argv ? *argv : NULL);
    return rc;
}

MG_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    mg_libalg_preinit(required);
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) mg_intercept_start(argc ? *argc : 0, argv ? *argv : NULL);
    return rc;
}

MG_EXPORT int MPI_Finalize(void) {
    mg_intercept_stop();
    return PMPI_Finalize();
}

/* Opt-out: `mpiguide_off=true` in the info of MPI_Comm_set_info (absent: unchanged) or of
 * MPI_Comm_dup_with_info (absent: not opted out, as the duplicate takes only the new hints). */
static MG_SLOW int set_info_slow(MPI_Comm comm, MPI_Info info) {
    int rc = PMPI_Comm_set_info(comm, info);
    if (rc == MPI_SUCCESS) mg_comm_set_off(comm, mg_info_off(info));
    return rc;
}

MG_EXPORT int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    if (mg_rt.usable && !mg_rt.s.off) return set_info_slow(comm, info);
    return PMPI_Comm_set_info(comm, info);
}

static MG_SLOW int dup_with_info_slow(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
    if (rc == MPI_SUCCESS) mg_comm_set_off(*newcomm, mg_info_off(info) > 0);
    return rc;
}

MG_EXPORT int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    if (mg_rt.usable && !mg_rt.s.off) return dup_with_info_slow(comm, info, newcomm);
    return PMPI_Comm_dup_with_info(comm, info, newcomm);
}

extern __typeof__(MPI_Init) mg_c_Init __attribute__((alias("MPI_Init"), visibility("hidden")));
extern __typeof__(MPI_Init_thread) mg_c_Init_thread
    __attribute__((alias("MPI_Init_thread"), visibility("hidden")));
extern __typeof__(MPI_Finalize) mg_c_Finalize
    __attribute__((alias("MPI_Finalize"), visibility("hidden")));
extern __typeof__(MPI_Comm_set_info) mg_c_Comm_set_info
    __attribute__((alias("MPI_Comm_set_info"), visibility("hidden")));
extern __typeof__(MPI_Comm_dup_with_info) mg_c_Comm_dup_with_info
    __attribute__((alias("MPI_Comm_dup_with_info"), visibility("hidden")));
