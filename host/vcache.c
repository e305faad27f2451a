/* vcache.c - the composer's verdict cache (see vcache.h): an open-addressing
 * table of SFEN -> (budget, verdict with its main line trimmed to its length). */
#include "vcache.h"
#include "keyset.h"
#include "util.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 2: each record ends in an FNV-1a 64 of its bytes; 1 (before 2026-12-04): no sum.
 * A file is appended to in its own version. */
#define VC_HEADER "tsumegen-verdicts 2\n"
#define VC_HEADER_V1 "tsumegen-verdicts 1\n"
#define VC_MAGIC 0x31524356u /* "VCR1" in a little-endian dump: starts every record */

typedef struct {
    uint64_t budget;
    Verdict *v;  /* allocated up to v->pv_len moves only: the fields after pv are not there */
    uint64_t nodes;  /* v->nodes (it follows pv in Verdict) */
    int dirty;   /* changed since the last vcache_append */
} VcEntry;

struct VCache {
    Keys sfen;  /* entry i's SFEN is sfen.s[i] (the set's index finds it) */
    VcEntry *e;
    long n, cap;
    long *dirty;
    long ndirty, dirty_cap;
    int v1;  /* the file loaded is of version 1: its records have no sums */
};

VCache *vcache_new(void) { return calloc(1, sizeof(VCache)); }

void vcache_free(VCache *c) {
    if (!c) return;
    for (long i = 0; i < c->n; i++) free(c->e[i].v);
    free(c->e);
    keys_free(&c->sfen);
    free(c->dirty);
    free(c);
}

long vcache_size(const VCache *c) { return c->n; }

static const VcEntry *lookup(const VCache *c, const char *sfen) {
    int i = keys_find(&c->sfen, sfen);
    return i >= 0 ? &c->e[i] : NULL;
}

uint64_t vcache_budget(const VCache *c, const char *sfen) {
    const VcEntry *e = lookup(c, sfen);
    return e ? e->budget : 0;
}

uint64_t vcache_get(const VCache *c, const char *sfen, uint64_t node_limit, Verdict *out) {
    const VcEntry *e = lookup(c, sfen);
    if (!e || e->budget < node_limit) return 0;
    memcpy(out, e->v, offsetof(Verdict, pv) + sizeof(Move) * (size_t)e->v->pv_len);
    out->nodes = e->nodes;
    return e->budget;
}

/* Keeps the load factor under one half. */
static Verdict *trimmed_copy(const Verdict *v) {
    size_t sz = offsetof(Verdict, pv) + sizeof(Move) * (size_t)v->pv_len;
    Verdict *t = malloc(sz);
    if (t) memcpy(t, v, sz);
    return t;
}

static int mark_dirty(VCache *c, long idx) {
    if (c->e[idx].dirty) return 0;
    if (c->ndirty == c->dirty_cap) {
        long cap = c->dirty_cap ? 2 * c->dirty_cap : 256, *d = realloc(c->dirty, sizeof(long) * (size_t)cap);
        if (!d) return -1;
        c->dirty = d, c->dirty_cap = cap;
    }
    c->dirty[c->ndirty++] = idx;
    c->e[idx].dirty = 1;
    return 0;
}

/* vcache_put without the dirty mark (vcache_load uses it for what is already on disk). */
static long put(VCache *c, const char *sfen, const Verdict *v, uint64_t node_limit) {
    if (v->pv_len < 0 || v->pv_len > VERDICT_PV_MAX) return -1;
    int i = keys_find(&c->sfen, sfen);
    if (i >= 0) {  /* replace only by a larger budget's verdict */
        VcEntry *e = &c->e[i];
        if (e->budget >= node_limit) return -2;
        Verdict *t = trimmed_copy(v);
        if (!t) return -1;
        free(e->v);
        e->v = t, e->budget = node_limit, e->nodes = v->nodes;
        return i;
    }
    if (c->n == c->cap) {
        long cap = c->cap ? 2 * c->cap : 1024;
        VcEntry *ne = realloc(c->e, sizeof *ne * (size_t)cap);
        if (!ne) return -1;
        c->e = ne, c->cap = cap;
    }
    VcEntry *e = &c->e[c->n];
    if (!(e->v = trimmed_copy(v))) return -1;
    if (keys_add(&c->sfen, sfen) < 0) { free(e->v); return -1; }  /* (entry n is sfen.s[n]) */
    e->budget = node_limit, e->nodes = v->nodes, e->dirty = 0;
    return c->n++;
}

