/* libFuzzer harness for the config parser: any bytes, no crash; every reported problem names
 * a line of the input. Replayed on the committed corpus by test_fuzz_corpus. */
#include "config/config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef MG_FUZZ_CONFIG_ENTRY
#define MG_FUZZ_CONFIG_ENTRY LLVMFuzzerTestOneInput
#endif

static void count(void *ctx, int error, const char *where, const char *what) {
    (void)error;
    if (strncmp(where, "fuzz.cfg:", 9) || !what[0]) __builtin_trap();
    ++*(int *)ctx;
}

int MG_FUZZ_CONFIG_ENTRY(const uint8_t *data, size_t size);

int MG_FUZZ_CONFIG_ENTRY(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    mg_config c;
    mg_config_defaults(&c);
    int n = 0;
    int bad = mg_config_parse_all(text, "fuzz.cfg", &c, count, &n);
    if (bad != n || (c.tune_user_ops != 0 && c.tune_user_ops != 1)) __builtin_trap();
    free(text);
    return 0;
}
