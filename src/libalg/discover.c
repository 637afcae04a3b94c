/* Discovery of library algorithms through MPI_T, at run time and never from a list per
 * version: for every intercepted collective the algorithm-selection control variable (Open MPI:
 * coll_tuned_<coll>_algorithm, MPICH: MPIR_CVAR_<COLL>_INTRA_ALGORITHM) and its items, from
 * the variable's MPI_T enumeration or, where the library exports none (MPICH 4.0), from its
 * description (desc.c). Then all ranks agree on the result. Also the preparation Open MPI needs
 * before MPI_Init, and the handles the runner writes through. */
#define _GNU_SOURCE
#include "libalg_mpi.h"
#include "runtime/mpi_family.h"
#include "runtime/state.h"
#include "util/diag.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* The control variable of each collective, -1 index when it has none. */
static struct {
    int idx;
    MPI_T_cvar_handle h;
} var[MPIGUIDE_COLL_COUNT];
static int t_started;            /* MPI_T initialised by us */
static MPI_T_cvar_handle dev_h;  /* MPICH: MPIR_CVAR_DEVICE_COLLECTIVES */
static int dev_none = -1;        /* its value "none": MPIR-level algorithms only */
static int we_set_dynamic_rules; /* mg_libalg_preinit enabled Open MPI's dynamic rules */
static char preinit_note[300];   /* why it did not, when the environment decided */
static char activated[300];      /* Open MPI settings that dynamic rules brought into effect */
int mg_libalg_multinode;         /* MPI_COMM_WORLD spans several nodes (MG_LR_MULTINODE) */

#ifdef OPEN_MPI
/* Open MPI 4.1's MPI_T_init_thread after MPI_Init registers every framework again and so reopens
 * the components MPI_Init had opened and closed; in Debian's build two of them load
 * libinfinipath and libpsm2, whose constructors sleep 100 ms each: 0.21 s more per launch.
 * Started before PMPI_Init (as the standard allows), MPI_T keeps them open and MPI_Init finds
 * them loaded, so the launch costs what it costs without libmpiguide. Before MPI_Init, MPI_T's
 * thread level does not set the one MPI_Query_thread reports (checked with 4.1.4). */
static void start_mpit_early(int level) {
    int provided;
    if (!t_started && PMPI_T_init_thread(level, &provided) == MPI_SUCCESS) t_started = 1;
}

/* Sets OMPI_MCA_coll_tuned_use_dynamic_rules=1 unless the environment already decides. */
static void enable_dynamic_rules(void) {
    if (getenv("OMPI_MCA_coll_tuned_use_dynamic_rules")) return;
    /* Forced algorithms or a rules file in the environment have no effect without dynamic
     * rules; turning them on would change the default, so the environment decides. */
    for (char **e = environ; e && *e; e++) {
        static const char pre[] = "OMPI_MCA_coll_tuned_";
        if (strncmp(*e, pre, sizeof pre - 1)) continue;
        const char *v = *e + sizeof pre - 1, *eq = strchr(v, '=');
        size_t n = eq ? (size_t)(eq - v) : strlen(v);
        if ((n > 10 && !strncmp(v + n - 10, "_algorithm", 10)) ||
            (n == 22 && !strncmp(v, "dynamic_rules_filename", 22))) {
            snprintf(preinit_note, sizeof preinit_note,
                     "the environment sets %.*s without coll_tuned_use_dynamic_rules, which "
                     "libmpiguide therefore left off (turning it on would change the default)",
                     (int)(n + 20), *e);
            return;
        }
    }
    if (!setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0)) we_set_dynamic_rules = 1;
}
#endif

void mg_libalg_preinit(int level) {
#ifdef OPEN_MPI
    const char *off = getenv("MPIGUIDE_OFF");
    if (off && !strcmp(off, "1")) return;
    enable_dynamic_rules();
    start_mpit_early(level);
#else
    (void)level;
#endif
}

static int cvar_info(int idx, char *name, int nlen, MPI_Datatype *dt, MPI_T_enum *en, char *desc,
                     int dlen) {
    int verb, bind, scope;
    return PMPI_T_cvar_get_info(idx, name, &nlen, &verb, dt, en, desc, &dlen, &bind, &scope);
}

/* The control variable of collective c under one of the naming schemes; -1 when none. Open MPI's
 * nonblocking collectives are libnbc's (coll_libnbc_<coll>_algorithm, read at every start). */
