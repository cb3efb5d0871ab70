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

#define A_NONE_SQ 127u

enum {
    K_MOVE = 1, K_DODGE, K_TACTICAL, K_BLOCK, K_PROTECT, K_HANDOFF,
    K_SHORT_PASS, K_LONG_PASS, K_END, K_STAND_UP, K_UNBLOCK, K_UNPROTECT,
    K_CONVERT, K_CARD, K_LAST = K_CARD
};
enum { F_PICKUP = 1, F_FORCED_FUMBLE = 2, F_FUMBLE = 4 };
enum { KEEP_NONE = 0, KEEP_UPPER = 1, KEEP_LOWER = 2 };

static inline uint32_t act_make(int kind, int from, int to, int opt, int keeper, int flags)
{
    uint32_t f = from < 0 ? A_NONE_SQ : (uint32_t)from;
    uint32_t t = to < 0 ? A_NONE_SQ : (uint32_t)to;
    uint32_t o = opt < 0 ? A_NONE_SQ : (uint32_t)opt;
    return f | t << 7 | o << 14 | (uint32_t)kind << 21 | (uint32_t)keeper << 25
           | (uint32_t)flags << 27;
}
/* act_make() for squares known to be valid (A_NONE_SQ for none): no
 * branches, for the generator's inner loops. */
static inline uint32_t act_pack(int kind, unsigned from, unsigned to, unsigned opt, int flags)
{
    return from | to << 7 | opt << 14 | (uint32_t)kind << 21 | (uint32_t)flags << 27;
}

static inline int act_kind(uint32_t a) { return (int)((a >> 21) & 15); }
static inline int act_sq(uint32_t a, int shift)
{
    uint32_t s = (a >> shift) & 127;
    return s == A_NONE_SQ ? -1 : (int)s;
}
static inline int act_from(uint32_t a) { return act_sq(a, 0); }
static inline int act_to(uint32_t a) { return act_sq(a, 7); }
static inline int act_opt(uint32_t a) { return act_sq(a, 14); }
/* The number of K_CONVERT / K_CARD actions (stored in the `to` bits). */
static inline int act_value(uint32_t a) { return (int)((a >> 7) & 127); }
static inline int act_has_value(uint32_t a)
{
    return act_kind(a) == K_CONVERT || act_kind(a) == K_CARD;
}
static inline int act_keeper(uint32_t a) { return (int)((a >> 25) & 3); }
static inline int act_flags(uint32_t a) { return (int)((a >> 27) & 7); }

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
