/* compose_batch.c - one batch of boards through the verifier and into the run:
 * the first verification (with the run's verdict cache), the second and third
 * looks at undecided mates, and the recording of the new perfect problems (their
 * redundant pieces removed on the threads, then written in batch order).  Every
 * step that touches the run's state is serial and in index order, so a run is
 * reproducible whatever the thread count. */
#include "compose_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sfen.h"
#include "util.h"

/* The independent proof check (o->proof) of a problem about to be written, run
 * on the threads with the reductions (proof_run), its outcome applied in batch
 * order (proof_passes).  A failure means the verdict's search is wrong somewhere:
 * loud, never written.  Undecided (the checker's own budget) is not a proof
 * either: held back too.  Either way the board goes to undecided.jsonl, to be
 * looked at again. */
typedef struct {
    int ok;         /* 1 passed, 0 failed, 2 undecided; -1 not run */
    double seconds;
    char msg[512];
} ProofOutcome;

static void proof_run(const Run *r, const Position *pos, const Verdict *v, ProofOutcome *out) {
    out->ok = 1, out->seconds = 0, out->msg[0] = 0;
    if (!r->o->proof) return;
    double t0 = util_now();
    out->ok = r->o->proof(pos, v, out->msg, sizeof out->msg);
    out->seconds = util_now() - t0;
}

static int proof_passes(Run *r, const Position *pos, const Verdict *v, const ProofOutcome *p) {
    if (!r->o->proof) return 1;
    char sfen[SFEN_MAX];
    r->t_proof += p->seconds;
    r->proof_checked++;
    if (p->ok == 1) return 1;
    if (p->ok == 0) r->proof_failed++;
    else r->proof_undecided++;
    sfen_format(pos, sfen, sizeof sfen);
    fprintf(stderr, "tsumegen compose: %sthe proof checker %s the perfect verdict of %s (%s); not written (kept in "
                    "undecided.jsonl)\n", p->ok == 0 ? "BUG: " : "", p->ok == 0 ? "rejects" : "leaves undecided", sfen, p->msg);
    write_unproved(r, pos, v, p->ok == 0 ? "failed" : "undecided", p->msg);
    return 0;
}

/* A perfect child, new to the run: archive it (an extended board has no genome),
 * then write its reduced form p (compose_remove_redundant) unless that problem
 * was written before, and keep that form for backward extension. */
static void record_perfect(Run *r, const Child *c, const Position *p, const Verdict *v, const ProofOutcome *proof) {
    char key[SFEN_MAX];
    compose_canonical(&c->pos, key, sizeof key);
    keys_add(&r->archived, key);
    if (c->origin != ORIGIN_EXTEND) archive_add(r, &c->g);
    compose_canonical(p, key, sizeof key);
    if (keys_has(&r->written_keys, key)) return;
    keys_add(&r->written_keys, key);  /* (handled once: written, or held back by the proof check) */
    if (!proof_passes(r, p, v, proof)) return;
    write_problem(r, p, v, c->origin);
    if (v->length > r->longest) r->longest = v->length;
    if (r->o->extend > 0) extend_pool_add(&r->pool, p, v->length, c->origin == ORIGIN_EXTEND ? c->pool_parent : -1);
}

static int is_perfect_problem(const Child *c) { return c->v->result == VERDICT_MATE && c->v->perfect && c->fitness > 0; }

/* What a batch of verified children leaves behind, in batch order: perfect
 * problems (each board once) and undecided mates.  The new perfect boards are
 * picked first, without touching the run, then reduced and proof-checked on the
 * threads: each reduction is a verification per piece, and done one after another
 * on the main thread they left the other threads idle (pop 60 x 6 on two cores:
 * 188.7 s, 176.8 s on the threads).  The writing stays serial, in batch order, so
 * the output is the same on any number of threads.  A first Ctrl-C lets the
 * batch finish (its problems are found: they are written); a second one cuts the
 * searches short, so nothing of the batch is written: the run stops at its last
 * checkpoint, and --resume does the batch again (its verdicts from the cache).
 * Returns 1 when out of memory, 2 when cut short (nothing recorded either way),
 * 0 otherwise. */
