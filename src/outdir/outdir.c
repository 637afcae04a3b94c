/* The output-directory layout of outdir.h. */
#include "outdir.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char *const names[MG_OUT_NPARTS] = {
    "raw", "tuned", "tables", "profiles", "summary.txt", "report.html", "plan.txt", "record.txt"};

const char *mg_out_name(int part) {
    return part >= 0 && part < MG_OUT_NPARTS ? names[part] : "";
}

static int fits(char *buf, size_t n, int need) {
    if (need >= 0 && (size_t)need < n) return 0;
    if (n) buf[0] = 0;
    return -1;
}

int mg_out_path(char *buf, size_t n, const char *outdir, int part) {
    return fits(buf, n, snprintf(buf, n, "%s/%s", outdir, mg_out_name(part)));
}

int mg_out_launch(char *buf, size_t n, const char *outdir, int part, int k) {
    return fits(buf, n, snprintf(buf, n, "%s/%s/launch-%d", outdir, mg_out_name(part), k));
}

int mg_out_free_launch(const char *outdir, int part) {
    char dir[4096];
    struct stat st;
    int k = 1;
    while (k < 100000 && !mg_out_launch(dir, sizeof dir, outdir, part, k) && !stat(dir, &st)) k++;
    return k;
}

int mg_out_rawfile(char *buf, size_t n, const char *launchdir, const char *stem) {
    return fits(buf, n, snprintf(buf, n, "%s/%s.dat", launchdir, stem));
}

int mg_out_mkdir(const char *dir) {
    char tmp[4096];
    if (fits(tmp, sizeof tmp, snprintf(tmp, sizeof tmp, "%s", dir))) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(tmp, 0777) && errno != EEXIST ? -1 : 0;
}
