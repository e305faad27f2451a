/* screen.h - lean per-board screening, shared by the host (gcc) and the OpenCL
 * kernel (kernels/screen.cl).  The CPU reference and the kernel call exactly
 * these functions, so their results agree bit for bit.
 *
 * For one board sc_screen computes
 *   - legality per TSUME_RULES.md, as a reason code (SC_OK when legal);
 *   - the number of legal checking moves of the attacker (side to move);
 *   - every plain-rule mate-in-1 (a check after which the defender has no legal
 *     reply, pawn-drop mate excluded), in core/movegen.c's gen_checks order, so the
 *     list equals gen_mate1's;
 *   - the checks that are not plain-rule mates but tsume-rule mates because every
 *     remaining reply is a futile drop recaptured with mate (sc_futile_mate);
 *   - optionally mate3: mate within 3 plies under the plain rule - some check
 *     after which every legal defence (futile drops included, see below) allows a
 *     plain-rule mate-in-1, or a mate-in-1 itself;
 *   - the tsume-points score (seeds/002): a linear function, in integer
 *     milli-points, over features relative to the defender's king.
 *
 * Futile interpositions (無駄合): the screen counts every legal drop as a real
 * defence.  Removing futile drops can only remove defences, so a plain-rule mate
 * is also a tsume-rule mate: mate1 and mate3 may miss a mate that relies on a
 * futile drop being ignored (合い効かず), never report a mate that is not one.
 *
 * Private memory stays small: no MoveList; moves are produced by iterators
 * (ScCheckIter, ScEvIter) and the mate tests exit early. */
#ifndef TSUMEGEN_SCREEN_H
#define TSUMEGEN_SCREEN_H
#include "movegen.h"

#ifdef __OPENCL_C_VERSION__
#define TG_GLOBAL __global
#else
#define TG_GLOBAL
#endif

/* Legality reason codes (the order of checks follows host/sfen.c). */
enum {
    SC_OK = 0,
    SC_SFEN,              /* malformed SFEN text (set by the host parser) */
    SC_TWO_KINGS,         /* more than one king of one side */
    SC_TOO_MANY,          /* more pieces of a kind than the 40-piece set */
    SC_NO_DEFENDER_KING,  /* the side not to move has no king */
    SC_DEAD_PIECE,        /* pawn/lance on the last rank, knight on the last two */
    SC_NIFU,              /* two unpromoted pawns of one side on a file */
    SC_DEFENDER_IN_CHECK, /* the side not to move is in check */
    SC_BAD_CODE,          /* a board byte that is not a piece code */
    SC_REASON_NB
};

/* Input: 96 bytes.  board[sq] is a piece code (core/types.h) or 0; hand[c][pt-1]
 * counts PAWN..GOLD; side is the side to move (the attacker). */
typedef struct {
    uint8_t board[81];
    uint8_t hand[2][7];
    uint8_t side;
} ScBoard;

#define SC_MATE1_SLOTS 22
#define SC_FUTILE_SLOTS 4
/* Output: 64 bytes.  mate1[] holds the first min(n_mate1, SC_MATE1_SLOTS) mating
 * moves as 16-bit Moves, futile[] the first futile-only mates (see
 * sc_futile_mate); unused slots are 0.  points is in milli-points. */
typedef struct {
    uint8_t reason, mate3, flags, n_futile;
    uint16_t checks, n_mate1;
    int32_t points;
    uint16_t mate1[SC_MATE1_SLOTS];
    uint16_t futile[SC_FUTILE_SLOTS];
} ScResult;

/* sc_screen flags */
#define SC_DO_MATE3 1        /* compute mate3 (else mate3 = 0 and SC_FLAG_MATE3 unset) */
#define SC_STRICT_HANDS 2    /* keep hands as given (else the defender holds the rest) */
#define SC_DO_FUTILE 4       /* compute the futile-only mates (else n_futile = 0) */
#define SC_FLAG_MATE3 1      /* ScResult.flags: mate3 was computed */
#define SC_FLAG_FUTILE 2     /* ScResult.flags: the futile-only mates were computed */

/* Points weights: int32 milli-points, indexed as below.  Coordinates are
 * canonical: the board is rotated 180 degrees when the attacker is White, so the
 * attacker always plays "up" (toward rank a).  Offsets are relative to the
 * defender's king: df = file(sq) - file(king), dr = rank(sq) - rank(king), each
 * -8..8, index (df + 8) * 17 + (dr + 8).  Owner 0 = attacker, 1 = defender;
 * kind = piece type 1..14 (the attacker's king is kind 8; the defender's king is
 * the origin and is not a feature). */