static int record_children(Run *r, const Child *const *cs, int n) {
    int *todo = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)), k = 0;
    Keys seen = {0};
    char key[SFEN_MAX];
    if (!todo) return fprintf(stderr, "tsumegen compose: out of memory\n"), 1;
    for (int i = 0; i < n; i++) {
        if (!is_perfect_problem(cs[i])) continue;
        compose_canonical(&cs[i]->pos, key, sizeof key);
        if (keys_has(&r->archived, key) || keys_has(&seen, key)) continue;
        keys_add(&seen, key);
        todo[k++] = i;
    }
    keys_free(&seen);
    Position *pos = malloc(sizeof *pos * (size_t)(k > 0 ? k : 1));
    Verdict *v = malloc(sizeof *v * (size_t)(k > 0 ? k : 1));
    ProofOutcome *proof = malloc(sizeof *proof * (size_t)(k > 0 ? k : 1));
    if (!pos || !v || !proof) {
        free(todo); free(pos); free(v); free(proof);
        return fprintf(stderr, "tsumegen compose: out of memory\n"), 1;
    }
    for (int j = 0; j < k; j++) {
        pos[j] = cs[todo[j]]->pos;
        v[j] = *cs[todo[j]]->v;
    }
    /* (written_keys is only read here: a reduced form written before is not checked) */
#pragma omp parallel for schedule(dynamic, 1)
    for (int j = 0; j < k; j++) {
        char form[SFEN_MAX];
        proof[j].ok = -1;
        if (compose_cut) continue;
        compose_remove_redundant(&pos[j], &v[j], r->verify, cs[todo[j]]->node_limit);
        compose_canonical(&pos[j], form, sizeof form);
        if (!keys_has(&r->written_keys, form)) proof_run(r, &pos[j], &v[j], &proof[j]);
    }
    if (compose_cut) {  /* (the searches above may have been cut short) */
        free(todo); free(pos); free(v); free(proof);
        return 2;
    }
    for (int i = 0, j = 0; i < n; i++) {
        const Child *c = cs[i];
        if (j < k && todo[j] == i) record_perfect(r, c, &pos[j], &v[j], &proof[j]), j++;
        else if (c->v->result == VERDICT_MATE && c->v->undecided) write_undecided(r, c);  /* (undecided: not perfect) */
    }
    free(todo); free(pos); free(v); free(proof);
    return 0;
}

/* record_children over a[0..na), then b[0..nb), then c[0..nc). */
int record_batch(Run *r, const Child *a, int na, const Child *b, int nb, const Child *c, int nc) {
    const Child **cs = malloc(sizeof *cs * (size_t)(na + nb + nc > 0 ? na + nb + nc : 1));
    if (!cs) return fprintf(stderr, "tsumegen compose: out of memory\n"), 1;
    int n = 0;
    for (int i = 0; i < na; i++) cs[n++] = &a[i];
    for (int i = 0; i < nb; i++) cs[n++] = &b[i];
    for (int i = 0; i < nc; i++) cs[n++] = &c[i];
    int rc = record_children(r, cs, n);
    free(cs);
    return rc;
}

/* Second look: a mate that the node limit left undecided (exact length or a
 * 余詰 test unfinished, no flaw found) may well be perfect, and the longest such
 * mates are the ones the GA is after, so the o->retry longest get retry_nodes
 * each (default 10 x the limit).  Returns how many were re-verified, -1 when
 * interrupted. */
int look_again(Run *r, Child *ch, int n_eval, int *rescued, uint64_t budget) {
    const ComposeOptions *o = r->o;
    if (o->retry <= 0 || budget <= o->node_limit) return 0;
    int *idx = malloc(sizeof(int) * (size_t)(n_eval > 0 ? n_eval : 1)), k = 0;
    if (!idx) return 0;
    for (int i = 0; i < n_eval; i++) {
        if (ch[i].v->result != VERDICT_MATE || !ch[i].v->undecided || ch[i].node_limit >= budget) continue;
        int again = 0;  /* the same board twice in the batch: one look */
        for (int j = 0; j < k && !again; j++) again = pos_key(&ch[idx[j]].pos) == pos_key(&ch[i].pos);
        if (again) continue;
        int j = k++;  /* insertion sort: longest first, then rank order (reproducible) */
        for (; j > 0 && ch[idx[j - 1]].v->length < ch[i].v->length; j--) idx[j] = idx[j - 1];
        idx[j] = i;
    }
    int n = k < o->retry ? k : o->retry, stopped = 0;
#pragma omp parallel for schedule(dynamic, 1)
    for (int j = 0; j < n; j++) {
        Child *c = &ch[idx[j]];
        Verdict *v = malloc(sizeof *v);
        if (compose_interrupted || !v) { stopped = 1; free(v); continue; }
        int failed = r->verify(&c->pos, budget, v);
        if (compose_cut) { stopped = 1; free(v); continue; }  /* (maybe cut short: not a verdict) */
        if (!failed) {
            if (v->result == VERDICT_MATE && v->perfect) {
#pragma omp atomic
                (*rescued)++;
            }
            memcpy(c->v, v, sizeof *v);
            c->node_limit = budget;
            c->fitness = compose_fitness(c->v, &r->initial_verdict);
        }
        free(v);
    }
    char sfen[SFEN_MAX];
    for (int j = 0; j < n && !stopped; j++) {  /* serial: the cache stays reproducible */
        Child *c = &ch[idx[j]];
        sfen_format(&c->pos, sfen, sizeof sfen);
        if (c->node_limit == budget && vcache_put(r->vc, sfen, c->v, budget)) stopped = 1;
    }
    free(idx);
    return stopped ? -1 : n;
}

