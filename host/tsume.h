/* tsume.h - exact tsume answers on top of the df-pn engine: verdict, exact length
 * under the futile-interposition rule, main line (longest defence, then fewest
 * attacker pieces left), 駒余り, 余詰 (detours excluded) and notes. */
#ifndef TSUMEGEN_TSUME_H
#define TSUMEGEN_TSUME_H
#include "dfpn.h"

enum { TS_UNKNOWN = 0, TS_MATE = 1, TS_NOMATE = 2 };
#define TS_MAX_PV 1024
#define TS_MAX_YOZUME 32
#define TS_MAX_NOTES 16
#define TS_NOTE_LEN 160

typedef struct {
    int ply;      /* 1-based ply (move number) of the main line the alternative replaces */
    Move move;
    int length;   /* length of the alternative mate from that ply (plain-rule proof, an upper bound) */
} TsYozume;

typedef struct {
    int result;
    int length;         /* exact length (plies) when exact_length */
    int exact_length;   /* 0: a limit stopped the "no mate in L-2" proof; length is an upper bound */
    int length_lb;      /* proven lower bound on the length (= length when exact) */
    Move pv[TS_MAX_PV];
    int npv;
    int leftover;       /* attacker pieces in hand at the end of the main line */
    int leftover_unproved; /* leftover > 0 but not every tie among longest defences was
                              compared: maybe no 駒余り (not a flaw; complete = 0) */
    int perfect;
    int complete;       /* every flaw test was decided */
    int notes_incomplete; /* a limit stopped a notes-only test (変同, final-move alternatives) */
    int yozume_bound;   /* >= 0: the 余詰 tests searched each alternative with n plies left to
                           n + this many plies only (no unbounded confirmation), so "no 余詰"
                           means none within that; -1: any length, or no analysis ran */
    TsYozume yozume[TS_MAX_YOZUME];
    int nyozume;
    char notes[TS_MAX_NOTES][TS_NOTE_LEN];
    int nnotes;
    int notes_cut;      /* notes past TS_MAX_NOTES, not kept (the output says how many) */
    int plain_len;      /* length of the plain-rule proof (proof checker bound) */
    Move line[TS_MAX_PV]; /* o->found_line, when the length stays an upper bound: the mate */
    int nline;          /* found (plain rule), nline <= length plies; not the main line */
    int verified;       /* -1 not run, 0 failed, 1 passed, 2 undecided (limit) */
    char verify_msg[TS_NOTE_LEN];
    uint64_t nodes;
    double ms;
} TsAnswer;

typedef struct {
    uint64_t node_limit;  /* 0 = none */
    double time_limit;    /* seconds, 0 = none */
    int flaws;            /* run the 余詰 / notes analysis */
    int verify;           /* run the independent proof checker */
    int yozume_extra;     /* 余詰 search bound: an alternative at a node with n plies left is
                             searched to n + yozume_extra plies; < 0: unbounded (may not finish) */
    int first_flaw;       /* composer mode: stop at the first flaw (駒余り, then 余詰 from the
                             last ply back) and skip the notes-only tests */
    int yozume_confirm;   /* when the bounded 余詰 test finds none, test every alternative again
                             with no bound (TSUME_RULES: a mate of any length); a limit there
                             leaves the analysis incomplete, so the verdict is not perfect */
    int tie_plies;        /* plies of line the main-line tie comparison may walk (0: 4096) */
    int tied_all;         /* several main lines tie on length and leftover (変同): 0 = perfect when
                             one of them is free of 余詰 (the composer declares that one; the
                             others' mates are 変化別詰, a note); 1 = cooked when any of them is */
    int length_search;    /* TS_LEN_AUTO (0): bottom up, and from 19 plies on the main-line walk in
                             turns with it; TS_LEN_UP: bottom up only; TS_LEN_WALK: the walk only */
    uint64_t first_cap;   /* first node cap of the auto rounds (a walk step's: a quarter); 0 =
                             4 M.  Tests set a small one so that every kind of round runs */
    DfCtx *helper;        /* NULL, or a second context on the solving context's table
                             (df_new_helper): with auto and no node limit, a long problem's
                             exact length is then searched bottom up and by the walk at
                             once, on two threads, and any problem's 余詰 tests are shared
                             out between them (solve gives a lone problem its spare core) */
    int max_length;       /* > 0: only mates within this many plies, asked bottom up with no
                             unbounded search (no mate within it: result unknown, length_lb) */
    int split_bounded;    /* with max_length and a helper: the helper splits the last bound by
                             root check (split_last_bound in split.c) */
    int trace;            /* stderr: the exact-length search's steps (exact_length.c) */
    int found_line;       /* when a limit leaves the length an upper bound: the line of the mate
                             found (a->line), its lost proofs searched again with at most a
                             sixteenth of the problem's nodes (solve, and the composers
                             for undecided.jsonl) */
    int keep_table;       /* the caller began the problem on c (df_begin, then df_table_load):
                             ts_solve keeps the table's entries */
    int attacker_ties;    /* the main line's leftover is the least over the attacker's tied
                             shortest mates too, every check searched at each attacker node
                             (the variations: a tie there is 変化別詰, not a 余詰) */
} TsOptions;
enum { TS_LEN_AUTO = 0, TS_LEN_UP = 1, TS_LEN_WALK = 2 };

/* Two board moves that differ only in promotion (成不成: one mate, not two). */
int ts_same_but_promo(Move a, Move b);

/* m is in a's 余詰 list at 1-based ply (among the first TS_MAX_YOZUME kept). */
int ts_yozume_listed(const TsAnswer *a, int ply, Move m);

/* The 余詰 test's 迂回 rule.  q: the position after an alternative check (defender
 * to move); later: the n main-line positions after that ply.  ts_on_line: q is one
 * of them.  ts_mate_off_line: a plain mate within depth that passes none of them
 * (proven: a 余詰; disproven: none, q itself on the line included). */
int ts_on_line(const Position *q, const uint64_t *later, int n);
DfResult ts_mate_off_line(DfCtx *c, Position *q, const uint64_t *later, int n, int depth);

/* Check m at 0-based ply k of a's main line (from root) mates avoiding the line's
 * later positions (a 余詰 of that line): is it one of every tied main line too (the
 * attacker's ties included)?  1 yes, 0 a tied line escapes it, -1 not decided (a
 * limit, the line cap, a's analysis incomplete, or a tied line with ties of its own). */
int ts_yozume_on_tied_lines(DfCtx *c, const TsOptions *o, const TsAnswer *a, const Position *root, int k, Move m);

/* Appends note to a's notes, or counts it in a->notes_cut when they are full (the
 * renderers then print TS_NOTES_CUT_FMT with that count and TS_MAX_NOTES last). */
#define TS_NOTES_CUT_FMT "notes_cut: %d more notes past the cap of %d"
void ts_add_note(TsAnswer *a, const char *note);

/* Solves pos (attacker = side to move).  c is reset for this problem. */
void ts_solve(DfCtx *c, const Position *pos, const TsOptions *o, TsAnswer *a);

#endif
