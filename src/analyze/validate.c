/* The validation decides (docs/check.md "Validation"): `tune` measures the tuned library
 * against the default, interleaved, in fresh launches (OUTDIR/tuned/launch-K/). A candidate
 * profile entry is kept only when tuned is faster than the default in every validation launch
 * with the same test as the check (the largest launch p-value counts), corrected over all
 * entries with the check's correction, faster in every launch by the launch's speed-up (default
 * / tuned paired by the interleaving's rounds, launch_ratio), at least
 * min_gain / 2 faster in the slowest launch, and min_gain faster over the launches (the
 * check's own bar: what is kept still saves something worth having when measured again). Otherwise
 * the entry leaves the profile and the summary and the report list it as rejected by validation,
 * with its numbers. Sizes without an entry run the library's own collective through the
 * interception: their rows are a no-regression check (tuned and default expected equal). Pure: no
 * MPI. */
#include "util/format.h"
#include "model.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A no-entry row is reported as slower below this speed-up (the tuned table's 5 %). */
#define NOENTRY_SLOW 0.95

/* Rounds of interleaved batches a launch needs before their pairing gives its speed-up. */
#define MIN_ROUNDS 5

/* The batch of an interleaved raw file (#@interleave=B, B as bench accepts it); 0 when the file
 * was not interleaved or says something else. */
static long long batch_of(const mg_dataset *ds, int file) {
    const char *b = mg_dataset_file_header(ds, file, "interleave");
    char *end;
    long long v = b ? strtoll(b, &end, 10) : 0;
    return b && end != b && !*end && v >= 1 && v <= 1000000 ? v : 0;
}

/* A launch's speed-up default / tuned: the median over the interleaving's rounds of the ratio
 * of the two batches' medians (docs/check.md "Validation" says why), or, in a launch that was
 * not interleaved (alike) or ran fewer than MIN_ROUNDS rounds, the ratio of the two medians. */
static double launch_ratio(const mg_dataset *ds, const mg_series *sd, const mg_series *st) {
    long long batch = batch_of(ds, st->file);
    double r;
    if (batch && batch == batch_of(ds, sd->file) &&
        mg_paired_batch_ratio(sd->seq, sd->nseq, st->seq, st->nseq, batch, &r) >= MIN_ROUNDS)
        return r;
    return mg_an_median_sorted(sd->v, sd->n) / mg_an_median_sorted(st->v, st->n);
}

/* Per validation launch: tested, the speed-up default / tuned (launch_ratio), the p-value of
 * "tuned faster"; the launch-wise summary goes into pt. has[l * nnames + coll] says whether
 * launch l measured the collective at all. */
static void measure_point(mg_analysis *a, const unsigned char *has, const mg_coll_result *c,
                          mg_point *pt, int def, int tuned) {
    int coll = c->name;
    const mg_dataset *ds = a->ds;
    double r[64];
    int k = 0;
    pt->val_launches = pt->val_expected = pt->val_faster = pt->val_set_aside = 0;
    pt->val_p = pt->val_p_adj = pt->val_speedup = pt->val_speedup_min = NAN;
    for (int l = 0; l < ds->nlaunches; l++) {
        if (!ds->launches[l].tuned || !has[(size_t)l * (size_t)ds->nnames + (size_t)coll]) continue;
        const mg_series *sd =
            mg_dataset_find_series(ds, coll, def, l, pt->msize, c->p_key, c->variant);
        const mg_series *st =
            mg_dataset_find_series(ds, coll, tuned, l, pt->msize, c->p_key, c->variant);
        double dmed = mg_an_series_median(sd);
        if (mg_an_val_aside(a, c, pt, l)) { /* disturbed.c */
            pt->val_set_aside++;
            char sz[32];
            mg_an_note_disturbed(a,
                                 "%s %s: %s set aside (the default's median %.1fx its median "
                                 "in the check)",
                                 mg_name(a, coll), mg_fmt_size(sz, sizeof sz, pt->msize),
                                 ds->launches[l].path, dmed / pt->cells[pt->def].median);
            continue;
        }
        pt->val_expected++;
        double stat, p;
        if (!sd || !st || sd->n < 2 || st->n < 2 ||
            mg_an_test_series(a->opts.test, st, sd, &stat, &p))
            continue;
        pt->val_launches++;
        double ratio = launch_ratio(a->ds, sd, st);
        pt->val_faster += ratio > 1;
        if (k < 64) r[k++] = ratio;
        if (isnan(pt->val_p) || p > pt->val_p) pt->val_p = p;
        if (isnan(pt->val_speedup_min) || ratio < pt->val_speedup_min) pt->val_speedup_min = ratio;
    }
    pt->val_speedup = mg_an_median_of(r, k);
}

