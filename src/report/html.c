/* report.html: one self-contained page (inline CSS and SVG, no scripts, no fonts, nothing
 * fetched) with the summary, the ranking, and per collective a chart of latency relative to
 * the default over message size (both axes logarithmic), one line per algorithm and one for
 * the tuned library, violations circled in red, followed by the grouped table. */
#include "outdir/outdir.h"
#include "util/format.h"
#include "report.h"
#include "util/diag.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void esc(FILE *f, const char *s) {
    for (; s && *s; s++) switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
}

/* colour-blind-safe palette (Okabe-Ito), then a few more */
static const char *palette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
                                "#D55E00", "#F0E442", "#7F7F7F", "#8C564B", "#17BECF"};

#define W  760
#define H  320
#define ML 70
#define MR 320
#define MT 16
#define MB 46

typedef struct {
    double x0, x1, y0, y1; /* log2 ranges */
} frame;

static double px(const frame *fr, double lx) {
    double w = W - ML - MR;
    return fr->x1 > fr->x0 ? ML + (lx - fr->x0) / (fr->x1 - fr->x0) * w : ML + w / 2;
}

static double py(const frame *fr, double ly) {
    double h = H - MT - MB;
    return MT + (fr->y1 - ly) / (fr->y1 - fr->y0) * h;
}

/* log2 of a message size; 0 B sits one step left of the smallest positive size */
static double lsize(const mg_coll_result *c, long long m) {
    if (m > 0) return log2((double)m);
    for (int i = 0; i < c->npoints; i++)
        if (c->points[i].msize > 0) return log2((double)c->points[i].msize) - 1;
    return 0;
}

static double clamp_ratio(double r) {
    if (r < 1.0 / 64) return 1.0 / 64;
    if (r > 64) return 64;
    return r;
}