#define SC_OFF_NB 289
#define SC_W_BIAS 0
#define SC_W_KING 1                                   /* [81] canonical king square */
#define SC_W_PIECE (SC_W_KING + 81)                    /* [2][14][289] */
#define SC_W_EMPTY (SC_W_PIECE + 2 * 14 * SC_OFF_NB)   /* [289] empty on-board square */
#define SC_W_HAND (SC_W_EMPTY + SC_OFF_NB)             /* [2][7] per piece held */
#define SC_W_EMPTYSUM (SC_W_HAND + 14)                /* [81] derived: sc_weights_finish */
#define SC_W_NB (SC_W_EMPTYSUM + 81)
TG_INLINE int sc_off_index(int df, int dr) { return (df + 8) * 17 + (dr + 8); }

/* Builds pos from b, Zobrist keys included; returns SC_OK or the first failed
 * legality rule.  (sc_screen builds it without the keys, which it never reads.) */
int sc_setup(const ScBoard *b, Position *pos, int strict_hands);
/* Does the side to move, which must be in check, have any legal reply?
 * == gen_evasions() > 0 */
int sc_has_evasion(const Position *pos);
/* The same question in three answers: 0 no legal reply (mate), 1 a king move,
 * capture or board-piece interposition exists, 2 only drops between the king and
 * a distant slider remain. */
int sc_evasion_kind(const Position *pos);
/* Defender to move, in check, with only drop replies (sc_evasion_kind == 2):
 * is every legal drop futile with L(E) = 0 (TSUME_RULES.md), i.e. can the
 * attacker capture each dropped piece with a move after which the defender is
 * mated?  Then the check is a tsume-rule mate-in-1 (合い効かず).  "Mated" after
 * the capture means a plain-rule mate, or again only drops that are all futile
 * in the same sense (up to seven levels, the longest line; a budget of 1024
 * capture tries bounds the work).  Conservative: a chain deeper than that, or
 * one that exhausts the budget, is not flagged, and nothing is flagged that is
 * not a tsume-rule mate. */
int sc_futile_mate(Position *pos);
/* Does the side to move have a plain-rule mate-in-1? (early exit) */
int sc_has_mate1(Position *pos);
/* Mate within 3 plies under the plain rule (see above). */
int sc_mate3(Position *pos);
/* Tsume points of a legal position, milli-points. */
int32_t sc_points(const Position *pos, TG_GLOBAL const int32_t *w);
/* Fills the derived SC_W_EMPTYSUM part (per king square, the sum of the empty
 * weights over every other square) after the file's weights are set. */
void sc_weights_finish(int32_t *w);
/* Everything for one board; w may be 0 (points = 0). */
void sc_screen(const ScBoard *b, ScResult *r, TG_GLOBAL const int32_t *w, int flags);
/* sc_screen in two halves, for callers that sort boards by legality first (a
 * GPU warp then runs legal boards together): sc_screen_setup fills r as far as
 * legality and returns r->reason; for SC_OK, sc_screen_legal completes r. */
int sc_screen_setup(const ScBoard *b, Position *pos, ScResult *r, int flags);  /* pos without keys */
/* What sc_screen_setup puts in r before the legality test (reason SC_OK). */
void sc_result_init(ScResult *r, int flags);
/* Bytes per Position in a device buffer (kernels/screen_gen.cl keeps the legal
 * boards' positions between its two passes); checked against sizeof(Position). */
#define SC_POS_STRIDE 512
typedef char sc_pos_fits_stride[sizeof(Position) <= SC_POS_STRIDE ? 1 : -1];
void sc_screen_legal(Position *pos, ScResult *r, TG_GLOBAL const int32_t *w, int flags);

/* Iterator over the legal checks of the side to move, in gen_checks order.
 * The position may be changed between calls only if restored exactly. */
typedef struct {
    Bitboard ours, att, drop_t;
    int from, pt, drop_pt;
    Move pend;
} ScCheckIter;
void sc_checks_init(const Position *pos, const CheckInfo *ci, ScCheckIter *it);
Move sc_checks_next(const Position *pos, const CheckInfo *ci, ScCheckIter *it);

/* The mate-in-1 scan in stages (sc_screen_legal is built from them; a GPU runs
 * the scan and the per-move tests as separate kernels for even warps):
 * sc_scan_next returns the next check the defender's king cannot simply step
 * away from (only those can mate), counting every check in s->checks, and
 * MOVE_NONE at the end; sc_reply_kind(pos, m) is sc_evasion_kind after m (0 =
 * mate; pos is restored); sc_result_mate appends a mating move to r's list. */
typedef struct {
    CheckInfo ci;
    ScCheckIter it;
    Bitboard free;
    int checks;
} ScScan;
void sc_scan_init(const Position *pos, ScScan *s);
Move sc_scan_next(const Position *pos, ScScan *s);
int sc_reply_kind(Position *pos, Move m);
void sc_result_mate(ScResult *r, Move m);

/* Iterator over the legal evasions of the side to move (the set gen_evasions
 * gives, in another order). */
typedef struct {
    Bitboard kmoves, targets, cand, between, drop_t, pinned;
    int ksq, to, drop_pt;
    Move pend;
} ScEvIter;
void sc_evasions_init(const Position *pos, ScEvIter *it);
Move sc_evasions_next(const Position *pos, ScEvIter *it);

#endif
