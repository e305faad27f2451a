/* solve_json.c - an answer as `solve`'s JSON line: result, length, main line,
 * flaws, notes, the record's match, variations (nested by level), the proof
 * checker's verdict, nodes and time. */
#include <stdio.h>
#include <stdlib.h>
#include "solve_jobs.h"
#include "util.h"

/* An answer's opening, `{"sfen":"..."`: the position as solved (the input text when
 * it could not be read).  solve_render writes it, cmd_solve's resume looks for it. */
void solve_write_sfen_field(FILE *f, const Job *j) {
    char sfen[SFEN_MAX + 8];
    if (j->ok) sfen_format(&j->pos, sfen, sizeof sfen);
    fputs("{\"sfen\":", f);
    util_json_str(f, j->ok ? sfen : j->text);
}

/* `,"key":["usi",...]` */
static void write_moves(FILE *f, const char *key, const Move *moves, int n);

/* `,"refutations":[{"ply","move","reply","no_mate"|"no_mate_within"|"mates"|"undecided"}...]`
 * and the count of undecided ones, nodes and time. */
static void write_refutations(FILE *f, const TsRefutations *rs) {
    char mv[8], rp[8];
    fputs(",\"refutations\":[", f);
    for (int i = 0; i < rs->n; i++) {
        const TsRefutation *r = &rs->r[i];
        move_format(r->move, mv);
        fprintf(f, "%s{\"ply\":%d,\"move\":\"%s\",\"reply\":", i ? "," : "", r->ply, mv);
        if (r->mates) fprintf(f, "null,\"mates\":\"%s\"}", TS_REF_MATES_NAME[r->mates]);
        else if (r->reply == MOVE_NONE) fputs("null,\"undecided\":true}", f);
        else {
            move_format(r->reply, rp);
            if (r->within) fprintf(f, "\"%s\",\"no_mate_within\":%d}", rp, r->within);
            else fprintf(f, "\"%s\",\"no_mate\":true}", rp);
        }
    }
    fprintf(f, "],\"refutations_undecided\":%d", rs->undecided);
    if (rs->cut) fputs(",\"refutations_cut\":true", f);
    fprintf(f, ",\"refutation_nodes\":%llu,\"refutation_ms\":%.1f", (unsigned long long)rs->nodes, rs->ms);
}

/* `,"variations":[...]`: those of one line (parent -1: the main line); each whose
 * own were looked for (an exact mate above the depth) lists them inside it. */
static void write_variations(FILE *f, const TsVariations *vs, int parent) {
    static const char *const RES[] = {"unknown", "mate", "nomate"};
    fputs(",\"variations\":[", f);
    int any = 0;
    for (int i = 0; i < vs->n; i++) {
        const TsVariation *v = &vs->v[i];
        if (v->parent != parent) continue;
        fprintf(f, "%s{\"ply\":%d,\"result\":\"%s\",\"length\":%d,\"exact\":%s", any++ ? "," : "", v->ply,
                RES[v->result], v->length, v->exact ? "true" : "false");
        write_moves(f, "moves", v->moves, v->nmoves);
        if (v->exact) fprintf(f, ",\"leftover\":%d%s", v->leftover, v->leftover_unproved ? ",\"leftover_unproved\":true" : "");
        if (v->betsu_run) {  /* 変化別詰: its other checks that mate in the same plies */
            char mv[8];
            fputs(",\"henka_betsu\":[", f);
            for (int b = 0; b < v->nbetsu && b < TS_MAX_YOZUME; b++) {
                move_format(v->betsu[b].move, mv);
                fprintf(f, "%s{\"ply\":%d,\"move\":\"%s\",\"length\":%d}", b ? "," : "", v->betsu[b].ply, mv,
                        v->betsu[b].length);
            }
            fputc(']', f);
            if (v->nbetsu > TS_MAX_YOZUME) fprintf(f, ",\"henka_betsu_count\":%d", v->nbetsu);
            if (v->betsu_run == 2) fputs(",\"henka_betsu_cut\":true", f);
        }
        if (v->listed) write_variations(f, vs, i);
        fputc('}', f);
    }
    fputc(']', f);
}

