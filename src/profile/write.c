/* Writing profiles: the format of docs/dev/interfaces.md section 8 that parse.c reads, so the
 * two stay each other's inverse (test_profile renders and parses back). */
#include "profile.h"
#include "util/sbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *mg_profile_render(const char *coll, int p, const mg_profile_kv *prov, int nprov,
                        const char *comment, const mg_profile_wrange *r, int nr) {
    const char **names = malloc((size_t)(nr ? nr : 1) * sizeof *names);
    if (!names) return NULL;
    int nnames = 0;
    for (int i = 0; i < nr; i++) {
        int seen = 0;
        for (int j = 0; j < nnames; j++) seen |= !strcmp(names[j], r[i].alg);
        if (!seen) names[nnames++] = r[i].alg;
    }
    mg_sbuf b = {0};
    mg_sbuf_printf(&b, "# mpiguide profile of %s for %d processes\n", coll, p);
    for (int i = 0; i < nprov; i++)
        if (prov[i].val && prov[i].val[0])
            mg_sbuf_printf(&b, "#@%s=%s\n", prov[i].key, prov[i].val);
    if (comment) mg_sbuf_printf(&b, "%s", comment);
    mg_sbuf_printf(&b, "%s\n%d\n%d\n", coll, p, nnames);
    for (int j = 0; j < nnames; j++) mg_sbuf_printf(&b, "%d %s\n", j + 1, names[j]);
    mg_sbuf_printf(&b, "%d\n", nr);
    for (int i = 0; i < nr; i++) {
        int id = 0;
        for (int j = 0; j < nnames && !id; j++)
            if (!strcmp(names[j], r[i].alg)) id = j + 1;
        mg_sbuf_printf(&b, "%lld %lld %d\n", (long long)r[i].lo, (long long)r[i].hi, id);
    }
    free(names);
    return mg_sbuf_take(&b);
}
