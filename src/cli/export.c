/* `mpiguide export --format=ompi-rules|mpich-json PROFILES -o FILE`: writes the entries of
 * tuned-mode profiles that select library algorithms into the MPI library's own tuning file
 * (src/export/tuning_files.h), so a user applies them without preloading anything; entries that
 * select mock-ups are listed as not expressible. No MPI_Init: the algorithms' values come from
 * the library through MPI_T, MPICH's base selection from the library file itself. Each build
 * writes its own MPI's format. docs/library-algorithms.md. */
#define _GNU_SOURCE
#include "cli.h"
#include "export_mpit.h"
#include "catalog/catalog.h"
#include "export/tuning_files.h"
#include "libalg/libalg.h"
#include "profile/profile.h"
#include "util/diag.h"
#include "util/file.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(FILE *f, int rc) {
    fprintf(f,
            "usage: mpiguide export --format=ompi-rules|mpich-json PROFILES -o FILE\n"
            "                       [--base JSON]\n"
            "Writes the entries of tuned-mode profiles (a directory or one file) that select the\n"
            "MPI library's own algorithms (*_lib_*) as that library's tuning file, which it\n"
            "applies without libmpiguide:\n"
            "  ompi-rules  Open MPI's coll/tuned dynamic rules; run with\n"
            "              OMPI_MCA_coll_tuned_use_dynamic_rules=1\n"
            "              OMPI_MCA_coll_tuned_dynamic_rules_filename=FILE (mpiguide-openmpi)\n"
            "  mpich-json  MPICH's collective selection; run with\n"
            "              MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE and\n"
            "              MPIR_CVAR_DEVICE_COLLECTIVES=none (mpiguide-mpich). The file is the\n"
            "              library's own built-in selection (or --base JSON) with the profiled\n"
            "              sizes replaced.\n"
            "Entries that select mock-ups are listed as not expressible. Exit 0, 1 when FILE\n"
            "cannot be written, 2 for a usage error or an invalid profile.\n");
    return rc;
}

typedef struct xset {
    mg_xentry *e;
    int n, cap;
    int nranges, skipped;
} xset;

static mg_xentry *add_entry(xset *x, int coll, int p) {
    if (x->n == x->cap) {
        int cap = x->cap ? 2 * x->cap : 16;
        mg_xentry *e = realloc(x->e, sizeof *e * (size_t)cap);
        if (!e) return NULL;
        x->e = e;
        x->cap = cap;
    }
    mg_xentry *e = &x->e[x->n++];
    *e = (mg_xentry){coll, p, 0, NULL};
    return e;
}

static void xset_free(xset *x) {
    for (int i = 0; i < x->n; i++) free(x->e[i].r);
    free(x->e);
}

/* The entry another profile of (coll, p) wrote, or NULL. */
static const mg_xentry *entry_of(const xset *x, int coll, int p) {
    for (int i = 0; i < x->n; i++)
        if (x->e[i].coll == coll && x->e[i].p == p) return &x->e[i];
    return NULL;
}

/* The ranges of one profile that this format can express; notes for the others. A library's
 * tuning file selects by collective, communicator size and message size only: of several
 * profiles of one (collective, p) for other datatypes and ops, the first loaded that selects a
 * library algorithm is exported, the others' ranges are not expressible. */
static int collect(const mg_profile *p, int ompi, const char *bytes, size_t nbytes, xset *x) {
    const char *kind = mg_libalg_mpi_kind(p->mpi_library), *want = ompi ? "openmpi" : "mpich";
    int times_p = 0, nosize = !ompi && !mg_export_mpich_size_key(p->coll, &times_p);
    const mg_xentry *other = entry_of(x, p->coll, p->p);
    mg_xentry *e = NULL;
    for (int i = 0; i < p->nranges; i++) {
        const mg_prange *r = &p->ranges[i];
        const char *name = mg_alg_name(r->alg);
        char what[128];
        snprintf(what, sizeof what, "%s p=%d %lld-%lld bytes -> %s", mg_coll_name(p->coll), p->p,
                 (long long)r->lo, (long long)r->hi, name);
        if (mg_libalg_name_coll(name) < 0) {
            if (r->alg != p->coll) {
                printf("  not expressible: %s (a mock-up: only libmpiguide runs it)\n", what);
                x->skipped++;
            }
            continue;
        }
        int id = mpiguide_algorithm_id(p->coll, name);
        const char *mpi = NULL, *var = NULL; /* var: the variable, for messages */
        int value = 0;
        if (kind[0] && strcmp(kind, want)) {
            printf("  not expressible: %s (measured under %s)\n", what, kind);
            x->skipped++;
            continue;
        }
        if (id < 0 || !mpiguide_library_algorithm(id, &mpi, &var, &value)) {
            printf("  not expressible: %s (not an algorithm of this %s)\n", what, want);
            x->skipped++;
            continue;
        }
        if ((ompi && !mg_export_ompi_has(p->coll)) ||
            (nosize && (r->lo != 0 || r->hi != INT64_MAX))) {
            printf("  not expressible: %s (%s selects %s by %s)\n", what,
                   ompi ? "Open MPI's rules file cannot select" : "MPICH's selection cannot",
                   mg_coll_name(p->coll), ompi ? "rules" : "message size");
            x->skipped++;
            continue;
        }
        if (other) {
            printf("  not expressible: %s (measured with %s %s; the tuning file cannot select by "
                   "datatype and op, and a profile of %s p=%d for another one is exported)\n",
                   what, p->datatype[0] ? p->datatype : "any datatype", p->operation,
                   mg_coll_name(p->coll), p->p);
            x->skipped++;
            continue;
        }
        if (!e && !(e = add_entry(x, p->coll, p->p))) return -1;
        mg_xrange *rr = realloc(e->r, sizeof *rr * (size_t)(e->n + 1));
        if (!rr) return -1;
        e->r = rr;
        mg_xrange *o = &e->r[e->n++];
        memset(o, 0, sizeof *o);
        o->lo = r->lo;
        o->hi = r->hi;
        o->value = value;
        const char *it = strstr(name, "_lib_") + 5;
        if (ompi) {
            o->segsize = mg_export_ompi_param(p->coll, "segmentsize");
            o->fanout =
                mg_export_ompi_param(p->coll, strstr(it, "chain") ? "chain_fanout" : "tree_fanout");
        } else {
            mg_export_mpich_container(p->coll, it, bytes, nbytes, o->container,
                                      sizeof o->container);
        }
        x->nranges++;
    }
    return 0;
}

