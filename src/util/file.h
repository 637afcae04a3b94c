/* The one way mpiguide reads a whole file: into a NUL-terminated buffer, bounded in size,
 * failing with a reason a message can quote. MPI-free. */
#ifndef MG_FILE_H
#define MG_FILE_H

#include <stddef.h>

/* Reads `path` into a new buffer (free() it) with a NUL after the last byte; *len (may be NULL)
 * receives the byte count. A file larger than `limit` bytes is an error (EFBIG). On failure
 * returns NULL with errno set; mg_file_error() words it ("cannot open: No such file ...",
 * "larger than 1048576 bytes"). */
char *mg_file_read(const char *path, size_t limit, size_t *len);

/* Limits of the inputs: small text files (input, NREP, config), raw data. */
#define MG_TEXT_FILE_MAX ((size_t)64 << 20)
#define MG_RAW_FILE_MAX  ((size_t)1 << 40)
/* The reason for the last mg_file_read failure of this thread, from errno and the limit. */
const char *mg_file_error(int err, size_t limit, char *buf, size_t buflen);

#endif
