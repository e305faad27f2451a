/* points_learn.c - logistic regression for the tsume-points filter (see
 * points_learn.h).  The model is linear in exactly the features sc_points sums,
 * so the fitted weights are a points file and the screen needs no new code. */
#include "points_learn.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../core/gen.h"
#include "../core/screen.h"

int pl_features(const Position *pos, int *idx, int *count) {
    int att = pos->side, def = att ^ 1, n = 0;
    int ksq = pos->king_sq[def];
    int rot = att == WHITE;  /* canonical: the attacker plays toward rank a, as sc_points */
    int k = rot ? 80 - ksq : ksq;
    int kf = sq_file(k), kr = sq_rank(k);
    idx[n] = SC_W_BIAS, count[n++] = 1;
    idx[n] = SC_W_KING + k, count[n++] = 1;
    for (int sq = 0; sq < SQ_NB; sq++) {
        if (sq == ksq) continue;
        int cs = rot ? 80 - sq : sq, pc = pos->board[sq];
        int off = sc_off_index(sq_file(cs) - kf, sq_rank(cs) - kr);
        if (pc) idx[n] = SC_W_PIECE + ((piece_color(pc) == att ? 0 : 1) * 14 + piece_type(pc) - 1) * SC_OFF_NB + off;
        else idx[n] = SC_W_EMPTY + off;
        count[n++] = 1;
    }
    for (int pt = PAWN; pt <= GOLD; pt++) {
        if (pos->hand[att][pt]) idx[n] = SC_W_HAND + pt - 1, count[n++] = pos->hand[att][pt];
        if (pos->hand[def][pt]) idx[n] = SC_W_HAND + 7 + pt - 1, count[n++] = pos->hand[def][pt];
    }
    return n;
}

