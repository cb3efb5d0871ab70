/* SPDX-License-Identifier: MIT */
/* The fixed action space of the learning interface (ball.h, "Learning
 * interface"; docs/learning.md): legal action <-> index, legal masks and
 * index lists. An index is plane * 111 + square in the frame of the coach
 * to act, then `end`, `pe+k` and card plays. */
#include <stdio.h>
#include <string.h>

#include "action.h"
#include "game.h"
#include "learn.h"
#include "movegen.h"
#include "notation.h"

const uint8_t LEARN_FRAME[2][NSQ] = {
    {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
        28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
        54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
        80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104,
        105, 106, 107, 108, 109, 110,
    },
    {   /* rows 17, 16, ..., 1 of the board */
        104, 105, 106, 107, 108, 109, 110, 98, 99, 100, 101, 102, 103, 91, 92, 93,
        94, 95, 96, 97, 85, 86, 87, 88, 89, 90, 78, 79, 80, 81, 82, 83,
        84, 72, 73, 74, 75, 76, 77, 65, 66, 67, 68, 69, 70, 71, 59, 60,
        61, 62, 63, 64, 52, 53, 54, 55, 56, 57, 58, 46, 47, 48, 49, 50,
        51, 39, 40, 41, 42, 43, 44, 45, 33, 34, 35, 36, 37, 38, 26, 27,
        28, 29, 30, 31, 32, 20, 21, 22, 23, 24, 25, 13, 14, 15, 16, 17,
        18, 19, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6,
    },
};

/* Square-index changes of the vectors: (+1,+1) +7, (-1,+1) +6, (+1,-1)
 * -6, (-1,-1) -7, twice those, (0,+2) +13, (0,-2) -13, (+2,0) +1,
 * (-2,0) -1. DEF's frame flips dr: codes 0 <-> 2, 1 <-> 3, 4 <-> 6,
 * 5 <-> 7, 8 <-> 9. */
const int8_t LEARN_VECTOR[2][29] = {
    /* change -14 ... +14 */
    {7, 9, 6, -1, -1, -1, -1, 3, 2, -1, -1, -1, -1, 11, -1, 10, -1, -1, -1, -1, 1, 0, -1, -1, -1, -1, 5, 8, 4},
    {5, 8, 4, -1, -1, -1, -1, 1, 0, -1, -1, -1, -1, 11, -1, 10, -1, -1, -1, -1, 3, 2, -1, -1, -1, -1, 7, 9, 6},
};

#define P(code) ((code) * NSQ)
#define NO (-1000)
const int16_t LEARN_STEP_INDEX[2][29] = {
    {P(7), P(9), P(6), NO, NO, NO, NO, P(3), P(2), NO, NO, NO, NO, P(11), NO, P(10), NO, NO, NO, NO,
     P(1), P(0), NO, NO, NO, NO, P(5), P(8), P(4)},
    {P(5), P(8), P(4), NO, NO, NO, NO, P(1), P(0), NO, NO, NO, NO, P(11), NO, P(10), NO, NO, NO, NO,
     P(3), P(2), NO, NO, NO, NO, P(7), P(9), P(6)},
};
#undef P
#undef NO

const int8_t LEARN_PAIR[4][4] = {
    {-1, 0, 1, 2},
    {3, -1, 4, 5},
    {6, 7, -1, 8},
    {9, 10, 11, -1},
};

int learn_decode(const pos *p, int index, uint32_t *out)
{
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts), side = p->st.side;
    for (int i = 0; i < n; i++)
        if (learn_index_of(acts[i], side) == index) {
            *out = acts[i];
            return 1;
        }
    return 0;
}

int learn_mask(const pos *p, uint8_t *mask, int bits)
{
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts), side = p->st.side;
    if (bits) {
        memset(mask, 0, BALL_ACTION_MASK_BYTES);
        for (int i = 0; i < n; i++) {
            int k = learn_index_of(acts[i], side);
            mask[k >> 3] |= (uint8_t)(1u << (k & 7));
        }
    }
    else {
        memset(mask, 0, BALL_ACTION_SPACE);
        for (int i = 0; i < n; i++)
            mask[learn_index_of(acts[i], side)] = 1;
    }
    return n;
}

static const char *const DIAGONAL[4] = {"(+1,+1)", "(-1,+1)", "(+1,-1)", "(-1,-1)"};
static const char *const JUMP[8] = {"(+2,+2)", "(-2,+2)", "(+2,-2)", "(-2,-2)",
                                    "(0,+2)", "(0,-2)", "(+2,0)", "(-2,0)"};

