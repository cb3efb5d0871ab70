/* SPDX-License-Identifier: MIT */
/* Feature set 2's features relative to the ball (docs/network-format.md,
 * "Feature set 2"): every piece (top or lower of a stack) whose square is
 * within 4 columns and 3 rows of the ball's square, seen from each
 * coach's side (DEF's rows mirrored as in set 1), has the feature
 *
 *   NNUE_F_REL + ((owner * 3 + type - 1) * 7 + state) * 63 + (dr + 3) * 9 + (dc + 4)
 *
 * with (dc, dr) its column and row less the ball's (SQ_COL, SQ_ROW) and
 * owner, type and state as set 1's. nnue.c adds them to a side's sums
 * through one call in refresh() and one in update(), only for a net of
 * feature set 2: a set-1 net pays one branch. */
#ifndef BALL_NNUE_RELATIVE_H
#define BALL_NNUE_RELATIVE_H

#include "nnue.h"
#include "position.h"
#include "bitboard.h"

/* Pairs of columns an update adds, or takes, at most: each feature of a
 * position once (changes() visits a square once; a moved ball takes
 * every old relative feature out and puts every new one in), and two
 * more that square_cols() writes past the end. */
#define NNUE_MAX_DELTA (NNUE_MAX_ACTIVE_2 + 2)

/* The columns to add to both sides' sums and to take from them, in
 * pairs: the column of ATK's side in the low 16 bits, DEF's in the high
 * (a feature has the same count from both sides: set 2's window is
 * symmetric in rows, so a piece is inside it from both or from neither).
 * An internal name of nnue.c's. */
struct delta {
    int na, ns;
    uint32_t add[NNUE_MAX_DELTA], sub[NNUE_MAX_DELTA];
};

/* The state of a piece (nnue.h): @p upper 1 for a stack's upper piece,
 * @p lower 1 for its lower one. */
static inline int nnue_piece_state(uint8_t code, int upper, int lower, int has_ball)
{
    if (lower)
        return pc_down(code) ? 6 : 5;
    if (upper)
        return has_ball ? 4 : 3;
    if (pc_down(code))
        return 2;
    return has_ball ? 1 : 0;
}

/* The kind of a piece seen from @p persp, in both feature sets:
 * (owner * 3 + type - 1) * 7 + state, owner 0 for @p persp's own piece. */
static inline int nnue_piece_kind(int persp, uint8_t code, int state)
{
    return ((pc_team(code) != persp) * 3 + pc_type(code) - 1) * 7 + state;
}

/* What the relative features are made of, laid out at load
 * (nnue_rel_fill()) so that a piece's pair of columns is one table
 * look-up plus its offset: top[role][code] is NNUE_F_REL + kind * 63 of
 * a top piece of that byte in that role (2 * stacked + holds the ball)
 * from ATK's side (low 16 bits) and DEF's (high), low[code] the same for
 * a stack's lower piece; window[b] the squares within the window of a
 * ball on square b (bitboard bits). Read-only after the load. */
struct nnue_rel {
    uint32_t top[4][256], low[256];
    bb_t window[BALL_NUM_SQUARES];
};

/* Fills @p r (the network's own copy: no global state). */
void nnue_rel_fill(struct nnue_rel *r);

/* Every relative feature of @p p, both sides' as pairs, onto the add
 * list of @p d. */
void nnue_rel_refresh(const struct nnue_rel *r, struct delta *d, const pos *p);

/* The relative features that changed from @p a's remembered position to
 * @p p, onto @p d: the squares of @p changed (bits of squares 0-63, then
 * 64-110) when the ball stayed on its square; when it moved, every old
 * feature out and every new one in. Returns the number of features put
 * in a side for a moved ball (what a refresh would add too), else 0. */
int nnue_rel_update(const struct nnue_rel *r, struct delta *d, const struct nnue_acc *a, const pos *p,
                    const uint64_t changed[2]);

#endif
