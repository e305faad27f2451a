/* cmd_solve.c - `tsumegen solve`: exact tsume answers as JSON lines, batches in
 * parallel (OpenMP, output in input order), progress on a terminal, KIF output. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cli.h"
#include "csa_read.h"
#include "kif_read.h"
#include "tsume.h"
#include "util.h"
#include "solve_jobs.h"

const char USAGE_SOLVE[] =
    "usage: tsumegen solve [--hash MB] [--hash-max MB] [--nodes N] [--time MS] [--threads N] [--verify] [--yozume-depth N]\n"
    "                      [--yozume-unbounded] [--yozume-confirm] [--tied-lines any|all]\n"
    "                      [--length-search auto|up|walk] [--max-length N]\n"
    "                      [--no-flaws] [--apply-moves] [--kif DIR] [--variations] [--variation-depth N] [--variation-nodes N] [--refutations] [--refutation-nodes N] [--strict-hands] [--table FILE [--table-every S]] [--trace]\n"
    "                      [SFEN ... | FILE.kif ... | FILE.csa ...]\n"
    "Solves tsume problems exactly (attacker = side to move) under TSUME_RULES.md:\n"
    "shortest mate, longest defence (then fewest attacker pieces left), futile drops\n"
    "excluded, exact length (no mate in L-2 is proved), main line, 駒余り, 余詰.\n"
    "SFENs come from the arguments (one per argument; unquoted words make one SFEN)\n"
    "or from stdin, one per line: `SFEN` or `SFEN moves USI...` ('#' comments), or a\n"
    "JSON object with an \"sfen\" field (compose's problems.jsonl, undecided.jsonl).\n"
    "Arguments ending in .kif, .kifu or .csa are KIF or CSA files instead (see tsumegen\n"
    "sfen), and so is such a text on stdin: each game's position and moves is one input.  The\n"
    "moves are a recorded solution: the answer adds record_length and record_match\n"
    "(--apply-moves plays them first instead).  One JSON line per input, in order:\n"
    "  {\"sfen\",\"result\":\"mate|nomate|unknown\",\"length\",\"pv\",\"perfect\",\"flaws\",\n"
    "   \"yozume\":[{\"ply\",\"move\",\"length\"}],\"notes\",\"nodes\",\"ms\"}\n"
    "result is unknown whenever a limit stopped the search; nomate is never a guess.\n"
    "When a limit stops the exact-length proof, length is the mate found (an upper\n"
    "bound) and the answer adds \"length_exact\":false and \"length_lb\": the length is\n"
    "proven to be at least that (the bottom-up search asks \"mate within 1, 3, 5, ...?\");\n"
    "pv stays [] (no main line is verified) and \"mate_line\" is the mate found: the\n"
    "attacker's moves mate against the defences shown, each the longest by the\n"
    "search's bounds (every interposition answered), so it has at most length plies\n"
    "and is neither the main line nor surely the longest defence.  --kif writes it,\n"
    "marked unproved.  A \"yozume\" entry is another check at that ply (from 1) that\n"
    "mates: length counts the mate its test found, the check included, so the 余詰 has\n"
    "at most that many plies (its shortest is not searched: any length cooks).\n"
    "  --hash MB     table per thread (default 32), of exactly that size: fixed when\n"
    "                given; a lone problem's table otherwise grows (doubling as its\n"
    "                entries are evicted) while it stays within --hash-max.  Tables\n"
    "                beyond the machine's memory are refused\n"
    "  --hash-max MB a lone problem's table grows from --hash up to this (default: half\n"
    "                the machine's memory; with it, --hash is where the table starts).\n"
    "                Zuko 21's exact 25 on two threads: 1,018 s growing from 32 MB to\n"
    "                8 GB, 666 s with an 8 GB table from the start (--hash 8192), 904 s\n"
    "                with 4 GB (--hash 4096); a short problem keeps its 32 MB\n"
    "  --nodes N     node limit per problem (default none)\n"
    "  --time MS     time limit per problem (default none)\n"
    "  --threads N   parallel problems (default: all cores); a lone problem of 19 plies\n"
    "                or more gets a second thread for its exact length under auto, and\n"
    "                any lone problem for its 余詰 tests, --variations and --refutations\n"
    "                (no --nodes limit: node counts would depend on the two threads'\n"
    "                timing)\n"
    "  --verify      re-check each mate with the independent proof checker\n"
    "  --yozume-depth N  余詰 test bound: an alternative with n plies left is searched\n"
    "                to n+N plies (default 6); --yozume-unbounded: any length (slow,\n"
    "                often undecided: the attacker can usually check forever)\n"
    "  --yozume-confirm  when the bounded test finds no 余詰, search every alternative\n"
    "                again with no bound (a limit there: not perfect, flaw_analysis_incomplete);\n"
    "                the composer always does this.  Without it (or --yozume-unbounded)\n"
    "                a mate's answer says \"yozume_bound\":N: \"no 余詰\" means none\n"
    "                within n+N plies of each alternative (a 余詰 is a mate of any length)\n"
    "  --tied-lines R  several main lines tie on length and leftover (変同): any (default)\n"
    "                = perfect when one of them has no 余詰 (that line is the pv; the\n"
    "                others' mates are 変化別詰, noted); all = cooked when any has 余詰;\n"
    "                the attacker's ties count too: 成不成, a second shortest mate, and\n"
    "                the last move's alternatives\n"
    "  --length-search S  how the exact length is proved: up = bottom up (\"mate within\n"
    "                1, 3, 5, ...?\" at the root); walk = along the main line from its\n"
    "                end, each attacker node's exact value top down (the next node's is\n"
    "                then in the table); auto (default) = up below 19 plies, else the\n"
    "                two in turns with doubling node caps (a lone problem: the two at\n"
    "                once on two threads, see --threads).  The answers are the same;\n"
    "                only the time to reach them differs (Zuko 6's 81: walk)\n"
    "  --max-length N  only mates of at most N plies: asked bottom up (\"mate within 1,\n"
    "                3, ..., N?\"), no unbounded search; none: result unknown with\n"
    "                \"length_lb\" (no mate within N is proved; a longer mate may exist)\n"
    "  --no-flaws    skip the 余詰/note analysis (faster; perfect is then false).\n"
    "                A main line that leaves pieces (駒余り) gets a henka_chou note\n"
    "                (変長): the ply where the longest line that leaves none turns off\n"
    "                it (README: where the rules leave a choice)\n"
    "  --kif DIR     also write each mate as DIR/NNNN.kif (DIR is made if missing;\n"
    "                one that cannot be written is refused before any search); its\n"
    "                comment lines give the length and 完全作, or the flaws: 余詰 (ply,\n"
    "                move, length), 駒余り, an analysis cut short or skipped\n"
    "  --variations  also solve each defence the main line does not take (futile\n"
    "                drops are none): each is a problem of its own (exact length and\n"
    "                main line, --time and --variation-nodes N each: default --nodes,\n"
    "                or 10 M).  A mate with a main line adds \"variations\":\n"
    "                [{\"ply\",\"result\",\"length\",\"exact\",\"moves\"}] (ply: from the\n"
    "                start; moves: the defence, then the mate; length counts both;\n"
    "                an exact one's \"leftover\": pieces in hand at its mate, and\n"
    "                \"leftover_unproved\":true where ties left fewer open),\n"
    "                \"variations_cut\":true when a limit or the cap of 1,024 in all left\n"
    "                some out, and their \"variation_nodes\" and \"variation_ms\" (not in\n"
    "                \"nodes\" and \"ms\"); --kif writes them as 変化.  Unless --no-flaws,\n"
    "                an exact one lists its 変化別詰 (\"henka_betsu\": [{\"ply\",\"move\",\n"
    "                \"length\"}]): other checks at its attacker plies, its last move\n"
    "                and 成不成 aside, that mate in the plies its line has left\n"
    "                (\"henka_betsu_cut\":true when a limit stopped a test)\n"
    "  --variation-depth N  the variations of the variations too, N levels in all\n"
    "                (default 1: the main line's only); an exact one above level N\n"
    "                holds its own in a \"variations\" list of its own\n"
    "  --refutations  紛れ: at each attacker ply of the main line, every other check\n"
    "                (but the 余詰 listed and mates in one) with a defence that\n"
    "                refutes it: \"refutations\":[{\"ply\",\"move\",\"reply\",\n"
    "                \"no_mate\":true}] when no mate follows at all, else\n"
    "                \"no_mate_within\":N (none in N plies from the check, the 余詰\n"
    "                test's bound); or \"reply\":null with \"mates\": \"promotion\"\n"
    "                (成不成), \"last_move\", \"detour\" (迂回), \"yozume\" (a 余詰 past the\n"
    "                bound: then listed in \"yozume\", not perfect; where a tied main line\n"
    "                escapes it under --tied-lines any only not perfect, a note)\n"
    "                or \"mate\" (one of the two, undecided), or \"undecided\":true (a limit:\n"
    "                each check has --refutation-nodes N, default --nodes, else\n"
    "                1 M, and --time); then \"refutations_undecided\",\n"
    "                \"refutation_nodes\" and \"refutation_ms\".  --kif writes each\n"
    "                as a branch (the check, then its reply).  A lone problem on two\n"
    "                threads (no --nodes) lists them on both: a reply may then be\n"
    "                another refuting defence from run to run\n"
    "  --out FILE    the answers go to FILE instead of stdout.  If FILE already holds\n"
    "                answers (a run killed or stopped by Ctrl-C), those that answer\n"
    "                the same inputs in order and are complete are kept and the run\n"
    "                resumes after them; a FILE that answers other inputs, or that\n"
    "                another run is writing, is refused.  FILE.options records the\n"
    "                options that change what an answer says (--max-length,\n"
    "                --no-flaws, --yozume-*, --tied-lines, --verify, --apply-moves,\n"
    "                --strict-hands, --variations, --refutations): a resume must\n"
    "                give the same; limits and --threads may differ\n"
    "  --table FILE  one problem's search table on disk: read from FILE first when it\n"
    "                exists, written there after the search (FILE.tmp, then renamed), so\n"
    "                a long search stopped by --time, --nodes or Ctrl-C resumes where\n"
    "                it stopped (Zuko 21's exact length over several runs).  Only what\n"
    "                the search had settled is kept, not its place in the rounds; a\n"
    "                growing table doubles rather than drop an entry; a fixed one smaller\n"
    "                than the writer's drops the cheapest entries.  The file is tied to the\n"
    "                problem's position and this build: another problem's, or a damaged\n"
    "                one, is refused (exit 2).  Not written when Ctrl-C came before\n"
    "                the search began; about 56 bytes an entry\n"
    "  --table-every S  with --table, also write FILE every S seconds of the search\n"
    "                (default 1800; 0: only at its end), so a kill or a crash loses\n"
    "                at most that much\n"
    "  --trace       stderr: the exact-length search step by step (each bottom-up\n"
    "                round, the walk's line and each of its steps: exact value,\n"
    "                nodes, seconds, and the nodes of its query and its settling;\n"
    "                with --variations, where they begin; each 余詰 test of\n"
    "                0.1 M nodes or more: ply, move, bound, verdict, cost);\n"
    "                replaces the progress line\n"
    "On a terminal, stderr shows progress: problems done, or for a lone problem its\n"
    "nodes, seconds and length so far (\"mate 27 found, at least 19\", \"exact 25\";\n"
    "then the 余詰 analysis's test: \"余詰 test, ply 3 2b3b\"),\n"
    "then on a line of its own the variations (--variations) or refutations\n"
    "(--refutations) listed so far.\n"
    "Ctrl-C stops the searches as a limit would and still prints every answer in order\n"
    "(those cut short or never begun say \"interrupted\" in their notes); a second\n"
    "Ctrl-C ends it at once.\n"
    "Exit status: 0, 2 if an input was rejected (its line has \"result\":\"error\"),\n"
    "130 after Ctrl-C.\n";

void job_prepare(Job *j, const SolveOpts *o) {
    j->ok = 0;
    if (j->given_err) { snprintf(j->err, sizeof j->err, "%s", j->given_err); return; }
    if (sfen_parse(j->text, &j->pos, o->strict, j->err, sizeof j->err)) return;
    if (j->pos.king_sq[j->pos.side ^ 1] == SQ_NONE) { snprintf(j->err, sizeof j->err, "the defender has no king"); return; }
    if (j->moves) {
        Position q = j->pos;  /* (the moves are split in place: they are read only here) */
        int rc = sfen_play_moves(&q, j->moves, j->rec, TS_MAX_PV, &j->nrec, j->err, sizeof j->err);
        if (rc > 0) snprintf(j->err, sizeof j->err, "more than %d recorded moves", TS_MAX_PV);
        if (rc) return;
        if (o->apply_moves) {
            j->pos = q;
            j->nrec = 0;
        }
    }
    j->ok = 1;
}