int vcache_put(VCache *c, const char *sfen, const Verdict *v, uint64_t node_limit) {
    long idx = put(c, sfen, v, node_limit);
    if (idx == -2) return 0;
    return idx < 0 ? -1 : mark_dirty(c, idx);
}

/* ---- file: a header line, then records of fixed-width native fields ---- */

typedef struct {
    uint32_t magic, sfen_len;
    uint64_t budget, nodes;
    int32_t result, length, perfect, undecided, length_exact, length_ub, cook_ply, pv_len;
    uint32_t cook_move;
} VcRecord;

/* A record's check: its fixed fields, its SFEN and its line. */
static uint64_t record_sum(const VcRecord *r, const char *sfen, const Move *pv) {
    uint64_t h = util_fnv1a64(UTIL_FNV_SEED, r, sizeof *r);
    h = util_fnv1a64(h, sfen, r->sfen_len);
    return util_fnv1a64(h, pv, sizeof(Move) * (size_t)r->pv_len);
}

int vcache_append(VCache *c, FILE *f) {
    if (fseek(f, 0, SEEK_END)) return -1;
    if (ftell(f) == 0 && fputs(VC_HEADER, f) == EOF) return -1;
    for (long k = 0; k < c->ndirty; k++) {
        VcEntry *e = &c->e[c->dirty[k]];
        const char *sfen = c->sfen.s[c->dirty[k]];
        const Verdict *v = e->v;
        VcRecord r;
        memset(&r, 0, sizeof r);  /* no stray padding bytes in the file */
        r.magic = VC_MAGIC, r.sfen_len = (uint32_t)strlen(sfen), r.budget = e->budget, r.nodes = e->nodes;
        r.result = v->result, r.length = v->length, r.perfect = v->perfect, r.undecided = v->undecided;
        r.length_exact = v->length_exact, r.length_ub = v->length_ub, r.cook_ply = v->cook_ply;
        r.pv_len = v->pv_len, r.cook_move = v->cook_move;
        uint64_t sum = record_sum(&r, sfen, v->pv);
        if (fwrite(&r, sizeof r, 1, f) != 1 || fwrite(sfen, 1, r.sfen_len, f) != r.sfen_len ||
            fwrite(v->pv, sizeof(Move), (size_t)v->pv_len, f) != (size_t)v->pv_len ||
            (!c->v1 && fwrite(&sum, sizeof sum, 1, f) != 1))
            return -1;
        e->dirty = 0;
    }
    c->ndirty = 0;
    return fflush(f) ? -1 : 0;
}

long vcache_load(VCache *c, FILE *f) {
    char head[sizeof VC_HEADER];
    rewind(f);
    if (!fgets(head, sizeof head, f)) return 0;  /* empty: nothing cached yet */
    c->v1 = !strcmp(head, VC_HEADER_V1);
    if (strcmp(head, VC_HEADER) && !c->v1) return -1;
    Verdict *v = malloc(sizeof *v);
    if (!v) return -1;
    long n = 0, good_end = ftell(f), cut = 0;
    VcRecord r;
    char sfen[4096];
    size_t got;
    while ((got = fread(&r, 1, sizeof r, f)) == sizeof r) {
        if (r.magic != VC_MAGIC || r.sfen_len >= sizeof sfen || r.pv_len < 0 || r.pv_len > VERDICT_PV_MAX) { n = -1; break; }
        memset(v, 0, offsetof(Verdict, pv));
        v->result = r.result, v->length = r.length, v->perfect = r.perfect, v->undecided = r.undecided;
        v->length_exact = r.length_exact, v->length_ub = r.length_ub, v->cook_ply = r.cook_ply;
        v->cook_move = r.cook_move, v->pv_len = r.pv_len, v->nodes = r.nodes;
        uint64_t sum = 0;
        cut = fread(sfen, 1, r.sfen_len, f) != r.sfen_len ||
              fread(v->pv, sizeof(Move), (size_t)r.pv_len, f) != (size_t)r.pv_len ||
              (!c->v1 && fread(&sum, sizeof sum, 1, f) != 1);
        if (cut) break;  /* a record cut short by a crash: the run redoes it */
        if (!c->v1 && sum != record_sum(&r, sfen, v->pv)) { n = -1; break; }  /* damaged */
        sfen[r.sfen_len] = 0;
        if (put(c, sfen, v, r.budget) == -1) { n = -1; break; }
        n++;
        good_end = ftell(f);
    }
    free(v);
    /* drop a record cut short by a crash, so that appends follow the last good one */
    if (n >= 0 && (cut || got > 0) && (good_end < 0 || fflush(f) || ftruncate(fileno(f), good_end))) n = -1;
    return n;
}
