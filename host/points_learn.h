/* points_learn.h - a learned tsume-points filter: logistic regression over the
 * features of the points file (core/screen.h: the king's square, each piece by
 * owner, kind and offset from the king, each empty square by offset, the hands),
 * fitted to the verdicts `compose random` logs, written back in the points-file
 * format so that the screen (CPU or OpenCL) scores with it unchanged. */
#ifndef TSUMEGEN_POINTS_LEARN_H
#define TSUMEGEN_POINTS_LEARN_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "../core/position.h"

/* The features of a position as sc_points sees them: indices into the weight
 * vector (SC_W_*, below SC_W_EMPTYSUM) with their counts.  Returns how many. */
#define PL_MAX_FEATURES 96  /* bias, king, 80 squares, 14 hand counts */
int pl_features(const Position *pos, int *idx, int *count);

/* Weights w[SC_W_NB] (milli-points; the derived SC_W_EMPTYSUM part ignored) as a
 * points file that points_parse reads back to the same weights.  0 or -1. */
int pl_write_points(FILE *f, const int32_t *w);

/* One labelled sample: the board's stream (seed, index), its class, the
 * verification's milliseconds. */
typedef struct {
    uint64_t seed, index;
    int good;
    double ms;
} PlSample;

typedef struct {
    int epochs;                /* full-batch gradient steps */
    double l2, rate, holdout;  /* holdout: the fraction kept out of training (every k-th sample) */
    int cost;                  /* also fit the log-time of verification and rank by good per second */
} PlOptions;

/* Fits the model; w gets milli-points, scaled so that 100 points is the training
 * set's base rate and each 10 points is a factor e in the odds of "good" (with
 * o->cost, in the odds divided by the predicted verification time).  Prints
 * the held-out table (threshold, kept, good, good per second) to report and the
 * best threshold (the most good per verification second) in *best_points.
 * 0 or -1 (out of memory). */
int pl_fit(const PlSample *s, size_t n, const PlOptions *o, int32_t *w, FILE *report, double *best_points);

#endif