/* A lone problem on a terminal: its node count and time every 2^19 nodes (about a second
 * or two), so a long search shows it is alive, and the length as far as it is known:
 * the mate found and what is proved of the shortest, or the exact length. */
typedef struct {
    double t0;
    const DfCtx *c;
    int show;           /* the progress line (stderr is a terminal) */
    const char *table;  /* --table's FILE, or NULL */
    uint64_t tag;
    double every, saved;  /* --table-every, and when the table was last written */
    int grows;            /* the table grows (df_set_grow) */
} LoneProgress;

/* --table's write, at a checkpoint (at: "checkpoint, ") or at the end (""), said on
 * stderr after lead (a newline that ends the progress line, or ""): 0, or -1. */
static int write_table(const DfCtx *c, const char *path, uint64_t tag, const char *lead, const char *at) {
    char err[4352];
    double t = df_now();
    long long put = df_table_save(c, path, tag, err, sizeof err);
    if (put < 0) fprintf(stderr, "%stsumegen solve: --table: %s%s\n", lead, at, err);
    else fprintf(stderr, "%stsumegen solve: --table: %s%lld entries written to %s in %.1f s\n", lead, at, put, path, df_now() - t);
    return put < 0 ? -1 : 0;
}

/* A lone problem's hook (every 2^19 of its nodes): the progress line, and --table's
 * checkpoint when it is due.  The checkpoint runs on the searching thread, so the
 * search waits for it (seconds for gigabytes); a second thread searches on. */
