/* Option parsing of `mpiguide bench`: every option and ReproMPI alias, and every error names the
 * option at fault. Each case is a command line; a failure prints it. */
#include "check.h"
#include "bench/options.h"
#include <string.h>

/* Splits a command line at spaces into argv (at most 32 words). */
static int split(const char *line, char *buf, size_t len, char **argv) {
    int argc = 0;
    snprintf(buf, len, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " ")) argv[argc++] = t;
    return argc;
}

static int parse(const char *line, mg_bench_opts *o, char *err, size_t errlen) {
    char buf[1024], *argv[32];
    int argc = split(line, buf, sizeof buf, argv);
    mg_bench_defaults(o);
    return mg_bench_parse(argc, argv, o, err, errlen);
}

/* Lines that must be rejected (exit code 2) and the text the message must start with. */
static const struct {
    const char *line, *err_prefix;
} bad[] = {
    {"--nrpe=100", "--nrpe: unknown option"},
    {"--rt-bench-time=2000", "--rt-bench-time: unknown option"},
    {"nrep=5", "nrep=5: not an option"},
    {"-n 5", "-n: not an option"},
    {"--", "--: not an option"},
    {"--nrep=0", "--nrep: 0 is out of range"},
    {"--nrep=-3", "--nrep: -3 is out of range"},
    {"--nrep=1e3", "--nrep: '1e3' is not a whole number"},
    {"--nrep=ten", "--nrep: 'ten' is not a number"},
    {"--nrep=", "--nrep: missing value"},
    {"--nrep", "--nrep: missing value"},
    {"--nrep=99999999999999999999", "--nrep: '99999999999999999999' is out of range"},
    {"--calls-list=MPI_Bcats", "--calls-list: unknown collective 'MPI_Bcats'"},
    {"--calls-list=MPI_Bcast,,MPI_Gather", "--calls-list: empty item"},
    {"--calls-list=", "--calls-list: missing value"},
    {"--algs=foo-bar", "--algs: 'foo-bar' is not an algorithm name"},
    {"--msizes-list=1,x", "--msizes-list: 'x' is not a number"},
    {"--msizes-list=-1", "--msizes-list: -1 is out of range"},
    {"--msizes-list=8Q", "--msizes-list: '8Q' is not a whole number"},
    {"--msize-interval=min=3", "--msize-interval: needs min=E1,max=E2"},
    {"--msize-interval=min=5,max=3", "--msize-interval: min 5 > max 3"},
    {"--msize-interval=min=1,max=2,stp=1", "--msize-interval: unknown key 'stp'"},
    {"--msize-interval=min=1,max=99", "--msize-interval: 99 is out of range"},
    {"--msize-interval=3", "--msize-interval: '3' is not key=value"},
    {"--rt-bench-time-ms=0", "--rt-bench-time-ms: '0' is out of range"},
    {"--rt-bench-time-ms=abc", "--rt-bench-time-ms: 'abc' is not a number"},
    {"--rt-barrier-count=-1", "--rt-barrier-count: -1 is out of range"},
    {"--root=-1", "--root: -1 is out of range"},
    {"--root-proc=x", "--root-proc: 'x' is not a number"},
    {"--op=MPI_SUMM", "--op: unknown op 'MPI_SUMM'"},
    {"--operation=sum", "--operation: unknown op 'sum'"},
    {"--datatype=MPI_INTEGER", "--datatype: unknown datatype 'MPI_INTEGER'"},
    {"--shuffle=1", "--shuffle: takes no value"},
    {"--shuffle-jobs=yes", "--shuffle-jobs: takes no value"},
    {"--proc-sync=barrier", "--proc-sync: unknown method 'barrier'"},
    {"--runtime-type=max", "--runtime-type: unknown type 'max'"},
    {"--summary=median,p99", "--summary: unknown statistic 'p99'"},
    {"--output-file=", "--output-file: missing value"},
    {"--resume", "--resume: needs --output-file"},
    {"--verify=1", "--verify: takes no value"},
    {"--quiet=0", "--quiet: takes no value"},
    {"--warmup=-2", "--warmup: -2 is out of range"},
    {"--seed=-5", "--seed: '-5' is not a seed"},
    {"--seed=12x", "--seed: '12x' is not a seed"},
    {"--irregular=zigzag", "--irregular: unknown problem type 'zigzag'"},
    {"--b=4", "--b: needs --irregular=TYPE"},
    {"--irregular=same --b=-1", "--b: -1 is out of range"},
    {"--rho=0.5", "--rho: '0.5' is out of range"},
    {"--table", "--table: needs --irregular=TYPE"},
    {"--irregular=all", "--irregular: 'all' needs --table"},
    {"--irregular=same --table --output-file=x --resume",
     "--table: cannot be combined with --resume"},
    {"--irregular=same --table --nrep-file=n.txt", "--table: takes --nrep, not --nrep-file"},
    {"--irregular=same --table --calls-list=MPI_Bcast,MPI_Gather",
     "--table: needs MPI_Gatherv or MPI_Scatterv"},
    {"--window-size=0", "--window-size: '0' is out of range"},
    {"--fitpoints=1", "--fitpoints: 1 is out of range"},
    {"--exchanges=0", "--exchanges: 0 is out of range"},
    {"--datatype=MPI_INT --msizes-list=1,8", "--msizes-list: 1 bytes is not a multiple"},
    {"--datatype=MPI_DOUBLE --op=MPI_BOR --calls-list=MPI_Allreduce",
     "--op: MPI_BOR does not apply"},
    {"--datatype=MPI_CHAR --op=MPI_MAX --calls-list=MPI_Reduce", "--op: MPI_MAX does not apply"},
    {"--help=yes", "--help: takes no value"},
    {"--comm-sizes=0", "--comm-sizes: 0 is out of range"},
    {"--comm-sizes=4,2,4", "--comm-sizes: 4 listed twice"},
    {"--comm-sizes=two", "--comm-sizes: 'two' is not a number"},
    {"--roots=rotat", "--roots: 'rotat' is not a number"},
    {"--roots=-1", "--roots: -1 is out of range"},
    {"--roots=0,1,0", "--roots: 0 listed twice"},
    {"--root=1 --roots=rotate", "--roots: cannot be combined with --root"},
    {"--back-to-back=0", "--back-to-back: 0 is out of range"},
    {"--back-to-back", "--back-to-back: missing value"},
    {"--irregular=same --table --comm-sizes=2", "--table: measures the paper's fixed"},
};

