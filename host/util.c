/* util.c - small helpers shared by the host modules (see util.h). */
#define _DEFAULT_SOURCE 1  /* madvise(MADV_HUGEPAGE) */
#include "util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

void util_catch_sigint(void (*handler)(int), int once, struct sigaction *old) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | (once ? SA_RESETHAND : 0);
    sigaction(SIGINT, &sa, old);
}

void util_restore_sigint(const struct sigaction *old) { sigaction(SIGINT, old, NULL); }

double util_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void util_sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int util_fail(char *err, size_t len, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

void util_buf_add(char *buf, size_t len, size_t *at, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (n > 0) *at = *at + (size_t)n < len ? *at + (size_t)n : len - 1;
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
 * transparent huge pages are in "madvise" mode (Debian's default).  The block comes
 * straight from mmap, zeroed by the kernel as it faults each page in; it used to be
 * aligned_alloc'd and memset, which zeroed every page twice.  Random probes touch
 * every huge page within a few thousand nodes anyway, so the pages are faulted in
 * up front (MADV_POPULATE_WRITE, Linux 5.14; else on first touch): left lazy, the
 * zeroing landed in the first problem's timed search (Zuko 10: 1.0-3.5 s more). */
#define HUGE_PAGE ((size_t)2 << 20)
static size_t huge_rounded(size_t bytes) { return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

void *util_alloc_large(size_t bytes) {
    if (bytes < HUGE_PAGE) return calloc(1, bytes);
    size_t rounded = huge_rounded(bytes), span = rounded + HUGE_PAGE;
    char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    /* keep the 2 MiB-aligned part; give back the slack on either side */
    char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    munmap(p + rounded, (size_t)(raw + span - (p + rounded)));  /* (raw is page-aligned: at least a page) */
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    madvise(p, rounded, MADV_POPULATE_WRITE);  /* fault it in now, outside the timed search */
#endif
    return p;
}

void util_free_large(void *p, size_t bytes) {
    if (!p) return;
    if (bytes < HUGE_PAGE) free(p);
    else munmap(p, huge_rounded(bytes));
}

size_t util_phys_mb(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size >> 20 : 0;
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

char *util_slurp(FILE *f, size_t *n) {
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    *n = 0;
    while (buf) {
        *n += fread(buf + *n, 1, cap - 1 - *n, f);
        if (ferror(f)) break;
        if (*n < cap - 1) {
            buf[*n] = 0;
            return buf;
        }
        char *nb = realloc(buf, cap *= 2);
        if (!nb) break;
        buf = nb;
    }
    free(buf);
    return NULL;
}

/* FNV-1a, 64 bits: a cheap guard against cut and edited files, not an adversary */
uint64_t util_fnv1a64(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

int util_save_checked(const char *path, const char *text, size_t n) {
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) { errno = ENAMETOOLONG; return -1; }
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    int bad = fwrite(text, 1, n, f) != n;
    bad |= fprintf(f, "sum %016llx\n", (unsigned long long)util_fnv1a64(UTIL_FNV_SEED, text, n)) < 0;
    bad |= ferror(f);
    int saved = errno;
    bad |= fclose(f) != 0;
    if (bad) { errno = saved ? saved : EIO; return -1; }
    return rename(tmp, path);  /* atomic: a crash leaves the previous file */
}

char *util_load_checked(const char *path, size_t *n, int *state) {
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *text = util_slurp(f, n);
    fclose(f);
    if (!text) { errno = EIO; return NULL; }
    /* the last line, "sum HEX\n" as written */
    size_t start = *n;
    if (start && text[start - 1] == '\n') start--;
    while (start && text[start - 1] != '\n') start--;
    *state = 0;
    if (!strncmp(text + start, "sum ", 4)) {
        char *end;
        unsigned long long want = strtoull(text + start + 4, &end, 16);
        *state = end == text + start + 20 && !strcmp(end, "\n") && want == util_fnv1a64(UTIL_FNV_SEED, text, start) ? 1 : -1;
        text[start] = 0;
        *n = start;
    }
    return text;
}

char **util_split_lines(char *text, int *n) {
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == '\n';
    char **lines = malloc(cap * sizeof *lines);
    *n = 0;
    if (!lines) return NULL;
    for (char *p = text; p;) {
        char *e = strchr(p, '\n');
        if (e) *e = 0;
        size_t len = strlen(p);
        while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t')) p[--len] = 0;
        lines[(*n)++] = p;
        p = e ? e + 1 : NULL;
    }
    return lines;
}