int mg_cmd_export(int argc, char **argv) {
    const char *format = NULL, *out = NULL, *in = NULL, *base = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout, 0);
        if (!strncmp(a, "--format=", 9)) {
            format = a + 9;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--base") || !strcmp(a, "--format")) &&
                   i + 1 < argc) {
            const char **dst = a[1] == 'o' ? &out : a[2] == 'b' ? &base : &format;
            *dst = argv[++i];
        } else if (!strncmp(a, "--base=", 7)) {
            base = a + 7;
        } else if (a[0] == '-') {
            mg_error(a, "unknown option of export (mpiguide export --help)");
            return 2;
        } else if (!in) {
            in = a;
        } else {
            mg_error(a, "one profile directory or file only");
            return 2;
        }
    }
    if (!format || (strcmp(format, "ompi-rules") && strcmp(format, "mpich-json"))) {
        mg_error("--format", "expected ompi-rules or mpich-json");
        return 2;
    }
    if (!in || !out) {
        mg_error(in ? "-o" : "export", "%s", in ? "the output file is missing" : "no profiles");
        return usage(stderr, 2);
    }
    int ompi = !strcmp(format, "ompi-rules");
    if (strcmp(ompi ? "openmpi" : "mpich", MG_BUILT_MPI)) {
        mg_error("--format",
                 "%s needs the %s build (mpiguide-%s), which asks that library for "
                 "its algorithms; this is mpiguide-%s",
                 format, ompi ? "Open MPI" : "MPICH", ompi ? "openmpi" : "mpich", MG_BUILT_MPI);
        return 2;
    }
    if (ompi && base) {
        mg_error("--base", "only with --format=mpich-json");
        return 2;
    }
    mg_profile_set set = {0};
    int errors = mg_profiles_load(in, &set, mg_diag_stderr, NULL);
    if (errors) {
        mg_profile_set_free(&set);
        return 2;
    }
    mpiguide_library_probe();
    if (mpiguide_library_off()) {
        mg_error("export", "library algorithms are off: %s", mpiguide_library_off());
        mg_profile_set_free(&set);
        return 1;
    }
    char libpath[4096] = "";
    size_t nbytes = 0, blen = 0, boff = 0;
    char *bytes = ompi ? NULL : mg_export_library_bytes(&nbytes, libpath, sizeof libpath);
    char *basetext = NULL;
    if (!ompi && base) {
        basetext = mg_file_read(base, MG_TEXT_FILE_MAX, &blen);
        if (!basetext) {
            char why[128];
            mg_error(base, "cannot read the base selection: %s",
                     mg_file_error(errno, MG_TEXT_FILE_MAX, why, sizeof why));
            free(bytes);
            mg_profile_set_free(&set);
            return 2;
        }
    } else if (!ompi && (!bytes || mg_export_mpich_find_base(bytes, nbytes, &boff, &blen))) {
        mg_error(libpath[0] ? libpath : "export",
                 "no built-in collective selection found in the MPI library; give --base JSON");
        free(bytes);
        mg_profile_set_free(&set);
        return 2;
    }
    printf("mpiguide export: %s from %s\n", format, in);
    xset x = {0};
    int rc = 0;
    for (int i = 0; i < set.n && !rc; i++)
        if (collect(&set.v[i], ompi, bytes, nbytes, &x)) rc = 1;
    char why[300] = "", *text = NULL;
    if (!rc)
        text = ompi ? mg_export_ompi_rules(x.e, x.n, in, why, sizeof why)
                    : mg_export_mpich_json(x.e, x.n, basetext ? basetext : bytes + boff, blen, why,
                                           sizeof why);
    if (!text) {
        mg_error(base ? base : "export", "%s", why[0] ? why : "out of memory");
        rc = base && why[0] ? 2 : 1;
    } else {
        FILE *f = fopen(out, "w");
        int bad = !f;
        if (f) {
            bad |= fputs(text, f) == EOF;
            bad |= fclose(f) != 0;
        }
        if (bad) {
            mg_error(out, "cannot write: %s", strerror(errno));
            rc = 1;
        } else {
            printf("%d range(s) of %d profile(s) written to %s, %d not expressible\n", x.nranges,
                   set.n, out, x.skipped);
            if (!ompi) printf("base selection: %s\n", base ? base : libpath);
        }
    }
    free(text);
    free(basetext);
    free(bytes);
    xset_free(&x);
    mg_profile_set_free(&set);
    return rc;
}