static void test_errors(void) {
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mg_bench_opts o;
        char err[600];
        int rc = parse(bad[i].line, &o, err, sizeof err);
        CHECK(rc == 2, "line '%s': rc %d, want 2", bad[i].line, rc);
        CHECK(!strncmp(err, bad[i].err_prefix, strlen(bad[i].err_prefix)),
              "line '%s': message '%s', want prefix '%s'", bad[i].line, err, bad[i].err_prefix);
        mg_bench_opts_free(&o);
    }
}

static void test_defaults(void) {
    mg_bench_opts o;
    char err[600];
    CHECK(parse("", &o, err, sizeof err) == 0, "empty line: %s", err);
    int blocking = 0;
    for (int c = 0; c < mg_ncolls; c++) blocking += !mg_coll_is_nb(c);
    CHECK(o.ncalls == blocking && blocking < mg_ncolls && !mg_coll_is_nb(o.calls[o.ncalls - 1]),
          "every blocking collective by default: %d of %d", o.ncalls, mg_ncolls);
    CHECK(o.nalgs == 1 && !strcmp(o.algs[0], "default"), "algorithm default");
    CHECK(o.nmsizes == 6 && o.msizes[0] == 1 && o.msizes[5] == 32768, "default sizes");
    CHECK(o.nrep == 100 && !o.nrep_given, "nrep 100");
    CHECK(!strcmp(o.op, "MPI_BOR") && !strcmp(o.datatype, "MPI_BYTE"), "ReproMPI op/type");
    CHECK(o.sync == MG_SYNC_ROUNDTIME && o.runtime == MG_RUNTIME_GLOBAL, "sync defaults");
    CHECK(o.warmup == 1 && o.root == 0 && !o.shuffle && !o.summary, "other defaults");
    CHECK(o.time_ms == 0 && o.b == -1 && o.rho == 5.0, "budget, b, rho");
    mg_bench_opts_free(&o);
    CHECK(parse("--datatype=MPI_DOUBLE --op=MPI_SUM", &o, err, sizeof err) == 0, "%s", err);
    CHECK(o.nmsizes == 5 && o.msizes[0] == 8 && o.msizes[1] == 64,
          "default sizes in whole doubles: %d", o.nmsizes);
    mg_bench_opts_free(&o);
}

