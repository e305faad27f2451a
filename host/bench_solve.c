/* bench_solve.c - `tsumegen bench solve`: the exact solver over the ShogiBoardQ sets,
 * one thread and all, without and with the flaw analysis, and a peer's row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cli.h"
#include "solve_jobs.h"

static const char *const BENCH_SETS[] = {
    "data/third_party/shogiboardq/tsume_3ply_1000_20261001.txt",
    "data/third_party/shogiboardq/tsume_5ply_1000_20261001.txt",
    "data/third_party/shogiboardq/tsume_7ply_1000_20261001.txt",
    "data/third_party/shogiboardq/tsume_11ply_1000_20261001.txt",
    "data/third_party/shogiboardq/tsume_13ply_1000_20261001.txt",
};

static double wall(void) { return df_now(); }

static void free_lines(char **lines, int n) {
    for (int i = 0; i < n; i++) free(lines[i]);
    free(lines);
}

/* bench solve --peer's row for one set: the peer's sums and the one-thread ratios. */
static int peer_row(const char *peer, const char *name, char *const *lines, int n, double exact_ms, double full_ms) {
    PeerTotals t;
    char err[512];
    if (bench_peer_run(peer, lines, n, &t, err, sizeof err) < 0) {
        fprintf(stderr, "tsumegen bench: %s\n", err);
        return -1;
    }
    printf("%-34s %-5s threads=1  n=%4d  %7.2f s wall  %6.2f ms/problem  nodes %10llu  mate %4d  nomate %d  unknown %d"
           "  exact/peer %.2f  full/peer %.2f\n",
           name, "peer", n, t.wall_s, t.ms / (n ? n : 1), t.nodes, t.mate, t.nomate, t.unknown,
           t.ms > 0 ? exact_ms / t.ms : 0.0, t.ms > 0 ? full_ms / t.ms : 0.0);
    fflush(stdout);
    return 0;
}

int bench_solve(int count, int threads, const char *peer, int variations) {
    SolveOpts o;
    memset(&o, 0, sizeof o);
    o.hash_mb = 16;
    o.time_s = 10;
    o.yozume_extra = 4;
#ifdef _OPENMP
    int all = threads > 0 ? threads : omp_get_num_procs();
#else
    int all = 1;
#endif
    printf("bench solve: first %d problems per set, --hash 16 per thread, --time 10000\n"
           "  exact = verdict, exact length, main line (--no-flaws); full = + 余詰/notes (--yozume-depth 4)\n", count);
    int found = 0;
    for (size_t s = 0; s < sizeof BENCH_SETS / sizeof BENCH_SETS[0]; s++) {
        FILE *f = fopen(BENCH_SETS[s], "r");
        if (!f) { printf("%s: missing\n", BENCH_SETS[s]); continue; }
        found++;
        char buf[16384];
        Job *jobs = NULL;
        char **lines = calloc((size_t)count, sizeof *lines);  /* as read: the peer's input */
        int n = 0, cap = 0;
        if (!lines) { fclose(f); return cli_error("bench", "out of memory"); }
        while (n < count && cli_read_line(f, buf, sizeof buf)) {
            char *copy = strdup(buf);
            if (!copy || job_add(&jobs, &n, &cap, buf)) { free(copy); break; }
            lines[n - 1] = copy;
        }
        fclose(f);
        double one_ms[2] = {0, 0};  /* one thread's search ms: exact, full */
        for (int i = 0; i < n; i++) job_prepare(&jobs[i], &o);
        const char *name = strrchr(BENCH_SETS[s], '/') + 1;
        for (int pass = 0; pass < 4 + variations; pass++) {
            o.flaws = pass >= 2;
            o.threads = pass & 1 ? all : 1;
            o.variations = pass == 4;  /* (pass 4: one thread) */
            if ((pass & 1) && all == 1) continue;
            for (int i = 0; i < n; i++) {
                free(jobs[i].json);
                jobs[i].json = NULL;
                jobs[i].done = 0;
                ts_variations_free(&jobs[i].vars);
            }
            double t0 = wall();
            if (jobs_run(jobs, n, &o, NULL, 0) < 0) { jobs_free(jobs, n); free_lines(lines, n); return EXIT_USAGE; }
            double t = wall() - t0;
            uint64_t nodes = 0;
            int mate = 0, exact = 0, perfect = 0, nvar = 0;
            double search_ms = 0;
            for (int i = 0; i < n; i++) {
                const TsAnswer *a = &jobs[i].ans;
                nodes += a->nodes;
                search_ms += a->ms;
                mate += a->result == TS_MATE;
                exact += a->result == TS_MATE && a->exact_length && a->length == jobs[i].nrec;
                perfect += a->perfect;
                nvar += jobs[i].vars.n;
            }
            printf("%-34s %-5s threads=%-2d n=%4d  %7.2f s wall  %6.2f ms/problem  nodes %10llu  mate %4d  exact=record %4d  perfect %4d",
                   name, o.variations ? "+var" : o.flaws ? "full" : "exact", o.threads, n, t, search_ms / (n ? n : 1),
                   (unsigned long long)nodes, mate, exact, perfect);
            if (o.variations) printf("  variations %d", nvar);
            putchar('\n');
            fflush(stdout);
            if (o.threads == 1) one_ms[o.flaws] = search_ms;
        }
        jobs_free(jobs, n);
        int peer_failed = peer && peer_row(peer, name, lines, n, one_ms[0], one_ms[1]) < 0;
        free_lines(lines, n);
        if (peer_failed) return EXIT_USAGE;
    }
    /* (a run from elsewhere than the repository root measured nothing: not a success) */
    if (!found) return cli_error("bench", "no problem set found (the paths are relative: run it from the repository root)");
    return EXIT_OK;
}
