/* solve_side.c - what `tsumegen solve` adds to a solved job besides its verdict:
 * the 変化 (--variations), the 紛れ (--refutations), and the henka_chou note that
 * needs the level-1 variations even without --variations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solve_jobs.h"

/* A lone problem's side lines on a terminal, on a line below the problem's own: how
 * many are listed and the listing's seconds, at most twice a second from their
 * searches (the hook runs on the listing's thread, so *count is its own), and once
 * at the end.  Zuko 1's variations take 90 s after its answer. */
typedef struct {
    double t0, shown;
    const char *what;  /* "variations", "refutations" */
    const int *count;
} SideProgress;

static void show_side(const SideProgress *p) {
    fprintf(stderr, "\rsolve: %s: %d listed, %.0f s ", p->what, *p->count, df_now() - p->t0);
}

static void side_progress(void *arg, uint64_t nodes) {
    SideProgress *p = arg;
    (void)nodes;
    if (df_now() - p->shown < 0.5) return;
    p->shown = df_now();
    show_side(p);
}

/* The progress line from here on (show: a lone problem on a terminal). */
static void side_begin(DfCtx *c, SideProgress *p, int show, const char *what, const int *count) {
    *p = (SideProgress){df_now(), df_now(), what, count};
    if (!show) return;
    fputc('\n', stderr);  /* (the line above stays) */
    df_set_progress(c, side_progress, p, (uint64_t)1 << 16);
}

static void side_end(DfCtx *c, const SideProgress *p, int show) {
    if (!show) return;
    df_set_progress(c, NULL, NULL, 0);
    show_side(p);
}

/* A Ctrl-C among a job's side lines marks the answer interrupted (so --out's
 * resume solves it again). */
static void side_interrupted(Job *j, const char *what) {
    TsAnswer *a = &j->ans;
    j->interrupted = 1;
    char note[TS_NOTE_LEN];
    snprintf(note, sizeof note, "interrupted: Ctrl-C stopped the %s", what);
    ts_add_note(a, note);
}

/* The second context that lists a lone problem's side lines with the solving one,
 * each thread taking the next search: to's helper when they are listed on its
 * owner's table (own), unless --nodes asked for counts that do not depend on the
 * threads' timing (TSUMEGEN_SIDE_PAIR=0: one thread, to compare). */
static DfCtx *side_helper(const TsOptions *to, int own) {
    const char *env = getenv("TSUMEGEN_SIDE_PAIR");
    return own && !to->node_limit && !(env && *env && atoi(env) == 0) ? to->helper : NULL;
}

/* The variations' limits: --variation-nodes each (default --nodes, else 10 M);
 * own: they are listed on the table that solved the problem, whose entries stay. */
static TsOptions variation_options(const TsOptions *to, const SolveOpts *o, int own) {
    TsOptions vo = *to;
    vo.keep_table = own;
    vo.helper = side_helper(to, own);
    vo.node_limit = o->variation_nodes ? o->variation_nodes : vo.node_limit ? vo.node_limit : 10000000;
    return vo;
}

/* --variations for a solved job, on c (own: the context that solved it, whose
 * entries stay).  show: the progress line. */
static void solve_variations(DfCtx *c, int own, Job *j, const TsOptions *to, const SolveOpts *o, int idx, int show) {
    TsOptions vo = variation_options(to, o, own);
    SideProgress sp;
    side_begin(c, &sp, show, "variations", &j->vars.n);
    int rc = ts_variations(c, &j->pos, &j->ans, &vo, o->variation_depth, o->flaws, &j->vars);
    side_end(c, &sp, show);
    if (rc) fprintf(stderr, "%stsumegen solve: out of memory for the variations of input %d\n", show ? "\n" : "", idx + 1);
    if (o->flaws) ts_henka_chou_notes(&j->vars, &j->ans);
    if (df_interrupted()) side_interrupted(j, "variations");
}

/* The late 余詰 that stay off the list (--no-flaws, or the list full) share one
 * yozume_unlisted note a ply, its moves as far as the note holds and then a count:
 * a problem can have dozens at one ply, and the answer keeps 16 notes (the
 * refutations entries name each one).  ply 0 / NULL: flush. */
typedef struct {
    int ply, count, shown;  /* the group's ply (0: none), its moves, those in moves[] */
    char moves[80];  /* (with the rest of the note, within TS_NOTE_LEN) */
    const char *why;
} UnlistedGroup;

#define UNLISTED_TAIL " without passing the main line (not in the 余詰 list: %s)"

static void unlisted_group(UnlistedGroup *g, TsAnswer *a, int ply, const char *mv) {
    char note[TS_NOTE_LEN], more[32] = "";
    if (g->ply && (ply != g->ply || !mv)) {
        if (g->count > g->shown) snprintf(more, sizeof more, " and %d more", g->count - g->shown);
        snprintf(note, sizeof note, "yozume_unlisted: ply %d %s%s %s", g->ply, g->moves, more,
                 g->count == 1 ? "mates" : "mate");
        size_t n = strlen(note);
        snprintf(note + n, sizeof note - n, UNLISTED_TAIL, g->why);
        ts_add_note(a, note);
        g->ply = 0;
    }
    if (!mv) return;
    if (!g->ply) *g = (UnlistedGroup){.ply = ply, .why = g->why};
    g->count++;
    /* room for this move, " and NN more" and the tail with its reason */
    size_t used = strlen(g->moves), room = TS_NOTE_LEN - 1 - strlen("yozume_unlisted: ply 999 ") -
                  strlen(" and 999 more mates") - (strlen(UNLISTED_TAIL) - 2) - strlen(g->why);
    if (room > sizeof g->moves - 1) room = sizeof g->moves - 1;
    if (g->shown == g->count - 1 && used + 1 + strlen(mv) <= room) {
        snprintf(g->moves + used, sizeof g->moves - used, "%s%s", used ? " " : "", mv);
        g->shown++;
    }
}

