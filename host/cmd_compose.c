/* cmd_compose.c - `tsumegen compose ga`: options and the verifier hookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "cli.h"
#include "compose.h"
#include "compose_random.h"
#include "screen.h"
#include "verify_adapter.h"

const char USAGE_COMPOSE[] =
    "usage: tsumegen compose ga [--init SFEN] [--pop N] [--gens N] [--seed S] [--out DIR]\n"
    "                           [--oversample K] [--nodes N] [--retry K] [--retry-nodes N]\n"
    "                           [--repair K] [--repair-tries N] [--repair-depth N]\n"
    "                           [--extend K] [--extend-tries N]\n"
    "                           [--threads N] [--method M] [--time S]\n"
    "                           [--archive-rate X] [--mutation X] [--tournament N] [--ones N]\n"
    "                           [--device D] [--points FILE] [--cl-threads N]\n"
    "                           [--resume] [--quiet] [--no-kif]\n"
    "Evolves perfect tsume problems from an initial problem with the genetic algorithm of\n"
    "seeds/000 (defaults = its Table 1: pop 200, gens 50, tournament 8, mutation 0.001,\n"
    "archive rate 0.05, 10 one-bits).  Each generation decodes pop*K offspring (K =\n"
    "--oversample, default 4), screens them with the engine of `tsumegen screen` and\n"
    "verifies the best pop exactly with --nodes per problem (default 200000).\n"
    "Second look: the --retry longest mates (default 8) of a generation that the limit\n"
    "left undecided (exact length or a 余詰 test unfinished, no flaw found) are verified\n"
    "again with --retry-nodes (default, or 0: 10 x --nodes); --retry 0 turns it off.\n"
    "Cook removal (余詰消し): the --repair longest cooked mates (default 8) of a\n"
    "generation get up to --repair-tries boards each (default 8): one defender piece\n"
    "more that guards the cooking move's square, blocks its line or fills a cooking\n"
    "drop's square, or the cooking piece put back as the initial problem had it; each\n"
    "still plays the old main line as a mate, with as many evasions at every defender\n"
    "ply, and keeps --ones bits.  They are verified like any child and replace the\n"
    "least fit of the population.  --repair-depth rounds (default 3): each next round\n"
    "repairs the longest proposals still cooked.  --repair 0 (and --method random)\n"
    "turns it off: the paper's GA.\n"
    "Backward extension (逆算): each generation the --extend longest perfect problems\n"
    "found so far (default 3), each once, get up to --extend-tries boards (default 48)\n"
    "one attacker check and one defender reply earlier.  The reply is any evasion\n"
    "taken back: the king's step back (taking the checker, another piece or nothing),\n"
    "another piece taking the checker, or a board piece or a drop blocking the line;\n"
    "the check is any that leads there: a drop, a move, a discovered check, or a\n"
    "capture of a kind the attacker holds in the problem.\n"
    "The run's longest problem gets 4x as many (it can set a record), and undecided\n"
    "candidates a third look at 4x the --retry-nodes budget.\n"
    "They are verified like any child; the perfect ones (often 2 plies longer) are\n"
    "written and extended in turn.  They may differ from the initial problem in\n"
    "ways no genome writes (a king moved), so they stay out of the population.\n"
    "--extend 0 "
    "(with --repair 0: the paper's GA) turns it off.\n"
    "Screening: a board that fails the strict SFEN rules, or where the attacker has no\n"
    "check, gets fitness 0 without a solver call; the others are ranked by\n"
    "  score = 2 [mate1 <= 1] + 1 / (1 + d / 10) + u / 1000\n"
    "  mate1: the number of mate-in-1 moves (2 or more: cooked at the first move);\n"
    "  d: points outside the tsume-points band [100, 115] of seeds/002 (0 inside);\n"
    "  u: a uniform tie-break from the child's random stream.\n"
    "  --init SFEN   initial problem (default: a built-in 1-move problem, 頭金)\n"
    "  --method M    ga-archive (default), ga (no archive) or random (fresh random genomes)\n"
    "  --out DIR     writes DIR/problems.jsonl, DIR/NNN.kif, DIR/generations.jsonl,\n"
    "                DIR/checkpoint.txt (after every generation; Ctrl-C keeps all results\n"
    "                and exits 130 once the searches under way finish; a second Ctrl-C\n"
    "                stops them at once, and --resume does their work again)\n"
    "                and DIR/summary.json (the summary printed at the end, with the\n"
    "                options, device, boards screened and verified and seconds spent);\n"
    "                each problem passed the proof checker of `solve --verify` before it\n"
    "                was written (\"verified\":true; one that fails or stays undecided is\n"
    "                held back: said on stderr, counted in summary.json, and kept in\n"
    "                undecided.jsonl with \"proof_check\" and \"proof_msg\")\n"
    "                DIR/undecided.jsonl: each undecided mate once (sfen, length_lb,\n"
    "                length_ub, length_exact, nodes, generation), to verify longer later:\n"
    "                  tsumegen solve --time 60000 < DIR/undecided.jsonl\n"
    "  --time S      no new generation once the run has taken S seconds (its resumed\n"
    "                parts included; the generation under way finishes, and each command\n"
    "                makes one at least): exit 0 with the checkpoint written, and --resume\n"
    "                goes on (with a larger --time, or none)\n"
    "  --resume      continue the run in DIR from its checkpoint; options left out\n"
    "                take the run's own values (--init, --pop, --gens ... as started),\n"
    "                options given must equal them except --gens (go on further),\n"
    "                --threads, --device, --cl-threads, --quiet and --no-kif\n"
    "  --no-kif      no DIR/NNN.kif files (in every compose command): problems.jsonl\n"
    "                has each problem and its main line, and\n"
    "                `tsumegen solve --kif KIFDIR < DIR/problems.jsonl` writes them later\n"
    "  --device D    screening device, as `tsumegen screen --device`: auto (default:\n"
    "                $TSUMEGEN_DEVICE, else a GPU, else an OpenCL CPU device), gpu, cpu,\n"
    "                N, part of a device name, or omp; without OpenCL the OpenMP path runs\n"
    "  --points FILE tsume-points weights (format: data/points_default.txt; default its\n"
    "                built-in copy, builtin:hand; builtin:learned is data/points_learned.txt;\n"
    "                the GA ranks by the distance to the band 100-115 whatever the file)\n"
    "  --cl-threads N  pocl's threads (see tsumegen screen --help)\n"
    "Reproducible from --seed for a fixed --nodes and --threads (verification uses node\n"
    "limits only; the device gives the same screen results as the OpenMP path).\n"
    "\n"
    "usage: tsumegen compose extend --from FILE [--rounds N] [--extend K] [--extend-tries N]\n"
    "                               [--nodes N] [--retry K] [--retry-nodes N] [--seed S]\n"
    "                               [--threads N] [--time S] [--out DIR] [--resume] [--quiet]\n"
    "                               [--no-kif]\n"
    "Backward extension alone, no GA: FILE holds problems (JSON lines with an \"sfen\"\n"
    "field, such as a GA run's problems.jsonl, or SFEN lines); each is verified and the\n"
    "perfect ones form the pool.  Each round extends the --extend longest problems of\n"
    "the pool not yet extended (default 1), each with up to --extend-tries candidates\n"
    "(default 4096: all), verified with --nodes and the second look as in the GA; the\n"
    "perfect ones are written to DIR as the GA writes and join the pool, so the\n"
    "longest problem grows by 2 plies whenever a round succeeds.  Longest first, but\n"
    "once 4 extensions of one problem have been extended, its other extensions (near\n"
    "twins, mostly) rank 2 plies lower.  Most undecided candidates are perfect\n"
    "problems that needed more nodes: a large --retry (e.g. 100000) writes many more\n"
    "long problems, the default 8 reaches the longest sooner.  --rounds (default\n"
    "20) rounds, or fewer when nothing is left to extend or once --time S has passed\n"
    "(as in the GA: the round under way finishes); checkpoint and --resume as in the GA\n"
    "(a resume needs no --from: the pool is in the checkpoint).\n"
    "\n"
    "usage: tsumegen compose random [--boards N] [--time S] [--seed S] [--start I]\n"
    "                               [--band LO:HI] [--points FILE] [--nodes N] [--min-length L]\n"
    "                               [--threads N] [--device D] [--cl-threads N]\n"
    "                               [--out DIR] [--resume] [--quiet] [--no-kif]\n"
    "Random composition (seeds/002): the boards I .. I+N-1 of the generated stream of\n"
    "`tsumegen screen --generate` (--boards, default 1e6; --start, default 0), screened\n"
    "on the device; the legal ones with a check, an attacker piece on the board\n"
    "(seeds/002 skips 無仕掛け diagrams) and tsume points in the band are verified\n"
    "exactly with --nodes each (default 2000).  --points (default builtin:learned,\n"
    "data/points_learned.txt, fitted by `tsumegen points learn`; builtin:hand is the\n"
    "hand-set data/points_default.txt, or a FILE); --band LO:HI in points, either end\n"
    "may be empty (default: the band the points file suggests, \"# suggested: --band\n"
    "T:\", else seeds/002's best 100:115).  Perfect mates of --min-length plies or more\n"
    "(default 5) lose their redundant pieces, pass the proof checker and go to\n"
    "DIR/problems.jsonl and DIR/NNN.kif (default DIR out/random).  Every verdict is\n"
    "logged in DIR/verdicts.tsv (index, points, class, length, nodes, ms; class\n"
    "nomate, unknown, short, leftover, cooked, undecided, final-alt (a one-move\n"
    "problem that another move mates too) or perfect), which\n"
    "`tsumegen points learn` fits a points file to.  --time S stops after S seconds.\n"
    "The summary (stdout and DIR/summary.json) counts each class and gives seconds\n"
    "per good board (a mate of --min-length plies or more with no piece left over:\n"
    "seeds/002's measure) and per perfect problem.  A checkpoint follows every chunk\n"
    "of verifications; --resume continues with the same options.\n"
    "\n"
    "usage: tsumegen compose reverse [--games N] [--time S] [--seed S] [--start I]\n"
    "                                [--nodes N] [--threads N]\n"
    "                                [--out DIR] [--resume] [--quiet] [--no-kif]\n"
    "Reverse construction (seeds/004): games I .. I+N-1 (--games, default 1e5) of\n"
    "random legal moves from the initial position, each played to a mate (or given up\n"
    "after 2000 plies), turned so that Black mates; Black's hand and king and every\n"
    "piece the mate does not need go to White's hand; then every way the mate could\n"
    "have been played is undone (a piece back to an empty square it came from,\n"
    "promoting or not, or back in hand), not only the game's own last move.  Each\n"
    "such one-move problem (legal, White not in check) is verified with --nodes\n"
    "(default 2000) and logged in DIR/verdicts.tsv (game, game_move: 1 for seeds/004's\n"
    "own candidate, class, length, nodes, ms, SFEN; class final-alt: a mate another\n"
    "move gives too, which seeds/004 did not check).  Perfect problems with a single\n"
    "mating move go to DIR/problems.jsonl and DIR/NNN.kif (default DIR out/reverse)\n"
    "as in compose random; `compose extend --from DIR/problems.jsonl` grows them\n"
    "backwards.\n"
    "--time, the summary, the checkpoint after every batch of games and --resume as\n"
    "in compose random; the summary also counts seeds/004's own candidates\n"
    "(game_candidates) and how many of them are perfect (game_perfect).\n";

#define DEFAULT_INIT "4k4/9/4P4/9/9/9/9/9/9 b G 1"

static int ga_only(const char *option) {
    static const char *const GA_ONLY[] = {"--init", "--pop", "--gens", "--method", "--oversample", "--repair",
                                          "--repair-tries", "--repair-depth", "--archive-rate", "--mutation",
                                          "--tournament", "--ones", "--device", "--points", "--cl-threads"};
    for (size_t k = 0; k < sizeof GA_ONLY / sizeof *GA_ONLY; k++)
        if (!strcmp(option, GA_ONLY[k])) return 1;
    return 0;
}

static int was_given(const char *name, const char *const *given, int ngiven) {
    for (int i = 0; i < ngiven; i++)
        if (!strcmp(given[i], name)) return 1;
    return 0;
}

static int parse_options(int argc, char **argv, int extend_mode, ComposeOptions *o, const char **given, int *ngiven);

/* --resume: the options the command leaves out take the run's own values, parsed
 * from the checkpoint's words (*saved, which o then points into: freed by the
 * caller after the run) like typed ones; those it gives are compared with them in
 * load_checkpoint.  0, or the exit status after a message. */
