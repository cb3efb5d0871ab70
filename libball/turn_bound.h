/* SPDX-License-Identifier: MIT */
/* The turn counter's bound (N1, "Clarification (turn)" of docs/spec.md;
 * docs/rules-choices.md): at turn BALL_MAX_TURN a decision that would
 * hand the turn over, to a turn number BPN cannot write, is refused, so
 * the generator (movegen.c) leaves it out of every list, count, pick and
 * draw. Works on `pos` only: the hand-over is told from the position
 * (R9.1, R9.5, R11.1) without playing the decision, so this file sits
 * beside release.c, below play.c. */
#ifndef BALL_TURN_BOUND_H
#define BALL_TURN_BOUND_H

#include <stdint.h>
#include "ball.h"
#include "position.h"

/* 1 at the last turn BPN can write, where bound_keep() must filter. */
static inline int at_turn_bound(const pos *p)
{
    return __builtin_expect(p->st.turn >= BALL_MAX_TURN, 0);
}

/* 1 when the decision `a`, legal by the rules in the ongoing position p,
 * hands the turn over: `end` with no release task that has a solution,
 * or a release-phase decision after which no task has one and no
 * touchdown is scored. */
int hands_over(const pos *p, uint32_t a);

/* Keeps, in order, the decisions of acts[0 .. n-1] (legal by the rules
 * in p) that do not hand the turn over; returns how many are kept. */
int bound_keep(const pos *p, uint32_t *acts, int n);

#endif
