/* Replays the committed fuzz corpora (tests/fuzz/corpus/{profile,config,record,json}) through the
 * libFuzzer harnesses in every build, plus every prefix and a byte flip of each profile input,
 * so the parsers' invariants are checked even where clang's -fsanitize=fuzzer is missing.
 * A violated invariant traps (the test then fails). */
#define MG_FUZZ_PROFILE_ENTRY fuzz_profile_one
#define MG_FUZZ_CONFIG_ENTRY  fuzz_config_one
#define MG_FUZZ_RECORD_ENTRY  fuzz_record_one
#define MG_FUZZ_JSON_ENTRY    fuzz_json_one
#include "../fuzz/fuzz_config.c"
#include "../fuzz/fuzz_json.c"
#include "../fuzz/fuzz_profile.c"
#include "../fuzz/fuzz_record.c"
#include "check.h"
#include <dirent.h>
#include <stdio.h>

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = malloc(1 << 20);
    *n = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

static int replay(const char *sub, int (*one)(const uint8_t *, size_t), int mutate) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", MG_SOURCE_DIR, sub);
    DIR *d = opendir(dir);
    CHECK(d != NULL, "corpus %s", dir);
    if (!d) return 0;
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[8300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = 0;
        unsigned char *buf = slurp(path, &n);
        if (!buf) continue;
        files++;
        one(buf, n);
        for (size_t cut = 0; mutate && cut < n; cut++) one(buf, cut);
        for (size_t i = 0; mutate && i < n; i += 7) {
            unsigned char keep = buf[i];
            buf[i] = (unsigned char)(keep ^ 0x11);
            one(buf, n);
            buf[i] = keep;
        }
        free(buf);
    }
    closedir(d);
    return files;
}

int main(void) {
    int p = replay("profile", fuzz_profile_one, 1);
    int c = replay("config", fuzz_config_one, 1);
    int r = replay("record", fuzz_record_one, 1);
    int j = replay("json", fuzz_json_one, 1);
    CHECK(j >= 5, "json corpus has %d inputs", j);
    CHECK(p >= 10, "profile corpus has %d inputs", p);
    CHECK(c >= 4, "config corpus has %d inputs", c);
    CHECK(r >= 6, "record corpus has %d inputs", r);
    printf("replayed %d profile, %d config and %d record inputs\n", p, c, r);
    return DONE();
}
