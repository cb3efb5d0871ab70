/* SPDX-License-Identifier: MIT */
/* The random draw (movegen_draw.c): a legal decision drawn at random
 * without listing the others, the quick cases inline. Above the generator
 * (movegen.h), whose list it draws from at the turn bound. Works on `pos`
 * only. */
#ifndef BALL_MOVEGEN_DRAW_H
#define BALL_MOVEGEN_DRAW_H

#include "movegen.h"

/* gen_random_action() but for a forced `end`: the release phase's draw
 * or the action phase's, dispatched on the CPU like the generator. */
int draw_decision(const pos *p, uint64_t random, uint32_t *action);
/* gen_random_action() at turn BALL_MAX_TURN (draw_decision() checks it
 * too): from the list, which leaves out the decisions that would hand
 * the turn over (turn_bound.h). */
int bound_draw(const pos *p, uint64_t random, uint32_t *action);

/* The builds of the action-phase draw that draw_decision() chooses from,
 * one at a time, for tests/rules/test_random_draw.c, which checks that they
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