static void lone_progress(void *arg, uint64_t nodes) {
    LoneProgress *p = arg;
    if (p->show) {
        char known[64];
        df_bounds_text(p->c, known, sizeof known);
        /* a full table slows a long search (Zuko 21: 904 s with a 4 GB table, 666 s with 8) */
        const char *full = df_table_can_grow(p->c) || df_hashfull(p->c) < 0.95 ? ""
                           : p->grows ? ", table full (a larger --hash-max may be faster)"
                                      : ", table full (a larger --hash may be faster)";
        char size[32] = "";
        if (p->grows) snprintf(size, sizeof size, ", table %zu MB", df_table_mb(p->c));
        const char *phase = df_phase(p->c);  /* (the 余詰 analysis: which test) */
        fprintf(stderr, "\rsolve: %.1f M nodes, %.0f s%s%s%s%s%s%s ", nodes / 1e6, df_now() - p->t0, known[0] ? ", " : "",
                known, phase[0] ? ", " : "", phase, size, full);
    }
    if (p->table && p->every > 0 && df_now() - p->saved >= p->every) {
        write_table(p->c, p->table, p->tag, p->show ? "\n" : "", "checkpoint, ");
        p->saved = df_now();
    }
}

/* Ctrl-C (solve's SIGINT handler): the searches stop as at a limit, the problems
 * not yet begun are not searched, and every answer is still printed in input
 * order; a second Ctrl-C ends the process at once (the handler is installed for
 * one Ctrl-C: util_catch_sigint's once). */
