/* Profiles that name library algorithms: the parser accepts any well-formed name (the tool
 * checks profiles without MPI); when the library loads them, a name this process cannot run
 * (not discovered, library algorithms off, or measured under the other MPI, whose algorithm of
 * the same name is a different implementation) selects the default instead, with one warning,
 * and the rest of the profile applies. Pure. */
#include "libalg.h"
#include "catalog/catalog.h"
#include "profile/profile.h"
#include <stdio.h>
#include <string.h>

const char *mg_libalg_mpi_kind(const char *library) {
    if (!library) return "";
    if (strstr(library, "Open MPI") || !strcmp(library, "openmpi")) return "openmpi";
    if (strstr(library, "MPICH") || !strcmp(library, "mpich")) return "mpich";
    return "";
}

int mg_libalg_resolve_profiles(mg_profile_set *set, const char *running_mpi, mg_diag_fn diag,
                               void *ctx) {
    int warnings = 0;
    for (int i = 0; i < set->n; i++) {
        mg_profile *p = &set->v[i];
        const char *kind = mg_libalg_mpi_kind(p->mpi_library);
        int other = kind[0] && running_mpi && running_mpi[0] && strcmp(kind, running_mpi);
        int warned[MG_LIBALG_MAX] = {0};
        for (int r = 0; r < p->nranges; r++) {
            const mg_libalg *e = mg_libalg_by_id(p->ranges[r].alg);
            if (!e || (e->runnable && !other)) continue;
            int k = e->id - mg_libalg_first_id();
            p->ranges[r].alg = p->coll;
            if (k < 0 || k >= MG_LIBALG_MAX || warned[k]++) continue;
            char where[4200], what[1600], list[1200];
            snprintf(where, sizeof where, "%s:%d", set->file[i], p->ranges[r].line);
            const char *off = mg_libalg_off();
            if (other)
                snprintf(what, sizeof what,
                         "library algorithm `%s` was measured under %s, not %s; those sizes run "
                         "the default",
                         e->name, kind, running_mpi);
            else
                snprintf(what, sizeof what,
                         "unknown library algorithm `%s` for %s under %s (%s%s); those sizes run "
                         "the default",
                         e->name, mg_coll_name(p->coll),
                         running_mpi && running_mpi[0] ? running_mpi : "this MPI",
                         off ? "library algorithms are off: " : "available: ",
                         off ? off : mg_libalg_list(p->coll, list, sizeof list));
            if (diag) diag(ctx, 0, where, what);
            warnings++;
        }
    }
    return warnings;
}