int second_look(Run *r, Child *ch, int n_eval, int *rescued) {
    return look_again(r, ch, n_eval, rescued, retry_budget(r->o));
}

/* Verifies children 0..n-1 on the threads with the first budget.  A board
 * verified before (this run, any budget at least the first) takes the cached
 * verdict, and one repeated within the batch is verified once; lookups and
 * insertions are serial, in index order, so the run stays reproducible.
 * Returns 1 when interrupted (or out of memory), 0 otherwise. */
int verify_children(Run *r, Child *ch, int n) {
    int stopped = 0, nt = 0;
    int *first = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)), *todo = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    int *seen_child = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));  /* entry k of seen: its child */
    Keys seen = {0};  /* the boards to verify so far (compose extend --from: 100,000 and more) */
    char (*sfen)[SFEN_MAX] = malloc(SFEN_MAX * (size_t)(n > 0 ? n : 1));
    if (!first || !todo || !seen_child || !sfen) { free(first); free(todo); free(seen_child); free(sfen); return 1; }
    /* first[i]: -2 cached, -1 to verify, -3 verified, else the same board earlier in the batch */
    for (int i = 0; i < n; i++) {
        Child *c = &ch[i];
        c->node_limit = r->o->node_limit;
        if (!(c->v = malloc(sizeof(Verdict)))) { stopped = 1; first[i] = -2; continue; }
        sfen_format(&c->pos, sfen[i], SFEN_MAX);
        uint64_t b = vcache_get(r->vc, sfen[i], c->node_limit, c->v);
        first[i] = b ? -2 : -1;
        if (b) {
            c->node_limit = b;
            c->fitness = compose_fitness(c->v, &r->initial_verdict);
            r->gen_cached++;
            continue;
        }
        int k = keys_find(&seen, sfen[i]);
        if (k >= 0) {
            first[i] = seen_child[k];
            continue;
        }
        if (keys_add(&seen, sfen[i]) > 0) seen_child[seen.n - 1] = i;  /* (out of memory: a repeat is verified again) */
        todo[nt++] = i;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int k = 0; k < nt; k++) {
        Child *c = &ch[todo[k]];
        if (compose_interrupted) { stopped = 1; continue; }
        if (r->verify(&c->pos, c->node_limit, c->v)) c->v->result = VERDICT_UNKNOWN;
        /* a second Ctrl-C cuts the searches in flight short: such a verdict is not one */
        if (compose_cut) { stopped = 1; continue; }
        c->fitness = compose_fitness(c->v, &r->initial_verdict);
        first[todo[k]] = -3;
    }
    /* The verdicts found go into the cache even when interrupted (the run writes
     * it out as it stops), so a --resume answers them at once; they are the ones
     * the straight run puts there at this point, so its results stay the same */
    for (int i = 0; i < n; i++) {
        Child *c = &ch[i];
        if (first[i] == -3) {
            if (vcache_put(r->vc, sfen[i], c->v, c->node_limit)) { stopped = 1; break; }
        } else if (first[i] >= 0 && !stopped) {  /* (a stopped batch is thrown away) */
            memcpy(c->v, ch[first[i]].v, sizeof(Verdict));
            c->fitness = ch[first[i]].fitness;
            r->gen_cached++;
        }
    }
    keys_free(&seen);
    free(first); free(todo); free(seen_child); free(sfen);
    return stopped;
}
