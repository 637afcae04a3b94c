/* Fortran entry points. Open MPI's mpif.h, `use mpi` and mpi_f08 bindings call PMPI_*
 * directly, so a C-only wrapper never sees a Fortran program. Each row of fortran.def becomes
 * one function that converts the handles with the _f2c functions and MPI_IN_PLACE /
 * MPI_BOTTOM from their Fortran addresses (as Open MPI's own bindings do), calls the C wrapper
 * and stores IERROR when present (mpi_f08 passes NULL for an absent IERROR); it is exported
 * under every name gfortran and other compilers use: mpi_x_, mpi_x, mpi_x__, MPI_X and
 * mpi_x_f08_. MPICH's Fortran bindings call MPI_* (and MPI_*_c) themselves, except that its
 * mpi_f08 MPI_Init, MPI_Init_thread, MPI_Finalize and the two info calls go to PMPI_*: those
 * are wrapped for MPICH under their mpi_f08 names. */
#include "intercept.h"
#include "probe.h"

/* The nonblocking collectives have no Fortran rows (their Fortran starts go to the MPI
 * untouched, as the Fortran waits that would complete them bypass the C wrappers too:
 * docs/interception.md): their flags start with MG_CF_NB, which probes as "not intercepted"
 * here before MG_CF_INTERCEPT can. */
#undef MG_CF_NB
#define MG_CF_NB ~, 0,

#if defined(OPEN_MPI) || defined(MPICH)

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER must be a C int");

extern __typeof__(MPI_Init) mg_c_Init __attribute__((visibility("hidden")));
extern __typeof__(MPI_Init_thread) mg_c_Init_thread __attribute__((visibility("hidden")));
extern __typeof__(MPI_Finalize) mg_c_Finalize __attribute__((visibility("hidden")));
extern __typeof__(MPI_Comm_set_info) mg_c_Comm_set_info __attribute__((visibility("hidden")));
extern __typeof__(MPI_Comm_dup_with_info) mg_c_Comm_dup_with_info
    __attribute__((visibility("hidden")));