static void on_sigint(int sig) {
    (void)sig;
    df_interrupt();
}

/* One job's search, unless Ctrl-C came first; an answer that Ctrl-C may have cut
 * short says so in its notes. */
static void interruptible_solve(DfCtx *c, Job *j, const TsOptions *to) {
    TsAnswer *a = &j->ans;
    int before = df_interrupted();
    if (before) {
        memset(a, 0, sizeof *a);
        a->result = TS_UNKNOWN;
        a->verified = -1;
    } else {
        ts_solve(c, &j->pos, to, a);
        j->searched = 1;
    }
    if (!df_interrupted()) return;
    j->interrupted = 1;
    ts_add_note(a, before ? "interrupted: not searched (Ctrl-C)" : "interrupted: Ctrl-C stopped the search; what it had settled stands");
}

/* Frees jobs_run's contexts (any array may be NULL, as may any entry). */
static void free_contexts(DfCtx **ctx, DfCtx **helper, DfCtx **vctx, int threads) {
    for (int t = 0; t < threads; t++) {
        if (helper) df_free(helper[t]);  /* (a helper before its owner) */
        if (ctx) df_free(ctx[t]);
        if (vctx) df_free(vctx[t]);
    }
    free(ctx);
    free(helper);
    free(vctx);
}

/* Solves every job; emits JSON lines in order as they complete (when out != NULL).
 * Each thread's table is allocated first: -1 (with a message) when the system will
 * not give them, so no job is ever answered "unknown" for want of memory. */
int jobs_run(Job *jobs, int n, const SolveOpts *o, FILE *out, int base) {
    int next_out = 0, done = 0;
    int threads = o->threads > 0 ? o->threads : 1;
    /* a lone problem with cores to spare: a second thread joins its length search
     * and its 余詰 tests */
    int pair = n == 1 && threads >= 2;
    if (threads > n) threads = n > 0 ? n : 1;
    size_t phys = util_phys_mb();
    /* --variations are listed on the problem's own table, whose entries (its proof,
     * its "no mate within" answers) settle most of their questions: Zuko 20's
     * listing 61 k nodes against 2.2 M on a table of their own, Zuko 1's 98 M against
     * 160 M.  Only with --table (a lone problem) do they get one of their own, so that
     * the file keeps the problem's search alone */
    int own_vtable = (o->variations || o->refutations) && o->table_path && n == 1 && jobs[0].ok;
    int tables = threads * (own_vtable ? 2 : 1);
    if (phys && o->hash_mb > phys / (size_t)tables) {  /* (refused here, not by the OOM killer mid-search) */
        fprintf(stderr, "tsumegen solve: --hash %zu MB for each of %d table%s is more than this machine's %zu MB of memory\n",
                o->hash_mb, tables, tables > 1 ? "s" : "", phys);
        return -1;
    }
    DfCtx **ctx = calloc((size_t)threads, sizeof *ctx), **helper = calloc((size_t)threads, sizeof *helper);
    DfCtx **vctx = calloc((size_t)threads, sizeof *vctx);
    int ok = ctx && helper && vctx;
    for (int t = 0; ok && t < threads; t++) {
        ok = (ctx[t] = df_new(o->hash_mb)) != NULL;
        if (ok && pair) ok = (helper[t] = df_new_helper(ctx[t])) != NULL;
        if (ok && own_vtable) ok = (vctx[t] = df_new(o->hash_mb)) != NULL;
    }
    /* A lone problem's table grows as its search needs (unless --hash alone fixed
     * it): a short problem keeps its 32 MB, Zuko 21 grows to gigabytes.  Up to half
     * the memory by default: a doubling holds the old table and the new at once. */
    size_t grow_mb = 0;
    if (ok && n == 1 && (!o->hash_given || o->hash_max_given)) {
        grow_mb = o->hash_max_given ? o->hash_max : phys / 2;
        df_set_grow(ctx[0], grow_mb);
        df_set_grow_trace(ctx[0], o->trace);
    }
    if (!ok) {
        fprintf(stderr, "tsumegen solve: cannot allocate the search tables (--hash %zu MB, %d table%s)\n", o->hash_mb, tables,
                tables > 1 ? "s" : "");
        free_contexts(ctx, helper, vctx, threads);
        return -1;
    }
    /* --table: the lone problem starts from the saved table, if there is one */
    int use_table = o->table_path && n == 1 && jobs[0].ok;
    uint64_t tag = use_table ? df_table_tag(&jobs[0].pos) : 0;
    if (use_table) {
        char err[4352];
        double t = df_now();
        long long dropped;
        df_begin(ctx[0], jobs[0].pos.side, 0, 0);
        long long got = df_table_load(ctx[0], o->table_path, tag, &dropped, err, sizeof err);
        if (got == -1) {
            fprintf(stderr, "tsumegen solve: --table %s\n", err);
            free_contexts(ctx, helper, vctx, threads);
            return -1;
        }
        if (got >= 0)
            fprintf(stderr, "tsumegen solve: --table: %lld entries read from %s in %.1f s%s\n", got, o->table_path,
                    df_now() - t, dropped ? " (some dropped: a smaller --hash than the run that wrote it)" : "");
    }
    TsOptions to = {o->nodes, o->time_s, o->flaws, o->verify, o->yozume_extra, 0, o->yozume_confirm, 0, o->tied_all, o->length_search, 0, NULL, o->max_length, 0, 0, 1, 0, 0};
    /* --max-length on a lone problem: the spare thread splits the last bound by root
     * check (TSUMEGEN_SPLIT=0: the owner alone, to compare) */
    const char *sb = getenv("TSUMEGEN_SPLIT");
    to.split_bounded = !(sb && *sb && atoi(sb) == 0);
    to.trace = o->trace;
    to.keep_table = use_table;
#pragma omp parallel num_threads(threads)
    {
#ifdef _OPENMP
        int me = omp_get_thread_num();
#else
        int me = 0;
#endif
        DfCtx *c = ctx[me];
        LoneProgress lp = {df_now(), c, o->progress, use_table ? o->table_path : NULL, tag, o->table_every, df_now(), grow_mb > 0};
        if (n == 1 && (o->progress || use_table)) df_set_progress(c, lone_progress, &lp, (uint64_t)1 << 19);
        TsOptions mine = to;
        mine.helper = helper[me];
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < n; i++) {
            Job *j = &jobs[i];
            if (j->ok) interruptible_solve(c, j, &mine);
            if (j->ok) solve_side_lines(c, vctx[me], j, &mine, o, base + i, o->progress && n == 1);
            solve_render(j);
            solve_write_kif(j, base + i, o);
#pragma omp critical(solve_out)
            {
                j->done = 1;
                done++;
                while (next_out < n && jobs[next_out].done) {
                    if (out && jobs[next_out].json) { fputs(jobs[next_out].json, out); fputc('\n', out); }
                    next_out++;
                }
                if (out) fflush(out);
                if (o->progress && n > 1) fprintf(stderr, "\rsolve: %d/%d", base + done, base + n);  /* (base: kept by --out) */
            }
        }
    }
    if (o->progress && n) fputc('\n', stderr);
    int rc = use_table && jobs[0].searched ? write_table(ctx[0], o->table_path, tag, "", "") : 0;
    free_contexts(ctx, helper, vctx, threads);
    return rc;
}

