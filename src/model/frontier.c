/* Frontier times from the reduced entries and exits (frontier.h). */
#include "frontier.h"

void mg_frontier_exits(const double *entry, const double *t, double *exit, int n) {
    for (int i = 0; i < n; i++) exit[i] = t[i] < 0 ? -1.0 : entry[i] + t[i];
}

void mg_frontier_times(const double *start, const double *end, double *dur, int n) {
    for (int i = 0; i < n; i++) {
        if (end[i] < 0) {
            dur[i] = -1.0;
            continue;
        }
        double d = end[i] - start[i];
        dur[i] = d > MG_FRONTIER_MIN ? d : MG_FRONTIER_MIN;
    }
}