static int find_var(int c, char *name, size_t len) {
    char up[64];
    const char *s = mg_coll_short(c);
    size_t i = 0;
    for (; s[i] && i + 1 < sizeof up; i++) up[i] = (char)toupper((unsigned char)s[i]);
    up[i] = 0;
    const char *pattern[] = {"coll_tuned_%s_algorithm", "MPIR_CVAR_%s_INTRA_ALGORITHM",
                             "coll_libnbc_%s_algorithm"};
    for (int k = 0; k < 3; k++) {
        int idx;
        snprintf(name, len, pattern[k], k == 1 ? up : s);
        if (PMPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS) return idx;
    }
    return -1;
}

static int read_int(MPI_T_cvar_handle h, int *v) {
    int buf[4] = {0}; /* room for a wider type than int (a boolean is narrower) */
    int rc = PMPI_T_cvar_read(h, buf);
    *v = buf[0];
    return rc;
}

static int handle_of(int idx, MPI_T_cvar_handle *h) {
    int count = 0;
    int rc = PMPI_T_cvar_handle_alloc(idx, NULL, h, &count);
    if (rc == MPI_SUCCESS && count != 1) {
        PMPI_T_cvar_handle_free(h);
        rc = MPI_ERR_OTHER;
    }
    return rc;
}

/* An integer variable by name (a boolean reads as 0/1); -1 when absent. */
static int read_named(const char *name, int *v) {
    int idx;
    MPI_T_cvar_handle h;
    if (PMPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS || handle_of(idx, &h) != MPI_SUCCESS)
        return -1;
    int rc = read_int(h, v);
    PMPI_T_cvar_handle_free(&h);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* A string variable by name into buf; -1 when absent. */
static int read_string(const char *name, char *buf, size_t len) {
    int idx, count = 0;
    MPI_T_cvar_handle h;
    char nm[128], tmp[4096];
    MPI_Datatype dt;
    MPI_T_enum en;
    buf[0] = 0;
    if (PMPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS ||
        cvar_info(idx, nm, sizeof nm, &dt, &en, NULL, 0) != MPI_SUCCESS || dt != MPI_CHAR ||
        PMPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS)
        return -1;
    int rc = count > 0 && count < (int)sizeof tmp ? PMPI_T_cvar_read(h, tmp) : MPI_ERR_OTHER;
    PMPI_T_cvar_handle_free(&h);
    if (rc != MPI_SUCCESS) return -1;
    tmp[count] = 0;
    snprintf(buf, len, "%.*s", (int)len - 1, tmp);
    return 0;
}

/* The items of variable idx: (value, item) pairs from its enumeration, else from its
 * description. Returns how many, -1 when neither names them. */
static int items_of(int idx, const mg_desc_vocab *voc, int *values, char items[][MG_LIBALG_ITEM],
                    int max) {
    char nm[128], desc[8192];
    MPI_Datatype dt;
    MPI_T_enum en = MPI_T_ENUM_NULL;
    if (cvar_info(idx, nm, sizeof nm, &dt, &en, desc, sizeof desc) != MPI_SUCCESS || dt != MPI_INT)
        return -1;
    if (en != MPI_T_ENUM_NULL) {
        int n = 0, nlen = sizeof nm;
        if (PMPI_T_enum_get_info(en, &n, nm, &nlen) != MPI_SUCCESS) return -1;
        int k = 0;
        for (int i = 0; i < n && k < max; i++) {
            int len = MG_LIBALG_ITEM;
            if (PMPI_T_enum_get_item(en, i, &values[k], items[k], &len) == MPI_SUCCESS) k++;
        }
        return k;
    }
    int n = mg_desc_items(desc, voc, items, max);
    for (int i = 0; i < n; i++) values[i] = i;
    return n;
}

/* MPICH's switch between the device's collectives and the MPIR-level ones, whose algorithm
 * variables are read only on the MPIR path: the runner selects "none" during the call. */
static void find_device_switch(void) {
    int idx;
    char nm[128], desc[4096];
    MPI_Datatype dt;
    MPI_T_enum en;
    dev_none = -1;
    if (PMPI_T_cvar_get_index("MPIR_CVAR_DEVICE_COLLECTIVES", &idx) != MPI_SUCCESS ||
        cvar_info(idx, nm, sizeof nm, &dt, &en, desc, sizeof desc) != MPI_SUCCESS || dt != MPI_INT)
        return;
    if (en != MPI_T_ENUM_NULL) {
        int n = 0, nlen = sizeof nm;
        PMPI_T_enum_get_info(en, &n, nm, &nlen);
        for (int i = 0; i < n; i++) {
            int v, len = sizeof nm;
            if (PMPI_T_enum_get_item(en, i, &v, nm, &len) == MPI_SUCCESS && !strcmp(nm, "none"))
                dev_none = v;
        }
    } else {
        dev_none = mg_desc_index(desc, "none");
    }
    if (dev_none >= 0 && handle_of(idx, &dev_h) != MPI_SUCCESS) dev_none = -1;
}

static void free_handles(void) {
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        if (var[c].idx >= 0 && var[c].h != MPI_T_CVAR_HANDLE_NULL)
            PMPI_T_cvar_handle_free(&var[c].h);
        var[c].idx = -1;
        var[c].h = MPI_T_CVAR_HANDLE_NULL;
    }
    if (dev_none >= 0) PMPI_T_cvar_handle_free(&dev_h);
    dev_none = -1;
}