static int adopt_saved(ComposeOptions *o, int extend_mode, const char **given, int ngiven, char ***saved, int *nsaved) {
    if (!(*saved = compose_saved_words(o->out_dir, nsaved))) return 0;  /* (load_checkpoint says why) */
    char **words = malloc(sizeof(char *) * (size_t)(*nsaved + 2));
    const char **ignored = malloc(sizeof(char *) * (size_t)(*nsaved + 1));
    int n = 2, nignored = 0, rc = EXIT_FAIL;
    if (words && ignored) {
        words[0] = words[1] = "";  /* (parse_options starts at the third word) */
        for (int i = 0; i + 1 < *nsaved; i += 2) {
            char *name = (*saved)[i];
            if (extend_mode && !strcmp(name, "--gens")) name = "--rounds";
            if (was_given(name, given, ngiven) || (extend_mode && ga_only(name))) continue;
            words[n++] = name;
            words[n++] = (*saved)[i + 1];
        }
        rc = parse_options(n, words, extend_mode, o, ignored, &nignored);
        if (rc) fprintf(stderr, "tsumegen compose: --resume: that value comes from %s/checkpoint.txt, which is damaged\n", o->out_dir);
    }
    free(words);
    free(ignored);
    return rc;
}

/* The options after `compose ga|extend` into o; given collects their names as typed
 * (for --resume).  0, or the exit status after a message. */
