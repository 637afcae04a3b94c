/* libFuzzer harness for the JSON scanner and the MPICH selection writer of `mpiguide export`
 * (its --base file is user input): no crash, no leak; a base the scanner accepts either has
 * no "collective=bcast" (the writer refuses it with a reason) or the writer's output is valid
 * JSON again. Replayed on the committed corpus by the unit test test_fuzz_corpus. */
#include "catalog/catalog.h"
#include "export/tuning_files.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef MG_FUZZ_JSON_ENTRY
#define MG_FUZZ_JSON_ENTRY LLVMFuzzerTestOneInput
#endif

#define MG_FUZZ_JSON_ASSERT(c)                                                                     \
    do {                                                                                           \
        if (!(c)) __builtin_trap();                                                                \
    } while (0)

int MG_FUZZ_JSON_ENTRY(const uint8_t *data, size_t size);

int MG_FUZZ_JSON_ENTRY(const uint8_t *data, size_t size) {
    const char *t = (const char *)data;
    if (!mg_json_valid(t, size)) return 0;
    mg_xrange r[] = {{0, 64, 0, 0, 0, "MPIR_Bcast_intra_binomial"},
                     {128, INT64_MAX, 0, 0, 0, "MPIR_Bcast_intra_smp"}};
    mg_xentry e[] = {{MG_CAT_BCAST, 3, 2, r}, {MG_CAT_BCAST, 5, 1, r}};
    char why[200] = "";
    char *out = mg_export_mpich_json(e, 2, t, size, why, sizeof why);
    MG_FUZZ_JSON_ASSERT(out || why[0]);
    if (out) MG_FUZZ_JSON_ASSERT(mg_json_valid(out, strlen(out)));
    free(out);
    return 0;
}
