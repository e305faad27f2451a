/* refutations.h - 紛れ: the attacker's other checks along a solved problem's main
 * line, each with a defence that refutes it (solve --refutations): what a puzzle
 * app answers when the solver plays a wrong check, and a measure of how many
 * tempting wrong moves a problem holds. */
#ifndef TSUMEGEN_REFUTATIONS_H
#define TSUMEGEN_REFUTATIONS_H
#include "tsume.h"

typedef struct {
    int ply;      /* 1-based ply of the main line's attacker move this check replaces */
    Move move;    /* the other check */
    Move reply;   /* the defence that refutes it; MOVE_NONE: it mates, or a limit left it open */
    int within;   /* 0: no mate at all after reply; else no mate (futile rule) of at most
                   * this many plies counted from move, move included */
    int mates;    /* TS_REF_*: no reply, the check mates after all (0: it does not) */
    int length;   /* TS_REF_YOZUME: the plies of the mate found, move included (its plain
                   * proof avoiding the line's later positions: an upper bound) */
} TsRefutation;

/* Why a check that mates is not in the 余詰 list: the line's move with the other
 * promotion (成不成); the last move (a longer mate there is no 余詰); a mate only
 * through a later position of the line (a detour, 迂回); a mate that avoids the line,
 * past the 余詰 test's bound (a 余詰 that --yozume-confirm would have found); or
 * undecided between the last two (a limit). */
enum { TS_REF_PROMOTION = 1, TS_REF_LAST_MOVE, TS_REF_DETOUR, TS_REF_YOZUME, TS_REF_MATE };
extern const char *const TS_REF_MATES_NAME[];  /* "promotion", ... by TS_REF_* (index 0: "") */

typedef struct {
    TsRefutation *r;  /* main-line order, each ply's checks in generation order */
    int n;
    int undecided;    /* entries a limit left open (reply MOVE_NONE, mates 0) */
    int mates;        /* entries that mate */
    int run;          /* listed: the answer is a mate with a main line */
    int cut;          /* a Ctrl-C stopped the listing */
    int progress;     /* checks settled so far, for a progress display (on the listing's thread) */
    uint64_t nodes;
    double ms;
} TsRefutations;

/* The refutations along a's main line from start (nothing unless a is a mate with a
 * main line).  At each attacker node, every legal check but the line's own, a's
 * 余詰 and mates in one gets a reply after which the attacker has no mate at all (a
 * plain unbounded disproof, the same under the futile rule), or failing that none
 * within the 余詰 test's bound (n plies left + o->yozume_extra, 6 when unbounded)
 * under the futile rule; or it is found to mate (TsRefutation.mates).  Each check's two searches get o's node and time
 * limits (node limit 0: 1 M).  own: c is the context that solved a (its entries
 * help), and then o->helper (NULL: none), a second context on c's table, takes
 * every other check on a thread of its own; else c's table is begun afresh and
 * c alone lists them.  Returns 0, -1 when out of memory. */
int ts_refutations(DfCtx *c, const Position *start, const TsAnswer *a, const TsOptions *o, int own,
                   TsRefutations *out);
void ts_refutations_free(TsRefutations *rs);

#endif