static void write_moves(FILE *f, const char *key, const Move *moves, int n) {
    char mv[8];
    fprintf(f, ",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        move_format(moves[i], mv);
        fprintf(f, "%s\"%s\"", i ? "," : "", mv);
    }
    fputc(']', f);
}

void solve_render(Job *j) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    char mv[8];
    solve_write_sfen_field(f, j);
    if (!j->ok) {
        fputs(",\"result\":\"error\",\"error\":", f);
        util_json_str(f, j->err);
        fputs("}", f);
        fclose(f);
        j->json = buf;
        return;
    }
    const TsAnswer *a = &j->ans;
    static const char *const RES[] = {"unknown", "mate", "nomate"};
    fprintf(f, ",\"result\":\"%s\"", RES[a->result]);
    if (a->result == TS_MATE) {
        fprintf(f, ",\"length\":%d", a->length);
        if (!a->exact_length) fprintf(f, ",\"length_exact\":false,\"length_lb\":%d", a->length_lb);
        write_moves(f, "pv", a->pv, a->npv);
        if (a->nline) write_moves(f, "mate_line", a->line, a->nline);
        fprintf(f, ",\"perfect\":%s,\"flaws\":[", a->perfect ? "true" : "false");
        int nf = 0;
        if (a->nyozume) fprintf(f, "%s\"yozume\"", nf++ ? "," : "");
        if (a->npv && a->leftover && !a->leftover_unproved) fprintf(f, "%s\"leftover\"", nf++ ? "," : "");
        fputs("],\"yozume\":[", f);
        for (int i = 0; i < a->nyozume && i < TS_MAX_YOZUME; i++) {
            move_format(a->yozume[i].move, mv);
            fprintf(f, "%s{\"ply\":%d,\"move\":\"%s\",\"length\":%d}", i ? "," : "", a->yozume[i].ply, mv,
                    a->yozume[i].length);
        }
        fprintf(f, "],\"leftover\":%d", a->leftover);
        if (a->yozume_bound >= 0) fprintf(f, ",\"yozume_bound\":%d", a->yozume_bound);
    } else {
        fputs(",\"length\":0", f);
        if (a->length_lb > 1) fprintf(f, ",\"length_lb\":%d", a->length_lb);
        fputs(",\"pv\":[],\"perfect\":false,\"flaws\":[],\"yozume\":[]", f);
    }
    fputs(",\"notes\":[", f);
    for (int i = 0; i < a->nnotes; i++) {
        if (i) fputc(',', f);
        util_json_str(f, a->notes[i]);
    }
    if (a->notes_cut)  /* (the notes past the cap, counted, never dropped in silence) */
        fprintf(f, "%s\"" TS_NOTES_CUT_FMT "\"", a->nnotes ? "," : "", a->notes_cut, TS_MAX_NOTES);
    fputc(']', f);
    if (j->nrec) {
        int match = j->nrec == a->npv;
        for (int i = 0; match && i < a->npv; i++) match = j->rec[i] == a->pv[i];
        fprintf(f, ",\"record_length\":%d,\"record_match\":%s", j->nrec, match ? "true" : "false");
    }
    if (j->vars.run) {
        write_variations(f, &j->vars, -1);
        if (j->vars.cut) fputs(",\"variations_cut\":true", f);
        fprintf(f, ",\"variation_nodes\":%llu,\"variation_ms\":%.1f", (unsigned long long)j->vars.nodes, j->vars.ms);
    }
    if (j->refs.run) write_refutations(f, &j->refs);
    if (a->verified >= 0) {
        static const char *const V[] = {"false", "true", "\"undecided\""};
        fprintf(f, ",\"verified\":%s", V[a->verified]);
        if (a->verified != 1) { fputs(",\"verify_msg\":", f); util_json_str(f, a->verify_msg); }
    }
    fprintf(f, ",\"nodes\":%llu,\"ms\":%.1f}", (unsigned long long)a->nodes, a->ms);
    fclose(f);
    j->json = buf;
}
