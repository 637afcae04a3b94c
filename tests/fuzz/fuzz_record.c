/* libFuzzer harness for the record parser (src/record/parse.c): no crash, no leak, every
 * accepted record keeps the invariants the planner relies on, and what it accepts renders to
 * text it accepts again with the same rows. Replayed on the committed corpus by the unit test
 * test_fuzz_corpus in every build. */
#include "record/record.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef MG_FUZZ_RECORD_ENTRY
#define MG_FUZZ_RECORD_ENTRY LLVMFuzzerTestOneInput
#endif

#ifndef MG_FUZZ_ASSERT
#define MG_FUZZ_ASSERT(c)                                                                          \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)
#endif

int MG_FUZZ_RECORD_ENTRY(const uint8_t *data, size_t size);

int MG_FUZZ_RECORD_ENTRY(const uint8_t *data, size_t size) {
    mg_record r, again;
    char err[600];
    if (mg_record_parse((const char *)data, size, "fuzz", &r, err, sizeof err)) {
        MG_FUZZ_ASSERT(!strncmp(err, "fuzz:", 5) && !r.rows && !r.nrows);
        return 0;
    }
    MG_FUZZ_ASSERT(r.nprocs >= 1 && r.nrows <= MG_REC_MAX_ROWS);
    for (int i = 0; i < r.nrows; i++) {
        const mg_rec_row *w = &r.rows[i];
        MG_FUZZ_ASSERT(w->p >= 1 && w->p <= r.nprocs && w->lo <= w->hi && w->calls >= 1);
        MG_FUZZ_ASSERT(w->covered <= w->calls && w->mockup <= w->covered);
        MG_FUZZ_ASSERT(w->nsizes >= 0 && w->nsizes <= MG_REC_SIZES);
        MG_FUZZ_ASSERT(w->nroots >= 0 && w->nroots <= MG_REC_ROOTS);
        for (int k = 0; k < w->nsizes; k++) /* sizeless rows (0-0) list totals as sizes */
            MG_FUZZ_ASSERT(w->sizes[k].msize >= 0 && (w->hi == 0 || (w->sizes[k].msize >= w->lo &&
                                                                     w->sizes[k].msize <= w->hi)));
        for (int k = 0; k < w->nroots; k++)
            MG_FUZZ_ASSERT(w->roots[k].root >= 0 && w->roots[k].root < w->p);
    }
    mg_rec_gap g[4];
    int n = mg_rec_top_uncovered(&r, g, 4);
    MG_FUZZ_ASSERT(n >= 0 && n <= 4);
    char *text = mg_record_render(&r);
    if (text) {
        MG_FUZZ_ASSERT(mg_record_parse(text, strlen(text), "again", &again, err, sizeof err) == 0);
        MG_FUZZ_ASSERT(again.nrows == r.nrows);
        mg_record_free(&again);
        free(text);
    }
    mg_record_free(&r);
    return 0;
}