/* One exported name for the function. */
#define MG_F_ALIAS(target, name)                                                                   \
    extern __typeof__(target) name __attribute__((alias(#target), visibility("default")));
#ifdef OPEN_MPI
#define MG_F_NAMES(target, lower, UPPER)                                                           \
    MG_F_ALIAS(target, mpi_##lower##_)                                                             \
    MG_F_ALIAS(target, mpi_##lower)                                                                \
    MG_F_ALIAS(target, mpi_##lower##__)                                                            \
    MG_F_ALIAS(target, MPI_##UPPER)                                                                \
    MG_F_ALIAS(target, mpi_##lower##_f08_)
#else /* MPICH: only its mpi_f08 binding calls PMPI_Init/Finalize/Comm_set_info directly */
#define MG_F_NAMES(target, lower, UPPER) MG_F_ALIAS(target, mpi_##lower##_f08_)
#endif

#endif

#ifdef OPEN_MPI

/* The hidden aliases of the C wrappers (wrappers.c). */
#define MG_COLL(ID, Name, sname, flags, ...)                                                       \
    MG_WHEN_INTERCEPTED(flags)                                                                     \
    (extern __typeof__(MPI_##Name) mg_c_##Name __attribute__((visibility("hidden")));)
#include "catalog/collectives.def"
#undef MG_COLL

/* Open MPI's Fortran sentinels: common blocks whose addresses mean MPI_IN_PLACE and
 * MPI_BOTTOM (weak: a missing name stays NULL and never matches). */
extern int mpi_fortran_in_place_ __attribute__((weak));
extern int mpi_fortran_in_place __attribute__((weak));
extern int mpi_fortran_in_place__ __attribute__((weak));
extern int MPI_FORTRAN_IN_PLACE __attribute__((weak));
extern int mpi_fortran_bottom_ __attribute__((weak));
extern int mpi_fortran_bottom __attribute__((weak));
extern int mpi_fortran_bottom__ __attribute__((weak));
extern int MPI_FORTRAN_BOTTOM __attribute__((weak));

static inline int is_at(const void *x, const int *sym) {
    return sym && x == (const void *)sym;
}

static inline void *mg_fbuf(void *x) {
    if (is_at(x, &mpi_fortran_in_place_) || is_at(x, &mpi_fortran_in_place) ||
        is_at(x, &mpi_fortran_in_place__) || is_at(x, &MPI_FORTRAN_IN_PLACE))
        return MPI_IN_PLACE;
    if (is_at(x, &mpi_fortran_bottom_) || is_at(x, &mpi_fortran_bottom) ||
        is_at(x, &mpi_fortran_bottom__) || is_at(x, &MPI_FORTRAN_BOTTOM))
        return MPI_BOTTOM;
    return x;
}

/* Parameter kinds: the C declaration of the Fortran argument, and its conversion. */
#define MG_F_DECL_FBUF(x)  void *x
#define MG_F_DECL_FINT(x)  MPI_Fint *x
#define MG_F_DECL_FARR(x)  MPI_Fint *x
#define MG_F_DECL_FTYPE(x) MPI_Fint *x
#define MG_F_DECL_FOP(x)   MPI_Fint *x
#define MG_F_DECL_FCOMM(x) MPI_Fint *x
#define MG_F_DECL_FINFO(x) MPI_Fint *x
#define MG_F_CONV_FBUF(x)  mg_fbuf(x)
#define MG_F_CONV_FINT(x)  (int)*x
#define MG_F_CONV_FARR(x)  (const int *)x
#define MG_F_CONV_FTYPE(x) PMPI_Type_f2c(*x)
#define MG_F_CONV_FOP(x)   PMPI_Op_f2c(*x)
#define MG_F_CONV_FCOMM(x) PMPI_Comm_f2c(*x)
#define MG_F_CONV_FINFO(x) PMPI_Info_f2c(*x)
#define MG_F_DECL(k)       MG_CAT_(MG_F_DECL_, k)
#define MG_F_CONV(k)       MG_CAT_(MG_F_CONV_, k)

/* MG_F_MAP(m, a, b, ...) = m(a), m(b), ... for up to 9 items. */
#define MG_F_UNPAREN(...)                                   __VA_ARGS__
#define MG_F_N_(_1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) N
#define MG_F_N(...)                                         MG_F_N_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define MG_F_MAP(m, ...)                                    MG_CAT(MG_F_MAP_, MG_F_N(__VA_ARGS__))(m, __VA_ARGS__)
#define MG_F_MAP_1(m, a)                                    m(a)
#define MG_F_MAP_2(m, a, ...)                               m(a), MG_F_MAP_1(m, __VA_ARGS__)
#define MG_F_MAP_3(m, a, ...)                               m(a), MG_F_MAP_2(m, __VA_ARGS__)
#define MG_F_MAP_4(m, a, ...)                               m(a), MG_F_MAP_3(m, __VA_ARGS__)
#define MG_F_MAP_5(m, a, ...)                               m(a), MG_F_MAP_4(m, __VA_ARGS__)
#define MG_F_MAP_6(m, a, ...)                               m(a), MG_F_MAP_5(m, __VA_ARGS__)
#define MG_F_MAP_7(m, a, ...)                               m(a), MG_F_MAP_6(m, __VA_ARGS__)
#define MG_F_MAP_8(m, a, ...)                               m(a), MG_F_MAP_7(m, __VA_ARGS__)
#define MG_F_MAP_9(m, a, ...)                               m(a), MG_F_MAP_8(m, __VA_ARGS__)

#define MG_FORT(Name, lower, UPPER, PARAMS)                                                        \
    static void mg_f_##lower(MG_F_MAP(MG_F_DECL, MG_F_UNPAREN PARAMS), MPI_Fint *ierr) {           \
        int rc = mg_c_##Name(MG_F_MAP(MG_F_CONV, MG_F_UNPAREN PARAMS));                            \
        if (ierr) *ierr = (MPI_Fint)rc;                                                            \
    }                                                                                              \
    MG_F_NAMES(mg_f_##lower, lower, UPPER)
#include "fortran.def"
#undef MG_FORT

/* Every intercepted collective must have its Fortran row (a missing one fails to compile). */
#define MG_COLL(ID, Name, sname, flags, ...)                                                       \
    MG_WHEN_INTERCEPTED(flags)((void (*)(void))mg_f_##sname, )
static void (*const fortran_rows[])(void) __attribute__((unused)) = {
#include "catalog/collectives.def"
};
#undef MG_COLL

#endif

#if defined(OPEN_MPI) || defined(MPICH)
/* MPI_Init and friends: as the MPI's own Fortran bindings, with no command line. */
static void mg_f_init(MPI_Fint *ierr) {
    int argc = 0;
    char **argv = NULL;
    int rc = mg_c_Init(&argc, &argv);
    if (ierr) *ierr = (MPI_Fint)rc;
}
MG_F_NAMES(mg_f_init, init, INIT)

static void mg_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) {
    int argc = 0, prov = MPI_THREAD_SINGLE;
    char **argv = NULL;
    int rc = mg_c_Init_thread(&argc, &argv, (int)*required, &prov);
    if (rc == MPI_SUCCESS) *provided = (MPI_Fint)prov;
    if (ierr) *ierr = (MPI_Fint)rc;
}
MG_F_NAMES(mg_f_init_thread, init_thread, INIT_THREAD)

static void mg_f_finalize(MPI_Fint *ierr) {
    int rc = mg_c_Finalize();
    if (ierr) *ierr = (MPI_Fint)rc;
}
MG_F_NAMES(mg_f_finalize, finalize, FINALIZE)

static void mg_f_comm_set_info(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *ierr) {
    int rc = mg_c_Comm_set_info(PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info));
    if (ierr) *ierr = (MPI_Fint)rc;
}
MG_F_NAMES(mg_f_comm_set_info, comm_set_info, COMM_SET_INFO)

static void mg_f_comm_dup_with_info(MPI_Fint *comm, MPI_Fint *info, MPI_Fint *newcomm,
                                    MPI_Fint *ierr) {
    MPI_Comm c = MPI_COMM_NULL;
    int rc = mg_c_Comm_dup_with_info(PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &c);
    if (rc == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
    if (ierr) *ierr = (MPI_Fint)rc;
}
MG_F_NAMES(mg_f_comm_dup_with_info, comm_dup_with_info, COMM_DUP_WITH_INFO)

#endif
