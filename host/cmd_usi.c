/* cmd_usi.c - `tsumegen usi`: the exact verifier as a USI tsume engine, so that a
 * shogi GUI (ShogiGUI, 将棋所, ...) or any USI client can ask it "go mate".  The
 * main thread reads commands; a go mate searches on its own thread, so that stop,
 * isready and quit are answered while it runs.  Every line the engine writes goes
 * through say(), under one lock, so that the two threads never interleave. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "movegen.h"
#include "tsume.h"
#include "util.h"
#ifdef _OPENMP
#include <omp.h>
#endif

const char USAGE_USI[] =
    "usage: tsumegen usi\n"
    "  Speaks the USI protocol on stdin/stdout as a tsume (mate) engine, for shogi GUIs:\n"
    "  usi, isready, setoption, usinewgame, position, go mate <ms|infinite>, stop, quit.\n"
    "  go mate answers `checkmate <usi moves>` (the main line: the attacker's shortest\n"
    "  mate against the longest defence, futile interpositions not counted), `checkmate\n"
    "  nomate` (proved: no mate at any length) or `checkmate timeout` (the time ran out or\n"
    "  stop came first, with no mating line to give; never a guess).  A mate found but\n"
    "  not proved shortest before the time or the stop is given as its line, with\n"
    "  `info string` saying so.  Other `go` commands answer `bestmove resign`: this\n"
    "  engine only solves mates.\n"
    "  Options (setoption name N value V):\n"
    "    USI_Hash     table size in MB (default 256)\n"
    "    Threads      1 or 2 (default: 2 where there are two cores): a second thread joins\n"
    "                 the exact-length search\n"
    "    StrictHands  false (default): the tsume hand convention, every piece on neither\n"
    "                 the board nor the attacker's hand is the defender's; true: hands as given\n"
    "    Flaws        false (default); true: also test 余詰 and 駒余り and report them and the\n"
    "                 notes as `info string` lines before the answer\n"
    "  Bad input (an unreadable position, an illegal move) is named in an `info string\n"
    "  error: ...` line; a go mate on it answers `checkmate timeout`.\n";

#define USI_HASH_DEFAULT 256
#define USI_INFO_EVERY ((uint64_t)1 << 14)  /* nodes between clock reads (a line a second) */

typedef struct {
    pthread_mutex_t out_lock;
    pthread_t thread;
    int thread_live;         /* a search thread was started and not yet joined */
    atomic_int searching;    /* it is still searching (0 once its answer is out) */
    DfCtx *ctx, *helper;     /* the tables, made at isready or the first go mate */
    size_t hash_mb, ctx_mb;  /* asked for / allocated */
    int threads;
    int strict_hands, flaws;
    Position pos;            /* the last `position` (pos_err[0]: it could not be read) */
    char pos_err[ERR_MAX + 64];
    int have_pos;
    Position search_pos;     /* the search thread's copy */
    double limit_s;          /* go mate's time, 0 = infinite */
    double t0, last_info;    /* the search's start, its last progress line */
} Usi;

/* One line to the GUI (with the newline), flushed at once. */
static void say(Usi *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Usi *u, const char *fmt, ...) {
    va_list ap;
    pthread_mutex_lock(&u->out_lock);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&u->out_lock);
}

/* Joins a search thread that has answered (or, wait: any, after stopping it). */
static void reap(Usi *u, int wait) {
    if (!u->thread_live) return;
    if (!wait && atomic_load(&u->searching)) return;
    if (wait && atomic_load(&u->searching)) df_interrupt();
    pthread_join(u->thread, NULL);
    u->thread_live = 0;
}

/* The tables for the current USI_Hash and Threads; 0, or -1 with the reason said
 * (the earlier tables, if any, are kept then). */
