/* kif_read.h - KIF (Kakinoki) input: board diagrams (BOD) and their move records,
 * UTF-8 or Shift_JIS, as problem collections and GUIs write them. */
#ifndef TSUMEGEN_KIF_READ_H
#define TSUMEGEN_KIF_READ_H
#include <stddef.h>
#include "sfen.h"

/* One game of a KIF text: its start position and the moves of its main line
 * (variations, 変化, are skipped), up to a result word (詰み, 投了, ...). */
typedef struct {
    Position pos;
    Move moves[1024];
    int n;
    int line;  /* the line its diagram starts on */
} KifGame;

typedef struct KifReader KifReader;

/* A reader over a copy of data (n bytes; a BOM is skipped, Shift_JIS is converted);
 * NULL with a message in err when the text is neither UTF-8 nor Shift_JIS. */
KifReader *kif_reader_new(const char *data, size_t n, char *err, size_t errlen);
/* The next game: 1 (out filled), 0 at the end, -1 with "line N: message" in err
 * (that game is skipped; the next call reads on).  The position goes through
 * sfen_parse (strict_hands as there; a defender's hand of 残り全部 always takes the
 * hand convention), each move through move_parse: an illegal one is an error. */
int kif_reader_next(KifReader *r, int strict_hands, KifGame *out, char *err, size_t errlen);
void kif_reader_free(KifReader *r);
/* Each game of the KIF file at path ("-": stdin) as a line "SFEN" or "SFEN moves
 * USI ...": fn(arg, line, NULL); each bad game, or a file that cannot be read,
 * as fn(arg, NULL, "PATH: line N: message").  Returns how many were bad. */
int kif_file_each(const char *path, int strict_hands, void (*fn)(void *arg, const char *line, const char *err), void *arg);
/* The same over a text already read (data NUL-terminated, n bytes; name for the messages). */
int kif_text_each(const char *name, const char *data, size_t n, int strict_hands,
                  void (*fn)(void *arg, const char *line, const char *err), void *arg);
/* Is this text KIF (a board frame, #KIF, 手数----, 手合割 or a 持駒 line) rather
 * than SFEN lines?  data NUL-terminated. */
int kif_is_kif(const char *data, size_t n);

#endif