static void chart(const mg_analysis *a, const mg_coll_result *c, FILE *f) {
    char b[64];
    /* algorithms of this collective, in order of first appearance */
    int algs[64], nalg = 0;
    for (int pi = 0; pi < c->npoints; pi++)
        for (int k = 0; k < c->points[pi].ncells; k++) {
            if (k == c->points[pi].def) continue;
            int alg = c->points[pi].cells[k].alg, seen = 0;
            for (int i = 0; i < nalg; i++) seen |= algs[i] == alg;
            if (!seen && nalg < 64) algs[nalg++] = alg;
        }
    frame fr = {INFINITY, -INFINITY, 0, 0};
    double lo = 1, hi = 1;
    int tuned_any = 0;
    for (int pi = 0; pi < c->npoints; pi++) {
        const mg_point *pt = &c->points[pi];
        double lx = lsize(c, pt->msize);
        if (lx < fr.x0) fr.x0 = lx;
        if (lx > fr.x1) fr.x1 = lx;
        if (pt->def < 0) continue;
        double dmed = pt->cells[pt->def].median;
        for (int k = 0; k < pt->ncells; k++) {
            double r = clamp_ratio(pt->cells[k].median / dmed);
            if (isnan(r)) continue;
            if (r < lo) lo = r;
            if (r > hi) hi = r;
        }
        if (!isnan(pt->tuned) && !isnan(pt->tuned_default)) {
            double r = clamp_ratio(pt->tuned / pt->tuned_default);
            tuned_any = 1;
            if (r < lo) lo = r;
            if (r > hi) hi = r;
        }
    }
    if (!(fr.x1 >= fr.x0)) return;
    fr.y0 = log2(lo) - 0.15;
    fr.y1 = log2(hi) + 0.15;
    if (fr.y1 - fr.y0 < 0.6) {
        double mid = (fr.y0 + fr.y1) / 2;
        fr.y0 = mid - 0.3;
        fr.y1 = mid + 0.3;
    }
    fprintf(f,
            "<svg class=\"chart\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
            "aria-label=\"latency of each algorithm of ",
            W, H, W, H);
    esc(f, c->stem);
    fprintf(f, " relative to the default\" xmlns=\"http://www.w3.org/2000/svg\">\n");
    /* below 1: faster than the default (where violations live) */
    double y1 = py(&fr, 0);
    double top = y1 < MT ? MT : y1 > H - MB ? H - MB : y1;
    fprintf(f,
            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#fdecea\"/>\n"
            "<text x=\"%d\" y=\"%d\" class=\"zone\">faster than default</text>\n",
            ML, top, W - ML - MR, H - MB - top, ML + 4, H - MB - 4);
    /* y ticks: 1, then outwards over round ratios, skipping any closer than 20 px to the last
     * one drawn on that side */
    static const double ticks[] = {1.0 / 64, 1.0 / 32, 1.0 / 16, 0.125, 0.25, 0.5, 2.0 / 3,
                                   0.8,      0.9,      1,        1.1,   1.25, 1.5, 2,
                                   3,        4,        6,        8,     16,   32,  64};
    int one = 9; /* index of 1 in ticks */
    for (int dir = -1; dir <= 1; dir += 2) {
        double last = py(&fr, 0);
        for (int i = dir < 0 ? one : one + 1; i >= 0 && i < (int)(sizeof ticks / sizeof *ticks);
             i += dir) {
            double lv = log2(ticks[i]);
            if (lv < fr.y0 || lv > fr.y1) continue;
            double y = py(&fr, lv);
            if (i != one && fabs(y - last) < 20) continue;
            last = y;
            fprintf(f,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%.3g</text>\n",
                    ML, W - MR, y, y, ML - 6, y + 4, ticks[i]);
        }
    }
    /* x ticks: the measured sizes (thinned to about 12 labels) */
    int step = c->npoints > 12 ? (c->npoints + 11) / 12 : 1;
    for (int pi = 0; pi < c->npoints; pi++) {
        double x = px(&fr, lsize(c, c->points[pi].msize));
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" class=\"grid\"/>\n", x, x, MT,
                H - MB);
        if (pi % step == 0)
            fprintf(f,
                    "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>\n",
                    x, H - MB + 16, mg_fmt_size(b, sizeof b, c->points[pi].msize));
    }
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n"
            "<text x=\"%d\" y=\"%d\" class=\"label\" text-anchor=\"middle\">message size "
            "(log scale)</text>\n"
            "<text transform=\"translate(16 %d) rotate(-90)\" class=\"label\" "
            "text-anchor=\"middle\">latency / default (log)</text>\n",
            ML, MT, W - ML - MR, H - MT - MB, ML + (W - ML - MR) / 2, H - 8,
            MT + (H - MT - MB) / 2);
    /* the default */
    double yd = py(&fr, 0);
    fprintf(f,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
            "stroke-dasharray=\"6 4\" stroke-width=\"1.5\"/>\n",
            ML, W - MR, yd, yd);
    /* one line per algorithm */
    for (int i = 0; i < nalg; i++) {
        const char *col = palette[i % (sizeof palette / sizeof palette[0])];
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            for (int k = 0; k < pt->ncells; k++)
                if (pt->cells[k].alg == algs[i] && k != pt->def) {
                    double r = clamp_ratio(pt->cells[k].median / pt->cells[pt->def].median);
                    fprintf(f, "%.1f,%.1f ", px(&fr, lsize(c, pt->msize)), py(&fr, log2(r)));
                }
        }
        fprintf(f, "\"/>\n");
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            if (pt->def < 0) continue;
            for (int k = 0; k < pt->ncells; k++) {
                const mg_cell *m = &pt->cells[k];
                if (m->alg != algs[i] || k == pt->def) continue;
                double r = clamp_ratio(m->median / pt->cells[pt->def].median);
                double x = px(&fr, lsize(c, pt->msize)), y = py(&fr, log2(r));
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>", x, y,
                        col);
                esc(f, mg_name(a, m->alg));
                fprintf(f, " at %s: %.3g x default", mg_fmt_size(b, sizeof b, pt->msize),
                        m->median / pt->cells[pt->def].median);
                if (m->tested) fprintf(f, ", p_adj %s", mg_fmt_p(b, sizeof b, m->p_adj));
                fprintf(f, "%s</title></circle>\n", m->violation ? ", violation" : "");
                if (m->violation)
                    fprintf(f,
                            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" "
                            "stroke=\"#C00000\" stroke-width=\"2\"%s/>\n",
                            x, y, m->barrier_warning ? " stroke-dasharray=\"3 2\"" : "");
            }
        }
    }
    if (tuned_any) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"3.5\" points=\"");
        for (int pi = 0; pi < c->npoints; pi++) {
            const mg_point *pt = &c->points[pi];
            if (isnan(pt->tuned) || isnan(pt->tuned_default)) continue;
            fprintf(f, "%.1f,%.1f ", px(&fr, lsize(c, pt->msize)),
                    py(&fr, log2(clamp_ratio(pt->tuned / pt->tuned_default))));
        }
        fprintf(f, "\"/>\n");
    }
    /* legend */
    int ly = MT + 6;
    int lx = W - MR + 14;
    fprintf(f,
            "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#333\" "
            "stroke-dasharray=\"6 4\" stroke-width=\"1.5\"/><text x=\"%d\" y=\"%d\" "
            "class=\"legend\">default</text>\n",
            lx, lx + 22, ly, ly, lx + 28, ly + 4);
    for (int i = 0; i < nalg; i++) {
        ly += 17;
        fprintf(f,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"legend\">",
                lx, lx + 22, ly, ly, palette[i % (sizeof palette / sizeof palette[0])], lx + 28,
                ly + 4);
        esc(f, mg_name(a, algs[i]));
        fprintf(f, "</text>\n");
    }
    if (tuned_any) {
        ly += 17;
        fprintf(f,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#000\" "
                "stroke-width=\"3.5\"/><text x=\"%d\" y=\"%d\" class=\"legend\">tuned</text>\n",
                lx, lx + 22, ly, ly, lx + 28, ly + 4);
    }
    ly += 17;
    fprintf(f,
            "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" stroke=\"#C00000\" "
            "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\" class=\"legend\">violation</text>\n"
            "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" stroke=\"#C00000\" "
            "stroke-width=\"2\" stroke-dasharray=\"3 2\"/><text x=\"%d\" y=\"%d\" "
            "class=\"legend\">violation, barrier warning</text>\n",
            lx + 11, ly, lx + 28, ly + 4, lx + 11, ly + 19, lx + 28, ly + 23);
    fprintf(f, "</svg>\n");
}