/* The 余詰 that the refutations found past the 余詰 test's reach (mates kind
 * "yozume": a check that mates avoiding the line's later positions; past the
 * bounded test's bound, or left open by a limit in the unbounded one).  A 余詰 is
 * a mate of any length (TSUME_RULES), so such a find turns the verdict: listed,
 * the problem cooked, when the tie rule is "all" or every tied main line has it
 * too; with "any" and a tied line that escapes it, that line may be clean, and it
 * is not examined again: not perfect, the analysis incomplete.  Elsewhere
 * (--no-flaws, the list's cap) a note says it, one a ply. */
static void late_yozume(DfCtx *c, Job *j, const TsOptions *ro, const SolveOpts *o) {
    TsAnswer *a = &j->ans;
    UnlistedGroup group = {.ply = 0, .why = o->flaws ? "past the list's cap" : "--no-flaws"};
    for (int i = 0; i < j->refs.n; i++) {
        const TsRefutation *r = &j->refs.r[i];
        if (r->mates != TS_REF_YOZUME) continue;
        char mv[8], note[TS_NOTE_LEN];
        move_format(r->move, mv);
        int listable = o->flaws && a->nyozume < TS_MAX_YOZUME;  /* (or an unbounded test a limit stopped) */
        int all = 1;  /* every tied line has it too (or "all": the reported line's is enough) */
        if (listable) a->yozume[a->nyozume++] = (TsYozume){r->ply, r->move, r->length};
        if (listable && !ro->tied_all) {
            /* (listed first: if it mates as soon as the line's own move, the line
             * through it is a tied main line of its own, the attacker's tie) */
            df_begin_keep(c, j->pos.side, ro->node_limit ? ro->node_limit : 1000000,
                          ro->time_limit > 0 ? df_now() + ro->time_limit : 0);
            all = ts_yozume_on_tied_lines(c, ro, a, &j->pos, r->ply - 1, r->move);
            if (all != 1) a->nyozume--;
        }
        if (listable && all == 1) {
            a->perfect = 0;
            snprintf(note, sizeof note, "yozume_past_bound: ply %d %s mates in %d, a 余詰 the 余詰 test did not "
                     "decide (found by the refutations; listed)", r->ply, mv, r->length);
        } else if (listable) {
            a->perfect = 0;
            a->complete = 0;
            /* (where other 余詰 are listed the problem is cooked all the same) */
            snprintf(note, sizeof note, "yozume_unlisted: ply %d %s mates without passing the main line; %s%s",
                     r->ply, mv, all == 0 ? "a tied main line escapes it, not examined again"
                                          : "tied main lines left open",
                     a->nyozume ? " (cooked by the listed 余詰)" : ": not perfect, not cooked");
        } else {
            unlisted_group(&group, a, r->ply, mv);
            continue;
        }
        ts_add_note(a, note);
    }
    unlisted_group(&group, a, 0, NULL);
}

/* --refutations for a solved job, on c as solve_variations; --refutation-nodes for
 * each check's searches (default --nodes, else 1 M). */
static void solve_refutations(DfCtx *c, int own, Job *j, const TsOptions *to, const SolveOpts *o, int idx, int show) {
    SideProgress sp;
    side_begin(c, &sp, show, "refutations", &j->refs.progress);
    TsOptions ro = *to;
    if (o->refutation_nodes) ro.node_limit = o->refutation_nodes;
    ro.helper = side_helper(to, own);
    int rc = ts_refutations(c, &j->pos, &j->ans, &ro, own, &j->refs);
    side_end(c, &sp, show);
    if (rc) fprintf(stderr, "%stsumegen solve: out of memory for the refutations of input %d\n", show ? "\n" : "", idx + 1);
    late_yozume(c, j, &ro, o);
    if (df_interrupted()) side_interrupted(j, "refutations");
}

/* Without --variations a main line that leaves pieces still gets its henka_chou note
 * (TSUME_RULES: 変長 is worth reporting): its level-1 variations are listed for the
 * note alone, on the table that solved it (not with --table, whose file keeps the
 * problem's search alone). */
static void henka_chou_alone(DfCtx *c, Job *j, const TsOptions *to, const SolveOpts *o) {
    TsOptions vo = variation_options(to, o, 1);
    TsVariations vs;
    if (!ts_variations(c, &j->pos, &j->ans, &vo, 1, 0, &vs)) ts_henka_chou_notes(&vs, &j->ans);
    ts_variations_free(&vs);
}

void solve_side_lines(DfCtx *c, DfCtx *vc, Job *j, const TsOptions *to, const SolveOpts *o, int idx, int show) {
    if (j->ans.result != TS_MATE || df_interrupted()) return;
    /* the refutations first: the 余詰 tests' entries on the problem's table settle most */
    if (o->refutations) solve_refutations(vc ? vc : c, !vc, j, to, o, idx, show);
    if (o->variations && !df_interrupted()) solve_variations(vc ? vc : c, !vc, j, to, o, idx, show);
    else if (!o->variations && o->flaws && !o->table_path && j->ans.leftover && !j->ans.leftover_unproved &&
             !df_interrupted())
        henka_chou_alone(c, j, to, o);
}
