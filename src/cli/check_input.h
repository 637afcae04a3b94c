/* The checker's input file (docs/dev/interfaces.md section 7): one collective per line followed by
 * benchmark options, `#` comments, a trailing backslash continues the line. Pure. */
#ifndef MG_INPUT_H
#define MG_INPUT_H

#include <stddef.h>

typedef struct mg_input_line {
    int lineno; /* line of the file where the entry starts */
    char *call; /* first word, e.g. "MPI_Bcast" */
    int argc;   /* options after the call */
    char **argv;
} mg_input_line;

typedef struct mg_input {
    int n;
    mg_input_line *lines;
} mg_input;

/* Parses text; returns 0, or -1 with "FILE:LINE: problem" in err. */
int mg_input_parse(const char *text, const char *fname, mg_input *in, char *err, size_t errlen);
void mg_input_free(mg_input *in);

#endif
