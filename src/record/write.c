/* Rendering a record: the inverse of parse.c (test_record renders and parses back). Header
 * lines `#@key=value`, one row per key of the library's table, a coverage summary in comment
 * lines, and `#@end=ROWS` last, so a file cut short is told from a complete one. */
#include "record.h"
#include "catalog/catalog.h"
#include "util/sbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A header value on one line: control characters (a command line may hold any) become '?'. */
static void put_header(mg_sbuf *b, const char *key, const char *val) {
    char clean[1100];
    size_t i = 0;
    for (; val[i] && i + 1 < sizeof clean; i++)
        clean[i] = (unsigned char)val[i] < 32 || val[i] == 127 ? '?' : val[i];
    clean[i] = 0;
    mg_sbuf_printf(b, "#@%s=%s\n", key, clean);
}

static void put_row(mg_sbuf *b, const mg_rec_row *w) {
    mg_sbuf_printf(b, "%s p=%d nodes=%d ppn=%d datatype=%s esize=%d op=%s bytes=%lld-%lld",
                   mg_coll_name(w->coll), w->p, w->nodes, w->ppn, w->datatype, w->esize, w->op,
                   (long long)w->lo, (long long)w->hi);
    mg_sbuf_printf(b,
                   " calls=%llu time_s=%.9g median_s=%.9g covered=%llu covered_s=%.9g mockup=%llu",
                   (unsigned long long)w->calls, w->time_s, w->median_s,
                   (unsigned long long)w->covered, w->covered_s, (unsigned long long)w->mockup);
    mg_sbuf_printf(b, " other_type=%llu b2b=%llu sizes=", (unsigned long long)w->other_type,
                   (unsigned long long)w->b2b);
    if (!w->nsizes) mg_sbuf_printf(b, "-");
    for (int i = 0; i < w->nsizes; i++) {
        const mg_rec_size *z = &w->sizes[i];
        mg_sbuf_printf(b, "%s%lld:%llu:%.9g:%llu:%.9g", i ? "," : "", (long long)z->msize,
                       (unsigned long long)z->calls, z->time_s, (unsigned long long)z->covered,
                       z->covered_s);
    }
    mg_sbuf_printf(b, " sizes_other=%llu", (unsigned long long)w->sizes_other);
    if (w->vrow) {
        mg_sbuf_printf(b, " block=%lld spread=", (long long)w->block);
        int n = 0;
        for (int t = 0; t < MG_PROBLEM_COUNT; t++)
            if (w->spread[t])
                mg_sbuf_printf(b, "%s%s:%llu", n++ ? "," : "", mg_problem_name(t),
                               (unsigned long long)w->spread[t]);
        if (!n) mg_sbuf_printf(b, "-");
    }
    if (w->rooted) {
        mg_sbuf_printf(b, " roots=");
        if (!w->nroots) mg_sbuf_printf(b, "-");
        for (int i = 0; i < w->nroots; i++)
            mg_sbuf_printf(b, "%s%d:%llu", i ? "," : "", w->roots[i].root,
                           (unsigned long long)w->roots[i].calls);
        mg_sbuf_printf(b, " roots_other=%llu rotations=%llu", (unsigned long long)w->roots_other,
                       (unsigned long long)w->rotations);
    }
    if (w->nb) mg_sbuf_printf(b, " completed=%llu", (unsigned long long)w->completed);
    mg_sbuf_printf(b, "\n");
}

static double pct(double part, double whole) {
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

char *mg_record_render(const mg_record *r) {
    mg_sbuf b = {0};
    mg_sbuf_printf(
        &b, "# mpiguide record: the collective calls of one application run (docs/record.md)\n");
    mg_sbuf_printf(&b, "#@record_version=%d\n", MG_REC_VERSION);
    put_header(&b, "mpi_library", r->mpi_library);
    mg_sbuf_printf(&b, "#@nprocs=%d\n#@nodes=%d\n#@ppn=%d\n", r->nprocs, r->nodes, r->ppn);
    put_header(&b, "hostname", r->hostname);
    put_header(&b, "date", r->date);
    put_header(&b, "mpiguide_version", r->mpiguide_version);
    put_header(&b, "command", r->command);
    if (r->mode[0]) put_header(&b, "mode", r->mode);
    if (r->profiles[0]) put_header(&b, "profiles", r->profiles);
    if (r->match[0]) put_header(&b, "match", r->match);
    mg_sbuf_printf(&b, "#@wall_s=%.9g\n#@lost_calls=%llu\n", r->wall_s,
                   (unsigned long long)r->lost_calls);
    mg_sbuf_printf(
        &b, "# COLLECTIVE p= nodes= ppn= datatype= esize= op= bytes=LO-HI calls= time_s= median_s= "
            "covered= covered_s= mockup= other_type= b2b= sizes=SIZE:CALLS:TIME_S:COVERED:"
            "COVERED_S,... sizes_other= [block= spread=TYPE:CALLS,...] [roots=ROOT:CALLS,... "
            "roots_other= rotations=] [completed=]\n");
    for (int i = 0; i < r->nrows; i++) put_row(&b, &r->rows[i]);
    mg_rec_cover c;
    mg_rec_coverage(r, -1, 0, &c);
    mg_sbuf_printf(&b,
                   "# coverage: %.1f %% of %llu calls and %.1f %% of %.6g s ran a profile entry "
                   "(%llu ran a mock-up; %llu calls of another datatype or op)\n",
                   pct((double)c.covered, (double)c.calls), (unsigned long long)c.calls,
                   pct(c.covered_s, c.time_s), c.time_s, (unsigned long long)c.mockup,
                   (unsigned long long)c.other_type);
    mg_rec_gap gap[5];
    int ng = mg_rec_top_uncovered(r, gap, 5);
    if (ng) mg_sbuf_printf(&b, "# next to tune (uncovered, most time first):\n");
    for (int i = 0; i < ng; i++) {
        if (gap[i].msize >= 0)
            mg_sbuf_printf(&b, "#   %s p=%d %lld bytes %s %s: %llu calls, %.6g s (%.1f %%)\n",
                           mg_coll_name(gap[i].coll), gap[i].p, (long long)gap[i].msize,
                           gap[i].datatype, gap[i].op, (unsigned long long)gap[i].calls,
                           gap[i].time_s, pct(gap[i].time_s, c.time_s));
        else
            mg_sbuf_printf(
                &b,
                "#   %s p=%d other sizes in %lld-%lld bytes %s %s: %llu calls, %.6g s (%.1f %%)\n",
                mg_coll_name(gap[i].coll), gap[i].p, (long long)gap[i].lo, (long long)gap[i].hi,
                gap[i].datatype, gap[i].op, (unsigned long long)gap[i].calls, gap[i].time_s,
                pct(gap[i].time_s, c.time_s));
    }
    mg_sbuf_printf(&b, "#@end=%d\n", r->nrows);
    return mg_sbuf_take(&b);
}
