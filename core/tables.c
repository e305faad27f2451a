/* tables.c - the host's single copy of the generated tables (see tables.h). */
#include "bitboard.h"
#include "tables.inc"
