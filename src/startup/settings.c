/* Rank 0's reading of the run-time configuration (docs/dev/interfaces.md section 2). Sources,
 * highest precedence first: MPIGUIDE_* variables, PGMPI_PARAMS, argv (only with MPIGUIDE_ARGV=1).
 * Forced entries merge per collective; paths take the first source that names one. Every
 * problem is one diagnostic line, after which the bad input is simply left out. */
#include "settings.h"
#include "dispatch/registry.h"
#include "catalog/catalog.h"
#include "libalg/libalg.h"
#include "model/online_rule.h"
#include "profile/seltab.h"
#include "util/file.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CONFIG_MAX_BYTES (1 << 20)

static int say(mg_diag_fn diag, void *ctx, int error, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int say(mg_diag_fn diag, void *ctx, int error, const char *where, const char *fmt, ...) {
    char what[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (diag) diag(ctx, error, where, what);
    return error;
}

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* One forced entry: coll=alg, coll=alg:NAME or coll:alg=NAME. */
static int forced_entry(char *e, const char *where, int16_t *forced, mg_diag_fn diag, void *ctx) {
    char *coll = e, *alg = NULL, *m = strstr(e, ":alg=");
    if (m) {
        *m = 0;
        alg = m + 5;
    } else if ((m = strchr(e, '='))) {
        *m = 0;
        alg = m + 1;
        if (!strncmp(alg, "alg:", 4)) alg += 4;
    } else {
        return say(diag, ctx, 1, where, "`%s`: expected collective=algorithm; ignored", e);
    }
    coll = trim(coll);
    alg = trim(alg);
    int c = mpiguide_collective_id(coll);
    if (c < 0) return say(diag, ctx, 1, where, "unknown collective `%s`; ignored", coll);
    if (!(mg_coll_flags(c) & MG_CF_INTERCEPT))
        return say(diag, ctx, 1, where, "%s is not intercepted; ignored", mg_coll_name(c));
    int id = mpiguide_algorithm_id(c, alg);
    if (id < 0 && mg_libalg_name_coll(alg) == c) {
        /* possibly a name of another MPI's library: a warning, and the default runs */
        char list[1200];
        const char *off = mg_libalg_off();
        say(diag, ctx, 0, where,
            "unknown library algorithm `%s` for %s under %s (%s%s); the "
            "default runs",
            alg, mg_coll_name(c), mg_libalg_mpi()[0] ? mg_libalg_mpi() : "this MPI",
            off ? "library algorithms are off: " : "available: ",
            off ? off : mg_libalg_list(c, list, sizeof list));
        return 0;
    }
    if (id < 0)
        return say(diag, ctx, 1, where, "unknown algorithm `%s` for %s; ignored", alg,
                   mg_coll_name(c));
    forced[c] = (int16_t)id;
    return 0;
}

int mg_settings_parse_forced(const char *spec, const char *where, int16_t *forced, mg_diag_fn diag,
                             void *ctx) {
    char *copy = strdup(spec ? spec : "");
    int bad = 0;
    if (!copy) return say(diag, ctx, 1, where, "out of memory");
    for (char *save = NULL, *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        char *t = trim(e);
        if (*t) bad += forced_entry(t, where, forced, diag, ctx);
    }
    free(copy);
    return bad;
}

/* One source of original-style options: --module=, --ppath=, --config=. */
typedef struct source {
    int16_t forced[MPIGUIDE_COLL_COUNT];
    char *ppath, *config;
} source;

static void source_init(source *s) {
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) s->forced[c] = -1;
    s->ppath = s->config = NULL;
}

static void source_free(source *s) {
    free(s->ppath);
    free(s->config);
}

/* Applies one option; 1 when it is one of ours (errors are counted in *bad). */
static int source_option(source *s, const char *opt, const char *where, int *bad, mg_diag_fn diag,
                         void *ctx) {
    if (!strncmp(opt, "--module=", 9)) {
        *bad += mg_settings_parse_forced(opt + 9, where, s->forced, diag, ctx);
    } else if (!strncmp(opt, "--ppath=", 8) || !strncmp(opt, "--config=", 9)) {
        int pp = opt[2] == 'p';
        const char *v = opt + (pp ? 8 : 9);
        if (!*v) {
            *bad += say(diag, ctx, 1, where, "%.8s: empty path; ignored", opt);
            return 1;
        }
        char **dst = pp ? &s->ppath : &s->config;
        free(*dst);
        *dst = strdup(v);
    } else {
        return 0;
    }
    return 1;
}

static int parse_pgmpi(const char *text, source *s, mg_diag_fn diag, void *ctx) {
    char *copy = strdup(text), *save = NULL;
    int bad = 0;
    if (!copy) return say(diag, ctx, 1, "PGMPI_PARAMS", "out of memory");
    for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
        if (!source_option(s, t, "PGMPI_PARAMS", &bad, diag, ctx))
            bad += say(diag, ctx, 1, "PGMPI_PARAMS",
                       "unknown option `%s` (expected --module=, --ppath=, --config=); ignored", t);
    free(copy);
    return bad;
}

/* argv of this process from /proc/self/cmdline when the application passed none. */
static int cmdline(char ***argv) {
    static char *buf; /* the process's arguments live as long as the process */
    static char *args[256];
    static size_t n;
    if (!buf && !(buf = mg_file_read("/proc/self/cmdline", 1 << 20, &n))) return 0;
    int argc = 0;
    for (size_t i = 0; i < n && argc < 255; i += strlen(buf + i) + 1) args[argc++] = buf + i;
    args[argc] = NULL;
    *argv = args;
    return argc;
}

static int parse_argv(const mg_env *env, source *s, mg_diag_fn diag, void *ctx) {
    char **argv = env->argv;
    int argc = env->argc, bad = 0;
    if (!argv) argc = cmdline(&argv);
    for (int i = 1; i < argc && argv[i]; i++) source_option(s, argv[i], "argv", &bad, diag, ctx);
    return bad;
}

/* 0/1 variables: unset, empty or 0 is off, 1 is on, anything else an error (off). */
static int flag(const mg_env *env, const char *name, int *errors, mg_diag_fn diag, void *ctx) {
    const char *v = env->get(env->ctx, name);
    if (!v || !*v || !strcmp(v, "0")) return 0;
    if (!strcmp(v, "1")) return 1;
    *errors += say(diag, ctx, 1, name, "expected 0 or 1, not `%s`; taken as 0", v);
    return 0;
}

/* MPIGUIDE_GUARD is a safety net, on unless switched off: a bad value keeps it on. */
static int guard_flag(const mg_env *env, int *errors, mg_diag_fn diag, void *ctx) {
    const char *v = env->get(env->ctx, "MPIGUIDE_GUARD");
    if (!v || !*v || !strcmp(v, "1")) return 1;
    if (!strcmp(v, "0")) return 0;
    *errors += say(diag, ctx, 1, "MPIGUIDE_GUARD", "expected 0 or 1, not `%s`; taken as 1", v);
    return 1;
}

static const char *nonempty(const char *v) {
    return v && *v ? v : NULL;
}

/* MPIGUIDE_ONLINE: unset, empty or 0 off, 1 the race, rotate the check of correctness;
 * anything else an error (off). */
static int online_mode(const mg_env *env, int *errors, mg_diag_fn diag, void *ctx) {
    const char *v = nonempty(env->get(env->ctx, "MPIGUIDE_ONLINE"));
    if (!v || !strcmp(v, "0")) return MG_ONLINE_OFF;
    if (!strcmp(v, "1")) return MG_ONLINE_RACE;
    if (!strcmp(v, "rotate")) return MG_ONLINE_ROTATE;
    *errors +=
        say(diag, ctx, 1, "MPIGUIDE_ONLINE", "expected 0, 1 or rotate, not `%s`; taken as 0", v);
    return MG_ONLINE_OFF;
}

/* MPIGUIDE_ONLINE_BUDGET: a share in (0, 1]; anything else an error (the default). */
static double online_budget(const mg_env *env, int *errors, mg_diag_fn diag, void *ctx) {
    const char *v = nonempty(env->get(env->ctx, "MPIGUIDE_ONLINE_BUDGET"));
    if (!v) return MG_ONLINE_BUDGET;
    char *end;
    double b = strtod(v, &end);
    if (end != v && !*end && b > 0 && b <= 1) return b;
    *errors += say(diag, ctx, 1, "MPIGUIDE_ONLINE_BUDGET",
                   "expected a share in (0, 1], not `%s`; taken as %g", v, MG_ONLINE_BUDGET);
    return MG_ONLINE_BUDGET;
}

/* Profiles are parsed with the pure name tables, so they must list the registry's algorithms
 * in its order; the registry may only add test-only rows at the end (MPIGUIDE_TEST_ALGORITHMS
 * builds), which profiles cannot name. Forced entries use the registry itself. */
static int names_match_registry(void) {
    if (mg_nalg_names > mg_nalgs || mg_ncolls != MPIGUIDE_COLL_COUNT) return 0;
    for (int i = 0; i < mg_nalgs; i++) {
        if (i >= mg_nalg_names) {
            if (!(mg_algs[i].flags & MG_AF_TESTONLY)) return 0;
        } else if (mg_alg_coll(i) != mg_algs[i].coll || strcmp(mg_alg_name(i), mg_algs[i].name)) {
            return 0;
        }
    }
    return 1;
}

typedef struct cfg_ctx {
    mg_diag_fn diag;
    void *ctx;
} cfg_ctx;

static void config_diag(void *ctx, int error, const char *where, const char *what) {
    cfg_ctx *c = ctx;
    say(c->diag, c->ctx, error, where, "%s; line ignored", what);
}

static int read_config(const char *path, mg_config *cfg, mg_diag_fn diag, void *ctx) {
    size_t n = 0;
    char *text = mg_file_read(path, CONFIG_MAX_BYTES, &n);
    if (!text) {
        char why[128];
        return say(diag, ctx, 1, path, "cannot read config file: %s",
                   mg_file_error(errno, CONFIG_MAX_BYTES, why, sizeof why));
    }
    if (strlen(text) != n) {
        free(text);
        return say(diag, ctx, 1, path, "NUL byte: not a text file; config ignored");
    }
    cfg_ctx cc = {diag, ctx};
    int bad = mg_config_parse_all(text, path, cfg, config_diag, &cc);
    free(text);
    return bad;
}

/* MPIGUIDE_NONBLOCKING: unset or empty -1 (profiles of nonblocking collectives apply under the
 * guard), 0 never, 1 always (with or without the guard); a bad value is an error, taken as 0. */
static int nonblocking_flag(const mg_env *env, int *errors, mg_diag_fn diag, void *ctx) {
    const char *v = env->get(env->ctx, "MPIGUIDE_NONBLOCKING");
    if (!v || !*v) return -1;
    if (!strcmp(v, "0") || !strcmp(v, "1")) return v[0] - '0';
    *errors +=
        say(diag, ctx, 1, "MPIGUIDE_NONBLOCKING", "expected 0 or 1, not `%s`; taken as 0", v);
    return 0;
}

/* The profiles of nonblocking collectives are left out with MPIGUIDE_NONBLOCKING=0, and when it
 * is unset and their guard cannot run (MPIGUIDE_GUARD=0, or MPIGUIDE_VERIFY=1, which leaves
 * starts alone): docs/interception.md "The guard of nonblocking collectives". */
static void drop_nonblocking(mg_profile_set *set, const char *ppath, const char *why,
                             mg_diag_fn diag, void *ctx) {
    int kept = 0, dropped = 0;
    for (int i = 0; i < set->n; i++) {
        if (mg_coll_is_nb(set->v[i].coll)) {
            mg_profile_free(&set->v[i]);
            free(set->file[i]);
            dropped++;
            continue;
        }
        set->v[kept] = set->v[i];
        set->file[kept++] = set->file[i];
    }
    set->n = kept;
    if (dropped)
        say(diag, ctx, 0, ppath, "%d profile(s) of nonblocking collectives not applied: %s",
            dropped, why);
}

int mg_settings_read(const mg_env *env, mg_settings *s, char *report_path, size_t plen,
                     void **seltab, mg_profile_set *profiles, mg_diag_fn diag, void *ctx) {
    int errors = 0;
    memset(s, 0, sizeof *s);
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) s->forced[c] = -1;
    mg_config_defaults(&s->cfg);
    *seltab = NULL;
    report_path[0] = 0;
    s->off = flag(env, "MPIGUIDE_OFF", &errors, diag, ctx);
    if (s->off) return 0; /* nothing read, nothing reported */
    s->strict = flag(env, "MPIGUIDE_STRICT", &errors, diag, ctx);
    s->verify = flag(env, "MPIGUIDE_VERIFY", &errors, diag, ctx);
    s->repair = flag(env, "MPIGUIDE_REPAIR", &errors, diag, ctx);
    s->guard = guard_flag(env, &errors, diag, ctx);
    s->nonblocking = nonblocking_flag(env, &errors, diag, ctx);
    int use_argv = flag(env, "MPIGUIDE_ARGV", &errors, diag, ctx);
    const char *rep = nonempty(env->get(env->ctx, "MPIGUIDE_REPORT"));
    if (rep && strcmp(rep, "0")) {
        s->report = strcmp(rep, "1") ? MG_REPORT_FILE : MG_REPORT_STDERR;
        snprintf(report_path, plen, "%s", rep);
    }
    const char *rec = nonempty(env->get(env->ctx, "MPIGUIDE_RECORD"));
    if (rec && strcmp(rec, "0")) {
        s->record = 1;
        snprintf(s->record_path, sizeof s->record_path, "%s", rec);
    }
    s->online = online_mode(env, &errors, diag, ctx);
    s->online_budget = online_budget(env, &errors, diag, ctx);
    const char *out = nonempty(env->get(env->ctx, "MPIGUIDE_PROFILES_OUT"));
    if (out) snprintf(s->profiles_out, sizeof s->profiles_out, "%s", out);
    if (out && !s->online)
        say(diag, ctx, 0, "MPIGUIDE_PROFILES_OUT",
            "online mode is off (MPIGUIDE_ONLINE): nothing will be learned or written");
    const char *match = nonempty(env->get(env->ctx, "MPIGUIDE_MATCH"));
    if (match && !strcmp(match, "size"))
        s->match_size = 1;
    else if (match && strcmp(match, "exact"))
        errors += say(diag, ctx, 1, "MPIGUIDE_MATCH",
                      "expected exact or size, not `%s`; taken as exact", match);
    if (!names_match_registry()) {
        errors += say(diag, ctx, 1, "libmpiguide",
                      "internal name table differs from the registry; tuning disabled");
        s->errors = errors;
        return errors;
    }
    source src[3]; /* 0: MPIGUIDE_*, 1: PGMPI_PARAMS, 2: argv */
    for (int i = 0; i < 3; i++) source_init(&src[i]);
    const char *alg = nonempty(env->get(env->ctx, "MPIGUIDE_ALG"));
    if (alg) errors += mg_settings_parse_forced(alg, "MPIGUIDE_ALG", src[0].forced, diag, ctx);
    const char *v;
    if ((v = nonempty(env->get(env->ctx, "MPIGUIDE_PROFILES")))) src[0].ppath = strdup(v);
    if ((v = nonempty(env->get(env->ctx, "MPIGUIDE_CONFIG")))) src[0].config = strdup(v);
    if ((v = nonempty(env->get(env->ctx, "PGMPI_PARAMS"))))
        errors += parse_pgmpi(v, &src[1], diag, ctx);
    if (use_argv) errors += parse_argv(env, &src[2], diag, ctx);
    const char *ppath = NULL, *config = NULL;
    for (int i = 2; i >= 0; i--) {
        for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
            if (src[i].forced[c] >= 0) s->forced[c] = src[i].forced[c];
        if (src[i].ppath) ppath = src[i].ppath;
        if (src[i].config) config = src[i].config;
    }
    if (config) errors += read_config(config, &s->cfg, diag, ctx);
    if (ppath) {
        errors += mg_profiles_load(ppath, profiles, diag, ctx);
        if (!s->nonblocking)
            drop_nonblocking(profiles, ppath, "MPIGUIDE_NONBLOCKING=0", diag, ctx);
        else if (s->nonblocking < 0 && (!s->guard || s->verify))
            drop_nonblocking(profiles, ppath,
                             s->guard ? "MPIGUIDE_VERIFY=1 leaves their guard off; "
                                        "MPIGUIDE_NONBLOCKING=1 applies them"
                                      : "MPIGUIDE_GUARD=0 leaves them without a guard; "
                                        "MPIGUIDE_NONBLOCKING=1 applies them",
                             diag, ctx);
        mg_libalg_resolve_profiles(profiles, mg_libalg_mpi(), diag, ctx);
        size_t bytes = 0;
        if (profiles->n && mg_seltab_build(profiles, seltab, &bytes))
            errors += say(diag, ctx, 1, ppath, "profiles too large (over 1 GiB); ignored");
        if (s->match_size) mg_seltab_match_size(*seltab);
        s->seltab_bytes = *seltab ? bytes : 0;
        for (int i = 0; i < profiles->n; i++)
            if (profiles->v[i].nodes || profiles->v[i].ppn) s->provenance = 1;
    }
    for (int i = 0; i < 3; i++) source_free(&src[i]);
    s->errors = errors;
    return errors;
}

static const char *process_get(void *ctx, const char *name) {
    (void)ctx;
    return getenv(name);
}

mg_env mg_env_process(int argc, char **argv) {
    mg_env e = {process_get, NULL, argc, argv};
    return e;
}
