/* The analysis pipeline: mg_analysis_run reads the headers and runs the steps in order (group,
 * set aside disturbed launches, fill the cells, pattern tests, decide, guideline checks, tuned
 * results, validate, missing data); each step is a file of its own and none calls back here.
 * Launches are merged as PGMPI does: one median per launch and size,
 * and the reported median is the median of those. A mock-up is tested against the default in
 * every launch separately and the largest of those p-values is its p-value (an
 * intersection-union test: it is significant only when it is in every launch, so a difference
 * that comes and goes between launches is not reported); then all pattern tests of the check
 * are corrected together (Holm by default). docs/check.md explains each rule. */
#include "util/format.h"
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nodes and ranks per node of the communicator of size q in `#@comm_layout=Q:NxM,...`. */
static int comm_layout(const char *v, int q, char *nodes, char *ppn, size_t n) {
    for (const char *s = v; s && *s; s = strchr(s, ','), s = s ? s + 1 : NULL) {
        int qq, nn, pp;
        if (sscanf(s, "%d:%dx%d", &qq, &nn, &pp) == 3 && qq == q) {
            snprintf(nodes, n, "%d", nn);
            snprintf(ppn, n, "%d", pp);
            return 1;
        }
    }
    return 0;
}

/* File stems and labels, the communicator's layout. */
static void name_results(mg_analysis *a) {
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        int several = 0;
        c->several = 0;
        for (int k = 0; k < a->ncolls; k++) {
            several |= k != ci && a->colls[k].name == c->name;
            c->several |= k != ci && a->colls[k].name == c->name && a->colls[k].p_key == c->p_key;
        }
        char types[160];
        mg_coll_type_suffix(a, c, types, sizeof types);
        if (several)
            snprintf(c->stem, sizeof c->stem, "%s_p%d%s", mg_name(a, c->name), c->nprocs, types);
        else
            snprintf(c->stem, sizeof c->stem, "%s", mg_name(a, c->name));
        const char *layout = mg_dataset_file_header(a->ds, c->file, "comm_layout");
        if (!comm_layout(layout, c->nprocs, c->nodes, c->ppn, sizeof c->nodes)) {
            snprintf(c->nodes, sizeof c->nodes, "%s", a->nodes);
            snprintf(c->ppn, sizeof c->ppn, "%s", a->ppn);
        }
    }
}

static void header(const mg_analysis *a, const char *key, char *dst, size_t n) {
    const char *v = NULL;
    for (int l = 0; l < a->nlaunches && !v; l++) v = mg_dataset_header(a->ds, a->launches[l], key);
    snprintf(dst, n, "%s", v ? v : "");
}

