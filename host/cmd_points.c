/* cmd_points.c - `tsumegen points learn`: a tsume-points file fitted to the
 * verdicts of `compose random` runs (points_learn.h). */
#include <errno.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "compose_random.h"
#include "points_learn.h"
#include "../core/screen.h"

const char USAGE_POINTS[] =
    "usage: tsumegen points learn [--epochs N] [--l2 X] [--rate X] [--holdout F] [--no-cost]\n"
    "                             [--out FILE] VERDICTS.tsv ...\n"
    "Fits a tsume-points filter (seeds/002's idea, learned instead of hand-set) to the\n"
    "verdicts that `tsumegen compose random` logs in DIR/verdicts.tsv: logistic\n"
    "regression on the features the points file weighs (the king's square, every piece\n"
    "by owner, kind and offset from the king, every empty square by offset, the hands),\n"
    "predicting \"good\" (a mate of the run's --min-length or more with no piece left\n"
    "over: classes cooked, undecided, perfect).  Use verdicts of a run with an open band\n"
    "(--band :) so that the model sees every kind of board.  The weights are written in\n"
    "the points-file format (stdout, or --out FILE), scaled so that 100 points is the\n"
    "training boards' rate of good and every 10 points more multiplies by e the odds\n"
    "divided by the predicted verification time (see --no-cost);\n"
    "use them as `compose random --points FILE --band T:` or in `screen --points`.\n"
    "Every k-th board (--holdout F, default 0.2) is held out: the file's header and\n"
    "stderr show, per threshold, the boards kept, the good among them and good boards\n"
    "per second of verification, and the threshold T with the most (the suggested band).\n"
    "  --epochs N  full-batch gradient steps (default 300)\n"
    "  --l2 X      L2 penalty on the mean log-loss (default 0.0003)\n"
    "  --rate X    AdaGrad step (default 0.05)\n"
    "  --no-cost   rank by the odds of good alone; by default a second linear model\n"
    "              predicts the log of each verification's time and is subtracted, so\n"
    "              that the points rank boards by good ones per second of verification\n"
    "The fit is deterministic for given inputs.\n";

/* One verdict line, "index points class length nodes ms" apart by tabs, each field
 * read whole: a damaged line (a field cut, "nan", a count below zero) is an error
 * rather than a sample with garbage in it.  0, or -1 with the reason in why. */
static int parse_verdict(char *line, unsigned long long *index, char *cls, size_t cls_len, double *ms, char *why, size_t why_len) {
    static const char *const FIELDS[6] = {"index", "points", "class", "length", "nodes", "ms"};
    char *field[6], *end, none = 0;
    *index = 0, *ms = 0;
    line[strcspn(line, "\r\n")] = 0;
    int n = 0;
    for (char *p = line; p && n < 7; n++) {  /* (a seventh field is one too many) */
        field[n < 6 ? n : 5] = p;
        if ((p = strchr(p, '\t'))) *p++ = 0;
    }
    if (n != 6) {
        snprintf(why, why_len, "expected six fields apart by tabs (index, points, class, length, nodes, ms)");
        return -1;
    }
    for (int i = 0; i < 6; i++) {
        const char *f = field[i];
        int bad = !*f || isspace((unsigned char)*f) || (i != 1 && *f == '-');
        errno = 0;
        end = &none;
        if (i == 2) {
            bad |= strlen(f) >= cls_len;
            if (!bad) strcpy(cls, f);  /* (its name is checked by the caller) */
        } else if (i == 1 || i == 5) {
            double x = strtod(f, &end);
            bad |= !isfinite(x) || (i == 5 && x < 0);
            if (i == 5) *ms = x;
        } else {
            unsigned long long x = strtoull(f, &end, 10);
            bad |= i == 3 && x > 100000;
            if (i == 0) *index = x;
        }
        if (bad || *end || errno) {
            snprintf(why, why_len, "its %s field, '%.40s', is damaged", FIELDS[i], f);
            return -1;
        }
    }
    return 0;
}