static int parse_options(int argc, char **argv, int extend_mode, ComposeOptions *o, const char **given, int *ngiven) {
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        long long x = 0;  /* (set whenever cli_parse_int returns 0; -O3 cannot see that cli_error returns non-zero) */
        if (!strcmp(a, "--resume")) { o->resume = 1; continue; }
        if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        if (!strcmp(a, "--no-kif")) { o->no_kif = 1; continue; }
        if (i + 1 >= argc) return cli_error("compose", "unknown option or missing value: '%s'", a);
        const char *v = argv[++i];
        given[(*ngiven)++] = a;
        if (extend_mode && ga_only(a)) return cli_error("compose", "%s is an option of compose ga, not of compose extend", a);
        if (!strcmp(a, "--init")) o->init_sfen = v;
        else if (!strcmp(a, "--out")) o->out_dir = v;
        else if (!strcmp(a, "--from") && extend_mode) o->from = v;
        else if (!strcmp(a, "--rounds") && extend_mode) { if (cli_parse_int("compose", a, v, 1, 1000000, &x)) return EXIT_USAGE; o->gens = (int)x; }
        else if (!strcmp(a, "--device")) o->device = v;
        else if (!strcmp(a, "--points")) o->points_file = v;
        else if (!strcmp(a, "--cl-threads")) { if (cli_parse_int("compose", a, v, 1, 1024, &x)) return EXIT_USAGE; o->cl_threads = (int)x; }
        else if (!strcmp(a, "--method")) {
            if (!strcmp(v, "ga-archive")) o->method = METHOD_GA_ARCHIVE;
            else if (!strcmp(v, "ga")) o->method = METHOD_GA;
            else if (!strcmp(v, "random")) o->method = METHOD_RANDOM;
            else return cli_error("compose", "--method must be ga-archive, ga or random, got '%s'", v);
        } else if (!strcmp(a, "--pop")) { if (cli_parse_int("compose", a, v, 2, 100000, &x)) return EXIT_USAGE; o->pop = (int)x; }
        else if (!strcmp(a, "--gens")) { if (cli_parse_int("compose", a, v, 1, 1000000, &x)) return EXIT_USAGE; o->gens = (int)x; }
        else if (!strcmp(a, "--seed")) { if (cli_parse_int("compose", a, v, 0, 1000000000000000000LL, &x)) return EXIT_USAGE; o->seed = (uint64_t)x; }
        else if (!strcmp(a, "--oversample")) { if (cli_parse_int("compose", a, v, 1, 1000, &x)) return EXIT_USAGE; o->oversample = (int)x; }
        else if (!strcmp(a, "--nodes")) { if (cli_parse_int("compose", a, v, 100, 1000000000000LL, &x)) return EXIT_USAGE; o->node_limit = (uint64_t)x; }
        else if (!strcmp(a, "--retry")) { if (cli_parse_int("compose", a, v, 0, 100000, &x)) return EXIT_USAGE; o->retry = (int)x; }
        else if (!strcmp(a, "--retry-nodes")) {  /* (0: the default, 10 x --nodes) */
            if (cli_parse_int("compose", a, v, 0, 1000000000000LL, &x)) return EXIT_USAGE;
            if (x > 0 && x < 100) return cli_error("compose", "--retry-nodes must be 0 (10 x --nodes) or at least 100, got '%s'", v);
            o->retry_nodes = (uint64_t)x;
        }
        else if (!strcmp(a, "--repair")) { if (cli_parse_int("compose", a, v, 0, 100000, &x)) return EXIT_USAGE; o->repair = (int)x; }
        else if (!strcmp(a, "--repair-depth")) { if (cli_parse_int("compose", a, v, 1, 100, &x)) return EXIT_USAGE; o->repair_depth = (int)x; }
        else if (!strcmp(a, "--repair-tries")) { if (cli_parse_int("compose", a, v, 1, 10000, &x)) return EXIT_USAGE; o->repair_tries = (int)x; }
        else if (!strcmp(a, "--extend")) { if (cli_parse_int("compose", a, v, 0, 100000, &x)) return EXIT_USAGE; o->extend = (int)x; }
        else if (!strcmp(a, "--extend-tries")) { if (cli_parse_int("compose", a, v, 1, 4096, &x)) return EXIT_USAGE; o->extend_tries = (int)x; }
        else if (!strcmp(a, "--threads")) { if (cli_parse_int("compose", a, v, 1, 1024, &x)) return EXIT_USAGE; o->threads = (int)x; }
        else if (!strcmp(a, "--time")) { if (cli_parse_real("compose", a, v, 0.001, 1e9, &o->seconds)) return EXIT_USAGE; }
        else if (!strcmp(a, "--archive-rate")) { if (cli_parse_real("compose", a, v, 0, 1, &o->archive_rate)) return EXIT_USAGE; }
        else if (!strcmp(a, "--mutation")) { if (cli_parse_real("compose", a, v, 0, 1, &o->mutation)) return EXIT_USAGE; }
        else if (!strcmp(a, "--tournament")) { if (cli_parse_int("compose", a, v, 1, 1000, &x)) return EXIT_USAGE; o->tournament = (int)x; }
        else if (!strcmp(a, "--ones")) { if (cli_parse_int("compose", a, v, 1, 200, &x)) return EXIT_USAGE; o->ones = (int)x; }
        else return cli_error("compose", "unknown option '%s' (see tsumegen compose --help)", a);
    }
    return 0;
}

