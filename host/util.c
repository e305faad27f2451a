/* util.c - small helpers shared by the host modules (see util.h). */
#define _DEFAULT_SOURCE 1  /* madvise(MADV_HUGEPAGE) */
#include "util.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

double util_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int util_fail(char *err, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

void util_json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 32) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

/* Transposition tables are probed at random: with 4 KiB pages nearly every probe
 * also misses the TLB (a 32 MiB table measured 1.6x slower per node than a 2 MiB
 * one).  2 MiB alignment lets the kernel back the block with huge pages where
 * transparent huge pages are in "madvise" mode (Debian's default). */
#define HUGE_PAGE ((size_t)2 << 20)
void *util_alloc_large(size_t bytes) {
    size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p = bytes >= HUGE_PAGE ? aligned_alloc(HUGE_PAGE, rounded) : NULL;
    if (!p) return calloc(1, bytes);
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    memset(p, 0, rounded);
    return p;
}

/* A JSON line (the composer's problems.jsonl, undecided.jsonl): its "sfen" field,
 * copied into out; the line itself when it has none (the SFEN parser then names it). */
const char *util_json_sfen(const char *line, char *out, size_t len) {
    const char *p = line[0] == '{' ? strstr(line, "\"sfen\"") : NULL;
    if (!p) return line;
    p += 6;
    while (*p == ' ' || *p == ':') p++;
    if (*p++ != '"') return line;
    size_t k = 0;
    while (*p && *p != '"' && k + 1 < len) out[k++] = *p++;
    if (*p != '"') return line;
    out[k] = 0;
    return out;
}
