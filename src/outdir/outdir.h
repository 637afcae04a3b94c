/* The layout of an output directory of check, tune and analyze (docs/dev/interfaces.md section
 * 7), in one place:
 *   OUTDIR/raw/launch-K/<stem>.dat     the raw data of check launch K (tune's check launches)
 *   OUTDIR/tuned/launch-K/<stem>.dat   tune's validation launch K (tuned library against default)
 *   OUTDIR/tables/<comparer>/...       tables
 *   OUTDIR/profiles/<MPI_Name>_p<P>.prf
 *   OUTDIR/summary.txt, OUTDIR/report.html
 *   OUTDIR/plan.txt, OUTDIR/record.txt  tune --for: the plan and a copy of the record it is from
 * MPI-free. */
#ifndef MG_OUTDIR_H
#define MG_OUTDIR_H

#include <stddef.h>

enum mg_out_part {
    MG_OUT_RAW,      /* raw/: check launches */
    MG_OUT_TUNED,    /* tuned/: validation launches */
    MG_OUT_TABLES,   /* tables/ */
    MG_OUT_PROFILES, /* profiles/ */
    MG_OUT_SUMMARY,  /* summary.txt */
    MG_OUT_REPORT,   /* report.html */
    MG_OUT_PLAN,     /* plan.txt: tune --for */
    MG_OUT_RECORD,   /* record.txt: tune --for, the application's record (the range rule) */
    MG_OUT_NPARTS
};

/* "raw", "tuned", "tables", "profiles", "summary.txt", "report.html", "plan.txt",
 * "record.txt". */
const char *mg_out_name(int part);
/* OUTDIR/<part> into buf; 0, or -1 (empty buf) when it does not fit. */
int mg_out_path(char *buf, size_t n, const char *outdir, int part);
/* OUTDIR/raw/launch-K or OUTDIR/tuned/launch-K (part MG_OUT_RAW or MG_OUT_TUNED). */
int mg_out_launch(char *buf, size_t n, const char *outdir, int part, int k);
/* The first K whose launch directory of part (MG_OUT_RAW or MG_OUT_TUNED) does not exist: the
 * one a new launch takes. */
int mg_out_free_launch(const char *outdir, int part);
/* DIR/<stem>.dat: a raw file in a launch directory. */
int mg_out_rawfile(char *buf, size_t n, const char *launchdir, const char *stem);
/* Creates dir and its missing parents (mkdir -p); 0, or -1 with errno. */
int mg_out_mkdir(const char *dir);

#endif