/* Options of compose random that compose reverse does not take (it screens nothing). */
static int random_only(const char *option) {
    return !strcmp(option, "--boards") || !strcmp(option, "--band") || !strcmp(option, "--points") || !strcmp(option, "--device") ||
           !strcmp(option, "--cl-threads") || !strcmp(option, "--min-length");  /* (every candidate is a one-move problem) */
}

/* `compose random` and `compose reverse`: their options into a RandomOptions and the run. */
static int compose_random(int argc, char **argv, int reverse) {
    RandomOptions o;
    if (reverse) reverse_defaults(&o);
    else random_defaults(&o);
    const char *cmd = reverse ? "reverse" : "random";
    int band_given = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        long long x = 0;
        double d = 0;
        if (!strcmp(a, "--resume")) { o.resume = 1; continue; }
        if (!strcmp(a, "--quiet")) { o.quiet = 1; continue; }
        if (!strcmp(a, "--no-kif")) { o.no_kif = 1; continue; }
        if (reverse && random_only(a)) return cli_error("compose", "%s is an option of compose random, not of compose reverse", a);
        if (i + 1 >= argc) return cli_error("compose", "unknown option or missing value: '%s'", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--out")) o.out_dir = v;
        else if (reverse && !strcmp(a, "--games")) { if (cli_parse_int("compose", a, v, 1, 1LL << 50, &x)) return EXIT_USAGE; o.boards = (uint64_t)x; }
        else if (!strcmp(a, "--device")) o.device = v;
        else if (!strcmp(a, "--points")) o.points_file = v;
        else if (!strcmp(a, "--boards")) { if (cli_parse_int("compose", a, v, 1, 1LL << 50, &x)) return EXIT_USAGE; o.boards = (uint64_t)x; }
        else if (!strcmp(a, "--start")) { if (cli_parse_int("compose", a, v, 0, 1LL << 60, &x)) return EXIT_USAGE; o.start = (uint64_t)x; }
        else if (!strcmp(a, "--seed")) { if (cli_parse_int("compose", a, v, 0, 1000000000000000000LL, &x)) return EXIT_USAGE; o.seed = (uint64_t)x; }
        else if (!strcmp(a, "--nodes")) { if (cli_parse_int("compose", a, v, 100, 1000000000000LL, &x)) return EXIT_USAGE; o.node_limit = (uint64_t)x; }
        else if (!strcmp(a, "--min-length")) { if (cli_parse_int("compose", a, v, 1, 999, &x)) return EXIT_USAGE; o.min_length = (int)x; }
        else if (!strcmp(a, "--threads")) { if (cli_parse_int("compose", a, v, 1, 1024, &x)) return EXIT_USAGE; o.threads = (int)x; }
        else if (!strcmp(a, "--cl-threads")) { if (cli_parse_int("compose", a, v, 1, 1024, &x)) return EXIT_USAGE; o.cl_threads = (int)x; }
        else if (!strcmp(a, "--time")) { if (cli_parse_real("compose", a, v, 0.001, 1e9, &d)) return EXIT_USAGE; o.seconds = d; }
        else if (!strcmp(a, "--band")) {
            band_given = 1;
            const char *colon = strchr(v, ':');
            char lo[64] = "", hi[64] = "";
            double dl = 0, dh = 0;
            if (!colon || colon - v >= (long)sizeof lo || strlen(colon + 1) >= sizeof hi)
                return cli_error("compose", "--band must be LO:HI in points (either may be empty), got '%s'", v);
            memcpy(lo, v, (size_t)(colon - v));
            strcpy(hi, colon + 1);
            if (*lo && cli_parse_real("compose", a, lo, -1e6, 1e6, &dl)) return EXIT_USAGE;
            if (*hi && cli_parse_real("compose", a, hi, -1e6, 1e6, &dh)) return EXIT_USAGE;
            o.band_lo = *lo ? (int32_t)(dl * 1000 + (dl < 0 ? -0.5 : 0.5)) : BAND_OPEN_LO;
            o.band_hi = *hi ? (int32_t)(dh * 1000 + (dh < 0 ? -0.5 : 0.5)) : BAND_OPEN_HI;
            if (o.band_lo > o.band_hi) return cli_error("compose", "--band '%s': LO is above HI", v);
        } else return cli_error("compose", "unknown option '%s' for compose %s (see tsumegen compose --help)", a, cmd);
    }
    int32_t lo;
    if (!reverse && !band_given && points_suggested_band(o.points_file, &lo)) o.band_lo = lo, o.band_hi = BAND_OPEN_HI;
    if (!o.threads) o.threads = omp_get_max_threads();
    o.proof = proofcheck_for_compose;
    return compose_random_run(&o, verify_for_compose);
}

