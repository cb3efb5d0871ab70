/* SPDX-License-Identifier: MIT */
/* Legal-action generation (movegen.c): the decisions of the action phase
 * (R4-R8, R10) and of the release phase (R9, through release.h), listed,
 * counted, picked by index, drawn at random or split for perft. Works on
 * `pos` only. */
#ifndef BALL_MOVEGEN_H
#define BALL_MOVEGEN_H

#include <stdint.h>
#include "action.h"
#include "ball.h"
#include "draw_index.h"
#include "position.h"

/* Enough for any position. */
#define MAX_ACTIONS BALL_MAX_ACTIONS

/* All legal decisions of the position into out[MAX_ACTIONS] (out NULL:
 * only count them); 0 when the game is over. At turn BALL_MAX_TURN the
 * entry points below leave out the decisions that would hand the turn
 * over (turn_bound.h), all but gen_split(), which perft does not call
 * there. Never allocates. */
int gen_actions(const pos *p, uint32_t *out);
/* gen_actions(p, NULL): the number of legal decisions. */
int count_actions(const pos *p);
/* The action numbered `index` (from 0) in the order of gen_actions(), into
 * *action, without listing the others; 0 when there are not that many. */
int gen_action_at(const pos *p, int index, uint32_t *action);
/* perft's last-but-one ply: the decisions that change a square of
 * `touch` (and every decision of the pieces on it, the carrier's and
 * `end`) into out[MAX_ACTIONS], returning their number; *unlisted gets
 * the number of the other legal decisions. Action phase only. */
int gen_split(const pos *p, bb_t touch, uint32_t *out, int *unlisted);
/* gen_random_action() but for a forced `end`: the release phase's draw
 * or the action phase's, dispatched on the CPU like the generator. */
int draw_decision(const pos *p, uint64_t random, uint32_t *action);
/* gen_random_action() at turn BALL_MAX_TURN (draw_decision() checks it
 * too): from the list, which leaves out the decisions that would hand
 * the turn over (turn_bound.h). */
int bound_draw(const pos *p, uint64_t random, uint32_t *action);

/* The builds of the action-phase draw that draw_decision() chooses from,
 * one at a time, for tests/test_random_draw.c, which checks that they
 * agree: 1 and the drawn decision in *action, or 0 when this build of the
 * library or the CPU lacks that one. An ongoing action phase only. */
enum { DRAW_SCALAR, DRAW_AVX2, DRAW_AVX512, DRAW_BUILDS };
int draw_action_phase_with(int build, const pos *p, uint64_t random, uint32_t *action);

/* `end`, the one action without squares. */
#define END_ACTION ((uint32_t)K_END << A_KIND_SHIFT | A_NONE_SQ << A_FROM_SHIFT | A_NONE_SQ << A_TO_SHIFT \
                    | A_NONE_SQ << A_OPT_SHIFT)

/* 1 when `end` is the only legal decision of an ongoing game's action
 * phase: 0 PA left outside card mode (R4.3, R4.2) and no hand-off (R8.2:
 * none right after one, none by a restricted, inactive or absent
 * carrier, none without an active ally next to it). */
static inline int only_end(const pos *p)
{
    if (p->st.pa != 0 || p->st.phase != PHASE_ACTION || p->cards.on)
        return 0;
    if (p->st.handoff || p->st.restricted)
        return 1;
    bb_t allies = p->active[p->st.side];
    int c = p->st.ball;
    return !bb_has(allies, c) || !(SQ_NEIGHBOURS[c] & allies);
}

/* A legal action drawn with `random`: number floor(random * n / 2^64) of
 * the n legal actions, in an order of the generator's own that is cheaper
 * to walk than the list; 0 when there is none. 30% of the decisions of
 * random games are a forced `end` at 0 PA (docs/performance.md, "The
 * shape of the work"): told here, inline, from the flags and two
 * bitboards. */
static inline int gen_random_action(const pos *p, uint64_t random, uint32_t *action)
{
    if (p->st.result != ONGOING)
        return 0;
    if (only_end(p)) {
        if (__builtin_expect(p->st.turn >= BALL_MAX_TURN, 0)) /* turn_bound.h */
            return bound_draw(p, random, action);
        *action = END_ACTION;
        return 1;
    }
    return draw_decision(p, random, action);
}

#endif