/* Turns library algorithms off with a reason, keeping the MPI's name. */
static void off(int first_id, const char *why) {
    mg_libalg_reset(first_id);
    mg_libalg_set_mpi(MG_BUILT_FOR);
    mg_libalg_set_off(why);
    free_handles();
}

static int discover(int first_id, int for_run) {
    static const char none[] = "this MPI has no algorithm-selection control variables "
                               "(coll_tuned_<coll>_algorithm, MPIR_CVAR_<COLL>_INTRA_ALGORITHM)";
    mg_libalg_reset(first_id);
    mg_libalg_set_mpi(MG_BUILT_FOR);
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++)
        var[c].idx = -1, var[c].h = MPI_T_CVAR_HANDLE_NULL;
    if (!t_started) {
        /* Open MPI 4.1's MPI_T_init_thread sets the thread level MPI_Query_thread reports to the
         * one it is given: ask for the level the program already has */
        int provided, level = MPI_THREAD_SINGLE, inited = 0;
        PMPI_Initialized(&inited);
        if (inited) PMPI_Query_thread(&level);
        if (PMPI_T_init_thread(level, &provided) != MPI_SUCCESS) {
            off(first_id, "MPI_T could not be initialised");
            return 0;
        }
        t_started = 1;
    }
    if (for_run && !strcmp(MG_BUILT_FOR, "openmpi")) {
        int dyn = 0;
        if (read_named("coll_tuned_use_dynamic_rules", &dyn) == 0 && !dyn) {
            char why[600];
            snprintf(why, sizeof why,
                     "Open MPI's coll_tuned_use_dynamic_rules is false at MPI_Init, so it ignores "
                     "coll_tuned_<coll>_algorithm (%s)",
                     preinit_note[0] ? preinit_note : "set to 0 by the user");
            off(first_id, why);
            return 0;
        }
    }
    /* First every description, for the words of unambiguous items (desc.c). */
    static mg_desc_vocab voc;
    memset(&voc, 0, sizeof voc);
    char name[128], desc[8192];
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        MPI_Datatype dt;
        MPI_T_enum en;
        int idx = (mg_coll_flags(c) & MG_CF_INTERCEPT) ? find_var(c, name, sizeof name) : -1;
        if (idx >= 0 &&
            cvar_info(idx, name, sizeof name, &dt, &en, desc, sizeof desc) == MPI_SUCCESS)
            mg_desc_vocab_add(&voc, desc);
    }
    int found = 0, nvars = 0;
    activated[0] = 0;
    for (int c = 0; c < MPIGUIDE_COLL_COUNT; c++) {
        if (!(mg_coll_flags(c) & MG_CF_INTERCEPT)) continue;
        int idx = find_var(c, name, sizeof name);
        if (idx < 0) continue;
        int values[64];
        char items[64][MG_LIBALG_ITEM];
        int n = items_of(idx, &voc, values, items, 64);
        MPI_T_cvar_handle h;
        int cur = 0;
        /* The variable must be readable and writable now (a write of its own value). */
        if (n <= 0 || handle_of(idx, &h) != MPI_SUCCESS) continue;
        if (read_int(h, &cur) != MPI_SUCCESS || PMPI_T_cvar_write(h, &cur) != MPI_SUCCESS) {
            PMPI_T_cvar_handle_free(&h);
            continue;
        }
        if (cur != 0 && we_set_dynamic_rules && !activated[0])
            snprintf(activated, sizeof activated, "%s=%d", name, cur);
        var[c].idx = idx;
        var[c].h = h;
        nvars++;
        for (int i = 0; i < n; i++) {
            if (mg_libalg_item_is_default(items[i])) continue;
            mg_libalg e = {0};
            e.coll = c;
            if (mg_libalg_make_name(c, items[i], e.name, sizeof e.name)) continue;
            snprintf(e.item, sizeof e.item, "%.*s", (int)sizeof e.item - 1, items[i]);
            snprintf(e.mpi, sizeof e.mpi, "%s", MG_BUILT_FOR);
            snprintf(e.var, sizeof e.var, "%.*s", (int)sizeof e.var - 1, name);
            e.value = values[i];
            e.restrict_bits = mg_libalg_restrictions(MG_BUILT_FOR, c, items[i], NULL);
            e.runnable = 1;
            if (mg_libalg_add(&e) >= 0) found++;
        }
    }
    if (!nvars) {
        off(first_id, none);
        return 0;
    }
    if (!strcmp(MG_BUILT_FOR, "mpich")) find_device_switch();
    if (for_run && we_set_dynamic_rules && !activated[0]) {
        char file[1024];
        if (read_string("coll_tuned_dynamic_rules_filename", file, sizeof file) == 0 && file[0])
            snprintf(activated, sizeof activated, "coll_tuned_dynamic_rules_filename=%s", file);
    }
    return found;
}

