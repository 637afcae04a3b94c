/* Force-included into every source of the SMPI build, after smpicc's own smpi_helpers.h
 * (cmake/smpi.cmake). That header turns exit() into smpi_exit(), which ends a simulated rank
 * but crashes a program that is not simulated: the tool runs by itself too (tune, analyze,
 * info), and its exit() is the C library's in both cases. Its other renames (sleep, getpid,
 * clock reads) fall back to the C library outside a simulation and stay. */
#undef exit
