/* Double-dummy solver core for Preferans (three hands, 32-card pack).
 *
 * Pure C11, no Python.  Card index = suit * 8 + rank (suits S C D H = 0..3,
 * ranks 7..A = 0..7); a hand is a 32-bit mask.
 *
 * Every mode is a two-team game about the tricks of one "counted" seat:
 *   contract: the declarer (counted) maximises its tricks, the others minimise;
 *   misere:   the declarer (counted) minimises its tricks, the others maximise;
 *   allpass:  the chosen player (counted) minimises, the others maximise.
 * Values are tricks of the counted seat from the current trick on.
 */
#ifndef PREFERANS_DDCORE_H
#define PREFERANS_DDCORE_H

#include <stddef.h>
#include <stdint.h>

enum { DD_CONTRACT = 0, DD_MISERE = 1, DD_ALLPASS = 2 };
#define DD_NOTRUMP 4
#define DD_MAX_TALON 10
#define DD_MAX_HAND 10

typedef struct {
    uint32_t hands[3];
    int8_t trick[3]; /* cards on the table, leader's first */
    int ntrick;      /* 0..2 */
    int leader;      /* 0..2 */
    int trump;       /* 0..3 or DD_NOTRUMP */
    int mode;        /* DD_CONTRACT, DD_MISERE, DD_ALLPASS */
    int side;        /* declarer or all-pass player, 0..2 */
    int8_t talon[DD_MAX_TALON]; /* all-pass: suits of the next talon-led tricks */
    int ntalon;
} dd_position;

typedef struct dd_solver dd_solver;

/* A solver owns its transposition table; use one per thread. */
dd_solver *dd_new(size_t table_bytes);
void dd_free(dd_solver *s);
int dd_resize(dd_solver *s, size_t table_bytes); /* 0 ok, -1 out of memory */
size_t dd_table_bytes(const dd_solver *s);
void dd_clear(dd_solver *s);

/* Checks a position; returns 0 when it is fine, else -1 and a message. */
int dd_validate(const dd_position *p, char *msg, size_t msglen);

/* The functions below assume a validated position. */
int dd_solve(dd_solver *s, const dd_position *p);
/* Every legal card of the seat to move and the value after it; returns the count. */
int dd_solve_moves(dd_solver *s, const dd_position *p, int8_t *cards, int8_t *values);
/* Zero-window test: 1 when the counted seat's value is at least target. */
int dd_test(dd_solver *s, const dd_position *p, int target);
/* 1 when the counted seat takes no trick with best play, else 0. */
int dd_takes_none(dd_solver *s, const dd_position *p);
/* 1 when the solver runs the BMI2 copy of the search, 0 for the generic one (see ddcore.c). */
int dd_variant(const dd_solver *s);

uint64_t dd_nodes(const dd_solver *s);
void dd_reset_nodes(dd_solver *s);

#endif