static int ensure_tables(Usi *u) {
    int want_helper = u->threads >= 2;
    if (u->ctx && u->ctx_mb == u->hash_mb && (u->helper != NULL) == want_helper) return 0;
    size_t phys = util_phys_mb();
    if (phys && u->hash_mb > phys) {
        say(u, "info string error: USI_Hash %zu MB is more than this machine's %zu MB of memory", u->hash_mb, phys);
        return u->ctx ? 0 : -1;
    }
    if (u->helper) df_free(u->helper);  /* (a helper before its owner) */
    if (u->ctx) df_free(u->ctx);
    u->helper = NULL;
    u->ctx = df_new(u->hash_mb);
    if (u->ctx && want_helper) u->helper = df_new_helper(u->ctx);
    if (!u->ctx || (want_helper && !u->helper)) {
        say(u, "info string error: cannot allocate a %zu MB table%s", u->hash_mb, want_helper ? " and a helper" : "");
        if (u->ctx) df_free(u->ctx);
        u->ctx = NULL;
        return -1;
    }
    u->ctx_mb = u->hash_mb;
    return 0;
}

/* Progress from inside the search (its thread): at most one info line a second. */
static void usi_progress(void *arg, uint64_t nodes) {
    Usi *u = arg;
    double now = df_now();
    if (now - u->last_info < 1.0) return;
    u->last_info = now;
    char known[64];
    df_bounds_text(u->ctx, known, sizeof known);
    double s = now - u->t0;
    say(u, "info time %.0f nodes %llu nps %.0f%s%s", s * 1000, (unsigned long long)nodes, s > 0 ? nodes / s : 0.0,
        known[0] ? " string " : "", known);
}

/* True when the moves, played from pos, are each legal and end in mate (the side
 * to move in check with no legal move): a line the GUI may show as an answer. */
static int line_mates(const Position *pos, const Move *line, int n) {
    Position q = *pos;
    for (int i = 0; i < n; i++) {
        char t[8], err[ERR_MAX];
        Move m;
        move_format(line[i], t);
        if (move_parse(&q, t, &m, err, sizeof err)) return 0;
        Undo un;
        pos_do_move(&q, m, &un);
    }
    return n > 0 && in_check(&q) && !has_legal_move(&q);
}

/* "checkmate m1 m2 ..." (malloc'd; NULL out of memory). */
static char *checkmate_line(const Move *moves, int n) {
    size_t cap = 10 + (size_t)n * 7;
    char *s = malloc(cap), mv[8];
    if (!s) return NULL;
    size_t k = (size_t)snprintf(s, cap, "checkmate");
    for (int i = 0; i < n; i++) {
        move_format(moves[i], mv);
        k += (size_t)snprintf(s + k, cap - k, " %s", mv);
    }
    return s;
}

/* The answer of one go mate: its info lines are said here; the checkmate line is
 * returned (malloc'd, NULL: "checkmate timeout"), for search_main to say last. */
static char *report(Usi *u, const TsAnswer *a) {
    double s = a->ms / 1000.0;
    say(u, "info time %.0f nodes %llu nps %.0f", a->ms, (unsigned long long)a->nodes, s > 0 ? a->nodes / s : 0.0);
    for (int i = 0; i < a->nnotes; i++) say(u, "info string note: %s", a->notes[i]);
    if (a->notes_cut) say(u, "info string note: " TS_NOTES_CUT_FMT, a->notes_cut, TS_MAX_NOTES);
    if (a->result == TS_NOMATE) return strdup("checkmate nomate");
    if (a->result != TS_MATE) return NULL;
    if (u->flaws && a->exact_length) {
        char mv[8];
        for (int i = 0; i < a->nyozume; i++) {
            move_format(a->yozume[i].move, mv);
            say(u, "info string flaw: yozume (余詰) at ply %d: %s mates too, in %d", a->yozume[i].ply, mv, a->yozume[i].length);
        }
        if (a->npv && a->leftover && !a->leftover_unproved)
            say(u, "info string flaw: leftover (駒余り): %d piece%s in hand at the end", a->leftover, a->leftover > 1 ? "s" : "");
        if (a->perfect) say(u, "info string perfect: exact length, no 余詰, no 駒余り");
    }
    if (a->exact_length) {
        say(u, "info string mate in %d, shortest proved", a->length);
        if (a->npv == a->length) return checkmate_line(a->pv, a->npv);
        say(u, "info string the main line is longer than %d plies: not kept whole", TS_MAX_PV);
        return NULL;
    }
    /* a mate of at most `length` plies, not proved shortest: its line, if whole */
    const Move *line = a->npv ? a->pv : a->line;
    int n = a->npv ? a->npv : a->nline;
    if (n && line_mates(&u->search_pos, line, n)) {
        say(u, "info string mate in %d found, not proved shortest (at least %d); the line is one variation", a->length, a->length_lb);
        return checkmate_line(line, n);
    }
    say(u, "info string mate in %d found, but its line is lost from the table", a->length);
    return NULL;
}

