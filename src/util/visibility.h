/* The one mark of what libmpiguide exports (the MPI_* wrappers and the mpiguide_* API;
 * cmake/libmpiguide.map hides everything else). */
#ifndef MG_EXPORT_H
#define MG_EXPORT_H

#define MG_EXPORT __attribute__((visibility("default")))

#endif
