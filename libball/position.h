/* SPDX-License-Identifier: MIT */
/* The game state (R3, R4, N1): a fixed-size value with no pointers, so a
 * copy is a clone. Squares hold a piece code in `top` (the only piece, or
 * the upper piece of a stack) and in `low` (the lower piece of a stack).
 * The ball is a square number: it is held by the top piece there, or loose
 * when that square has no piece (R3.3). */
#ifndef BALL_POSITION_H
#define BALL_POSITION_H

#include <stddef.h>
#include <stdint.h>
#include "ball.h"
#include "bitboard.h"
#include "geometry.h"
#include "hash.h"

/* The engine's codes are the public ones (ball.h) under short names: a
 * piece code is what ball_piece() returns, less the bits it adds. */
enum {
    PC_TYPE = BALL_PIECE_TYPE_MASK, /* 1 X, 2 O, 3 S */
    PC_DEF = BALL_PIECE_DEF,        /* team bit: 0 ATK, 1 DEF */
    PC_DOWN = BALL_PIECE_DOWN       /* knocked down */
};
enum { TYPE_X = BALL_X, TYPE_O = BALL_O, TYPE_S = BALL_SQUARE };
enum { ATK = BALL_ATK, DEF = BALL_DEF };
enum { PHASE_ACTION = BALL_PHASE_ACTION, PHASE_RELEASE = BALL_PHASE_RELEASE };
enum { ONGOING = BALL_ONGOING, ATK_WON = BALL_ATK_WON, DEF_WON = BALL_DEF_WON, DRAWN = BALL_DRAW };

/* Card mode (R10): constant for a game, compact for generation. */
#define HAND_MAX BALL_MAX_HAND
#define EARN_COUNT BALL_EARN_COUNT
#define PE_MAX ((uint32_t)BALL_MAX_PE)
/* Card mode: PA never exceed 99 (gain-PA cards saturate there), so that
 * BPN's PA field and BALL_MAX_ACTIONS's bound on `pe+k` hold. */
#define MAX_PA BALL_MAX_PA
enum { EFFECT_GAIN_PA = BALL_EFFECT_GAIN_PA, EFFECT_UNRESTRICT = BALL_EFFECT_UNRESTRICT };
typedef struct card_def {
    uint16_t cost;
    uint8_t effect;
    uint8_t amount;
} card_def;
typedef struct card_rules {
    uint8_t on;
    uint8_t hand_size[2];
    uint16_t earn[EARN_COUNT];
    card_def hand[2][HAND_MAX];
} card_rules;

/* The part of the state that an undo record saves. The fields before
 * `fresh` are all that the commonest decisions (moves, passes, hand-offs)
 * change: they sit in the first POS_HOT_BYTES, which is all such a
 * decision saves and restores (play.h). */
typedef struct pos_state {
    uint64_t board_hash; /* XOR of square_key() over all squares */
    int8_t ball;        /* square of the ball */
    uint8_t side;       /* coach to act */
    uint8_t phase;
    uint8_t pa;
    uint8_t handoff;    /* last action of this phase was a hand-off (R8.2) */
    uint8_t restricted; /* the ball carrier is restricted (R4.4) */
    uint8_t result;
    bb_t fresh;         /* stacks made this turn (R7.4) */
    uint32_t turn;
    uint32_t pe[2];     /* card mode: PE per team (R10.1) */
    uint16_t hand[2];   /* card mode: bit i = hand index i not played yet */
} pos_state;
#define POS_HOT_BYTES 16
_Static_assert(offsetof(pos_state, fresh) == POS_HOT_BYTES, "the hot fields fill the first 16 bytes");

typedef struct pos {
    pos_state st;
    uint8_t top[NSQ];
    uint8_t low[NSQ];
    /* Bitboards derived from top/low, kept in step by sq_set(): */
    bb_t piece[2];  /* top piece (the only or the upper one) of team t */
    bb_t active[2]; /* active pieces of team t (R3.2) */
    bb_t lower[2];  /* lower pieces of team t */
    bb_t typed[3];  /* top pieces of type t + 1 (X, O, square), either team */
    /* Ruleset values the rules engine needs; constant for a game. */
    uint8_t zone_depth;
    uint32_t turn_limit;
    card_rules cards;
} pos;

static inline int pc_team(uint8_t code) { return (code >> 2) & 1; }
static inline int pc_type(uint8_t code) { return code & PC_TYPE; }
static inline int pc_down(uint8_t code) { return (code & PC_DOWN) != 0; }

/* Adds or removes (they are toggled) the bits of a top piece `code` in
 * the bitboard of its type: one indexed store, no branch on the type. */
static inline void flip_type(pos *p, uint8_t code, bb_t bits)
{
    p->typed[pc_type(code) - 1] ^= bits;
}

/* R5.1: the top pieces that move 2 squares diagonally (X and square) and
 * orthogonally (O and square). */