int mg_libalg_discover(int first_id) {
    return discover(first_id, 1);
}

/* FNV-1a over everything that must be equal on all ranks: the discovered entries (rank 0 adds
 * named-only ones while it reads profiles; they never run). */
static uint64_t table_hash(void) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < mg_libalg_nrunnable(); i++) {
        const mg_libalg *e = mg_libalg_at(i);
        char line[256];
        int n = snprintf(line, sizeof line, "%d %s %d %u;", e->coll, e->name, e->value,
                         e->restrict_bits);
        for (int k = 0; k < n; k++) h = (h ^ (unsigned char)line[k]) * 1099511628211ull;
    }
    return h;
}

int mg_libalg_agree(void) {
    uint64_t h = table_hash();
    int first = mg_libalg_first_id();
    /* min and max of (on, count, hash halves) in one call: equal everywhere iff min == max */
    long long mine[8], all[8];
    long long on = mg_libalg_off() == NULL, n = mg_libalg_nrunnable();
    long long lo = (long long)(h & 0x7fffffff), hi = (long long)((h >> 32) & 0x7fffffff);
    long long v[4] = {on, n, lo, hi};
    for (int i = 0; i < 4; i++) mine[i] = v[i], mine[4 + i] = -v[i];
    int rc = PMPI_Allreduce(mine, all, 8, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        off(first, "the ranks could not agree on library algorithms (MPI error)");
        return rc;
    }
    int same = 1;
    for (int i = 1; i < 4; i++) same &= all[i] == -all[4 + i];
    if (!all[0] || !same) {
        if (on)
            off(first, !all[0] ? "library algorithms are off on another rank"
                               : "the ranks found different library algorithms (a different MPI "
                                 "library or environment on some rank)");
        return MPI_SUCCESS;
    }
    /* One node or several: MPICH's node-aware algorithms need several. */
    MPI_Comm local;
    int lsize = 0, wsize = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        PMPI_Comm_size(local, &lsize);
        PMPI_Comm_free(&local);
    }
    int single = lsize == wsize, all_single = 1;
    PMPI_Allreduce(&single, &all_single, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    mg_libalg_multinode = !all_single;
    if (activated[0] && mg_rt.rank == 0)
        mg_warning("libmpiguide",
                   "Open MPI: %s comes into effect because libmpiguide turned on "
                   "coll_tuned_use_dynamic_rules (set OMPI_MCA_coll_tuned_use_dynamic_rules=0 "
                   "to keep it off, which also turns library algorithms off)",
                   activated);
    return MPI_SUCCESS;
}

/* The runner's access to the variables (run.c): write `value` keeping the old one. */
int mg_libalg_var_set(int coll, int value, int *old) {
    if (var[coll].idx < 0) return MPI_ERR_OTHER;
    int rc = read_int(var[coll].h, old);
    return rc == MPI_SUCCESS ? PMPI_T_cvar_write(var[coll].h, &value) : rc;
}

int mg_libalg_var_restore(int coll, int old) {
    return var[coll].idx < 0 ? MPI_ERR_OTHER : PMPI_T_cvar_write(var[coll].h, &old);
}

/* MPICH: route the call to the MPIR level for the duration of one call. */
int mg_libalg_device_set(int *old) {
    if (dev_none < 0) return -1;
    if (read_int(dev_h, old) != MPI_SUCCESS) return -1;
    return PMPI_T_cvar_write(dev_h, &dev_none) == MPI_SUCCESS ? 0 : -1;
}

void mg_libalg_device_restore(int old) {
    PMPI_T_cvar_write(dev_h, &old);
}

void mg_libalg_discover_stop(void) {
    free_handles();
    if (t_started) PMPI_T_finalize();
    t_started = 0;
}

/* The public listing without MPI_Init (names and values only; they cannot run). */
MG_EXPORT int mpiguide_library_probe(void) {
    if (mg_rt.started) return mg_libalg_count();
    int n = discover(mg_nalg_names, 0);
    return n;
}