static const char *const KIND_TOKEN[15] = {"", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R"};

/* milli-points as the file's decimal (at most 3 decimals, read back exactly) */
static void milli_text(int32_t m, char *buf, size_t len) {
    long long a = m < 0 ? -(long long)m : m;
    snprintf(buf, len, "%s%lld.%03lld", m < 0 ? "-" : "", a / 1000, a % 1000);
}

int pl_write_points(FILE *f, const int32_t *w) {
    char v[32];
    for (int j = 0; j < SC_W_EMPTYSUM; j++) {
        if (!w[j] && j != SC_W_BIAS) continue;
        milli_text(w[j], v, sizeof v);
        if (j == SC_W_BIAS) fprintf(f, "bias %s\n", v);
        else if (j < SC_W_PIECE) fprintf(f, "king %d %d %s\n", sq_file(j - SC_W_KING) + 1, sq_rank(j - SC_W_KING) + 1, v);
        else if (j < SC_W_EMPTY) {
            int t = (j - SC_W_PIECE) / SC_OFF_NB, off = (j - SC_W_PIECE) % SC_OFF_NB;
            fprintf(f, "piece %s %s %d %d %s\n", t < 14 ? "att" : "def", KIND_TOKEN[t % 14 + 1], off / 17 - 8, off % 17 - 8, v);
        } else if (j < SC_W_HAND) {
            int off = j - SC_W_EMPTY;
            fprintf(f, "empty %d %d %s\n", off / 17 - 8, off % 17 - 8, v);
        } else {
            int t = j - SC_W_HAND;
            fprintf(f, "hand %s %s %s\n", t < 7 ? "att" : "def", KIND_TOKEN[t % 7 + 1], v);
        }
    }
    return ferror(f) ? -1 : 0;
}

typedef struct {
    double score;  /* points, from the rounded weights */
    int good;
    double ms;
} Scored;

static int by_score_desc(const void *a, const void *b) {
    double x = ((const Scored *)a)->score, y = ((const Scored *)b)->score;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The held-out samples ranked by points: what each threshold keeps and how much
 * good it finds per second of verification; the ROC area by the rank sum. */
static void holdout_report(Scored *h, size_t nh, FILE *report, double *best_points) {
    qsort(h, nh, sizeof *h, by_score_desc);
    double all_ms = 0, all_good = 0, pos_ranks = 0;
    for (size_t i = 0; i < nh; i++) all_ms += h[i].ms, all_good += h[i].good;
    for (size_t i = 0; i < nh; i++)
        if (h[i].good) pos_ranks += (double)(nh - i);  /* rank from the bottom (ties ignored) */
    double npos = all_good, nneg = (double)nh - all_good;
    double auc = npos && nneg ? (pos_ranks - npos * (npos + 1) / 2) / (npos * nneg) : 0.5;
    double base = all_ms > 0 ? all_good / (all_ms / 1000) : 0;
    if (report) {
        fprintf(report, "# held out: %zu boards, %.0f good, %.1f good per verification second unfiltered; ROC area %.3f\n",
                nh, all_good, base, auc);
        fprintf(report, "# points>=  kept    good  good/kept  good/s  (x unfiltered)\n");
    }
    double best = -1;
    double kept = 0, good = 0, ms = 0;
    size_t i = 0;
    for (double t = floor(h[0].score / 5) * 5; t >= -200 && i < nh; t -= 5) {
        while (i < nh && h[i].score >= t) kept++, good += h[i].good, ms += h[i].ms, i++;
        if (kept == 0) continue;
        double rate = ms > 0 ? good / (ms / 1000) : 0;
        if (report)
            fprintf(report, "# %7.0f %6.0f %7.0f %9.3f %7.1f  %.2f\n", t, kept, good, good / kept, rate, base > 0 ? rate / base : 0);
        if (good >= 20 && rate > best) best = rate, *best_points = t;  /* (20: not a handful of lucky boards) */
    }
}

/* The training boards' features, flattened (PL_MAX_FEATURES slots a board). */
typedef struct {
    const int *idx, *cnt, *nf;
    const size_t *train;
    size_t ntrain;
} Design;

/* Full-batch gradient descent on the mean loss plus (l2 / 2) |theta|^2 (the bias
 * unpenalised), AdaGrad steps.  Every weight is penalised every step, so a feature
 * seen on a handful of boards stays near 0 instead of fitting them.  logistic:
 * log-loss against y in {0, 1}; else squared loss against y.  theta starts as given
 * (the bias at the base value).  0, or -1 out of memory. */
static int fit_linear(const Design *d, const double *y, int logistic, const PlOptions *o, double *theta) {
    double *grad = malloc(sizeof(double) * SC_W_NB), *g2 = calloc(SC_W_NB, sizeof(double));
    if (!grad || !g2) { free(grad); free(g2); return -1; }
    for (int e = 0; e < o->epochs; e++) {
        memset(grad, 0, sizeof(double) * SC_W_NB);
        for (size_t k = 0; k < d->ntrain; k++) {
            size_t i = d->train[k];
            const int *ix = d->idx + i * PL_MAX_FEATURES, *cx = d->cnt + i * PL_MAX_FEATURES;
            double z = 0;
            for (int f = 0; f < d->nf[i]; f++) z += theta[ix[f]] * cx[f];
            double g = ((logistic ? 1 / (1 + exp(-z)) : z) - y[i]) / (double)d->ntrain;
            for (int f = 0; f < d->nf[i]; f++) grad[ix[f]] += g * cx[f];
        }
        for (int j = 0; j < SC_W_EMPTYSUM; j++) {
            double gr = grad[j] + (j == SC_W_BIAS ? 0 : o->l2 * theta[j]);
            if (gr == 0) continue;
            g2[j] += gr * gr;
            theta[j] -= o->rate * gr / sqrt(g2[j] + 1e-12);
        }
    }
    free(grad);
    free(g2);
    return 0;
}

int pl_fit(const PlSample *s, size_t n, const PlOptions *o, int32_t *w, FILE *report, double *best_points) {
    int *fidx = malloc(sizeof(int) * n * PL_MAX_FEATURES), *fcnt = malloc(sizeof(int) * n * PL_MAX_FEATURES);
    int *nf = malloc(sizeof(int) * n);
    size_t *train = malloc(sizeof(size_t) * n);
    double *theta = calloc(SC_W_NB, sizeof(double)), *cost = calloc(SC_W_NB, sizeof(double));
    double *y = malloc(sizeof(double) * n), *t = malloc(sizeof(double) * n);
    Scored *h = malloc(sizeof(Scored) * n);
    int rc = -1;
    if (!fidx || !fcnt || !nf || !train || !theta || !cost || !y || !t || !h) goto out;
    size_t every = o->holdout > 0 ? (size_t)(1 / o->holdout + 0.5) : 0, ntrain = 0;
    double pos_train = 0, log_ms = 0;
    for (size_t i = 0; i < n; i++) {
        ScBoard b;
        Position p;
        sc_gen_board(s[i].seed, s[i].index, &b);
        nf[i] = sc_setup(&b, &p, 0) == SC_OK ? pl_features(&p, fidx + i * PL_MAX_FEATURES, fcnt + i * PL_MAX_FEATURES) : 0;
        y[i] = s[i].good;
        t[i] = log(1 + s[i].ms);
        if (nf[i] && !(every && i % every == every - 1)) train[ntrain++] = i, pos_train += s[i].good, log_ms += t[i];
    }
    if (!ntrain) goto out;
    Design d = {fidx, fcnt, nf, train, ntrain};
    double base = (pos_train + 0.5) / ((double)ntrain + 1), base_logit = log(base / (1 - base));
    log_ms /= (double)ntrain;
    theta[SC_W_BIAS] = base_logit;
    cost[SC_W_BIAS] = log_ms;
    if (fit_linear(&d, y, 1, o, theta) || (o->cost && fit_linear(&d, t, 0, o, cost))) goto out;
    /* points = 100 + 10 x (log-odds - the base rate's log-odds), in milli-points;
     * with the cost model, less 10 x the predicted log-time above the mean's: good
     * boards per second of verification rank first */
    memset(w, 0, sizeof(int32_t) * SC_W_NB);
    for (int j = 0; j < SC_W_EMPTYSUM; j++) {
        double v = j == SC_W_BIAS ? theta[j] - base_logit : theta[j];
        if (o->cost) v -= j == SC_W_BIAS ? cost[j] - log_ms : cost[j];
        v = (j == SC_W_BIAS ? 100000 : 0) + 10000 * v;
        if (v > 9999999) v = 9999999;
        if (v < -9999999) v = -9999999;
        w[j] = (int32_t)lround(v);
    }
    size_t nh = 0;
    for (size_t i = 0; every && i < n; i++) {
        if (!nf[i] || i % every != every - 1) continue;
        long long m = 0;
        for (int f = 0; f < nf[i]; f++) m += (long long)w[fidx[i * PL_MAX_FEATURES + f]] * fcnt[i * PL_MAX_FEATURES + f];
        h[nh].score = m / 1000.0, h[nh].good = s[i].good, h[nh].ms = s[i].ms, nh++;
    }
    *best_points = 100;
    if (nh) holdout_report(h, nh, report, best_points);
    rc = 0;
out:
    free(fidx); free(fcnt); free(nf); free(train); free(theta); free(cost); free(y); free(t); free(h);
    return rc;
}