static int parse_opts(const char *cmd, int argc, char **argv, SolveOpts *o, char ***pos_args, int *npos) {
    memset(o, 0, sizeof *o);
    o->hash_mb = 32;
    o->flaws = 1;
    o->yozume_extra = 6;
    o->variation_depth = 1;
    o->table_every = 1800;
#ifdef _OPENMP
    o->threads = omp_get_num_procs();
#else
    o->threads = 1;
#endif
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x = 0;  /* (set whenever cli_parse_int returns 0) */
        int need = !strcmp(s, "--kif") || !strcmp(s, "--tied-lines") || !strcmp(s, "--length-search") || !strcmp(s, "--out") ||
                   !strcmp(s, "--table");
        if (need && !v) return cli_error(cmd, "%s needs a value", s);
        if (!strcmp(s, "--hash")) { if (cli_parse_int(cmd, s, v, 1, 1 << 20, &x)) return EXIT_USAGE; o->hash_mb = (size_t)x; o->hash_given = 1; i++; }
        else if (!strcmp(s, "--hash-max")) {
            if (cli_parse_int(cmd, s, v, 1, 1 << 20, &x)) return EXIT_USAGE;
            o->hash_max = (size_t)x;
            o->hash_max_given = 1;
            i++;
        }
        else if (!strcmp(s, "--nodes")) { if (cli_parse_int(cmd, s, v, 0, 1000000000000000000LL, &x)) return EXIT_USAGE; o->nodes = (uint64_t)x; i++; }
        else if (!strcmp(s, "--time")) { if (cli_parse_int(cmd, s, v, 0, 1000000000000LL, &x)) return EXIT_USAGE; o->time_s = x / 1000.0; i++; }
        else if (!strcmp(s, "--threads")) { if (cli_parse_int(cmd, s, v, 1, 1024, &x)) return EXIT_USAGE; o->threads = (int)x; i++; }
        else if (!strcmp(s, "--max-length")) { if (cli_parse_int(cmd, s, v, 1, DF_MAX_DEPTH - 2, &x)) return EXIT_USAGE; o->max_length = (int)x; i++; }
        else if (!strcmp(s, "--kif")) { o->kif_dir = argv[++i]; }
        else if (!strcmp(s, "--out")) { o->out_path = argv[++i]; }
        else if (!strcmp(s, "--table")) { o->table_path = argv[++i]; }
        else if (!strcmp(s, "--table-every")) { if (cli_parse_int(cmd, s, v, 0, 1000000000LL, &x)) return EXIT_USAGE; o->table_every = (double)x; i++; }
        else if (!strcmp(s, "--yozume-depth")) { if (cli_parse_int(cmd, s, v, 0, 900, &x)) return EXIT_USAGE; o->yozume_extra = (int)x; i++; }
        else if (!strcmp(s, "--yozume-unbounded")) o->yozume_extra = -1;
        else if (!strcmp(s, "--yozume-confirm")) o->yozume_confirm = 1;
        else if (!strcmp(s, "--tied-lines")) {
            const char *r = argv[++i];
            if (strcmp(r, "any") && strcmp(r, "all")) return cli_error(cmd, "--tied-lines must be any or all, got '%s'", r);
            o->tied_all = !strcmp(r, "all");
        }
        else if (!strcmp(s, "--length-search")) {
            const char *r = argv[++i];
            if (!strcmp(r, "auto")) o->length_search = TS_LEN_AUTO;
            else if (!strcmp(r, "up")) o->length_search = TS_LEN_UP;
            else if (!strcmp(r, "walk")) o->length_search = TS_LEN_WALK;
            else return cli_error(cmd, "--length-search must be auto, up or walk, got '%s'", r);
        }
        else if (!strcmp(s, "--verify")) o->verify = 1;
        else if (!strcmp(s, "--no-flaws")) o->flaws = 0;
        else if (!strcmp(s, "--trace")) o->trace = 1;
        else if (!strcmp(s, "--variations")) o->variations = 1;
        else if (!strcmp(s, "--refutations")) o->refutations = 1;
        else if (!strcmp(s, "--refutation-nodes")) {
            if (cli_parse_int(cmd, s, v, 1, 1000000000000000000LL, &x)) return EXIT_USAGE;
            o->refutation_nodes = (uint64_t)x;
            o->refutations = 1;
            i++;
        }
        else if (!strcmp(s, "--variation-depth")) {
            if (cli_parse_int(cmd, s, v, 1, 1000, &x)) return EXIT_USAGE;
            o->variation_depth = (int)x;
            o->variations = 1;
            i++;
        }
        else if (!strcmp(s, "--variation-nodes")) {
            if (cli_parse_int(cmd, s, v, 1, 1000000000000000000LL, &x)) return EXIT_USAGE;
            o->variation_nodes = (uint64_t)x;
            o->variations = 1;
            i++;
        }
        else if (!strcmp(s, "--apply-moves")) o->apply_moves = 1;
        else if (!strcmp(s, "--strict-hands")) o->strict = 1;
        else if (s[0] == '-' && s[1] == '-') return cli_error(cmd, "unknown option '%s' (see tsumegen %s --help)", s, cmd);
        else (*pos_args)[(*npos)++] = argv[i];
    }
    if (o->hash_max_given && o->hash_max < o->hash_mb)
        return cli_error(cmd, "--hash-max %zu is less than --hash %zu (the table grows from --hash up to --hash-max)", o->hash_max,
                         o->hash_mb);
    size_t phys = util_phys_mb();
    if (o->hash_max_given && phys && o->hash_max > phys)
        return cli_error(cmd, "--hash-max %zu MB is more than this machine's %zu MB of memory", o->hash_max, phys);
    return 0;
}