static void test_every_option(void) {
    mg_bench_opts o;
    char err[600];
    const char *line =
        "--calls-list=MPI_Allreduce,bcast,MPI_Allreduce --algs=default,allreduce_as_reduce_bcast "
        "--msizes-list=8,1K,8 --msize-interval=min=2,max=4 --nrep=7 --nrep-file=n.txt "
        "--rt-bench-time-ms=2.5 --rt-barrier-count=3 --root=1 --op=MPI_SUM --datatype=MPI_INT "
        "--shuffle --proc-sync=roundtime --runtime-type=global --summary=min,max "
        "--output-file=out.dat --resume --verify --quiet --warmup=0 --seed=42 "
        "--irregular=spikes --b=100 --rho=3 --table --window-size=250 --fitpoints=5 "
        "--exchanges=4 --help";
    int rc = parse(line, &o, err, sizeof err);
    CHECK(rc == 0, "every option: %s", err);
    CHECK(o.ncalls == 2 && !strcmp(mg_coll_name(o.calls[0]), "MPI_Allreduce") &&
              !strcmp(mg_coll_name(o.calls[1]), "MPI_Bcast"),
          "calls (duplicates dropped, short names accepted)");
    CHECK(o.nalgs == 2 && !strcmp(o.algs[1], "allreduce_as_reduce_bcast"), "algs");
    CHECK(o.nmsizes == 4 && o.msizes[0] == 8 && o.msizes[1] == 1024 && o.msizes[2] == 4 &&
              o.msizes[3] == 16,
          "sizes: list then interval, duplicates dropped (%d)", o.nmsizes);
    CHECK(o.nrep == 7 && o.nrep_given && !strcmp(o.nrep_file, "n.txt"), "nrep");
    CHECK(o.time_ms == 2.5 && o.barrier_count == 3 && o.root == 1, "budget, barrier count, root");
    CHECK(!strcmp(o.op, "MPI_SUM") && !strcmp(o.datatype, "MPI_INT"), "op, datatype");
    CHECK(o.shuffle && o.sync == MG_SYNC_ROUNDTIME && o.runtime == MG_RUNTIME_GLOBAL, "sync");
    CHECK(o.summary == (MG_SUMMARY_MIN | MG_SUMMARY_MAX), "summary columns");
    CHECK(!strcmp(o.output_file, "out.dat") && o.resume && o.verify && o.quiet, "flags");
    CHECK(o.warmup == 0 && o.seed == 42 && o.seed_given, "warmup, seed");
    CHECK(!strcmp(o.irregular, "spikes") && o.b == 100 && o.rho == 3 && o.table, "irregular");
    CHECK(o.window_us == 250 && o.fitpoints == 5 && o.exchanges == 4 && o.help, "clock");
    mg_bench_opts copy;
    CHECK(mg_bench_opts_copy(&copy, &o) == 0 && copy.nalgs == 2 && copy.algs[1] != o.algs[1] &&
              !strcmp(copy.algs[1], o.algs[1]) && copy.msizes[3] == o.msizes[3],
          "deep copy");
    mg_bench_opts_free(&copy);
    mg_bench_opts_free(&o);
}

/* The application's conditions: sub-communicator sizes, root sequences, back-to-back timing. */
static void test_app_conditions(void) {
    mg_bench_opts o, copy;
    char err[600], roots[64];
    CHECK(parse("--comm-sizes=8,4,2 --roots=3,0,1 --back-to-back=16", &o, err, sizeof err) == 0,
          "%s", err);
    CHECK(o.ncomm_sizes == 3 && o.comm_sizes[0] == 8 && o.comm_sizes[2] == 2, "comm sizes");
    CHECK(o.nroots == 3 && o.roots[0] == 3 && !o.roots_rotate && o.batch == 16, "roots, batch");
    mg_bench_roots_text(&o, roots, sizeof roots);
    CHECK(!strcmp(roots, "3,0,1"), "#@roots of a list: %s", roots);
    CHECK(mg_bench_opts_copy(&copy, &o) == 0 && copy.roots != o.roots && copy.roots[2] == 1 &&
              copy.comm_sizes != o.comm_sizes && copy.comm_sizes[1] == 4,
          "deep copy of the lists");
    mg_bench_opts_free(&copy);
    mg_bench_opts_free(&o);
    CHECK(parse("--roots=rotate", &o, err, sizeof err) == 0 && o.roots_rotate && !o.nroots, "%s",
          err);
    mg_bench_roots_text(&o, roots, sizeof roots);
    CHECK(!strcmp(roots, "rotate"), "#@roots rotate: %s", roots);
    mg_bench_opts_free(&o);
    CHECK(parse("--root=2", &o, err, sizeof err) == 0 && !o.batch && !o.ncomm_sizes, "%s", err);
    mg_bench_roots_text(&o, roots, sizeof roots);
    CHECK(!strcmp(roots, "2"), "#@roots of a fixed root: %s", roots);
    mg_bench_opts_free(&o);
}

