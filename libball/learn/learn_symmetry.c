/* SPDX-License-Identifier: MIT */
/* The left-right mirror symmetry of the learning interface (ball.h,
 * "Learning interface"; docs/learning.md): column c <-> column 14 - c, on
 * action indices and on observations. The rules do not tell left from
 * right, so the mirrored decisions of a position are the decisions of the
 * mirrored position. In the frame of the coach to act (rows flipped for
 * DEF) the mirror is the same, since it keeps rows. */
#include <string.h>

#include "learn.h"

/* Mirror of a diagonal direction d (ball.h): (+1, r) <-> (-1, r). */
static inline int mirror_diagonal(int d) { return d ^ 1; }
/* Mirror of a two-square vector v: the diagonal ones as above, (0, +-2)
 * fixed, (+2, 0) <-> (-2, 0). */
static inline int mirror_jump(int v) { return v == 4 || v == 5 ? v : v ^ 1; }

static int mirror_plane(int plane)
{
    if (plane < BALL_PLANE_JUMP)
        return BALL_PLANE_STEP + mirror_diagonal(plane - BALL_PLANE_STEP);
    if (plane < BALL_PLANE_DODGE)
        return BALL_PLANE_JUMP + mirror_jump(plane - BALL_PLANE_JUMP);
    if (plane < BALL_PLANE_RELEASE) {
        int q = plane - BALL_PLANE_DODGE;
        return BALL_PLANE_DODGE + mirror_jump(q / 4) * 4 + mirror_diagonal(q % 4);
    }
    if (plane < BALL_PLANE_HANDOFF) {
        int q = plane - BALL_PLANE_RELEASE, pair = q / 2, lower = q % 2;
        int du = pair / 3, j = pair % 3, dw = j + (j >= du);
        du = mirror_diagonal(du);
        dw = mirror_diagonal(dw);
        return BALL_PLANE_RELEASE + (du * 3 + (dw < du ? dw : dw - 1)) * 2 + lower;
    }
    return plane; /* hand-off and passes: only the square moves */
}

int ball_index_mirror(int index)
{
    if (index < 0 || index >= BALL_ACTION_SPACE)
        return BALL_E_RANGE;
    if (index >= BALL_INDEX_END)
        return index;
    return mirror_plane(index / NSQ) * NSQ + learn_mirror_sq(index % NSQ);
}

/* The cell pairs (a < b) that the mirror swaps in one plane of the
 * layout, into pairs; returns their number (102 on the grid, 51 on the
 * squares). */
#define MAX_PAIRS (BALL_NUM_ROWS * (BALL_NUM_COLS / 2))
static int mirror_pairs(int grid, uint8_t pairs[MAX_PAIRS][2])
{
    int n = 0;
    if (grid) {
        for (int row = 0; row < BALL_NUM_ROWS; row++)
            for (int col = 0; col < BALL_NUM_COLS / 2; col++) {
                pairs[n][0] = (uint8_t)(row * BALL_NUM_COLS + col);
                pairs[n++][1] = (uint8_t)(row * BALL_NUM_COLS + BALL_NUM_COLS - 1 - col);
            }
        return n;
    }
    for (int a = 0; a < NSQ; a++) {
        int b = learn_mirror_sq(a);
        if (b > a) {
            pairs[n][0] = (uint8_t)a;
            pairs[n++][1] = (uint8_t)b;
        }
    }
    return n;
}

#define OBS_FLAGS (BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES)

/* The number of planes whose cells move: every plane, scalar planes
 * included (constant, so moving them changes nothing). */
static int mirrored_planes(int flags)
{
    return flags & BALL_OBS_SCALAR_PLANES ? BALL_OBS_PLANES + BALL_OBS_SCALARS : BALL_OBS_PLANES;
}

int ball_observation_mirror(int flags, const float *in, float *out, size_t len)
{
    if (!in || !out || (flags & ~OBS_FLAGS))
        return BALL_E_ARG;
    int size = learn_obs_size(flags);
    if (len < (size_t)size)
        return BALL_E_BUFFER;
    if (in != out)
        memmove(out, in, (size_t)size * sizeof *out);
    int grid = (flags & BALL_OBS_GRID) != 0, cells = grid ? BALL_OBS_GRID_CELLS : NSQ;
    int planes = mirrored_planes(flags);
    uint8_t pairs[MAX_PAIRS][2];
    int npairs = mirror_pairs(grid, pairs);
    for (int p = 0; p < planes; p++) {
        float *plane = out + p * cells;
        for (int k = 0; k < npairs; k++) {
            float t = plane[pairs[k][0]];
            plane[pairs[k][0]] = plane[pairs[k][1]];
            plane[pairs[k][1]] = t;
        }
    }
    return BALL_OK;
}

static inline int get_bit(const uint8_t *b, int i) { return b[i >> 3] >> (i & 7) & 1; }

int ball_observation_bits_mirror(int flags, const uint8_t *in, uint8_t *out, size_t len)
{
    if (!in || !out || (flags & ~OBS_FLAGS))
        return BALL_E_ARG;
    int size = learn_obs_size(flags);
    size_t bytes = (size_t)(size + 7) / 8;
    if (len < bytes)
        return BALL_E_BUFFER;
    if (in != out)
        memmove(out, in, bytes);
    int grid = (flags & BALL_OBS_GRID) != 0, cells = grid ? BALL_OBS_GRID_CELLS : NSQ;
    int planes = mirrored_planes(flags);
    uint8_t pairs[MAX_PAIRS][2];
    int npairs = mirror_pairs(grid, pairs);
    for (int p = 0; p < planes; p++) {
        int base = p * cells;
        for (int k = 0; k < npairs; k++) {
            int i = base + pairs[k][0], j = base + pairs[k][1];
            if (get_bit(out, i) != get_bit(out, j)) { /* a swap of two different bits flips both */
                out[i >> 3] ^= (uint8_t)(1u << (i & 7));
                out[j >> 3] ^= (uint8_t)(1u << (j & 7));
            }
        }
    }
    return BALL_OK;
}
