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

/* The pair of the piece features of a top piece @p top in @p role
 * (ROLE_*: 2 * stacked + holds the ball; 4, a lower piece) from both
 * sides, without the offset. */
static uint32_t kind_pair(int code, int role)
{
    uint8_t c = (uint8_t)(code & 15);
    uint32_t f[2];
    for (int persp = 0; persp < 2; persp++) {
        int state = role == 4 ? nnue_piece_state(c, 0, 1, 0) : nnue_piece_state(c, role >> 1, 0, role & 1);
        f[persp] = (uint32_t)(NNUE_F_REL + nnue_piece_kind(persp, c, state) * NNUE_REL_OFFSETS);
    }
    return f[0] | f[1] << 16;
}

void nnue_rel_fill(struct nnue_rel *r)
{
    for (int code = 0; code < 256; code++) {
        for (int role = 0; role < 4; role++)
            r->top[role][code] = kind_pair(code, role);
        r->low[code] = kind_pair(code, 4);
    }
    for (int ball = 0; ball < BALL_NUM_SQUARES; ball++) {
        int off[2];
        r->window[ball] = 0;
        for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
            if (rel_offsets(ball, sq, off))
                r->window[ball] |= bb_bit(sq);
    }
}

/* The pair of offsets of square @p sq, in the window of a ball on
 * @p ball, from both sides (rel_offsets()). */
static inline uint32_t rel_pair(int ball, int sq)
{
    int dc = SQ_COL[sq] - SQ_COL[ball], dr = SQ_ROW[sq] - SQ_ROW[ball];
    return (uint32_t)((dr + REL_ROWS) * (2 * REL_COLS + 1) + dc + REL_COLS) |
           (uint32_t)((REL_ROWS - dr) * (2 * REL_COLS + 1) + dc + REL_COLS) << 16;
}

/* Square @p sq's features (top @p top, which is a piece, lower @p low),
 * within the window of the ball on @p ball, as pairs onto @p list
 * (@p n so far); their number (a side's). */
static inline int rel_cols(const struct nnue_rel *r, uint32_t *list, int *n, int sq, uint8_t top,
                           uint8_t low, int ball)
{
    uint32_t off = rel_pair(ball, sq);
    list[(*n)++] = r->top[(low != 0) * 2 + (ball == sq)][top] + off;
    if (low == 0)
        return 1;
    list[(*n)++] = r->low[low] + off;
    return 2;
}

/* Square @p sq's features (top @p top, lower @p low, the ball on
 * @p ball) onto the add (@p sign 1) or sub list of @p d, if it holds a
 * piece within the window; their number (a side's). */
static int rel_square(const struct nnue_rel *r, struct delta *d, int sq, uint8_t top, uint8_t low, int ball,
                      int sign)
{
    if (top == 0 || !bb_has(r->window[ball], sq))
        return 0;
    return sign > 0 ? rel_cols(r, d->add, &d->na, sq, top, low, ball)
                    : rel_cols(r, d->sub, &d->ns, sq, top, low, ball);
}

void nnue_rel_refresh(const struct nnue_rel *r, struct delta *d, const pos *p)
{
    int sq, ball = p->st.ball;
    /* only the pieces within the window: a few of the 14 */
    for (BB_EACH(sq, (p->piece[0] | p->piece[1]) & r->window[ball]))
        rel_cols(r, d->add, &d->na, sq, p->top[sq], p->low[sq], ball);
}

int nnue_rel_update(const struct nnue_rel *r, struct delta *d, const struct nnue_acc *a, const pos *p,
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
                rel_square(r, d, sq, a->top[sq], a->low[sq], a->ball, -1);
                rel_square(r, d, sq, p->top[sq], p->low[sq], p->st.ball, 1);
            } else if (!bb_has(now, sq)) {
                rel_square(r, d, sq, a->top[sq], a->low[sq], a->ball, -1);
            }
        }
    if (stayed)
        return 0;
    /* the ball moved: every old feature out (rel_square() skips an empty
     * square), every new one in */
    for (BB_EACH(sq, now)) {
        rel_square(r, d, sq, a->top[sq], a->low[sq], a->ball, -1);
        added += rel_square(r, d, sq, p->top[sq], p->low[sq], p->st.ball, 1);
    }
    return added;
}

/* The features of square @p sq (top @p top, lower @p low) seen from
 * @p persp with the ball on @p ball, its offset there @p off: at most 2.
 * Computed from the kinds directly, not from the tables of
 * nnue_rel_fill(): what a trainer reads (ball_net_features()), and a
 * second reading the tests compare the search's sums with. */
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
