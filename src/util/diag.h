/* The one way mpiguide talks to the user about a problem: one line on stderr,
 * `mpiguide: error: WHERE: WHAT` or `mpiguide: warning: WHERE: WHAT` (WHERE names the thing at
 * fault: FILE:LINE, option, variable; NULL leaves it out). docs/dev/interfaces.md section 3. */
#ifndef MG_DIAG_H
#define MG_DIAG_H

void mg_error(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mg_warning(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with the level chosen at run time (error 1, warning 0). */
void mg_diag(int error, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A problem a parser or loader found, handed to its caller instead of printed: error (1) or
 * warning (0), WHERE (FILE:LINE, FILE, an option) and WHAT. The one callback type every reader
 * takes, so a unit test can collect what a library run would print. */
typedef void (*mg_diag_fn)(void *ctx, int error, const char *where, const char *what);
/* The sink of a run: prints each problem as mg_diag does (ctx unused). */
void mg_diag_stderr(void *ctx, int error, const char *where, const char *what);

#endif