static void *search_main(void *arg) {
    Usi *u = arg;
    TsAnswer *a = malloc(sizeof *a);
    char *answer = NULL;
    if (!a) {
        say(u, "info string error: out of memory");
    } else {
        TsOptions o;
        memset(&o, 0, sizeof o);
        o.time_limit = u->limit_s;
        o.flaws = u->flaws;
        o.yozume_extra = 6;  /* solve's default 余詰 bound */
        o.helper = u->helper;
        o.split_bounded = 1;
        o.found_line = 1;
        u->t0 = u->last_info = df_now();
        df_set_progress(u->ctx, usi_progress, u, USI_INFO_EVERY);
        ts_solve(u->ctx, &u->search_pos, &o, a);
        df_set_progress(u->ctx, NULL, NULL, 0);
        answer = report(u, a);
        free(a);
    }
    /* not searching before the answer is out: a client may send the next go mate at
     * once (reap then waits only for this thread's last line) */
    atomic_store(&u->searching, 0);
    say(u, "%s", answer ? answer : "checkmate timeout");
    free(answer);
    return NULL;
}

/* `position startpos|sfen ... [moves ...]`: the position after the moves, or the
 * reason it cannot be searched (kept for go mate to refuse). */
static void set_position(Usi *u, char *args) {
    char err[ERR_MAX];
    u->have_pos = 1;
    u->pos_err[0] = 0;
    char *moves = cli_split_moves(args);
    Position p;
    if (sfen_parse(args, &p, u->strict_hands, err, sizeof err)) {
        snprintf(u->pos_err, sizeof u->pos_err, "position: %s", err);
    } else {
        int played;
        if (sfen_play_moves(&p, moves, NULL, 0, &played, err, sizeof err)) snprintf(u->pos_err, sizeof u->pos_err, "position: %s", err);
        if (!u->pos_err[0] && p.king_sq[p.side ^ 1] == SQ_NONE)
            snprintf(u->pos_err, sizeof u->pos_err, "position: the defender (the side not to move) has no king");
    }
    if (u->pos_err[0]) say(u, "info string error: %s", u->pos_err);
    else u->pos = p;
}

/* `go mate [ms|infinite]` (args: what follows "mate"). */
static void go_mate(Usi *u, const char *args) {
    reap(u, 0);
    if (u->thread_live) { say(u, "info string error: go mate while a search runs (send stop first)"); return; }
    double limit = 0;
    while (*args == ' ') args++;
    if (*args && strncmp(args, "infinite", 8)) {
        char *end;
        errno = 0;
        long long ms = strtoll(args, &end, 10);
        if (end == args || ms <= 0 || errno) {
            say(u, "info string error: go mate needs a time in ms or infinite, got '%.20s'", args);
            say(u, "checkmate timeout");
            return;
        }
        limit = ms / 1000.0;
    }
    if (!u->have_pos || u->pos_err[0]) {
        say(u, "info string error: %s", u->have_pos ? u->pos_err : "go mate before any position");
        say(u, "checkmate timeout");
        return;
    }
    if (ensure_tables(u)) { say(u, "checkmate timeout"); return; }
    u->search_pos = u->pos;
    u->limit_s = limit;
    df_clear_interrupt();  /* (a stop after the last search ended must not cut this one) */
    atomic_store(&u->searching, 1);
    if (pthread_create(&u->thread, NULL, search_main, u)) {
        atomic_store(&u->searching, 0);
        say(u, "info string error: cannot start the search thread");
        say(u, "checkmate timeout");
        return;
    }
    u->thread_live = 1;
}

