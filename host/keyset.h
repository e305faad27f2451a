/* keyset.h - a set of strings (canonical SFENs) that keeps their insertion order.
 *
 * The composers ask "seen before?" for every board they write or keep, and reverse
 * composition writes thousands a second: an open-addressed index (FNV-1a) answers
 * that in constant time, while s[0..n) keeps the order the checkpoints write. */
#ifndef TSUMEGEN_KEYSET_H
#define TSUMEGEN_KEYSET_H
#include <stddef.h>
#include <stdint.h>

/* slot: index + 1 into s, 0 empty; nslot a power of two, at most half full.
 * A zeroed Keys is empty. */
typedef struct {
    char **s;
    int n, cap;
    uint32_t *slot;
    size_t nslot;
} Keys;

int keys_has(const Keys *k, const char *key);
/* The index of key in s, or -1. */
int keys_find(const Keys *k, const char *key);
/* Adds a copy of key unless it is there: 1 added (at s[n - 1]), 0 there already,
 * -1 out of memory (said on stderr; the key is not kept). */
int keys_add(Keys *k, const char *key);
void keys_free(Keys *k);

#endif
