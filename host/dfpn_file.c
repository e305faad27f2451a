/* dfpn_file.c - a problem's table on disk (solve --table): a long search stopped by
 * a limit or Ctrl-C resumes from what it had settled instead of from nothing.
 *
 * Format: the line "tsumegen-table 1\n", then native-endian binary: the problem's
 * tag (df_table_tag), the record count, the records (table key, Entry), and last
 * an FNV-1a 64 of the tag, the records and the count, in that order (the count is
 * known only once a checkpoint has copied every cluster).  The file belongs to one
 * build's entry layout and Zobrist keys and to one root position; the tag covers all
 * three, so a file from another problem or an incompatible build is refused, never
 * misread. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "dfpn_impl.h"
#include "tables.h"
#include "util.h"

#define TABLE_MAGIC "tsumegen-table 1\n"
/* Bump when an entry's meaning changes (flags, bounds) without its layout changing. */
#define TABLE_SEMANTICS 1u
#define RECORD_BYTES (sizeof(uint64_t) + sizeof(Entry))
#define BATCH 4096  /* records per read or write */

uint64_t df_table_tag(const Position *root) {
    uint64_t h = UTIL_FNV_SEED;
    uint32_t layout[3] = {TABLE_SEMANTICS, (uint32_t)sizeof(Entry), (uint32_t)root->side};
    uint64_t key = pos_key(root);
    h = util_fnv1a64(h, TABLE_MAGIC, sizeof TABLE_MAGIC - 1);
    h = util_fnv1a64(h, layout, sizeof layout);
    h = util_fnv1a64(h, &key, sizeof key);
    /* the keys themselves: a build with other Zobrist tables keys other positions */
    h = util_fnv1a64(h, ZOBRIST_PSQ, sizeof ZOBRIST_PSQ);
    h = util_fnv1a64(h, ZOBRIST_HAND, sizeof ZOBRIST_HAND);
    return h;
}

static void say(char *err, size_t len, const char *path, const char *what) {
    snprintf(err, len, "%s: %s", path, what);
}

long long df_table_save(const DfCtx *c, const char *path, uint64_t tag, char *err, size_t errlen) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) { say(err, errlen, path, "path too long"); return -1; }
    FILE *f = fopen(tmp, "wb");
    if (!f) { snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno)); return -1; }
    /* (one save at a time: solve's lone problem, at a checkpoint or at its end) */
    static unsigned char buf[BATCH * RECORD_BYTES];
    uint64_t sum = util_fnv1a64(UTIL_FNV_SEED, &tag, 8), count = 0;
    int ok = fputs(TABLE_MAGIC, f) >= 0 && fwrite(&tag, 1, 8, f) == 8 && fwrite(&count, 1, 8, f) == 8;
    size_t fill = 0;
    for (size_t ci = 0; ok && ci < c->nclusters; ci++) {
        /* Each cluster is copied under its lock: a checkpoint runs while a second
         * thread may be storing (a torn entry would be a wrong answer next time). */
        const Cluster *cl = &c->tt[ci];
        cl_lock(c, cl);
        for (int i = 0; i < CLUSTER; i++) {
            if (cl->gen[i] != c->gen) continue;
            memcpy(buf + fill, &cl->key[i], 8);
            memcpy(buf + fill + 8, &cl->e[i], sizeof(Entry));
            fill += RECORD_BYTES;
            count++;
        }
        cl_unlock(c, cl);
        if (fill > sizeof buf - CLUSTER * RECORD_BYTES) {
            sum = util_fnv1a64(sum, buf, fill);
            ok = fwrite(buf, 1, fill, f) == fill;
            fill = 0;
        }
    }
    if (ok && fill) {
        sum = util_fnv1a64(sum, buf, fill);
        ok = fwrite(buf, 1, fill, f) == fill;
    }
    /* the count is known only now: the sum takes it last, the header gets it in place */
    sum = util_fnv1a64(sum, &count, 8);
    ok = ok && fwrite(&sum, 1, 8, f) == 8;
    ok = ok && fseek(f, (long)(sizeof TABLE_MAGIC - 1 + 8), SEEK_SET) == 0 && fwrite(&count, 1, 8, f) == 8;
    ok = ok && fflush(f) == 0;
    int e = errno;
    if (fclose(f) && ok) { ok = 0; e = errno; }
    if (ok && rename(tmp, path)) { ok = 0; e = errno; }
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
        remove(tmp);
        return -1;
    }
    return (long long)count;
}

long long df_table_load(DfCtx *c, const char *path, uint64_t tag, long long *dropped, char *err, size_t errlen) {
    *dropped = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return -2;
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    static unsigned char buf[BATCH * RECORD_BYTES];
    char magic[sizeof TABLE_MAGIC];
    uint64_t sum = UTIL_FNV_SEED, file_tag = 0, count = 0, file_sum = 0;
    long long kept = 0;
    const char *why = NULL;
    size_t got = fread(magic, 1, sizeof magic - 1, f);
    if (ferror(f)) why = strerror(errno);  /* (a directory, say) */
    else if (got != sizeof magic - 1 || memcmp(magic, TABLE_MAGIC, sizeof magic - 1))
        why = "not a tsumegen table (solve --table)";
    else if (fread(buf, 1, 16, f) != 16)
        why = "damaged (cut short)";
    else {
        memcpy(&file_tag, buf, 8);
        memcpy(&count, buf + 8, 8);
        sum = util_fnv1a64(sum, buf, 8);
        if (file_tag != tag) why = "the table of another problem, or of an incompatible build";
    }
    /* The records go into the table as they are read; a bad sum at the end takes
     * them all back (a new generation), so a damaged file leaves nothing behind. */
    for (uint64_t left = count; !why && left;) {
        size_t want = left < BATCH ? (size_t)left : BATCH;
        if (fread(buf, RECORD_BYTES, want, f) != want) { why = "damaged (cut short)"; break; }
        sum = util_fnv1a64(sum, buf, want * RECORD_BYTES);
        for (size_t i = 0; i < want; i++) {
            uint64_t key;
            Entry e;
            memcpy(&key, buf + i * RECORD_BYTES, 8);
            memcpy(&e, buf + i * RECORD_BYTES + 8, sizeof e);
            /* a growing table doubles rather than evict a record; a fixed one (or one
             * at its cap) keeps the costlier */
            int put;
            while (!(put = tt_put_record(c, key, &e, !df_table_can_grow(c))) && tt_grow_now(c)) {}
            if (!put) put = tt_put_record(c, key, &e, 1);
            if (put) kept++;
            else ++*dropped;
        }
        left -= want;
    }
    if (!why) sum = util_fnv1a64(sum, &count, 8);
    if (!why && (fread(&file_sum, 1, 8, f) != 8 || file_sum != sum || fgetc(f) != EOF))
        why = "damaged (its checksum does not match)";
    if (!why && ferror(f)) why = "read error";
    fclose(f);
    if (why) {
        say(err, errlen, path, why);
        df_begin(c, c->attacker, c->node_limit, c->deadline);  /* (forget what was put) */
        return -1;
    }
    return kept;
}