int job_add(Job **jobs, int *n, int *cap, const char *line) {
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        Job *nj = realloc(*jobs, sizeof(Job) * (size_t)*cap);
        if (!nj) return -1;
        *jobs = nj;
    }
    Job *j = &(*jobs)[(*n)++];
    memset(j, 0, sizeof *j);
    j->text = strdup(line);
    j->moves = cli_split_moves(j->text);
    return 0;
}

void jobs_free(Job *jobs, int n) {
    for (int i = 0; i < n; i++) {
        free(jobs[i].text);
        free(jobs[i].json);
        free(jobs[i].given_err);
        ts_variations_free(&jobs[i].vars);
        ts_refutations_free(&jobs[i].refs);
    }
    free(jobs);
}

/* A positional argument that names a KIF or CSA file (*.kif, *.kifu, *.csa) rather than SFEN words. */
static int is_kif_path(const char *s) {
    size_t n = strlen(s);
    return (n > 4 && !strcasecmp(s + n - 4, ".kif")) || (n > 5 && !strcasecmp(s + n - 5, ".kifu")) ||
           (n > 4 && !strcasecmp(s + n - 4, ".csa"));  /* (kif_file_each reads CSA too) */
}

typedef struct { Job **jobs; int *n, *cap; } JobList;

/* kif_file_each's callback: each game a job; a bad one a job that answers "error". */
static void add_kif_game(void *arg, const char *line, const char *err) {
    JobList *l = arg;
    if (job_add(l->jobs, l->n, l->cap, line ? line : "") == 0 && err)
        (*l->jobs)[*l->n - 1].given_err = strdup(err);
}

/* Whether an answer line of an earlier run answers job j: it opens as render's does. */
static int answers(const char *line, const Job *j) {
    char *want = NULL;
    size_t wlen = 0;
    FILE *w = open_memstream(&want, &wlen);
    if (!w) return 0;
    solve_write_sfen_field(w, j);
    fclose(w);
    int same = !strncmp(line, want, wlen);
    free(want);
    return same;
}

/* The options that change what an answer says, in the command's own spelling (""
 * for the defaults).  Limits (--nodes, --time, --hash) and --threads,
 * --length-search only decide how soon an answer comes or whether it is "unknown":
 * each kept line stays true under other limits, so they may change on a resume. */
