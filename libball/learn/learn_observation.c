/* SPDX-License-Identifier: MIT */
/* The observation of the learning interface (ball.h, "Learning
 * interface"; docs/learning.md): spatial planes and scalar features of a
 * position seen by the coach to act, as floats or packed bits; and the
 * returns of a finished game. Every value is 0 or 1, so both variants
 * come from one writer. */
#include <string.h>

#include "game.h"
#include "learn.h"

#define OBS_FLAGS (BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES)
#define PE_CAP 1023u

int learn_obs_size(int flags)
{
    int cells = flags & BALL_OBS_GRID ? BALL_OBS_GRID_CELLS : NSQ;
    if (flags & BALL_OBS_SCALAR_PLANES)
        return (BALL_OBS_PLANES + BALL_OBS_SCALARS) * cells;
    return BALL_OBS_PLANES * cells + BALL_OBS_SCALARS;
}

/* Sets value i of the observation to 1. */
static inline void put_one(void *out, int bits, int i)
{
    if (bits)
        ((uint8_t *)out)[i >> 3] |= (uint8_t)(1u << (i & 7));
    else
        ((float *)out)[i] = 1.0f;
}

/* Sets values first ... first + n - 1 to 1. */
static void put_run(void *out, int bits, int first, int n)
{
    if (!bits) {
        float *f = (float *)out + first;
        for (int i = 0; i < n; i++)
            f[i] = 1.0f;
        return;
    }
    uint8_t *b = out;
    int i = first, end = first + n;
    for (; i < end && (i & 7); i++)
        b[i >> 3] |= (uint8_t)(1u << (i & 7));
    if (end - i >= 8) {
        memset(b + (i >> 3), 0xff, (size_t)((end - i) >> 3));
        i += (end - i) & ~7;
    }
    for (; i < end; i++)
        b[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The piece plane (ball.h, ball_obs_plane) of piece `code` at `level`
 * (0 alone or upper, 1 lower) seen by `side`. */
static inline int piece_plane(uint8_t code, int level, int side)
{
    return BALL_OBS_PIECES + level * 12 + (pc_team(code) != side) * 6 + (pc_type(code) - 1) * 2
           + pc_down(code);
}

/* The scalar features (ball.h, ball_obs_scalar) as bits of a word. */
static uint64_t scalar_features(const pos *p)
{
    int side = p->st.side, pa = p->st.pa;
    uint64_t f = 0;
    f |= (uint64_t)(side == DEF) << BALL_SCALAR_DEF;
    f |= (uint64_t)(p->st.phase == PHASE_RELEASE) << BALL_SCALAR_RELEASE;
    f |= (uint64_t)(p->st.handoff != 0) << BALL_SCALAR_HANDOFF;
    for (int i = 0; i < 4; i++)
        f |= (uint64_t)(pa >= i + 1) << (BALL_SCALAR_PA_AT_LEAST + i);
    f |= (uint64_t)(pa & 0x7f) << BALL_SCALAR_PA_BITS;
    if (p->turn_limit) {
        long long left = (long long)p->turn_limit - p->st.turn + 1;
        f |= 1ull << BALL_SCALAR_TURN_LIMIT;
        for (int i = 0; i < 7; i++)
            f |= (uint64_t)(left <= (1ll << i)) << (BALL_SCALAR_TURNS_LEFT + i);
    }
    f |= (uint64_t)(p->zone_depth >= 2) << BALL_SCALAR_ZONE;
    f |= (uint64_t)(p->zone_depth >= 3) << (BALL_SCALAR_ZONE + 1);
    if (p->cards.on) {
        uint32_t own = p->st.pe[side], other = p->st.pe[side ^ 1];
        f |= 1ull << BALL_SCALAR_CARDS;
        f |= (uint64_t)(own > PE_CAP ? PE_CAP : own) << BALL_SCALAR_PE_OWN;
        f |= (uint64_t)(other > PE_CAP ? PE_CAP : other) << BALL_SCALAR_PE_OTHER;
        f |= (uint64_t)(p->st.hand[side] & 0x1ff) << BALL_SCALAR_HAND_OWN;
        f |= (uint64_t)(p->st.hand[side ^ 1] & 0x1ff) << BALL_SCALAR_HAND_OTHER;
    }
    return f;
}

void learn_obs_write(const pos *p, int flags, void *out, int bits)
{
    int grid = (flags & BALL_OBS_GRID) != 0, side = p->st.side;
    int cells = grid ? BALL_OBS_GRID_CELLS : NSQ;
    int size = learn_obs_size(flags);
    memset(out, 0, bits ? (size_t)(size + 7) / 8 : (size_t)size * sizeof(float));
    /* A square's cell: the frame's dense index, or its grid cell, which is
     * twice that (13 (r - 1) + (c - 1) is even on a playable square). */
    int shift = grid;
    int sq;
    for (BB_EACH(sq, occupied(p))) {
        int cell = learn_frame_sq(sq, side) << shift;
        put_one(out, bits, piece_plane(p->top[sq], 0, side) * cells + cell);
        if (p->low[sq]) {
            put_one(out, bits, piece_plane(p->low[sq], 1, side) * cells + cell);
            if (is_fresh(p, sq))
                put_one(out, bits, BALL_OBS_FRESH * cells + cell);
        }
    }
    int ball = p->st.ball, cell = learn_frame_sq(ball, side) << shift;
    put_one(out, bits, BALL_OBS_BALL * cells + cell);
    if (!p->top[ball])
        put_one(out, bits, BALL_OBS_LOOSE_BALL * cells + cell);
    else if (p->st.restricted)
        put_one(out, bits, BALL_OBS_RESTRICTED * cells + cell);
    uint64_t f = scalar_features(p);
    int base = BALL_OBS_PLANES * cells;
    while (f) {
        int s = __builtin_ctzll(f);
        f &= f - 1;
        if (flags & BALL_OBS_SCALAR_PLANES)
            put_run(out, bits, base + s * cells, cells);
        else
            put_one(out, bits, base + s);
    }
}

int learn_returns(const pos *p, float returns[2])
{
    switch (p->st.result) {
    case ATK_WON: returns[ATK] = 1.0f; returns[DEF] = -1.0f; return BALL_TERMINAL_TOUCHDOWN;
    case DEF_WON: returns[ATK] = -1.0f; returns[DEF] = 1.0f; return BALL_TERMINAL_TOUCHDOWN;
    case DRAWN: returns[ATK] = returns[DEF] = 0.0f; return BALL_TERMINAL_TURN_LIMIT;
    default: returns[ATK] = returns[DEF] = 0.0f; return BALL_NOT_TERMINAL;
    }
}

/* ------------------------------------------------------------------ */
/* The public calls. */

int ball_observation_size(int flags)
{
    return flags & ~OBS_FLAGS ? BALL_E_ARG : learn_obs_size(flags);
}

int ball_observation(const ball_game *g, int flags, float *out, size_t len)
{
    if (!g || !out || (flags & ~OBS_FLAGS))
        return BALL_E_ARG;
    if (len < (size_t)learn_obs_size(flags))
        return BALL_E_BUFFER;
    learn_obs_write(&g->p, flags, out, 0);
    return BALL_OK;
}

int ball_observation_bits(const ball_game *g, int flags, uint8_t *out, size_t len)
{
    if (!g || !out || (flags & ~OBS_FLAGS))
        return BALL_E_ARG;
    if (len < (size_t)(learn_obs_size(flags) + 7) / 8)
        return BALL_E_BUFFER;
    learn_obs_write(&g->p, flags, out, 1);
    return BALL_OK;
}

int ball_returns(const ball_game *g, float *returns)
{
    if (!g)
        return BALL_E_ARG;
    float r[2];
    int kind = learn_returns(&g->p, r);
    if (returns) {
        returns[ATK] = r[ATK];
        returns[DEF] = r[DEF];
    }
    return kind;
}
