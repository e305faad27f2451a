/* kif.h - KIF (Kakinoki) output for people: a board diagram plus moves. */
#ifndef TSUMEGEN_KIF_H
#define TSUMEGEN_KIF_H
#include <stdio.h>
#include "../core/position.h"

/* Writes pos as a BOD diagram followed by the legal move sequence `moves`
 * (played from pos; the caller has checked legality), with comment (NULL: none; each
 * of its lines a '*' line) at the top.  Returns 0, -1 on I/O error. */
int kif_write(FILE *f, const Position *pos, const Move *moves, int n, const char *comment);
/* A side line (変化): moves[0] replaces the move at 1-based ply (counted from the
 * start) of the main line (parent -1) or of an earlier branch (parent: its index,
 * a ply before this one's); comment (NULL: none) follows its first move.  An
 * empty branch (n 0) is not written, and has no branches of its own. */
typedef struct {
    int ply;
    const Move *moves;
    int n;
    const char *comment;
    int parent;
} KifBranch;
/* kif_write with branches (legal, each from its parent line's position before its
 * ply), written after the main line in the order readers rebuild the tree from:
 * a line's branches the latest ply first, a ply's in the given order, each
 * followed at once by its own branches. */
int kif_write_branches(FILE *f, const Position *pos, const Move *moves, int n, const char *comment,
                       const KifBranch *branches, int nb);
/* The Japanese notation of one move ("２三銀打", "同　歩成", "７六歩(77)"), UTF-8. */
void kif_move_text(const Position *pos, Move m, int prev_to, char *buf, size_t len);
/* The position before 1-based ply of the line moves from start (its first ply-1
 * moves played), and *prev_to the square of the last of them (-1: none), for 同. */
void kif_position_before(const Position *start, const Move *moves, int ply, Position *at, int *prev_to);
/* The position before branch b[i]'s first move (its parent line's, played from
 * start, main_line the main line), and *prev_to as kif_position_before's. */
void kif_branch_position(const Position *start, const Move *main_line, const KifBranch *b, int i, Position *at,
                         int *prev_to);
/* Full-width digits ０-９ (a file in KIF), UTF-8; the reader parses with the same table. */
extern const char *const KIF_FW_DIGIT[10];

#endif
