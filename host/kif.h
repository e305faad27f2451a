/* kif.h - KIF (Kakinoki) output for people: a board diagram plus moves. */
#ifndef TSUMEGEN_KIF_H
#define TSUMEGEN_KIF_H
#include <stdio.h>
#include "../core/position.h"

/* Writes pos as a BOD diagram followed by the legal move sequence `moves`
 * (played from pos; the caller has checked legality), with comment (NULL: none; each
 * of its lines a '*' line) at the top.  Returns 0, -1 on I/O error. */
int kif_write(FILE *f, const Position *pos, const Move *moves, int n, const char *comment);
/* The Japanese notation of one move ("２三銀打", "同　歩成", "７六歩(77)"), UTF-8. */
void kif_move_text(const Position *pos, Move m, int prev_to, char *buf, size_t len);
/* Full-width digits ０-９ (a file in KIF), UTF-8; the reader parses with the same table. */
extern const char *const KIF_FW_DIGIT[10];

#endif