/* The entry points of a collective: its profile's sizes (a v-collective's one choice covers
 * every checked size); cand[pi] gets the cell index of the chosen mock-up, -1 for none. */
static void entries(const mg_analysis *a, const mg_coll_result *c, int *cand) {
    int vchoice = mg_is_sizeless(mg_name(a, c->name)) ? mg_an_v_choice(a, c) : -2;
    for (int pi = 0; pi < c->npoints; pi++) {
        const mg_point *pt = &c->points[pi];
        cand[pi] = -1;
        if (vchoice == -2) {
            cand[pi] = pt->profile;
        } else if (vchoice >= 0 && (pt->checked || pt->lib_checked)) {
            for (int k = 0; k < pt->ncells; k++)
                if (pt->cells[k].alg == vchoice) cand[pi] = k;
        }
    }
}

/* Enough validation launches left after setting disturbed ones aside: two (at least two fresh
 * launches judge an entry, docs/check.md), or all there were when none was set aside. */
static int enough(const mg_point *pt) {
    return pt->val_expected > 0 && (pt->val_set_aside == 0 || pt->val_launches >= 2);
}

static int kept(const mg_analysis *a, const mg_point *pt) {
    return enough(pt) && pt->val_launches == pt->val_expected &&
           pt->val_faster == pt->val_launches && pt->val_p_adj < a->opts.alpha &&
           pt->val_speedup_min >= a->val_min_speedup && pt->val_speedup >= a->val_gain_speedup;
}

void mg_an_validate(mg_analysis *a) {
    const mg_dataset *ds = a->ds;
    a->val_min_speedup = 1.0 / (1.0 - a->opts.min_gain / 2.0);
    a->val_gain_speedup = 1.0 / (1.0 - a->opts.min_gain);
    for (int ci = 0; ci < a->ncolls; ci++)
        for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
            mg_point *pt = &a->colls[ci].points[pi];
            pt->candidate = pt->profile;
            pt->val = MG_VAL_NONE;
            pt->val_p = pt->val_p_adj = pt->val_speedup = pt->val_speedup_min = NAN;
        }
    int def = mg_dataset_find_name(ds, "default"), tuned = mg_dataset_find_name(ds, "tuned");
    if (!a->ntuned) return; /* nothing validated: the candidates stand */
    unsigned char *has = calloc((size_t)ds->nlaunches * (size_t)ds->nnames, 1);
    int npts = 0;
    for (int ci = 0; ci < a->ncolls; ci++)
        if (a->colls[ci].npoints > npts) npts = a->colls[ci].npoints;
    int *cand = malloc((size_t)(npts ? npts : 1) * sizeof *cand);
    double *p = malloc(sizeof(double) * (size_t)(a->ncolls * npts + 1));
    if (!has || !cand || !p) { /* out of memory: nothing can be validated, so nothing is kept */
        for (int ci = 0; ci < a->ncolls; ci++)
            for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
                mg_point *pt = &a->colls[ci].points[pi];
                if (pt->profile >= 0) pt->val = MG_VAL_REJECTED, pt->profile = -1;
            }
        goto out;
    }
    for (size_t i = 0; i < ds->nseries; i++)
        if (ds->launches[ds->series[i].launch].tuned)
            has[(size_t)ds->series[i].launch * (size_t)ds->nnames + (size_t)ds->series[i].coll] = 1;

    /* every row measured; the entries' p-values form one family */
    int np = 0;
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        entries(a, c, cand);
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (def >= 0 && tuned >= 0) measure_point(a, has, c, pt, def, tuned);
            pt->candidate = cand[pi];
            pt->val = cand[pi] >= 0 ? MG_VAL_REJECTED : MG_VAL_NOENTRY;
            if (cand[pi] >= 0) p[np++] = pt->val_p;
        }
    }
    a->nval_tests = 0;
    for (int i = 0; i < np; i++) a->nval_tests += !isnan(p[i]);
    if (np && mg_p_adjust(p, (size_t)np, a->opts.correction, p)) np = -1;
    int at = 0;
    for (int ci = 0; ci < a->ncolls; ci++) {
        mg_coll_result *c = &a->colls[ci];
        int any_rejected = 0;
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->candidate < 0) {
                if (isnan(pt->val_speedup)) continue;
                a->nnoentry++;
                a->nnoentry_slow += pt->val_speedup < NOENTRY_SLOW;
                continue;
            }
            pt->val_p_adj = np < 0 ? NAN : p[at++];
            if (np >= 0 && kept(a, pt))
                pt->val = MG_VAL_KEPT;
            else
                any_rejected = 1;
        }
        /* a v-collective's profile is one range for every size: one failure removes it */
        int vcoll = mg_is_sizeless(mg_name(a, c->name));
        for (int pi = 0; pi < c->npoints; pi++) {
            mg_point *pt = &c->points[pi];
            if (pt->candidate < 0) continue;
            if (vcoll && any_rejected) pt->val = MG_VAL_REJECTED;
            if (pt->val == MG_VAL_REJECTED) pt->profile = -1;
            a->nkept += pt->val == MG_VAL_KEPT;
            a->nrejected += pt->val == MG_VAL_REJECTED;
        }
    }