/* ReproMPI spellings and the separate-value form give the same result as ours. */
static void test_aliases(void) {
    static const struct {
        const char *ours, *alias;
    } pairs[] = {
        {"--root=2", "--root-proc=2"},
        {"--root=2", "--root 2"},
        {"--op=MPI_MAX --datatype=MPI_INT", "--operation=MPI_MAX --datatype MPI_INT"},
        {"--shuffle", "--shuffle-jobs"},
        {"--proc-sync=mpibarrier", "--proc-sync=MPI_Barrier"},
        {"--proc-sync=dissemination", "--proc-sync=dissem_barrier"},
        {"--proc-sync=window", "--proc-sync window"},
        {"--summary", "--summary=min,median,mean,max"},
        {"--msizes-list=4,8,16", "--msize-interval=min=2,max=4"},
        {"--msizes-list=1,4,16", "--msize-interval=min=0,max=4,step=2"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        mg_bench_opts a, b;
        char ea[600], eb[600];
        int ra = parse(pairs[i].ours, &a, ea, sizeof ea),
            rb = parse(pairs[i].alias, &b, eb, sizeof eb);
        CHECK(ra == 0 && rb == 0, "'%s' / '%s': %s %s", pairs[i].ours, pairs[i].alias, ea, eb);
        int same = a.root == b.root && !strcmp(a.op, b.op) && !strcmp(a.datatype, b.datatype) &&
                   a.shuffle == b.shuffle && a.sync == b.sync && a.summary == b.summary &&
                   a.nmsizes == b.nmsizes;
        for (int k = 0; same && k < a.nmsizes; k++) same = a.msizes[k] == b.msizes[k];
        CHECK(same, "'%s' and '%s' differ", pairs[i].ours, pairs[i].alias);
        mg_bench_opts_free(&a);
        mg_bench_opts_free(&b);
    }
}

static void test_tables(void) {
    CHECK(mg_coll_lookup("MPI_Reduce_scatter_block") >= 0, "name");
    CHECK(mg_coll_lookup("mpi_allreduce") == mg_coll_lookup("allreduce"), "case, short name");
    CHECK(mg_coll_is_reduction(mg_coll_lookup("MPI_Exscan")), "Exscan reduces");
    CHECK(!mg_coll_is_reduction(mg_coll_lookup("MPI_Gather")), "Gather does not");
    CHECK(mg_coll_is_v(mg_coll_lookup("MPI_Scatterv")), "Scatterv is v");
    CHECK(mg_dtype_size("MPI_DOUBLE") == 8 && mg_dtype_size("MPI_X") == 0, "sizes");
    CHECK(mg_op_allowed("MPI_BOR", "MPI_BYTE") && !mg_op_allowed("MPI_SUM", "MPI_BYTE"),
          "byte category");
    CHECK(mg_op_allowed("MPI_LAND", "MPI_INT") && !mg_op_allowed("MPI_LAND", "MPI_FLOAT"),
          "logical ops");
    CHECK(!strcmp(mg_sync_name(MG_SYNC_ROUNDTIME), "roundtime"), "sync names");
    CHECK(mg_bench_option_arity("summary", 7) == 2 && mg_bench_option_arity("nrep", 4) == 1 &&
              mg_bench_option_arity("quiet", 5) == 0 && mg_bench_option_arity("nope", 4) == -1,
          "arity");
    /* the shuffle is a permutation, reproducible from the seed */
    int a[50], b[50], seen[50] = {0};
    for (int i = 0; i < 50; i++) a[i] = b[i] = i;
    mg_bench_shuffle(a, 50, 7);
    mg_bench_shuffle(b, 50, 7);
    int moved = 0, same = 1;
    for (int i = 0; i < 50; i++) seen[a[i]]++, moved += a[i] != i, same &= a[i] == b[i];
    int perm = 1;
    for (int i = 0; i < 50; i++) perm &= seen[i] == 1;
    CHECK(perm && same && moved > 10, "shuffle: permutation %d, reproducible %d, moved %d", perm,
          same, moved);
}

/* --table: `all` problem types; MPI_Gatherv without --calls-list; whether --root was given. */
static void test_irregular_table(void) {
    mg_bench_opts o;
    char err[600];
    CHECK(parse("--irregular=all --table", &o, err, sizeof err) == 0, "all with --table: %s", err);
    CHECK(!strcmp(o.irregular, "all") && o.table && o.ncalls == 1 &&
              !strcmp(mg_coll_name(o.calls[0]), "MPI_Gatherv") && !o.root_given,
          "--table alone: MPI_Gatherv, no root given");
    mg_bench_opts_free(&o);
    CHECK(parse("--irregular=random --table --calls-list=MPI_Scatterv,MPI_Bcast --root=0", &o, err,
                sizeof err) == 0,
          "scatter table: %s", err);
    CHECK(o.ncalls == 2 && o.root == 0 && o.root_given, "listed calls kept, root given");
    mg_bench_opts_free(&o);
    CHECK(parse("--irregular=same", &o, err, sizeof err) == 0 && o.ncalls > 2 && !o.root_given,
          "without --table every collective");
    mg_bench_opts_free(&o);
}

int main(void) {
    test_errors();
    test_defaults();
    test_every_option();
    test_app_conditions();
    test_aliases();
    test_tables();
    test_irregular_table();
    return DONE();
}
