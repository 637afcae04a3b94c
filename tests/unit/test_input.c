/* Input-file parser of check/tune: continuation, comments, line numbers, errors. */
#include "check.h"
#include "cli/check_input.h"
#include <string.h>

int main(void) {
    char err[256];
    mg_input in;
    const char *text = "# a comment\n"
                       "MPI_Bcast --msizes-list=1,8 --nrep=5   # trailing comment\n"
                       "\n"
                       "MPI_Allreduce --msizes-list=1 \\\n"
                       "   --nrep=7\n"
                       "MPI_Scan";
    CHECK(mg_input_parse(text, "in.txt", &in, err, sizeof err) == 0, "parse failed: %s", err);
    CHECK(in.n == 3, "entries: %d", in.n);
    if (in.n == 3) {
        CHECK(!strcmp(in.lines[0].call, "MPI_Bcast") && in.lines[0].lineno == 2, "first entry");
        CHECK(in.lines[0].argc == 2 && !strcmp(in.lines[0].argv[1], "--nrep=5"), "first argv");
        CHECK(!strcmp(in.lines[1].call, "MPI_Allreduce") && in.lines[1].lineno == 4,
              "continued entry starts at line 4, got %d", in.lines[1].lineno);
        CHECK(in.lines[1].argc == 2 && !strcmp(in.lines[1].argv[1], "--nrep=7"),
              "continuation joins options");
        CHECK(!strcmp(in.lines[2].call, "MPI_Scan") && in.lines[2].argc == 0, "last line no nl");
    }
    mg_input_free(&in);

    static const struct {
        const char *text, *error;
    } bad[] = {
        {"MPI_Bcast --nrep=1\nBcast --nrep=2\n", "in.txt:2: expected an MPI collective"},
        {"\n\n--nrep=3\n", "in.txt:3: expected an MPI collective"},
        {"MPI_ --nrep=3\n", "in.txt:1: expected"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        int rc = mg_input_parse(bad[i].text, "in.txt", &in, err, sizeof err);
        CHECK(rc == -1 && !strncmp(err, bad[i].error, strlen(bad[i].error)),
              "case %zu: rc %d err '%s', want '%s'", i, rc, err, bad[i].error);
    }
    CHECK(mg_input_parse("", "in.txt", &in, err, sizeof err) == 0 && in.n == 0, "empty file");
    mg_input_free(&in);
    return DONE();
}