int cmd_compose(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "random")) return compose_random(argc, argv, 0);
    if (argc >= 2 && !strcmp(argv[1], "reverse")) return compose_random(argc, argv, 1);
    ComposeOptions o;
    compose_defaults(&o);
    o.init_sfen = DEFAULT_INIT;
    int extend_mode = argc >= 2 && !strcmp(argv[1], "extend");
    if (argc < 2 || (strcmp(argv[1], "ga") && !extend_mode))
        return cli_error("compose", "expected 'compose ga', 'compose extend', 'compose random' or 'compose reverse' (see tsumegen compose --help)");
    if (extend_mode) {
        o.method = METHOD_EXTEND;
        o.pop = 1;  /* no population: one placeholder in the checkpoint */
        o.gens = 20;
        o.extend = 1;
        o.extend_tries = 4096;
        o.repair = 0;
    }
    const char **given = malloc(sizeof(char *) * (size_t)argc);  /* the options typed, for --resume */
    int ngiven = 0, rc;
    if (!given) return EXIT_FAIL;
    char **saved = NULL;  /* --resume: the run's own options, which o may point into */
    int nsaved = 0;
    rc = parse_options(argc, argv, extend_mode, &o, given, &ngiven);
    if (!rc && o.resume) rc = adopt_saved(&o, extend_mode, given, ngiven, &saved, &nsaved);
    free(given);
    if (rc) return compose_free_words(saved, nsaved), rc;
    if (extend_mode && !o.from && !o.resume)  /* (a resumed run has its pool in the checkpoint) */
        rc = cli_error("compose", "compose extend needs --from FILE (problems to extend)");
    else if (extend_mode && o.extend < 1) rc = cli_error("compose", "compose extend needs --extend 1 or more");
    else {
        if (o.method == METHOD_GA) o.archive_rate = 0;
        if (o.method == METHOD_RANDOM) o.repair = 0, o.extend = 0;  /* each generation starts afresh */
        o.proof = proofcheck_for_compose;
        rc = compose_run(&o, verify_for_compose);
    }
    compose_free_words(saved, nsaved);
    return rc;
}