int mg_analysis_run(mg_analysis *a, mg_dataset *ds, const mg_analyze_opts *o) {
    memset(a, 0, sizeof *a);
    a->ds = ds;
    a->opts = *o;
    a->barrier = NAN;
    mg_dataset_sort(ds);
    a->launches = malloc((size_t)(ds->nlaunches ? ds->nlaunches : 1) * sizeof *a->launches);
    if (!a->launches) return -1;
    for (int l = 0; l < ds->nlaunches; l++) {
        if (ds->launches[l].tuned)
            a->ntuned++;
        else
            a->launches[a->nlaunches++] = l;
    }
    header(a, "nodes", a->nodes, sizeof a->nodes);
    header(a, "ppn", a->ppn, sizeof a->ppn);
    header(a, "nprocs", a->nprocs, sizeof a->nprocs);
    header(a, "mpi_library", a->library, sizeof a->library);
    header(a, "date", a->date, sizeof a->date);
    header(a, "datatype", a->datatype, sizeof a->datatype);
    header(a, "operation", a->operation, sizeof a->operation);
    /* more ranks than cores in any launch, check or validation, makes every timing suspect */
    for (int l = 0; l < ds->nlaunches; l++) {
        const char *v = mg_dataset_header(ds, l, "oversubscribed");
        if (!v || atoi(v) <= 0) continue;
        const char *r = mg_dataset_header(ds, l, "node_ranks"),
                   *c = mg_dataset_header(ds, l, "node_cores"),
                   *b = mg_dataset_header(ds, l, "busy_poll");
        if (!a->oversub ||
            (r && atoi(r) - (c ? atoi(c) : 0) > a->oversub_ranks - a->oversub_cores)) {
            a->oversub_ranks = r ? atoi(r) : 0;
            a->oversub_cores = c ? atoi(c) : 0;
        }
        a->oversub = 1;
        a->busy_poll |= b && atoi(b) > 0;
    }

    /* other processes on the cores in any launch: every timing of it is suspect too */
    for (int l = 0; l < ds->nlaunches; l++) {
        const char *v = mg_dataset_header(ds, l, "busy");
        if (!v || atoi(v) <= 0) continue;
        const char *r = mg_dataset_header(ds, l, "busy_switches_per_s"),
                   *c = mg_dataset_header(ds, l, "busy_cpu_share");
        double rate = r ? atof(r) : 0.0, share = c ? atof(c) : 1.0;
        if (!a->busy || rate > a->busy_switches) a->busy_switches = rate;
        if (!a->busy || share < a->busy_share) a->busy_share = share;
        a->busy = 1;
    }

    /* MPI_Barrier: the synchronisation noise the barrier warning compares against */
    int barrier_name = mg_dataset_find_name(ds, MG_BARRIER_NOISE);
    int def = mg_dataset_find_name(ds, "default");
    int have_barrier = 0;
    if (barrier_name >= 0 && def >= 0) {
        double lm[256];
        int k = 0;
        for (size_t i = 0; i < ds->nseries && k < 256; i++) {
            const mg_series *s = &ds->series[i];
            if (s->coll == barrier_name && s->alg == def && s->n && !ds->launches[s->launch].tuned)
                lm[k++] = mg_an_median_sorted(s->v, s->n);
        }
        a->barrier = mg_an_median_of(lm, k);
        have_barrier = k > 0;
    }
    if (mg_an_group(a, barrier_name)) return -1;
    mg_an_set_aside(a);
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        /* processes of this collective: the header of a launch that measured it */
        for (int pi = 0; pi < c->npoints && !c->nprocs; pi++)
            for (int k = 0; k < c->points[pi].ncells && !c->nprocs; k++)
                for (int l = 0; l < a->nlaunches && !c->nprocs; l++)
                    if (c->points[pi].cells[k].series[l]) {
                        const char *v = mg_dataset_header(ds, a->launches[l], "nprocs");
                        if (v) c->nprocs = atoi(v);
                    }
        for (int pi = 0; pi < c->npoints; pi++)
            for (int k = 0; k < c->points[pi].ncells; k++)
                if (mg_an_fill_cell(a, &c->points[pi].cells[k])) return -1;
    }
    name_results(a);
    if (mg_an_pattern_checks(a)) return -1;
    mg_an_decide(a);
    if (mg_an_guideline_checks(a)) return -1;
    mg_an_tuned_results(a);
    mg_an_validate(a);
    mg_an_find_missing(a, have_barrier);
    return 0;
}

void mg_analysis_free(mg_analysis *a) {
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        for (int pi = 0; pi < c->npoints; pi++) {
            for (int k = 0; k < c->points[pi].ncells; k++) free(c->points[pi].cells[k].series);
            free(c->points[pi].cells);
        }
        free(c->points);
        free(c->mono);
        free(c->split);
    }
    free(a->colls);
    free(a->launches);
    for (int i = 0; i < a->nmissing; i++) free(a->missing[i]);
    free(a->missing);
    for (int i = 0; i < a->ndisturbed; i++) free(a->disturbed[i]);
    free(a->disturbed);
    for (int i = 0; i < a->nsyncnotes; i++) free(a->syncnotes[i]);
    free(a->syncnotes);
    memset(a, 0, sizeof *a);
}
