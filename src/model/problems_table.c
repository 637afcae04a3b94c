/* Tables 1-5 of Träff's paper from measured values (see problems_table.h). Pure. */
#include "problems_table.h"
#include "problems.h"
#include <stdlib.h>

static const char *const titles[MG_PROBLEM_COUNT] = {"Same",       "Random",      "Spikes",
                                                     "Decreasing", "Alternating", "Two blocks"};

void mg_irr_totals(int type, int p, int64_t b, double rho, uint64_t seed, int64_t *m,
                   int64_t *mpad) {
    int64_t *c = malloc(sizeof *c * (size_t)(p > 0 ? p : 1)), most = 0;
    *m = *mpad = 0;
    if (!c) return;
    mg_problem_counts(type, p, b, rho, seed, c);
    for (int i = 0; i < p; i++) {
        *m += c[i];
        if (c[i] > most) most = c[i];
    }
    *mpad = most * p;
    free(c);
}

static void cell(FILE *f, double v, int violated) {
    if (v < 0)
        fprintf(f, " %10s ", "-");
    else
        fprintf(f, " %10.2f%c", v, violated ? '*' : ' ');
}

static int worse(double a, double b) {
    return a >= 0 && b >= 0 && a > b;
}

static double least(double a, double b) {
    if (a < 0) return b;
    if (b < 0) return a;
    return a < b ? a : b;
}

void mg_irr_table_print(FILE *f, int scatter, const char *caption, const mg_irr_row *rows, int n) {
    const char *plain = scatter ? "MPI_Scatter" : "MPI_Gather";
    const char *lib = scatter ? "MPI_Scatterv" : "MPI_Gatherv";
    const char *tuw = scatter ? "TUW_Scatterv" : "TUW_Gatherv";
    fprintf(f, "%s\n", caption);
    const char *group[4] = {plain, "Guideline 2", lib, tuw};
    fprintf(f, "%-11s %7s %11s %11s ", "Problem", "b", "m", "m'");
    for (int k = 0; k < 4; k++) fprintf(f, " %-23s", group[k]);
    fprintf(f, "\n%-11s %7s %11s %11s ", "", "", "", "");
    for (int k = 0; k < 4; k++) fprintf(f, " %10s  %10s ", "avg", "min");
    fprintf(f, "\n");
    for (int i = 0; i < n; i++) {
        const mg_irr_row *r = &rows[i];
        int first = i == 0 || rows[i - 1].type != r->type;
        const char *name = r->type >= 0 && r->type < MG_PROBLEM_COUNT ? titles[r->type] : "?";
        fprintf(f, "%-11s %7lld %11lld %11lld ", first ? name : "", (long long)r->b,
                (long long)r->m, (long long)r->mpad);
        int regular = r->m == r->mpad;
        cell(f, r->plain.avg, regular && worse(r->plain.avg, least(r->lib.avg, r->tuw.avg)));
        cell(f, r->plain.min, regular && worse(r->plain.min, least(r->lib.min, r->tuw.min)));
        cell(f, r->guide.avg, 0);
        cell(f, r->guide.min, 0);
        cell(f, r->lib.avg, worse(r->lib.avg, r->guide.avg));
        cell(f, r->lib.min, worse(r->lib.min, r->guide.min));
        cell(f, r->tuw.avg, worse(r->tuw.avg, r->guide.avg));
        cell(f, r->tuw.min, worse(r->tuw.min, r->guide.min));
        fprintf(f, "\n");
    }
    fprintf(f,
            "Times in microseconds. * marks a violated guideline: 1 (%s <= %s, where m = m') in "
            "the %s column, 2 (%s <= MPI_Allreduce + %s on padded blocks) in the %s and %s "
            "columns.\n",
            plain, lib, plain, lib, plain, lib, tuw);
}