/* Appends the samples of one verdicts.tsv; 0, or EXIT_USAGE after a message. */
static int read_verdicts(const char *path, PlSample **s, size_t *n, size_t *cap) {
    FILE *f = fopen(path, "r");
    if (!f) return cli_error("points", "cannot open %s: %s", path, strerror(errno));
    char line[512];
    unsigned long long seed = 0;
    int lineno = 0, have_seed = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#') {
            if (strstr(line, "compose reverse verdicts")) {  /* its indices are games, not stream boards */
                rc = cli_error("points", "%s:%d: a compose reverse log; points learn needs compose random's verdicts", path, lineno);
                break;
            }
            const char *p = strstr(line, "verdicts: seed ");
            if (p && sscanf(p + 15, "%llu", &seed) == 1) have_seed = 1;
            continue;
        }
        unsigned long long index;
        char cls[32];
        double ms;
        int cl;
        char why[160];
        if (!have_seed) rc = cli_error("points", "%s:%d: no '# ... verdicts: seed S' header before the first verdict", path, lineno);
        else if (parse_verdict(line, &index, cls, sizeof cls, &ms, why, sizeof why))
            rc = cli_error("points", "%s:%d: %s", path, lineno, why);
        else if ((cl = random_class_named(cls)) < 0)
            rc = cli_error("points", "%s:%d: unknown class '%s'", path, lineno, cls);
        else {
            if (*n == *cap) {
                size_t c2 = *cap ? 2 * *cap : 4096;
                PlSample *g = realloc(*s, c2 * sizeof *g);
                if (!g) { rc = cli_error("points", "out of memory"); break; }
                *s = g, *cap = c2;
            }
            PlSample *x = &(*s)[(*n)++];
            x->seed = seed, x->index = index, x->ms = ms;
            x->good = RC_IS_GOOD(cl);
        }
    }
    fclose(f);
    return rc;
}

int cmd_points(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "learn")) return cli_error("points", "expected 'points learn' (see tsumegen points --help)");
    PlOptions o = {300, 0.0003, 0.05, 0.2, 1};  /* (cost on) */
    const char *out = NULL;
    PlSample *s = NULL;
    size_t n = 0, cap = 0;
    int rc = 0, nfiles = 0;
    for (int i = 2; i < argc && !rc; i++) {
        const char *a = argv[i];
        long long x = 0;
        if (a[0] != '-' || !a[1]) { rc = read_verdicts(a, &s, &n, &cap); nfiles++; continue; }
        if (!strcmp(a, "--no-cost")) { o.cost = 0; continue; }
        if (i + 1 >= argc) { rc = cli_error("points", "unknown option or missing value: '%s'", a); break; }
        const char *v = argv[++i];
        if (!strcmp(a, "--out")) out = v;
        else if (!strcmp(a, "--epochs")) { if ((rc = cli_parse_int("points", a, v, 1, 10000, &x)) == 0) o.epochs = (int)x; }
        else if (!strcmp(a, "--l2")) rc = cli_parse_real("points", a, v, 0, 10, &o.l2);
        else if (!strcmp(a, "--rate")) rc = cli_parse_real("points", a, v, 1e-6, 10, &o.rate);
        else if (!strcmp(a, "--holdout")) rc = cli_parse_real("points", a, v, 0, 0.9, &o.holdout);
        else rc = cli_error("points", "unknown option '%s' (see tsumegen points --help)", a);
    }
    if (!rc && !nfiles) rc = cli_error("points", "points learn needs at least one verdicts.tsv");
    if (!rc && n < 10) rc = cli_error("points", "only %zu verdicts: too few to learn from", n);
    int32_t *w = rc ? NULL : malloc(sizeof(int32_t) * SC_W_NB);
    char *report = NULL;
    size_t rlen = 0;
    FILE *rep = rc ? NULL : open_memstream(&report, &rlen);
    double best = 100;
    if (!rc && (!w || !rep)) rc = cli_error("points", "out of memory");
    if (!rc && pl_fit(s, n, &o, w, rep, &best)) rc = cli_error("points", "out of memory for %zu verdicts", n);
    if (rep) fclose(rep);
    if (!rc) {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (!f) rc = cli_error("points", "cannot write %s: %s", out, strerror(errno));
        else {
            fprintf(f, "# tsumegen points learn: %zu verdicts, %d epochs, l2 %g, rate %g, holdout %g, %s\n"
                       "# 100 points = the training boards' rate of good; +10 points = x e\n"
                       "# suggested: --band %.0f:\n%s", n, o.epochs, o.l2, o.rate, o.holdout, o.cost ? "ranked by good per second" : "ranked by the odds of good (--no-cost)", best, report ? report : "");
            if (pl_write_points(f, w) || (out && fclose(f))) rc = cli_error("points", "cannot write %s", out ? out : "stdout");
            fprintf(stderr, "%stsumegen points: suggested band %.0f: (the most good boards per verification second held out)\n",
                    report ? report : "", best);
        }
    }
    free(report);
    free(w);
    free(s);
    return rc;
}
