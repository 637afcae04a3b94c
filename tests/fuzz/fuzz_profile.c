/* libFuzzer harness for the profile parser and the selection table built from what it
 * accepts: no crash, no leak, and every accepted profile is sorted, disjoint, and looked up
 * by the table exactly as by a linear scan. Replayed on the committed corpus by the unit test
 * test_fuzz_corpus in every build. */
#include "profile/profile.h"
#include "profile/seltab.h"
#include <stdint.h>
#include <stdlib.h>

#ifndef MG_FUZZ_PROFILE_ENTRY
#define MG_FUZZ_PROFILE_ENTRY LLVMFuzzerTestOneInput
#endif

#define MG_FUZZ_ASSERT(c)                                                                          \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)

int MG_FUZZ_PROFILE_ENTRY(const uint8_t *data, size_t size);

int MG_FUZZ_PROFILE_ENTRY(const uint8_t *data, size_t size) {
    mg_profile p;
    mg_perr err;
    if (mg_profile_parse((const char *)data, size, &p, &err)) {
        MG_FUZZ_ASSERT(err.what[0] && err.line >= 0 && !p.ranges);
        return 0;
    }
    MG_FUZZ_ASSERT(p.p >= 1 && p.coll >= 0);
    for (int i = 0; i < p.nranges; i++) {
        MG_FUZZ_ASSERT(p.ranges[i].lo <= p.ranges[i].hi && p.ranges[i].lo >= 0);
        MG_FUZZ_ASSERT(i == 0 || p.ranges[i - 1].hi < p.ranges[i].lo);
    }
    mg_profile_set set = {1, 1, &p, NULL};
    void *block = NULL;
    size_t bytes = 0;
    mg_selview v;
    if (mg_seltab_build(&set, &block, &bytes) == 0) {
        MG_FUZZ_ASSERT(mg_seltab_view(block, bytes, &v) == 0);
        int prof = mg_seltab_find(&v, p.coll, p.p);
        MG_FUZZ_ASSERT(prof == 0);
        for (int i = 0; i < p.nranges; i++) {
            int64_t probe[4] = {p.ranges[i].lo, p.ranges[i].hi, p.ranges[i].lo - 1,
                                p.ranges[i].hi < INT64_MAX ? p.ranges[i].hi + 1 : 0};
            for (int k = 0; k < 4; k++)
                MG_FUZZ_ASSERT(mg_seltab_search(&v, prof, probe[k]) ==
                               mg_profile_select_linear(&p, probe[k]));
        }
        free(block);
    }
    mg_profile_free(&p);
    return 0;
}
