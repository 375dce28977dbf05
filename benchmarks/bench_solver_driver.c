/* Instruction-count driver for the C solver core (see bench_solver_instr.py).
 *
 * Reads positions, one a line: "set mode h0 h1 h2 leader trump side ntalon t0 t1 ...",
 * where set is a label; the table is cleared when the label changes (as the bench does
 * before each set).  Solves each (value solve, or "moves" sets with dd_solve_moves) and
 * prints per set: count, total nodes, checksum of the values.  Run under callgrind for
 * repeatable instruction counts; `--repeat N` repeats each set N times for timing.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ddcore.h"

#define MAXPOS 4096

typedef struct {
    char set[32];
    dd_position p;
} item;

static item items[MAXPOS];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s positions.txt [repeat [table_kb]]\n", argv[0]);
        return 2;
    }
    int repeat = argc > 2 ? atoi(argv[2]) : 1;
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    int n = 0;
    char line[512];
    while (n < MAXPOS && fgets(line, sizeof line, f)) {
        item *it = &items[n];
        memset(it, 0, sizeof *it);
        char *tok = strtok(line, " \n");
        if (!tok) continue;
        snprintf(it->set, sizeof it->set, "%s", tok);
        long v[32];
        int k = 0;
        while (k < 32 && (tok = strtok(NULL, " \n"))) v[k++] = strtol(tok, NULL, 10);
        if (k < 8) continue;
        it->p.mode = (int)v[0];
        it->p.hands[0] = (uint32_t)v[1];
        it->p.hands[1] = (uint32_t)v[2];
        it->p.hands[2] = (uint32_t)v[3];
        it->p.leader = (int)v[4];
        it->p.trump = (int)v[5];
        it->p.side = (int)v[6];
        it->p.ntalon = (int)v[7];
        for (int i = 0; i < it->p.ntalon && 8 + i < k; i++) it->p.talon[i] = (int8_t)v[8 + i];
        char msg[256];
        if (dd_validate(&it->p, msg, sizeof msg) != 0) {
            fprintf(stderr, "line %d: %s\n", n + 1, msg);
            return 2;
        }
        n++;
    }
    fclose(f);
    size_t table_kb = argc > 3 ? (size_t)atol(argv[3]) : 512;
    dd_solver *s = dd_new(table_kb << 10);
    int i = 0;
    while (i < n) {
        int j = i;
        while (j < n && strcmp(items[j].set, items[i].set) == 0) j++;
        int moves = strstr(items[i].set, "moves") != NULL;
        long sum = 0;
        double t0 = now();
        for (int r = 0; r < repeat; r++) {
            dd_clear(s);
            dd_reset_nodes(s);
            sum = 0;
            for (int k = i; k < j; k++) {
                if (moves) {
                    int8_t cards[16], vals[16];
                    int m = dd_solve_moves(s, &items[k].p, cards, vals);
                    for (int q = 0; q < m; q++) sum += vals[q] * (q + 1);
                } else {
                    sum += dd_solve(s, &items[k].p);
                }
            }
        }
        double dt = (now() - t0) / repeat;
        printf("%-12s %5d positions  %10.0f nodes/solve  checksum %ld  %.3f ms/solve\n",
               items[i].set, j - i, (double)dd_nodes(s) / (j - i), sum, dt * 1e3 / (j - i));
        i = j;
    }
    dd_free(s);
    return 0;
}
