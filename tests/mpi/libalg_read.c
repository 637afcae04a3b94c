/* Prints the value of one MPI_T control variable (argv[1]) as this process sees it, without
 * MPI_Init: tests/mpi/libalg_names.sh sets the variable by its item name in the environment and
 * compares the library's own reading with the value mpiguide discovered for that name. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int prov, idx, count = 0, v[4] = {0};
    MPI_T_cvar_handle h;
    if (argc != 2 || MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) != MPI_SUCCESS) return 2;
    if (MPI_T_cvar_get_index(argv[1], &idx) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS || count != 1 ||
        MPI_T_cvar_read(h, v) != MPI_SUCCESS) {
        printf("none\n");
        return 1;
    }
    MPI_T_cvar_handle_free(&h);
    printf("%d\n", v[0]);
    MPI_T_finalize();
    return 0;
}
