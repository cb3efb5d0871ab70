/* SPDX-License-Identifier: MIT */
/* Feature set 2's features relative to the ball (relative.h): who is near
 * the ball, which the piece-square features of set 1 cannot say (a
 * threat on the carrier, who reaches a loose ball). A piece's feature
 * depends on its square, its state and the ball's square: when the ball
 * stays, only the squares that changed swap theirs; when it moves, every
 * one changes. No allocation, no global state. */
#include "relative.h"
#include "game.h"
#include "geometry.h"
#include "bitboard.h"

/* Set 2's window around the ball: |dc| <= 4 columns, |dr| <= 3 rows. */
#define REL_COLS 4
#define REL_ROWS 3
_Static_assert((2 * REL_COLS + 1) * (2 * REL_ROWS + 1) == NNUE_REL_OFFSETS, "the window's size");

/* The offsets ((dr + 3) * 9 + dc + 4) of square @p sq from the ball's
 * square @p ball seen from ATK (off[0]) and DEF (off[1], the rows
 * mirrored: dr -> -dr); 0 when it is outside the window. */
static inline int rel_offsets(int ball, int sq, int off[2])
{
    int dc = SQ_COL[sq] - SQ_COL[ball], dr = SQ_ROW[sq] - SQ_ROW[ball];
    if (dc < -REL_COLS || dc > REL_COLS || dr < -REL_ROWS || dr > REL_ROWS)
        return 0;
    off[0] = (dr + REL_ROWS) * (2 * REL_COLS + 1) + dc + REL_COLS;
    off[1] = (REL_ROWS - dr) * (2 * REL_COLS + 1) + dc + REL_COLS;
    return 1;
}

/* The features of square @p sq (top @p top, lower @p low) seen from
 * @p persp with the ball on @p ball, its offset there @p off: at most 2. */
static int rel_square_side(int persp, int off, int sq, uint8_t top, uint8_t low, int ball,
                           uint16_t *out)
{
    int n = 0;
    out[n++] = (uint16_t)(NNUE_F_REL +
                          nnue_piece_kind(persp, top, nnue_piece_state(top, low != 0, 0, ball == sq)) *
                              NNUE_REL_OFFSETS + off);
    if (low != 0)
        out[n++] = (uint16_t)(NNUE_F_REL + nnue_piece_kind(persp, low, nnue_piece_state(low, 0, 1, 0)) *
                                               NNUE_REL_OFFSETS + off);
    return n;
}

/* Square @p sq's features (top @p top, lower @p low, the ball on
 * @p ball) as pairs of both sides' columns onto the add (@p sign 1) or
 * sub list of @p d; their number (a side's). */
static int rel_square(struct delta *d, int sq, uint8_t top, uint8_t low, int ball, int sign)
{
    int off[2], n = 0;
    uint16_t f[2][2];
    if (top == 0 || !rel_offsets(ball, sq, off))
        return 0;
    for (int persp = 0; persp < 2; persp++)
        n = rel_square_side(persp, off[persp], sq, top, low, ball, f[persp]);
    int *count = sign > 0 ? &d->na : &d->ns;
    uint32_t *list = sign > 0 ? d->add : d->sub;
    for (int i = 0; i < n; i++)
        list[(*count)++] = (uint32_t)f[0][i] | (uint32_t)f[1][i] << 16;
    return n;
}

void nnue_rel_refresh(struct delta *d, const pos *p)
{
    int sq;
    for (BB_EACH(sq, p->piece[0] | p->piece[1]))
        rel_square(d, sq, p->top[sq], p->low[sq], p->st.ball, 1);
}

int nnue_rel_update(struct delta *d, const struct nnue_acc *a, const pos *p,
                    const uint64_t changed[2])
{
    int sq, added = 0, stayed = p->st.ball == a->ball;
    bb_t now = p->piece[0] | p->piece[1];
    /* the changed squares (dense indices, not bitboard bits): when the
     * ball stayed, each swaps its features; when it moved, those that
     * held a piece before and hold none now go out here */
    for (int half = 0; half < 2; half++)
        for (uint64_t bits = changed[half]; bits != 0; bits &= bits - 1) {
            sq = half * 64 + __builtin_ctzll(bits);
            if (stayed) {
                rel_square(d, sq, a->top[sq], a->low[sq], a->ball, -1);
                rel_square(d, sq, p->top[sq], p->low[sq], p->st.ball, 1);
            } else if (!bb_has(now, sq)) {
                rel_square(d, sq, a->top[sq], a->low[sq], a->ball, -1);
            }
        }
    if (stayed)
        return 0;
    /* the ball moved: every old feature out (rel_square() skips an empty
     * square), every new one in */
    for (BB_EACH(sq, now)) {
        rel_square(d, sq, a->top[sq], a->low[sq], a->ball, -1);
        added += rel_square(d, sq, p->top[sq], p->low[sq], p->st.ball, 1);
    }
    return added;
}

int nnue_rel_features(const ball_game *game, int persp, uint16_t *out)
{
    const pos *p = &game->p;
    int sq, n = 0;
    for (BB_EACH(sq, p->piece[0] | p->piece[1])) {
        int off[2];
        if (rel_offsets(p->st.ball, sq, off))
            n += rel_square_side(persp, off[persp], sq, p->top[sq], p->low[sq], p->st.ball, out + n);
    }
    return n;
}