out:
    free(has);
    free(cand);
    free(p);
}

/* "rejected: Vx < Bx WHERE" with as many digits as tell the speed-up v from the bar b apart
 * (1.051 against 1.053 would read "1.05x < 1.05x" with three). */
static void below_bar(char *buf, size_t n, double v, double b, const char *where) {
    char sv[32], sb[32];
    for (int digits = 3; digits <= 6; digits++) {
        snprintf(sv, sizeof sv, "%.*g", digits, v);
        snprintf(sb, sizeof sb, "%.*g", digits, b);
        if (strcmp(sv, sb)) break;
    }
    snprintf(buf, n, "rejected: %sx < %sx %s", sv, sb, where);
}

const char *mg_val_verdict(const mg_analysis *a, const mg_point *pt, char *buf, size_t n) {
    switch (pt->val) {
    case MG_VAL_KEPT:
        snprintf(buf, n, "kept");
        break;
    case MG_VAL_REJECTED:
        if (!enough(pt) && pt->val_set_aside)
            snprintf(buf, n,
                     "rejected: %d validation launch%s left after %d set aside as disturbed",
                     pt->val_launches, pt->val_launches == 1 ? "" : "es", pt->val_set_aside);
        else if (pt->val_expected == 0 || pt->val_launches < pt->val_expected)
            snprintf(buf, n, "rejected: not measured in every validation launch");
        else if (pt->val_faster < pt->val_launches)
            snprintf(buf, n, "rejected: slower in %d of %d launches",
                     pt->val_launches - pt->val_faster, pt->val_launches);
        else if (!(pt->val_p_adj < a->opts.alpha))
            snprintf(buf, n, "rejected: not significant (p_adj %.2g)", pt->val_p_adj);
        else if (pt->val_speedup_min < a->val_min_speedup)
            below_bar(buf, n, pt->val_speedup_min, a->val_min_speedup, "in a launch");
        else if (pt->val_speedup < a->val_gain_speedup)
            below_bar(buf, n, pt->val_speedup, a->val_gain_speedup, "(--min-gain)");
        else
            snprintf(buf, n, "rejected: another size of this profile did not hold");
        break;
    case MG_VAL_NOENTRY:
        if (isnan(pt->val_speedup))
            snprintf(buf, n, "no entry");
        else if (pt->val_speedup < NOENTRY_SLOW)
            snprintf(buf, n, "no entry: %.0f%% slower%s", 100 * (1 - pt->val_speedup),
                     a->oversub ? " (oversubscribed: noise)"
                     : a->busy  ? " (busy machine: noise)"
                                : "");
        else
            snprintf(buf, n, "no entry: no regression");
        break;
    default:
        snprintf(buf, n, "-");
    }
    return buf;
}