static inline bb_t diagonal2(const pos *p) { return p->typed[TYPE_X - 1] | p->typed[TYPE_S - 1]; }
static inline bb_t orthogonal2(const pos *p) { return p->typed[TYPE_O - 1] | p->typed[TYPE_S - 1]; }

/* sq_set() without the board hash: for an undo, which restores the hash
 * with the rest of the state. */
static inline void sq_set_unhashed(pos *p, int sq, uint8_t top, uint8_t low)
{
    bb_t bit = bb_bit(sq);
    uint8_t old_top = p->top[sq], old_low = p->low[sq];
    p->top[sq] = top;
    p->low[sq] = low;
    if (old_top) {
        p->piece[pc_team(old_top)] &= ~bit;
        p->active[pc_team(old_top)] &= ~bit;
        flip_type(p, old_top, bit);
    }
    if (old_low)
        p->lower[pc_team(old_low)] &= ~bit;
    if (top) {
        p->piece[pc_team(top)] |= bit;
        flip_type(p, top, bit);
        if (!low && !pc_down(top))
            p->active[pc_team(top)] |= bit;
    }
    if (low)
        p->lower[pc_team(low)] |= bit;
}

/* The only way square contents change (with move_piece() below for plain
 * moves): arrays, bitboards and the board hash together. */
static inline void sq_set(pos *p, int sq, uint8_t top, uint8_t low)
{
    p->st.board_hash ^= square_key(sq, p->top[sq], p->low[sq]) ^ square_key(sq, top, low);
    sq_set_unhashed(p, sq, top, low);
}

/* Toggles the bits `both` of a top piece `code` in every bitboard of its
 * team and type: a plain move, or its undoing. */
static inline void toggle_piece(pos *p, uint8_t code, bb_t both)
{
    int team = pc_team(code);
    p->piece[team] ^= both;
    p->active[team] ^= both;
    flip_type(p, code, both);
}

/* The common case of a square change, for a plain move (R5.4): the single
 * active piece on `from` goes to the open square `to`, squares and
 * bitboards (the hash is the caller's). Returns the bits of the two
 * squares, with which move_bits_back() undoes it. */
static inline bb_t move_piece_bits(pos *p, unsigned from, unsigned to)
{
    uint8_t code = p->top[from];
    bb_t both = SQ_BIT[from] | SQ_BIT[to];
    toggle_piece(p, code, both);
    p->top[from] = 0;
    p->top[to] = code;
    return both;
}

/* Undoes move_piece_bits(p, from, to), which returned `both`: the piece
 * goes back from `to` to `from`, every bit toggled again. */
static inline void move_bits_back(pos *p, unsigned from, unsigned to, bb_t both)
{
    uint8_t code = p->top[to];
    toggle_piece(p, code, both);
    p->top[to] = 0;
    p->top[from] = code;
}

/* move_piece_bits() and the board hash. (ZOBRIST[sq][0] is 0: an empty
 * square or no lower piece keys nothing.) */
static inline bb_t move_piece(pos *p, unsigned from, unsigned to)
{
    uint8_t code = p->top[from];
    p->st.board_hash ^= ZOBRIST[from][code] ^ ZOBRIST[to][code];
    return move_piece_bits(p, from, to);
}

static inline bb_t occupied(const pos *p) { return p->piece[0] | p->piece[1]; }
/* R3.4: squares with neither a piece nor the ball. */
static inline bb_t vacant_squares(const pos *p)
{
    return BB_BOARD & ~occupied(p) & ~bb_bit(p->st.ball);
}

/* R3.4: neither a piece nor the ball. */
static inline int is_vacant(const pos *p, int sq)
{
    return p->top[sq] == 0 && p->st.ball != sq;
}
static inline int is_fresh(const pos *p, int sq)
{
    return bb_has(p->st.fresh, sq);
}
static inline void set_fresh(pos *p, int sq)
{
    p->st.fresh |= bb_bit(sq);
}

/* The touchdown test of R11.1 for the current position: the winner
 * (ATK_WON / DEF_WON) or ONGOING. */
static inline int touchdown_result(const pos *p)
{
    int b = p->st.ball;
    uint8_t holder = p->top[b];
    if (!holder) /* a loose ball scores nothing */
        return ONGOING;
    if (pc_team(holder) == ATK)
        return SQ_ROW[b] > 17 - p->zone_depth ? ATK_WON : ONGOING;
    return SQ_ROW[b] <= p->zone_depth ? DEF_WON : ONGOING;
}

/* The position's hash: the incremental board part combined with the
 * scalar fields (side, phase, PA, hand-off mark, ball, restriction, fresh
 * stacks). The turn number is left out so that equal positions reached at
 * different turns share entries in a transposition table. */
uint64_t pos_hash(const pos *p);
/* Recomputes the bitboards and board_hash from top/low (after a position
 * was built square by square). */
void pos_rehash(pos *p);

/* The standard start (R2.2) under the given card rules (cards->on = 0
 * outside card mode): full hands, no PE. */
void pos_start(pos *p, int zone_depth, uint32_t turn_limit, const card_rules *cards);

#endif
