/* SPDX-License-Identifier: MIT */
/* The encoding of ball_action (see ball.h): one 32-bit integer per
 * decision, built and read only here.
 *   bits  0-6  from square   (127: none)
 *   bits  7-13 to square     (127: none); for K_CONVERT and K_CARD the
 *              number k of `pe+k` or the card's hand index instead
 *   bits 14-20 option square (127: none)
 *   bits 21-24 kind (ball_action_kind, never 0, so no action is 0)
 *   bits 25-26 keeper
 *   bits 27-29 flags */
#ifndef BALL_ACTION_H
#define BALL_ACTION_H

#include <stdint.h>
#include "ball.h"

/* The fields' positions; `to` doubles as the number of K_CONVERT / K_CARD. */
#define A_FROM_SHIFT 0
#define A_TO_SHIFT 7
#define A_OPT_SHIFT 14
#define A_KIND_SHIFT 21
#define A_KEEPER_SHIFT 25
#define A_FLAGS_SHIFT 27
#define A_SQ_MASK 127u
/* One unit of the `to` and option fields: base + sq * A_TO_UNIT writes sq. */
#define A_TO_UNIT (1u << A_TO_SHIFT)
#define A_OPT_UNIT (1u << A_OPT_SHIFT)

/* A square field that holds no square: the public "no square" itself. */
#define A_NONE_SQ ((uint32_t)BALL_NO_SQUARE)
_Static_assert(BALL_NO_SQUARE == A_SQ_MASK, "no-square value must fill its field");

/* The engine's codes are the public ones (ball.h), under short names. */
enum {
    K_MOVE = BALL_MOVE, K_DODGE = BALL_DODGE, K_TACTICAL = BALL_TACTICAL_DODGE,
    K_BLOCK = BALL_BLOCK, K_PROTECT = BALL_PROTECT, K_HANDOFF = BALL_HANDOFF,
    K_SHORT_PASS = BALL_SHORT_PASS, K_LONG_PASS = BALL_LONG_PASS, K_END = BALL_END,
    K_STAND_UP = BALL_STAND_UP, K_UNBLOCK = BALL_UNBLOCK, K_UNPROTECT = BALL_UNPROTECT,
    K_CONVERT = BALL_CONVERT_PA, K_CARD = BALL_PLAY_CARD, K_LAST = K_CARD
};
enum { F_PICKUP = BALL_FLAG_PICKUP, F_FORCED_FUMBLE = BALL_FLAG_FORCED_FUMBLE, F_FUMBLE = BALL_FLAG_FUMBLE };
enum { KEEP_NONE = BALL_KEEPER_NONE, KEEP_UPPER = BALL_KEEPER_UPPER, KEEP_LOWER = BALL_KEEPER_LOWER };

static inline uint32_t act_make(int kind, int from, int to, int opt, int keeper, int flags)
{
    uint32_t f = from < 0 ? A_NONE_SQ : (uint32_t)from;
    uint32_t t = to < 0 ? A_NONE_SQ : (uint32_t)to;
    uint32_t o = opt < 0 ? A_NONE_SQ : (uint32_t)opt;
    return f << A_FROM_SHIFT | t << A_TO_SHIFT | o << A_OPT_SHIFT | (uint32_t)kind << A_KIND_SHIFT
           | (uint32_t)keeper << A_KEEPER_SHIFT | (uint32_t)flags << A_FLAGS_SHIFT;
}
/* act_make() for squares known to be valid (A_NONE_SQ for none): no
 * branches, for the generator's inner loops. */
static inline uint32_t act_pack(int kind, unsigned from, unsigned to, unsigned opt, int flags)
{
    return from << A_FROM_SHIFT | to << A_TO_SHIFT | opt << A_OPT_SHIFT | (uint32_t)kind << A_KIND_SHIFT
           | (uint32_t)flags << A_FLAGS_SHIFT;
}

static inline int act_kind(uint32_t a) { return (int)((a >> A_KIND_SHIFT) & 15); }
/* A square field; -1 (NO_SQ) for none. */
static inline int act_sq(uint32_t a, int shift)
{
    uint32_t s = (a >> shift) & A_SQ_MASK;
    return s == A_NONE_SQ ? -1 : (int)s;
}
static inline int act_from(uint32_t a) { return act_sq(a, A_FROM_SHIFT); }
static inline int act_to(uint32_t a) { return act_sq(a, A_TO_SHIFT); }
static inline int act_opt(uint32_t a) { return act_sq(a, A_OPT_SHIFT); }
/* The number of K_CONVERT / K_CARD actions (stored in the `to` bits). */
static inline int act_value(uint32_t a) { return (int)((a >> A_TO_SHIFT) & A_SQ_MASK); }
static inline int act_has_value(uint32_t a)
{
    return act_kind(a) == K_CONVERT || act_kind(a) == K_CARD;
}
static inline int act_keeper(uint32_t a) { return (int)((a >> A_KEEPER_SHIFT) & 3); }
static inline int act_flags(uint32_t a) { return (int)((a >> A_FLAGS_SHIFT) & 7); }

/* 1 when the bits form a well-shaped action (any position). */
int act_well_formed(uint32_t a);
/* R4.3 cost in PA: 1 for a move, dodge, tactical dodge, block,
 * protection or short pass, 2 for a long pass, k for `pe+k`, 0 for the
 * rest (hand-off, end, cards, release-phase decisions). */
static inline int act_cost(uint32_t a)
{
    static const uint8_t cost[16] = {
        [K_MOVE] = 1, [K_DODGE] = 1, [K_TACTICAL] = 1, [K_BLOCK] = 1, [K_PROTECT] = 1,
        [K_SHORT_PASS] = 1, [K_LONG_PASS] = 2,
    };
    return act_kind(a) == K_CONVERT ? act_value(a) : cost[act_kind(a)];
}

#endif
