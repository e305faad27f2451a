/* variations.h - 変化: the defender's other replies along a solved problem's main
 * line, each with its own exact answer (solve --variations: the KIF's 変化 branches
 * and the JSON's "variations"), and to a given depth the same along each
 * variation's own line (solve --variation-depth). */
#ifndef TSUMEGEN_VARIATIONS_H
#define TSUMEGEN_VARIATIONS_H
#include "tsume.h"

#define TS_MAX_VARIATIONS 1024

typedef struct {
    int ply;      /* 1-based ply from the problem's start of the defence this one replaces */
    int parent;   /* the line it branches from: -1 the main line, else an earlier variation's index */
    int level;    /* 1: from the main line, 2: from a level-1 variation, ... */
    int listed;   /* its own variations were looked for (those with it as parent) */
    int result;   /* TS_MATE, or TS_UNKNOWN when a limit stopped its search */
    int exact;    /* the length is exact; else an upper bound and the line one mate */
    int length;   /* plies from the defence to the mate, the defence included */
    int nmoves;   /* moves: the defence, then the mate after it (0 plies after it when unknown) */
    Move *moves;
    int leftover;     /* exact: the attacker's pieces in hand at its mate (駒余り of the variation) */
    int leftover_unproved; /* leftover > 0, but the tie budget stopped the search for a longest
                              defence that leaves fewer (its answer's leftover_unproved) */
    int betsu_run;    /* 変化別詰 looked for: 0 no, 1 every test decided, 2 a limit cut some out */
    int nbetsu;       /* found (may exceed TS_MAX_YOZUME; the first of them kept) */
    TsYozume *betsu;  /* ply from the start, the other check, the length from it (= the line's) */
} TsVariation;

typedef struct {
    TsVariation *v;  /* level by level; a line's own in its ply order, each ply's defences in generation order */
    int n;
    int cut;         /* 1: a limit left some node's defences unlisted; 2: the cap (more than
                      * TS_MAX_VARIATIONS) or a Ctrl-C stopped the listing */
    int run;         /* listed: the answer is a mate with a main line (n may be 0: all forced) */
    int paired;      /* of them, solved on two threads (o->helper) */
    uint64_t nodes;  /* the variations' searches and their nodes' futility tests, in all */
    double ms;       /* wall time of the listing */
} TsVariations;

/* The variations of a's main line from start (nothing unless a is a mate with a
 * main line).  Each defence that counts under the futile rule (futile drops are no
 * defence) other than the main line's is solved on c with o's limits, no flaw
 * analysis; c is reset once for the whole listing, whose searches share its
 * entries, unless o->keep_table: then c is the context that solved a (on start)
 * and its entries help.  c must not hold a table a caller still needs as it is.  depth >= 1 levels: the variations of each exact variation below depth are
 * listed too, at most TS_MAX_VARIATIONS in all.  betsu: each exact variation's
 * 変化別詰 too, the other checks at its attacker nodes but the last that mate in
 * the plies its line has left (o's limits for each variation's tests).  With
 * o->helper (a second context on c's table; needs o->keep_table) each line's
 * defences are solved on two threads, each taking the next one.  Returns 0, -1
 * when out of memory. */
int ts_variations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, int depth, int betsu,
                  TsVariations *out);
void ts_variations_free(TsVariations *vs);
/* 変長 (TSUME_RULES: worth reporting, not verdict-changing): where a's main line ends
 * with pieces in hand, a note "henka_chou" on a names the main-line defence where
 * the longest line that ends with none (what a traditional composer keeps as the
 * 作意), made of the main line and its exact level-1 variations, leaves it.  No
 * note unless every level-1 variation is exact with a proved leftover and none was
 * left out (vs->cut). */
void ts_henka_chou_notes(const TsVariations *vs, TsAnswer *a);

#endif
