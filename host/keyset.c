/* keyset.c - a set of strings in insertion order with a hash index (see keyset.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "keyset.h"

/* FNV-1a: keys are canonical SFENs, short and distinct in their first ranks. */
static uint64_t key_hash(const char *key) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *key; key++) h = (h ^ (unsigned char)*key) * 0x100000001b3ull;
    return h;
}

/* The slot of key, or of the empty slot where it would go. */
static size_t key_slot(const Keys *k, const char *key) {
    size_t mask = k->nslot - 1, i = (size_t)key_hash(key) & mask;
    while (k->slot[i] && strcmp(k->s[k->slot[i] - 1], key)) i = (i + 1) & mask;
    return i;
}

/* A hash index: reverse composition writes some 1,000 problems a second, and a
 * linear scan made a long run quadratic. */
int keys_find(const Keys *k, const char *key) {
    return k->nslot ? (int)k->slot[key_slot(k, key)] - 1 : -1;
}

int keys_has(const Keys *k, const char *key) { return keys_find(k, key) >= 0; }

static int keys_reindex(Keys *k, size_t nslot) {
    uint32_t *slot = calloc(nslot, sizeof *slot);
    if (!slot) return 0;
    free(k->slot);
    k->slot = slot, k->nslot = nslot;
    for (int i = 0; i < k->n; i++) k->slot[key_slot(k, k->s[i])] = (uint32_t)i + 1;
    return 1;
}

/* Out of memory, the key is not kept (said on stderr): at worst a board is
 * handled twice, never a crash.  A key already there is not added again. */
int keys_add(Keys *k, const char *key) {
    if (keys_has(k, key)) return 0;
    char *copy = strdup(key);
    if (copy && k->n == k->cap) {
        int cap = k->cap ? 2 * k->cap : 64;
        char **grown = realloc(k->s, sizeof(char *) * (size_t)cap);
        if (grown) k->s = grown, k->cap = cap;
        else free(copy), copy = NULL;
    }
    if (copy && 2 * ((size_t)k->n + 1) > k->nslot && !keys_reindex(k, k->nslot ? 2 * k->nslot : 128)) free(copy), copy = NULL;
    if (!copy) {
        fprintf(stderr, "tsumegen compose: out of memory: a board key is not kept\n");
        return -1;
    }
    k->s[k->n++] = copy;
    k->slot[key_slot(k, copy)] = (uint32_t)k->n;
    return 1;
}

void keys_free(Keys *k) {
    for (int i = 0; i < k->n; i++) free(k->s[i]);
    free(k->s);
    free(k->slot);
}
