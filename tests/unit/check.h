/* Minimal checking for unit tests: CHECK names the failing case; DONE prints the closing
 * "N passed, N failed" line and returns the exit code. */
#ifndef MG_CHECK_H
#define MG_CHECK_H

#include <stdio.h>

static long check_passed, check_failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define DONE()                                                                                     \
    (printf("%ld passed, %ld failed\n", check_passed, check_failed), check_failed ? 1 : 0)

#endif
