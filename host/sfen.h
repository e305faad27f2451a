/* sfen.h - strict SFEN parsing/formatting with the tsume hand convention,
 * and USI move text. */
#ifndef TSUMEGEN_SFEN_H
#define TSUMEGEN_SFEN_H
#include <stddef.h>
#include "../core/position.h"

#define SFEN_STARTPOS "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#define SFEN_MAX 160
#define ERR_MAX 200

/* Parse `text` ("startpos", "sfen ..." prefix allowed).  Unless strict_hands,
 * every piece on neither the board nor the attacker's hand is put in the
 * defender's hand (詰将棋の持駒規約).  Returns 0, or -1 with a message in err. */
int sfen_parse(const char *text, Position *pos, int strict_hands, char *err, size_t errlen);
void sfen_format(const Position *pos, char *buf, size_t len);

/* USI move text ("7g7f", "8h2b+", "P*5e").  move_parse checks the move is legal
 * in pos and explains why not in err. */
int move_parse(const Position *pos, const char *text, Move *out, char *err, size_t errlen);
void move_format(Move m, char *buf);  /* buf holds at least 6 bytes */
/* Plays the USI moves of text (split in place at spaces and tabs; NULL: none) on
 * pos, each through move_parse.  out (NULL: not kept, no limit) receives them, at
 * most max; *n counts those played.  0; -1 with "move N (TEXT): why" in err; 1 when
 * there are more than max (err untouched: the caller says what they are). */
int sfen_play_moves(Position *pos, char *text, Move *out, int max, int *n, char *err, size_t errlen);

#endif