static void answer_options(const SolveOpts *o, char *buf, size_t len) {
    size_t at = 0;
#define ADD(...) util_buf_add(buf, len, &at, __VA_ARGS__)
    buf[0] = 0;
    if (o->max_length) ADD(" --max-length %d", o->max_length);
    if (!o->flaws) ADD(" --no-flaws");
    if (o->yozume_extra < 0) ADD(" --yozume-unbounded");
    else if (o->yozume_extra != 6) ADD(" --yozume-depth %d", o->yozume_extra);
    if (o->yozume_confirm) ADD(" --yozume-confirm");
    if (o->tied_all) ADD(" --tied-lines all");
    if (o->verify) ADD(" --verify");
    if (o->apply_moves) ADD(" --apply-moves");
    if (o->strict) ADD(" --strict-hands");
    if (o->variations) ADD(" --variations");
    if (o->variation_depth > 1) ADD(" --variation-depth %d", o->variation_depth);
    if (o->refutations) ADD(" --refutations");
#undef ADD
    if (at) memmove(buf, buf + 1, at);  /* (drops the leading space; the NUL moves too) */
}

/* path.options, the record of the answer options: with answers kept, whether it
 * says this run's (1; else 0 with a message, also when it is missing or empty);
 * with none, written afresh for this run (1; 0 with a message if it cannot be). */
static int answer_options_agree(const char *path, const SolveOpts *o, int kept) {
    char rec[4200], now[512], saved[520] = "";
    snprintf(rec, sizeof rec, "%s.options", path);
    answer_options(o, now, sizeof now);
    if (!kept) {
        FILE *w = fopen(rec, "w");
        if (!w || fprintf(w, "%s\n", now) < 0 || fclose(w)) {
            fprintf(stderr, "tsumegen solve: cannot write %s: %s\n", rec, strerror(errno));
            return 0;
        }
        return 1;
    }
    FILE *f = fopen(rec, "r");
    int exists = f != NULL, got = f && fgets(saved, sizeof saved, f);
    if (f) fclose(f);
    saved[strcspn(saved, "\n")] = 0;
    if (!got) {
        fprintf(stderr, "tsumegen solve: %s holds answers but %s, the record of the options that made them, %s; "
                        "remove %s to start again\n", path, rec, exists ? "is empty" : "is missing", path);
        return 0;
    }
    if (strcmp(saved, now)) {
        fprintf(stderr, "tsumegen solve: the answers in %s were made with %s%s%s; this command gives %s%s%s "
                        "(these must match to resume; --nodes, --time, --hash, --threads and --length-search may "
                        "differ), or choose another --out\n", path, *saved ? "'" : "the default options", saved,
                *saved ? "'" : "", *now ? "'" : "the default options", now, *now ? "'" : "");
        return 0;
    }
    return 1;
}

/* --out FILE: a run cut short (killed, or Ctrl-C) left its answers in input order,
 * one flushed line each.  Those that answer the same inputs in the same order and
 * are complete (a whole line, no "interrupted" note) are kept; FILE is cut after
 * them and opened to append the rest (*kept: how many; a kept "error" answers a
 * bad input, which stays bad for the exit status).  NULL (with a message) when
 * FILE cannot be used or answers other inputs: a resume must never pair an answer
 * with the wrong problem, nor keep answers made with other answer options
 * (FILE.options, written when FILE starts afresh). */
