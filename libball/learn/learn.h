/* SPDX-License-Identifier: MIT */
/* The learning interface (ball.h, "Learning interface"; docs/learning.md):
 * what the action space, observation, symmetry and batch files share.
 * Everything works on `pos`, in the frame of the coach to act: for DEF the
 * rows are flipped (row r read as 18 - r), columns are kept. */
#ifndef BALL_LEARN_H
#define BALL_LEARN_H

#include <stdint.h>
#include "action.h"
#include "ball.h"
#include "geometry.h"
#include "position.h"

_Static_assert(BALL_INDEX_END == BALL_INDEX_PLANES * BALL_NUM_SQUARES, "index layout");
_Static_assert(BALL_INDEX_CARD == BALL_INDEX_END + 1 + BALL_MAX_PA, "index layout");
_Static_assert(BALL_ACTION_SPACE == BALL_INDEX_CARD + BALL_MAX_HAND, "index layout");
_Static_assert(BALL_ACTION_MASK_BYTES == (BALL_ACTION_SPACE + 7) / 8, "mask bytes");
_Static_assert(BALL_OBS_GRID_CELLS == BALL_NUM_ROWS * BALL_NUM_COLS, "grid");

/* LEARN_FRAME[side][sq]: square sq of the board in the frame of `side`
 * (ATK: itself; DEF: the square at row 18 - r, same column). Each half
 * is an involution. */
extern const uint8_t LEARN_FRAME[2][NSQ];
static inline int learn_frame_sq(int sq, int side) { return LEARN_FRAME[side][sq]; }
static inline int learn_flip_sq(int sq) { return LEARN_FRAME[DEF][sq]; }
/* The square at column 14 - c, same row: the left-right mirror. */
static inline int learn_mirror_sq(int sq)
{
    return (13 * (SQ_ROW[sq] - 1) + 13 - SQ_COL[sq]) >> 1;
}

/* LEARN_VECTOR[side][14 + to - from]: the movement code of the step from
 * `from` to `to` in the frame of `side`: 0-3 the diagonal steps d, 4 + v
 * the two-square vectors v (ball.h); -1 for no vector of R5.1. A vector
 * (dc, dr) changes the dense square index by (13 dr + dc) / 2 from every
 * square it is legal from, and the 12 vectors give 12 different changes,
 * so the difference of the squares names the vector. */
extern const int8_t LEARN_VECTOR[2][29];
/* LEARN_STEP_INDEX[side][14 + to - from]: LEARN_VECTOR times 111, the
 * first index of the plane of a step or jump (a negative value for no
 * vector). */
extern const int16_t LEARN_STEP_INDEX[2][29];
/* LEARN_PAIR[dU][dW]: the pair number 3 dU + (dW < dU ? dW : dW - 1) of a
 * release (ball.h, BALL_PLANE_RELEASE). */
extern const int8_t LEARN_PAIR[4][4];

static inline int learn_vector(int side, unsigned from, unsigned to)
{
    return LEARN_VECTOR[side][14 + (int)to - (int)from];
}

/* The index of a legal action of a position whose coach to act is `side`
 * (ball.h's layout). Only meaningful for legal actions: the vectors of
 * other values may read -1. */
static inline int learn_index_of(uint32_t a, int side)
{
    unsigned from = (a >> A_FROM_SHIFT) & A_SQ_MASK, to = (a >> A_TO_SHIFT) & A_SQ_MASK;
    unsigned opt = (a >> A_OPT_SHIFT) & A_SQ_MASK;
    const uint8_t *frame = LEARN_FRAME[side];
    int plane;
    switch (act_kind(a)) {
    case K_END: return BALL_INDEX_END;
    case K_CONVERT: return BALL_INDEX_END + act_value(a);
    case K_CARD: return BALL_INDEX_CARD + act_value(a); /* the hand index */
    case K_HANDOFF: return BALL_PLANE_HANDOFF * NSQ + frame[to];
    case K_SHORT_PASS: return BALL_PLANE_SHORT_PASS * NSQ + frame[to];
    case K_LONG_PASS: return BALL_PLANE_LONG_PASS * NSQ + frame[to];
    case K_DODGE: /* target T = to, exit E = opt */
        plane = BALL_PLANE_DODGE + (learn_vector(side, from, to) - 4) * 4 + learn_vector(side, to, opt);
        break;
    case K_TACTICAL: /* landing L = to, push P = opt, crossed square (from + to) / 2 */
        plane = BALL_PLANE_DODGE + (learn_vector(side, from, to) - 4) * 4
                + learn_vector(side, (from + to) >> 1, opt);
        break;
    case K_UNBLOCK:
    case K_UNPROTECT: /* U = to, W = opt */
        plane = BALL_PLANE_RELEASE
                + 2 * LEARN_PAIR[learn_vector(side, from, to)][learn_vector(side, from, opt)]
                + (act_keeper(a) == KEEP_LOWER);
        break;
    default: /* move, pickup, block, protection, stand-up */
        return LEARN_STEP_INDEX[side][14 + (int)to - (int)from] + frame[from];
    }
    return plane * NSQ + frame[from];
}

/* The legal action of index `index` into *out: 1, or 0 when none has it. */
int learn_decode(const pos *p, int index, uint32_t *out);
/* Writes the legal mask (bits: packed) of p; returns the legal count. */
int learn_mask(const pos *p, uint8_t *mask, int bits);
/* A short description of an index for messages ("plane 4 (jump) from G5"). */
void learn_describe_index(int index, int side, char *buf, size_t len);

/* Observation values written with `flags` (valid flags only). */
int learn_obs_size(int flags);
/* Writes the observation of p: floats (bits 0) or packed bits (bits 1).
 * The caller checked flags and the room (learn_obs_size values). */
void learn_obs_write(const pos *p, int flags, void *out, int bits);
/* The ball_terminal of p and its returns (ATK, DEF). */
int learn_returns(const pos *p, float returns[2]);

/* splitmix64 (docs/learning.md): the batch's random numbers. */
#define LEARN_GOLDEN 0x9E3779B97F4A7C15ull
static inline uint64_t learn_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint64_t learn_next(uint64_t *state)
{
    *state += LEARN_GOLDEN;
    return learn_mix(*state);
}

#endif