static void grouped_html(const mg_analysis *a, const mg_coll_result *c, FILE *f) {
    char b[64];
    fprintf(f, "<table><thead><tr><th>size</th><th>nrep</th><th>default median</th>"
               "<th>slowdown</th><th>fastest violating mock-up</th><th>its median</th>"
               "<th>p<sub>adj</sub></th><th>fastest library algorithm (opportunity)</th>");
    int tuned = 0;
    for (int pi = 0; pi < c->npoints; pi++) tuned |= !isnan(c->points[pi].tuned);
    if (tuned) fprintf(f, "<th>tuned / default</th>");
    fprintf(f, "<th>profile</th></tr></thead><tbody>\n");
    for (int pi = 0; pi < c->npoints; pi++) {
        const mg_point *pt = &c->points[pi];
        const mg_cell *d = pt->def >= 0 ? &pt->cells[pt->def] : NULL;
        fprintf(f, "<tr%s><td class=\"n\">%s</td>", pt->best >= 0 ? " class=\"vio\"" : "",
                mg_fmt_size(b, sizeof b, pt->msize));
        fprintf(f, "<td class=\"n\">%zu</td>", d ? d->nobs : (size_t)0);
        fprintf(f, "<td class=\"n\">%s</td>", mg_fmt_time(b, sizeof b, d ? d->median : NAN));
        if (pt->best >= 0) {
            const mg_cell *m = &pt->cells[pt->best];
            fprintf(f, "<td class=\"n\">%.3f</td><td>", m->slowdown);
            esc(f, mg_name(a, m->alg));
            fprintf(f, "%s</td><td class=\"n\">%s</td>", m->barrier_warning ? " *" : "",
                    mg_fmt_time(b, sizeof b, m->median));
            fprintf(f, "<td class=\"n\">%s</td>", mg_fmt_p(b, sizeof b, m->p_adj));
        } else {
            fprintf(f, "<td></td><td>%s</td><td></td><td></td>",
                    !d            ? "no default data"
                    : pt->checked ? ""
                                  : "not checked");
        }
        fprintf(f, "<td>");
        if (pt->best_lib >= 0) {
            const mg_cell *l = &pt->cells[pt->best_lib];
            esc(f, mg_name(a, l->alg));
            fprintf(f, " %.3f&times;", l->slowdown);
        }
        fprintf(f, "</td>");
        if (tuned) {
            double r = pt->tuned / pt->tuned_default;
            fprintf(f, "<td class=\"n\">%s</td>", isnan(r) ? "" : mg_fmt_num(b, sizeof b, r, 3));
        }
        fprintf(f, "<td>");
        if (pt->profile >= 0) esc(f, mg_name(a, pt->cells[pt->profile].alg));
        if (pt->val == MG_VAL_REJECTED) {
            fprintf(f, "<s>");
            esc(f, mg_name(a, pt->cells[pt->candidate].alg));
            fprintf(f, "</s> rejected by validation");
        }
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

/* The validation of the tuned library: every row measured there, entries first. */
static void validation_html(const mg_analysis *a, FILE *f) {
    char b[160];
    fprintf(f,
            "<h2 id=\"validation\">Validation of the tuned library</h2>\n<p>%d launch%s, the "
            "default and the tuned library interleaved in one job; speed-up = median over the "
            "launches of default / tuned, paired by the interleaving's rounds (per round the "
            "ratio of the two batches' medians; the medians shown are over all observations). "
            "An entry is kept when tuned is significantly faster "
            "in every launch (%s, %s over %d entries, &alpha; = %g), at least %.3g&times; in "
            "the slowest and %.3g&times; over the launches; rows without an entry check that "
            "the interception costs nothing (expected 1).</p>\n",
            a->ntuned, a->ntuned == 1 ? "" : "es", mg_test_name(a->opts.test),
            mg_correction_name(a->opts.correction), a->nval_tests, a->opts.alpha,
            a->val_min_speedup, a->val_gain_speedup);
    fprintf(f, "<table><thead><tr><th>collective</th><th>size</th><th>entry</th>"
               "<th>default</th><th>tuned</th><th>speed-up</th><th>slowest launch</th>"
               "<th>verdict</th></tr></thead><tbody>\n");
    for (int pass = 0; pass < 2; pass++)
        for (int ci = 0; ci < a->ncolls; ci++)
            for (int pi = 0; pi < a->colls[ci].npoints; pi++) {
                const mg_point *pt = &a->colls[ci].points[pi];
                if (isnan(pt->tuned) || (pt->candidate >= 0) != (pass == 0)) continue;
                fprintf(f, "<tr%s><td>", pt->val == MG_VAL_REJECTED ? " class=\"rej\"" : "");
                esc(f, mg_name(a, a->colls[ci].name));
                fprintf(f, "</td><td class=\"n\">%s</td><td>", mg_fmt_size(b, sizeof b, pt->msize));
                if (pt->candidate >= 0) esc(f, mg_name(a, pt->cells[pt->candidate].alg));
                fprintf(f, "</td><td class=\"n\">%s</td>",
                        mg_fmt_time(b, sizeof b, pt->tuned_default));
                fprintf(f, "<td class=\"n\">%s</td>", mg_fmt_time(b, sizeof b, pt->tuned));
                fprintf(f, "<td class=\"n\">%s</td>", mg_fmt_num(b, sizeof b, pt->val_speedup, 3));
                fprintf(f, "<td class=\"n\">%s</td><td>",
                        mg_fmt_num(b, sizeof b, pt->val_speedup_min, 3));
                esc(f, mg_val_verdict(a, pt, b, sizeof b));
                fprintf(f, "</td></tr>\n");
            }
    fprintf(f, "</tbody></table>\n");
}

static const char *css =
    "body{font-family:sans-serif;margin:2em auto;max-width:1000px;color:#222;line-height:1.4}"
    "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:0.6em 0;font-size:0.9em}"
    "th,td{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:left}"
    "th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.vio td{background:#fdecea}.muted{color:#666}"
    "svg.chart{max-width:100%;height:auto;display:block}"
    "svg .grid{stroke:#e3e3e3;stroke-width:1}svg .frame{fill:none;stroke:#999}"
    "svg .tick{font-size:11px;fill:#444}svg .label{font-size:12px;fill:#222}"
    "svg .legend{font-size:11px;fill:#222}svg .zone{font-size:10px;fill:#C00000}"
    "pre{background:#f7f7f7;padding:0.6em;overflow-x:auto;font-size:0.85em}"
    ".verdict{border:2px solid #0072B2;border-radius:6px;padding:0.4em 1em;margin:1em 0}"
    ".verdict h2{margin-top:0.3em;border:none}.verdict li{margin:0.2em 0}"
    ".warn{color:#A00000;font-weight:bold}tr.rej td{background:#fdecea}"
    "@media print{body{margin:0;max-width:none}h2{break-after:avoid}"
    "section{break-inside:avoid}}";

int mg_write_report(const mg_analysis *a, const char *outdir) {
    char path[4096], b[64], b2[64];
    mg_out_path(path, sizeof path, outdir, MG_OUT_REPORT);
    FILE *f = fopen(path, "w");
    if (!f) {
        mg_error(path, "cannot write: %s", strerror(errno));
        return -1;
    }
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>mpiguide report</title>\n<style>%s</style>\n</head>\n<body>\n",
            css);
    fprintf(f, "<h1>mpiguide report</h1>\n<p class=\"muted\">");
    if (a->library[0]) {
        esc(f, a->library);
        fprintf(f, "<br>");
    }
    fprintf(f, "%s node(s) &times; %s ranks per node = %s processes; %d launch%s",
            a->nodes[0] ? a->nodes : "?", a->ppn[0] ? a->ppn : "?", a->nprocs[0] ? a->nprocs : "?",
            a->nlaunches, a->nlaunches == 1 ? "" : "es");
    if (a->date[0]) {
        fprintf(f, "; measured ");
        esc(f, a->date);
    }
    fprintf(f, "</p>\n");

    /* the verdict first: what a reader must know before any table */
    mg_verdict v;
    mg_verdict_of(a, &v);
    fprintf(f, "<div id=\"verdict\" class=\"verdict\">\n<h2>Verdict</h2>\n<ul>\n");
    if (v.machine[0]) {
        fprintf(f, "<li class=\"warn\">");
        esc(f, v.machine);
        fprintf(f, "</li>\n");
    }
    if (v.drift[0]) {
        fprintf(f, "<li class=\"warn\">");
        esc(f, v.drift);
        fprintf(f, "</li>\n");
    }
    fprintf(f, "<li>");
    esc(f, v.violations);
    fprintf(f, "</li>\n<li>");
    esc(f, v.entries);
    fprintf(f, "</li>\n</ul>\n</div>\n");

    fprintf(f, "<h2>Summary</h2>\n<table>\n");
    fprintf(f,
            "<tr><th>quality score</th><td class=\"n\">%s</td><td class=\"muted\">geometric "
            "mean over the checked (collective, size) of fastest violating mock-up / default "
            "median (1 = self-consistent)</td></tr>\n",
            mg_fmt_num(b, sizeof b, a->quality, 4));
    fprintf(f,
            "<tr><th>pattern violations (brave)</th><td class=\"n\">%d of %d</td><td "
            "class=\"muted\">(collective, size) with a significantly faster mock-up</td></tr>\n",
            a->nviol_brave, a->nchecked);
    fprintf(f,
            "<tr><th>pattern violations (cautious)</th><td class=\"n\">%d of %d</td><td "
            "class=\"muted\">without those whose difference is below one MPI_Barrier "
            "(%s)</td></tr>\n",
            a->nviol_cautious, a->nchecked, mg_fmt_time(b, sizeof b, a->barrier));
    fprintf(f, "<tr><th>monotony violations</th><td class=\"n\">%d of %d</td><td></td></tr>\n",
            a->nmono_viol, a->nmono_tests);
    fprintf(f, "<tr><th>split-robustness violations</th><td class=\"n\">%d</td><td></td></tr>\n",
            a->nsplit_viol);
    if (a->nlib_tests) {
        fprintf(f,
                "<tr><th>default vs best library algorithm</th><td class=\"n\">%s</td><td "
                "class=\"muted\">geometric mean of the fastest significantly faster library "
                "algorithm (the MPI's own, forced) / default median, 1 where none: a tuning "
                "opportunity, not a guideline violation</td></tr>\n",
                mg_fmt_num(b, sizeof b, a->lib_score, 4));
        fprintf(f,
                "<tr><th>tuning opportunities</th><td class=\"n\">%d of %d</td><td "
                "class=\"muted\">(collective, size) with a significantly faster library "
                "algorithm (%d tests, corrected on their own)</td></tr>\n",
                a->nopp, a->nlib_checked, a->nlib_tests);
    }
    fprintf(f,
            "<tr><th>statistics</th><td colspan=\"2\">%s, one-sided, in every launch; %s "
            "correction over %d tests at &alpha; = %g; profile entries at least %g%% "
            "faster</td></tr>\n",
            mg_test_name(a->opts.test), mg_correction_name(a->opts.correction), a->npattern_tests,
            a->opts.alpha, a->opts.min_gain * 100);
    fprintf(f, "</table>\n");

    fprintf(f, "<table><thead><tr><th>collective</th><th>checked</th><th>brave</th>"
               "<th>cautious</th><th>quality</th><th>worst slowdown</th><th>library score</th>"
               "</tr></thead><tbody>\n");
    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        fprintf(f, "<tr><td><a href=\"#");
        esc(f, c->stem);
        fprintf(f, "\">");
        esc(f, c->stem);
        fprintf(f,
                "</a></td><td class=\"n\">%d</td><td class=\"n\">%d</td><td "
                "class=\"n\">%d</td><td class=\"n\">%s</td><td>",
                c->nchecked, c->nviol_brave, c->nviol_cautious,
                mg_fmt_num(b, sizeof b, c->quality, 4));
        if (c->worst >= 0) {
            const mg_point *pt = &c->points[c->worst];
            fprintf(f, "%.3g&times; at %s by ", pt->cells[pt->best].slowdown,
                    mg_fmt_size(b2, sizeof b2, pt->msize));
            esc(f, mg_name(a, pt->cells[pt->best].alg));
        }
        fprintf(f, "</td><td class=\"n\">%s</td></tr>\n",
                c->nlib_checked ? mg_fmt_num(b, sizeof b, c->lib_score, 4) : "");
    }
    fprintf(f, "</tbody></table>\n");

    if (a->ntuned) validation_html(a, f);

    for (int ci = 0; ci < a->ncolls; ci++) {
        const mg_coll_result *c = &a->colls[ci];
        fprintf(f, "<section>\n<h2 id=\"");
        esc(f, c->stem);
        fprintf(f, "\">");
        esc(f, c->stem);
        fprintf(f, " <span class=\"muted\">(%d processes)</span></h2>\n", c->nprocs);
        chart(a, c, f);
        grouped_html(a, c, f);
        for (int i = 0; i < c->nmono; i++)
            if (c->mono[i].violation) {
                fprintf(f, "<p>Monotony violated: %s takes %s, ",
                        mg_fmt_size(b, sizeof b, c->mono[i].m_lo),
                        mg_fmt_time(b2, sizeof b2, c->mono[i].med_lo));
                fprintf(f, "%s only %s (p<sub>adj</sub> %s).</p>\n",
                        mg_fmt_size(b, sizeof b, c->mono[i].m_hi),
                        mg_fmt_time(b2, sizeof b2, c->mono[i].med_hi),
                        mg_fmt_p(b, sizeof b, c->mono[i].p_adj));
            }
        for (int i = 0; i < c->nsplit; i++) {
            const mg_split *s = &c->split[i];
            fprintf(f, "<p>Split-robustness violated: %s takes %s, ",
                    mg_fmt_size(b, sizeof b, s->m_j), mg_fmt_time(b2, sizeof b2, s->med_j));
            fprintf(f, "%lld &times; %s ", s->k, mg_fmt_size(b, sizeof b, s->m_i));
            fprintf(f, "only %s.</p>\n", mg_fmt_time(b2, sizeof b2, (double)s->k * s->med_i));
        }
        fprintf(f, "</section>\n");
    }
    if (a->ndisturbed) {
        fprintf(f,
                "<h2>Disturbed launches set aside</h2>\n<p>A launch whose default ran more "
                "than %.0fx its median over the launches at a size measured the machine, not "
                "the algorithms; it takes no part in the tests at that size.</p>\n<ul>\n",
                MG_DISTURBED);
        for (int i = 0; i < a->ndisturbed; i++) {
            fprintf(f, "<li>");
            esc(f, a->disturbed[i]);
            fprintf(f, "</li>\n");
        }
        fprintf(f, "</ul>\n");
    }
    if (a->nmissing || a->ds->nnotes) {
        fprintf(f, "<h2>Incomplete data</h2>\n<ul>\n");
        for (int i = 0; i < a->nmissing; i++) {
            fprintf(f, "<li>");
            esc(f, a->missing[i]);
            fprintf(f, "</li>\n");
        }
        for (int i = 0; i < a->ds->nnotes; i++) {
            fprintf(f, "<li>");
            esc(f, a->ds->notes[i]);
            fprintf(f, "</li>\n");
        }
        fprintf(f, "</ul>\n");
    }
    fprintf(f, "<p class=\"muted\">Written by <code>mpiguide analyze</code>; tables, profiles "
               "and summary.txt are beside this file. Regenerate with <code>mpiguide analyze "
               "OUTDIR</code>.</p>\n</body>\n</html>\n");
    if (fclose(f)) {
        mg_error(path, "write failed");
        return -1;
    }
    return 0;
}