/* `setoption name N [value V]` */
static void set_option(Usi *u, char *args) {
    char *name = strstr(args, "name "), *value = strstr(args, " value ");
    if (!name) { say(u, "info string error: setoption without a name"); return; }
    name += 5;
    if (value) { *value = 0; value += 7; }
    while (*name == ' ') name++;
    const char *v = value ? value : "";
    int is_true = !strcasecmp(v, "true"), is_false = !strcasecmp(v, "false");
    if (u->thread_live && atomic_load(&u->searching)) { say(u, "info string error: setoption %s during a search is ignored", name); return; }
    if (!strcasecmp(name, "USI_Hash") || !strcasecmp(name, "Threads")) {
        char *end;
        long long x = strtoll(v, &end, 10);
        int hash = !strcasecmp(name, "USI_Hash");
        if (end == v || *end || x < 1 || x > (hash ? 1 << 20 : 2)) {
            say(u, "info string error: %s must be %s, got '%s'", name, hash ? "1..1048576 (MB)" : "1 or 2", v);
            return;
        }
        if (hash) u->hash_mb = (size_t)x;
        else u->threads = (int)x;
    } else if (!strcasecmp(name, "StrictHands") || !strcasecmp(name, "Flaws")) {
        if (!is_true && !is_false) { say(u, "info string error: %s must be true or false, got '%s'", name, v); return; }
        if (!strcasecmp(name, "Flaws")) u->flaws = is_true;
        else u->strict_hands = is_true;
    } else if (strcasecmp(name, "USI_Ponder")) {  /* (GUIs send USI_Ponder to every engine) */
        say(u, "info string error: unknown option '%s'", name);
    }
}

/* Handles one command line; 1 at quit. */
static int command(Usi *u, char *line) {
    char *args = line;
    while (*args && *args != ' ') args++;
    if (*args) *args++ = 0;
    while (*args == ' ') args++;
    if (!strcmp(line, "usi")) {
        say(u, "id name tsumegen");
        say(u, "id author the tsumegen developers");
        say(u, "option name USI_Hash type spin default %d min 1 max 1048576", USI_HASH_DEFAULT);
        say(u, "option name Threads type spin default %d min 1 max 2", u->threads);
        say(u, "option name StrictHands type check default false");
        say(u, "option name Flaws type check default false");
        say(u, "usiok");
    } else if (!strcmp(line, "isready")) {
        reap(u, 0);
        if (!u->thread_live) ensure_tables(u);  /* (the heavy allocation belongs here, says USI) */
        say(u, "readyok");
    } else if (!strcmp(line, "setoption")) {
        set_option(u, args);
    } else if (!strcmp(line, "position")) {
        set_position(u, args);
    } else if (!strcmp(line, "go")) {
        if (!strncmp(args, "mate", 4) && (args[4] == 0 || args[4] == ' ')) go_mate(u, args + 4);
        else {
            say(u, "info string tsumegen solves mates only: use go mate");
            say(u, "bestmove resign");
        }
    } else if (!strcmp(line, "stop")) {
        if (u->thread_live && atomic_load(&u->searching)) df_interrupt();
    } else if (!strcmp(line, "quit")) {
        return 1;
    } else if (strcmp(line, "usinewgame") && strcmp(line, "ponderhit") && strcmp(line, "gameover") && line[0]) {
        say(u, "info string error: unknown command '%.40s'", line);
    }
    return 0;
}

int cmd_usi(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) { fputs(USAGE_USI, stdout); return EXIT_OK; }
    if (argc > 1) return cli_error("usi", "takes no arguments (options come by setoption), got '%s'", argv[1]);
    Usi *u = calloc(1, sizeof *u);
    if (!u) return cli_error("usi", "out of memory");
    pthread_mutex_init(&u->out_lock, NULL);
    u->hash_mb = USI_HASH_DEFAULT;
#ifdef _OPENMP
    u->threads = omp_get_num_procs() >= 2 ? 2 : 1;
#else
    u->threads = 1;
#endif
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t')) line[--n] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (command(u, p)) break;
    }
    reap(u, 1);  /* quit or the end of input: stop a running search (its answer is still written) */
    free(line);
    if (u->helper) df_free(u->helper);
    if (u->ctx) df_free(u->ctx);
    pthread_mutex_destroy(&u->out_lock);
    free(u);
    return EXIT_OK;
}
