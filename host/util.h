/* util.h - small helpers shared by the host modules: a monotonic clock, an error
 * message into the caller's buffer, a JSON string. */
#ifndef TSUMEGEN_UTIL_H
#define TSUMEGEN_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>

/* Seconds on the monotonic clock (for intervals only). */
double util_now(void);
/* Sleeps about ms milliseconds. */
void util_sleep_ms(int ms);
/* Formats the message into err (len bytes, truncated) and returns -1. */
int util_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Writes s to f as a quoted JSON string ('"' and '\' escaped, control characters as \uXXXX). */
void util_json_str(FILE *f, const char *s);
/* Appends printf-style text to buf (len bytes) at *at, truncating; *at stays
 * below len, on the NUL. */
void util_buf_add(char *buf, size_t len, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Zeroed memory for a large table, backed by huge pages where the system allows;
 * NULL when the system refuses it.  Free with util_free_large(p, the same bytes). */
void *util_alloc_large(size_t bytes);
void util_free_large(void *p, size_t bytes);
/* This machine's physical memory in MiB (0 if unknown). */
size_t util_phys_mb(void);
/* A JSON line (the composer's problems.jsonl, undecided.jsonl): its "sfen" field,
 * copied into out; the line itself when it has none (the SFEN parser then names it). */
const char *util_json_sfen(const char *line, char *out, size_t len);
/* The lines of text (NUL-terminated), split in place at each '\n' with trailing
 * '\r', spaces and tabs cut off: a malloc'd array of *n pointers into text (NULL
 * out of memory).  The KIF and CSA readers' line tables. */
char **util_split_lines(char *text, int *n);
/* The whole rest of f, NUL-terminated (*n bytes before the NUL); NULL on a read
 * error or out of memory. */
char *util_slurp(FILE *f, size_t *n);
/* Checksummed text files (the composers' checkpoints): util_save_checked writes
 * text (n bytes) and a last line "sum HEX" (FNV-1a 64 of the bytes before it) to
 * path.tmp and renames it into place; 0, or -1 with errno.  util_load_checked reads
 * path back: the text without its sum line (malloc'd, NUL-terminated, *n bytes) and
 * *state 1 (sum present and right), 0 (no sum line: a file of an older version) or
 * -1 (the sum does not match: cut short, edited or damaged); NULL with errno when it
 * cannot be read. */
/* FNV-1a 64 of n bytes, chained from h (UTIL_FNV_SEED to start): a cheap guard
 * against cut and edited files, not against an adversary. */
#define UTIL_FNV_SEED 0xcbf29ce484222325ull
uint64_t util_fnv1a64(uint64_t h, const void *data, size_t n);
int util_save_checked(const char *path, const char *text, size_t n);
char *util_load_checked(const char *path, size_t *n, int *state);
/* Ctrl-C (SIGINT) goes to handler until util_restore_sigint(old).  With SA_RESTART:
 * glibc's signal() under -std=c11 has System V semantics, so a Ctrl-C could cut a
 * write to a pipe short (EINTR) and lose an answer line.  once: the handler takes
 * the first Ctrl-C only and a second ends the process at once. */
void util_catch_sigint(void (*handler)(int), int once, struct sigaction *old);
void util_restore_sigint(const struct sigaction *old);

#endif