void learn_describe_index(int index, int side, char *buf, size_t len)
{
    if (index >= BALL_INDEX_CARD) {
        snprintf(buf, len, "card play, hand index %d", index - BALL_INDEX_CARD);
        return;
    }
    if (index > BALL_INDEX_END) {
        snprintf(buf, len, "pe+%d", index - BALL_INDEX_END);
        return;
    }
    if (index == BALL_INDEX_END) {
        snprintf(buf, len, "end");
        return;
    }
    int plane = index / NSQ;
    char name[4];
    square_format(learn_frame_sq(index % NSQ, side), name);
    if (plane < BALL_PLANE_JUMP)
        snprintf(buf, len, "plane %d: step %s from %s", plane, DIAGONAL[plane], name);
    else if (plane < BALL_PLANE_DODGE)
        snprintf(buf, len, "plane %d: jump %s from %s", plane, JUMP[plane - BALL_PLANE_JUMP], name);
    else if (plane < BALL_PLANE_RELEASE)
        snprintf(buf, len, "plane %d: dodge %s, option %s, from %s", plane,
                 JUMP[(plane - BALL_PLANE_DODGE) / 4], DIAGONAL[(plane - BALL_PLANE_DODGE) % 4], name);
    else if (plane < BALL_PLANE_HANDOFF)
        snprintf(buf, len, "plane %d: release of the stack on %s", plane, name);
    else
        snprintf(buf, len, "plane %d: %s to %s", plane,
                 plane == BALL_PLANE_HANDOFF ? "hand-off" : plane == BALL_PLANE_SHORT_PASS
                 ? "short pass" : "long pass", name);
}

/* ------------------------------------------------------------------ */
/* The public calls. */

int ball_action_to_index(ball_game *g, ball_action a)
{
    int refused = game_action_refused(g, a, "the game is over: no action has an index");
    if (refused != BALL_OK)
        return refused;
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(&g->p, acts);
    for (int i = 0; i < n; i++)
        if (acts[i] == a) {
            game_ok(g);
            return learn_index_of(a, g->p.st.side);
        }
    char text[ACTION_TEXT_MAX];
    action_format(a, text);
    return game_error(g, BALL_E_ILLEGAL, "%s is not legal in this position", text);
}

int ball_action_from_index(ball_game *g, int index, ball_action *out)
{
    if (!g)
        return BALL_E_ARG;
    if (!out)
        return game_error(g, BALL_E_ARG, "NULL output");
    if (index < 0 || index >= BALL_ACTION_SPACE)
        return game_error(g, BALL_E_RANGE, "action index %d out of range 0-%d", index,
                          BALL_ACTION_SPACE - 1);
    if (g->p.st.result != ONGOING)
        return game_error(g, BALL_E_ILLEGAL, "action index %d: the game is over", index);
    uint32_t a;
    if (!learn_decode(&g->p, index, &a)) {
        char what[96];
        learn_describe_index(index, g->p.st.side, what, sizeof what);
        return game_error(g, BALL_E_ILLEGAL, "action index %d (%s) is not legal in this position",
                          index, what);
    }
    *out = a;
    return game_ok(g);
}

int ball_legal_mask(ball_game *g, uint8_t *mask, size_t len, int flags)
{
    if (!g)
        return BALL_E_ARG;
    if (!mask)
        return game_error(g, BALL_E_ARG, "NULL mask");
    if (flags & ~BALL_MASK_BITS)
        return game_error(g, BALL_E_ARG, "unknown mask flags 0x%x", (unsigned)flags);
    size_t need = flags ? BALL_ACTION_MASK_BYTES : BALL_ACTION_SPACE;
    if (len < need)
        return game_error(g, BALL_E_BUFFER, "legal mask needs %zu bytes, buffer has %zu", need, len);
    game_ok(g);
    return learn_mask(&g->p, mask, flags);
}

int ball_legal_indices(ball_game *g, int32_t *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(&g->p, acts), side = g->p.st.side;
    if (!out && cap == 0) {
        game_ok(g);
        return n;
    }
    if (!out)
        return game_error(g, BALL_E_ARG, "NULL buffer with capacity %zu", cap);
    if ((size_t)n > cap)
        return game_error(g, BALL_E_BUFFER, "buffer holds %zu indices, %d needed", cap, n);
    for (int i = 0; i < n; i++) { /* insertion sort: a few dozen, mostly in order */
        int32_t k = learn_index_of(acts[i], side);
        int j = i;
        for (; j > 0 && out[j - 1] > k; j--)
            out[j] = out[j - 1];
        out[j] = k;
    }
    game_ok(g);
    return n;
}
