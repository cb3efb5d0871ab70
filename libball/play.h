/* SPDX-License-Identifier: MIT */
/* Playing and taking back decisions (play.c): the undo record, the quick
 * path inlined into perft and the API, game end (R11), and perft (N3).
 * Works on `pos` only; the API layer (game.c) sits on top and never the
 * other way round. */
#ifndef BALL_PLAY_H
#define BALL_PLAY_H

#include <stdint.h>
#include <string.h>
#include "action.h"
#include "ball.h"
#include "position.h"
#include "release.h"

/* What a decision changed, enough to take it back exactly. */
#define UNDO_SQUARES 6
typedef struct undo_rec {
    union {
        pos_state st; /* the state before, saved whole */
        struct {      /* or after a quick decision (below): */
            uint8_t hot[POS_HOT_BYTES]; /* its first POS_HOT_BYTES */
            bb_t moved;                 /* a plain move: the bits of its two squares */
        } quick;
    };
    uint8_t moved_from, moved_to; /* a plain move: undone by moving back; else NO_MOVE */
    uint8_t whole;               /* st was saved whole, and the squares below */
    uint8_t n;                   /* the squares changed, oldest first */
    uint8_t sq[UNDO_SQUARES];
    uint8_t top[UNDO_SQUARES];
    uint8_t low[UNDO_SQUARES];
} undo_rec;

#define NO_MOVE 0xff

/* Plays a legal decision (not checked), then the touchdown test and the
 * automatic hand-over. */
void pos_do(pos *p, uint32_t a, undo_rec *u);
void pos_undo(pos *p, const undo_rec *u);

/* The same for every decision the quick path below leaves (play.c). */
void pos_do_slow(pos *p, uint32_t a, undo_rec *u);
void pos_undo_slow(pos *p, const undo_rec *u);

/* The quick path, inlined into perft and the API's apply and undo: the
 * commonest decisions outside card mode, plain moves, passes and
 * hand-offs, change only the squares of a move and the state's hot
 * fields (position.h); they stay in the action phase (no release check),
 * and only a move that carries or picks up the ball, or a hand-off, can
 * score (R11.1; a pass leaves the ball loose). */

/* The ball when the single piece on `from` goes to the open square `to`
 * (R5.5: a carrier takes it along; R8.1: a loose ball on `to` is picked
 * up and restricts the piece, R4.4). */
static inline void carry_ball(pos *p, int from, int to)
{
    if (p->st.ball == to)
        p->st.restricted = 1;
    else if (p->st.ball == from)
        p->st.ball = (int8_t)to;
}

/* A plain move (R5.4) from -> to, with the ball (R5.5, R8.1). Spelled
 * out rather than through move_piece(): the bits stored at once leave
 * the compiler fewer values to keep (1% of ball_apply_unchecked). */
static inline void do_plain_move(pos *p, unsigned from, unsigned to, undo_rec *u)
{
    uint8_t code = p->top[from];
    bb_t both = SQ_BIT[from] | SQ_BIT[to];
    u->quick.moved = both;
    u->moved_from = (uint8_t)from;
    u->moved_to = (uint8_t)to;
    toggle_piece(p, code, both);
    p->st.board_hash ^= ZOBRIST[from][code] ^ ZOBRIST[to][code];
    p->top[from] = 0;
    p->top[to] = code;
    carry_ball(p, (int)from, (int)to);
    p->st.pa--;
    p->st.handoff = 0;
}

/* R4.2, R9.5: `end`: PA, the hand-off chain and restrictions end; the
 * release phase begins. */
static inline void end_action_phase(pos *p)
{
    p->st.phase = PHASE_RELEASE;
    p->st.pa = 0;
    p->st.handoff = 0;
    p->st.restricted = 0;
}

/* R9.5: the other coach's turn begins. */
static inline void hand_over(pos *p)
{
    p->st.side ^= 1;
    p->st.phase = PHASE_ACTION;
    p->st.pa = 2;
    p->st.handoff = 0;
    p->st.restricted = 0;
    p->st.fresh = 0;
    p->st.turn++;
    if (p->turn_limit && p->st.turn > p->turn_limit)
        p->st.result = DRAWN; /* R11.2: the last allowed turn has ended */
}

/* Plays `a` when it is a plain move, a pass or a hand-off (1), else
 * changes nothing (0). */
static inline int do_quick(pos *p, uint32_t a, undo_rec *u)
{
    int kind = act_kind(a);
    unsigned to = (a >> A_TO_SHIFT) & A_SQ_MASK; /* a square for these kinds */
    if (kind != K_MOVE && (unsigned)(kind - K_HANDOFF) > K_LONG_PASS - K_HANDOFF)
        return 0;
    memcpy(u->quick.hot, &p->st, POS_HOT_BYTES);
    u->whole = 0;
    if (kind == K_MOVE) {
        do_plain_move(p, (a >> A_FROM_SHIFT) & A_SQ_MASK, to, u);
        if (p->st.ball == (int)to) /* the ball moved: only then can it score */
            p->st.result = (uint8_t)touchdown_result(p);
    } else { /* the ball goes to `to` (R8.2-R8.4) */
        u->moved_to = NO_MOVE;
        p->st.ball = (int8_t)to;
        p->st.pa = (uint8_t)(p->st.pa - (kind == K_LONG_PASS ? 2 : kind != K_HANDOFF)); /* R4.3 */
        p->st.handoff = kind == K_HANDOFF;
        if (kind == K_HANDOFF) /* a pass leaves the ball loose: no score */
            p->st.result = (uint8_t)touchdown_result(p);
    }
    return 1;
}

/* The whole state saved: every decision but the quick ones. */
static inline void save_whole(const pos *p, undo_rec *u)
{
    u->st = p->st;
    u->whole = 1;
    u->n = 0;
    u->moved_from = u->moved_to = NO_MOVE;
}

/* `end` once the state is saved: nothing on the board changes, nothing
 * scores. */
static inline void end_turn(pos *p)
{
    end_action_phase(p);
    if (!has_tasks(p) || !release_has_solution(p)) /* most `end`s have no task */
        hand_over(p); /* R9.1 */
}

/* pos_do_slow() of `end` (R4.2, R9.1), a third of the decisions of
 * random games, on its own and inline in the API's apply: without the
 * frame that pos_do_slow() sets up for the decisions that change
 * squares, and without a call. */
static inline void do_end(pos *p, undo_rec *u)
{
    save_whole(p, u);
    end_turn(p);
}

static inline void do_decision(pos *p, uint32_t a, undo_rec *u)
{
    if (p->cards.on || !do_quick(p, a, u))
        pos_do_slow(p, a, u);
}

/* Takes back a quick decision: the squares of a move by the bits saved
 * with it, the hot fields (the hash among them) by copy. */
static inline void undo_quick(pos *p, const undo_rec *u)
{
    if (u->moved_to != NO_MOVE)
        move_bits_back(p, u->moved_from, u->moved_to, u->quick.moved);
    memcpy(&p->st, u->quick.hot, POS_HOT_BYTES);
}

static inline void undo_decision(pos *p, const undo_rec *u)
{
    if (u->whole)
        pos_undo_slow(p, u);
    else
        undo_quick(p, u);
}

/* perft (N3) by do/undo on a copy-free recursion. */
uint64_t pos_perft(pos *p, int depth);

#endif
