/* kif.h - KIF (Kakinoki) output for people: a board diagram plus moves. */
#ifndef TSUMEGEN_KIF_H
#define TSUMEGEN_KIF_H
#include <stdio.h>
#include "../core/position.h"

/* Writes pos as a BOD diagram followed by the legal move sequence `moves`
 * (played from pos; the caller has checked legality), with comment (NULL: none; each
 * of its lines a '*' line) at the top.  Returns 0, -1 on I/O error. */
int kif_write(FILE *f, const Position *pos, const Move *moves, int n, const char *comment);
/* A side line (変化) of the main line: moves[0] replaces the main line's move at
 * 1-based ply; comment (NULL: none) follows its first move. */
typedef struct {
    int ply;
    const Move *moves;
    int n;
    const char *comment;
} KifBranch;
/* kif_write with branches (legal, each from the main line's position before its
 * ply), written after the main line in the order readers rebuild the tree from:
 * the latest ply first, a ply's branches in the given order. */
int kif_write_branches(FILE *f, const Position *pos, const Move *moves, int n, const char *comment,
                       const KifBranch *branches, int nb);
/* The Japanese notation of one move ("２三銀打", "同　歩成", "７六歩(77)"), UTF-8. */
void kif_move_text(const Position *pos, Move m, int prev_to, char *buf, size_t len);
/* The position before 1-based ply of the line moves from start (its first ply-1
 * moves played), and *prev_to the square of the last of them (-1: none), for 同. */
void kif_position_before(const Position *start, const Move *moves, int ply, Position *at, int *prev_to);
/* Full-width digits ０-９ (a file in KIF), UTF-8; the reader parses with the same table. */
extern const char *const KIF_FW_DIGIT[10];

#endif
