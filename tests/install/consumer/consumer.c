/* A program built against an installed mpiguide package (tests/install/package_test.sh): it
 * prints the version its header states, the file libmpiguide was loaded from and what the
 * public API answers, without starting MPI. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <mpiguide.h>
#include <stdio.h>

int main(void) {
    int coll = mpiguide_collective_id("allreduce");
    int alg = mpiguide_algorithm_id(coll, "allreduce_as_reduce_bcast");
    const char *name = mpiguide_collective_name(coll);
    /* the name lies in the library's read-only data: dladdr says which file that is */
    Dl_info where;
    if (coll < 0 || alg < 0 || !name || !dladdr(name, &where) || !where.dli_fname) {
        fprintf(stderr, "consumer: allreduce / allreduce_as_reduce_bcast not found (%d, %d)\n",
                coll, alg);
        return 1;
    }
    printf("version %s\n", MPIGUIDE_VERSION);
    printf("library %s\n", where.dli_fname);
    printf("collective %s\n", name);
    printf("algorithm %s of %d\n", mpiguide_algorithm_name(alg), mpiguide_algorithm_count());
    return 0;
}