static FILE *resume_out(const char *path, const Job *jobs, int n, const SolveOpts *o, int *kept) {
    *kept = 0;
    /* "a+": created when missing, read from the start, written at the end (which the
     * cut below puts after the kept answers); locked, so that two runs on one FILE
     * cannot interleave their lines */
    FILE *f = fopen(path, "a+");
    if (!f) {
        fprintf(stderr, "tsumegen solve: cannot write %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (flock(fileno(f), LOCK_EX | LOCK_NB)) {
        fprintf(stderr, "tsumegen solve: %s is in use by another run\n", path);
        fclose(f);
        return NULL;
    }
    size_t len = 0, keep = 0;
    rewind(f);
    char *all = util_slurp(f, &len);
    if (!all) {
        fprintf(stderr, "tsumegen solve: cannot read %s\n", path);
        fclose(f);
        return NULL;
    }
    int mismatch = 0;
    for (size_t at = 0; at < len && !mismatch;) {
        char *nl = memchr(all + at, '\n', len - at), *line = all + at;
        if (!nl) break;  /* (a line cut by the kill: answered again) */
        *nl = 0;
        if (strstr(line, "\"interrupted: ")) break;  /* (Ctrl-C: this one and the rest again) */
        mismatch = *kept >= n || !answers(line, &jobs[*kept]);
        if (!mismatch) {
            (*kept)++;
            at = keep = (size_t)(nl - all) + 1;
        }
    }
    free(all);
    if (mismatch) {
        if (*kept >= n) fprintf(stderr, "tsumegen solve: %s holds more answers than there are inputs (%d)\n", path, n);
        else
            fprintf(stderr, "tsumegen solve: %s: line %d does not answer input %d (%s): not a run of these inputs\n", path,
                    *kept + 1, *kept + 1, jobs[*kept].text);
        fclose(f);
        return NULL;
    }
    if (!answer_options_agree(path, o, *kept)) {
        fclose(f);
        return NULL;
    }
    if ((keep < len && ftruncate(fileno(f), (off_t)keep)) || fseek(f, 0, SEEK_END)) {
        fprintf(stderr, "tsumegen solve: cannot write %s: %s\n", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    if (*kept) fprintf(stderr, "tsumegen solve: %s: %d of %d answers kept%s\n", path, *kept, n, *kept < n ? ", solving the rest" : "");
    return f;
}

int cmd_solve(int argc, char **argv) {
    SolveOpts o;
    char **pos_args = malloc(sizeof(char *) * (size_t)(argc + 1));
    int npos, rc;
    if (!pos_args) return EXIT_FAIL;
    if ((rc = parse_opts("solve", argc, argv, &o, &pos_args, &npos))) { free(pos_args); return rc; }
    if (o.kif_dir) {  /* refused up front, as --out is: a run must not end with its KIF files missing */
        struct stat st;
        const char *why = NULL;
        if (mkdir(o.kif_dir, 0777) && errno != EEXIST) why = strerror(errno);
        else if (stat(o.kif_dir, &st)) why = strerror(errno);
        else if (!S_ISDIR(st.st_mode)) why = "not a directory";
        else if (access(o.kif_dir, W_OK | X_OK)) why = strerror(errno);
        if (why) {
            free(pos_args);
            return cli_error("solve", "--kif %s: cannot write KIF files there (%s)", o.kif_dir, why);
        }
    }
    Job *jobs = NULL;
    int n = 0, cap = 0;
    int nkif = 0;
    for (int i = 0; i < npos; i++) nkif += is_kif_path(pos_args[i]);
    if (nkif && nkif < npos) {
        free(pos_args);
        return cli_error("solve", "give either SFENs or KIF files (.kif, .kifu), not both");
    }
    if (nkif) {
        JobList l = {&jobs, &n, &cap};
        for (int i = 0; i < npos; i++) kif_file_each(pos_args[i], o.strict, add_kif_game, &l);
    } else if (npos) {
        int any_space = 0;
        for (int i = 0; i < npos; i++) any_space |= strchr(pos_args[i], ' ') != NULL;
        if (any_space) {
            for (int i = 0; i < npos; i++) job_add(&jobs, &n, &cap, pos_args[i]);
        } else {
            size_t len = 1;
            for (int i = 0; i < npos; i++) len += strlen(pos_args[i]) + 1;
            char *line = calloc(len, 1);
            for (int i = 0; i < npos; i++) { if (i) strcat(line, " "); strcat(line, pos_args[i]); }
            job_add(&jobs, &n, &cap, line);
            free(line);
        }
    } else {  /* stdin: SFEN or JSON lines, or a KIF or CSA text (a book piped in) */
        size_t len;
        char *all = util_slurp(stdin, &len);
        int kif = all && (kif_is_kif(all, len) || csa_is_csa(all, len));
        FILE *in = all && !kif ? fmemopen(all, len + 1, "r") : NULL;
        if (!all || (!kif && !in)) {
            free(all);
            free(pos_args);
            return cli_error("solve", "cannot read stdin");
        }
        if (kif) {
            JobList l = {&jobs, &n, &cap};
            kif_text_each("stdin", all, len, o.strict, add_kif_game, &l);
        } else {
            char buf[16384], sfen[16384];
            while (cli_read_line(in, buf, sizeof buf)) {
                int overlong = buf[0] == '\x01';
                if (job_add(&jobs, &n, &cap, overlong ? "(overlong line)" : util_json_sfen(buf, sfen, sizeof sfen)) == 0 && overlong) {
                    char why[96];
                    snprintf(why, sizeof why, "input line too long (more than %zu characters)", sizeof buf - 2);
                    jobs[n - 1].given_err = strdup(why);
                }
            }
            fclose(in);
        }
        free(all);
    }
    free(pos_args);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        job_prepare(&jobs[i], &o);
        if (!jobs[i].ok) { bad = 1; fprintf(stderr, "tsumegen solve: input %d: %s\n", i + 1, jobs[i].err); }
    }
    if (o.table_path && n != 1) {
        jobs_free(jobs, n);
        return cli_error("solve", "--table keeps one problem's table: give exactly one input (got %d)", n);
    }
    int kept = 0;
    FILE *out = stdout;
    if (o.out_path && !(out = resume_out(o.out_path, jobs, n, &o, &kept))) {
        jobs_free(jobs, n);
        return EXIT_USAGE;
    }
    o.progress = isatty(2) && !o.trace;
    struct sigaction old;
    util_catch_sigint(on_sigint, 1, &old);  /* (not while reading the input) */
    int failed = jobs_run(jobs + kept, n - kept, &o, out, kept) < 0;
    util_restore_sigint(&old);
    if (out != stdout && fclose(out)) {
        fprintf(stderr, "tsumegen solve: cannot write %s: %s\n", o.out_path, strerror(errno));
        failed = 1;
    }
    int cut = 0;
    for (int i = kept; i < n; i++) cut += jobs[i].interrupted;
    jobs_free(jobs, n);
    if (df_interrupted()) {
        fprintf(stderr, "tsumegen solve: interrupted: %d of %d answers complete; %d cut short or not begun (note \"interrupted\")\n",
                n - cut, n, cut);
        return EXIT_INTERRUPTED;
    }
    return bad || failed ? EXIT_USAGE : EXIT_OK;
}
