/* One-line diagnostics in the INTERFACES.md section 3 format:
 * `mpiguide: error: WHERE: WHAT` and `mpiguide: warning: WHERE: WHAT` on stderr. */
#ifndef MG_DIAG_H
#define MG_DIAG_H

void mg_error(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mg_warning(const char *where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
