/* csa_read.h - CSA input (the Computer Shogi Association's record format, as
 * servers, engines and problem collections write it): a position (PI with its
 * removals, P1-P9 rows, P+/P- pieces, 00AL for every piece left) and the moves
 * (+7776FU, +0055KA), several games apart by "/" lines.  kif_text_each reads a
 * text through here when csa_is_csa says it is CSA. */
#ifndef TSUMEGEN_CSA_READ_H
#define TSUMEGEN_CSA_READ_H
#include <stddef.h>
#include "kif_read.h"

typedef struct CsaReader CsaReader;

/* A reader over a copy of data (n bytes); NULL out of memory. */
CsaReader *csa_reader_new(const char *data, size_t n);
/* The next game, as kif_reader_next: 1 (out filled), 0 at the end, -1 with "line N:
 * message" in err (that game is skipped).  The position goes through sfen_parse
 * (00AL: the hand convention for that side, even with strict_hands), each move
 * through move_parse: an illegal one, or one whose piece is not the one named, is
 * an error. */
int csa_reader_next(CsaReader *r, int strict_hands, KifGame *out, char *err, size_t errlen);
void csa_reader_free(CsaReader *r);
/* Is this text CSA (a V2./V3. line, PI, a P1 row or a P+/P- line, and no KIF frame)? */
int csa_is_csa(const char *data, size_t n);

#endif
