/* SPDX-License-Identifier: MIT */
/* Playing and taking back decisions (R5-R9, R11), and perft (N3). A plain
 * move (also a dodge's exit) is undone by moving back; every other square
 * change goes through put(), which records the old contents first, so
 * that pos_undo() restores the position bit for bit from a small record.
 * The commonest decisions take the quick path of play.h. */
#include <string.h>

#include "action.h"
#include "movegen.h"
#include "play.h"
#include "release.h"

/* Records the contents of sq, which pos_undo() puts back. */
static void record(const pos *p, undo_rec *u, int sq)
{
    u->sq[u->n] = (uint8_t)sq;
    u->top[u->n] = p->top[sq];
    u->low[u->n] = p->low[sq];
    u->n++;
}

static void put(pos *p, undo_rec *u, int sq, uint8_t top, uint8_t low)
{
    record(p, u, sq);
    sq_set(p, sq, top, low);
}

/* Moves that piece, recording the squares. */
static void step_piece(pos *p, undo_rec *u, int from, int to)
{
    uint8_t code = p->top[from];
    carry_ball(p, from, to);
    put(p, u, from, 0, 0);
    put(p, u, to, code, 0);
}

/* A plain move: as step_piece(), but undone by moving back instead of
 * from recorded squares (R5.5, R8.1). */
static void do_move(pos *p, undo_rec *u, int from, int to)
{
    carry_ball(p, from, to);
    move_piece(p, (unsigned)from, (unsigned)to);
    u->moved_from = (uint8_t)from;
    u->moved_to = (uint8_t)to;
}

/* The single active piece on sq is knocked down where it stands: put()
 * without its general case. */
static void knock_down(pos *p, undo_rec *u, int sq)
{
    uint8_t code = p->top[sq];
    record(p, u, sq);
    p->st.board_hash ^= ZOBRIST[sq][code] ^ ZOBRIST[sq][code | PC_DOWN];
    p->top[sq] = (uint8_t)(code | PC_DOWN);
    p->active[pc_team(code)] &= ~SQ_BIT[sq];
}

/* knock_down() undone, its record being u's only square: the piece on
 * it stands again (no other bitboard changed). */
static void stand_again(pos *p, const undo_rec *u)
{
    int sq = u->sq[0];
    uint8_t code = u->top[0];
    p->top[sq] = code;
    p->active[pc_team(code)] |= SQ_BIT[sq];
}

/* R6.1: knock the target down, take its ball (forced fumble), exit: the
 * exit is a plain move (the target is neither square), undone first. */
static void do_dodge(pos *p, undo_rec *u, int s, int t, int e)
{
    knock_down(p, u, t);
    if (p->st.ball == t) {
        p->st.ball = (int8_t)s; /* now carried by the mover */
        p->st.restricted = 1;
    }
    do_move(p, u, s, e);
}

/* R6.2: land, push the crossed opponent down, knock its ball loose. */
static void do_tactical(pos *p, undo_rec *u, int s, int l, int push)
{
    int m = square_at((SQ_COL[s] + SQ_COL[l]) / 2, (SQ_ROW[s] + SQ_ROW[l]) / 2);
    step_piece(p, u, s, l);
    put(p, u, push, p->top[m] | PC_DOWN, 0);
    put(p, u, m, 0, 0);
    if (p->st.ball == m) {
        int b = square_at(2 * SQ_COL[m] - SQ_COL[push], 2 * SQ_ROW[m] - SQ_ROW[push]);
        if (b != NO_SQ && is_vacant(p, b))
            p->st.ball = (int8_t)b;
    }
}

/* R7: the mover becomes the upper piece of a fresh stack. */
static void do_stack(pos *p, undo_rec *u, int s, int d)
{
    uint8_t mover = p->top[s];
    if (p->st.ball == s)
        p->st.ball = (int8_t)d;
    if (p->st.ball == d)
        p->st.restricted = 0; /* R7.3: the upper holds it, stacked */
    put(p, u, s, 0, 0);
    put(p, u, d, mover, p->top[d]);
    set_fresh(p, d);
}

/* R9.3: upper to U, lower to W keeping its state; the keeper holds the
 * ball. */
static void do_release(pos *p, undo_rec *u, int sq, int up, int w, int keeper)
{
    uint8_t upper = p->top[sq], lower = p->low[sq];
    put(p, u, sq, 0, 0);
    put(p, u, up, upper, 0);
    put(p, u, w, lower, 0);
    if (keeper == KEEP_UPPER)
        p->st.ball = (int8_t)up;
    else if (keeper == KEEP_LOWER)
        p->st.ball = (int8_t)w;
}

/* R9.2: the knocked-down single piece on `from` stands up on the vacant
 * square `to`, the commonest release-phase decision. Done like a plain
 * move (and undone by moving back) rather than by two put()s; `from` is
 * recorded too, so that the undo lays the piece down again there. */
static void do_stand_up(pos *p, undo_rec *u, int from, int to)
{
    uint8_t down = p->top[from], up = (uint8_t)(down & ~PC_DOWN);
    bb_t both = SQ_BIT[from] | SQ_BIT[to];
    record(p, u, from);
    u->moved_from = (uint8_t)from;
    u->moved_to = (uint8_t)to;
    p->st.board_hash ^= ZOBRIST[from][down] ^ ZOBRIST[to][up];
    p->piece[pc_team(down)] ^= both;
    p->active[pc_team(down)] |= SQ_BIT[to];
    flip_type(p, down, both);
    p->top[from] = 0;
    p->top[to] = up;
}

/* do_stand_up() undone: the piece goes back and lies down again. */
static void lie_down_again(pos *p, const undo_rec *u)
{
    int from = u->moved_from, to = u->moved_to;
    uint8_t up = p->top[to];
    bb_t both = SQ_BIT[from] | SQ_BIT[to];
    p->piece[pc_team(up)] ^= both;
    p->active[pc_team(up)] &= ~SQ_BIT[to];
    flip_type(p, up, both);
    p->top[to] = 0;
    p->top[from] = u->top[0];
}

/* R10.4: pay, lose the card for good, apply its effect (R10.5). */
static void do_card(pos *p, int index)
{
    int side = p->st.side;
    const card_def *card = &p->cards.hand[side][index];
    p->st.pe[side] -= card->cost;
    p->st.hand[side] &= (uint16_t)~(1u << index);
    if (card->effect == EFFECT_GAIN_PA) {
        int pa = p->st.pa + card->amount;
        p->st.pa = (uint8_t)(pa > MAX_PA ? MAX_PA : pa);
    }
    else
        p->st.restricted = 0;
}

/* PE saturate at PE_MAX so that every position can be written as BPN. */
static void add_pe(pos *p, int side, uint32_t gain)
{
    uint32_t *pe = &p->st.pe[side];
    *pe = gain > PE_MAX - *pe ? PE_MAX : *pe + gain;
}

/* R10.3: the entries one decision earns (see ball_cardset_set_earn in ball.h). */
static const int8_t EARN_OF_KIND[K_LAST + 1] = {
    [K_MOVE] = 0, [K_DODGE] = 2, [K_TACTICAL] = 4, [K_BLOCK] = 5, [K_PROTECT] = 6,
    [K_HANDOFF] = 7, [K_SHORT_PASS] = 8, [K_LONG_PASS] = 9, [K_STAND_UP] = 10,
    [K_UNBLOCK] = 11, [K_UNPROTECT] = 12, [K_END] = -1, [K_CONVERT] = -1, [K_CARD] = -1,
};
enum { EARN_PICKUP = 1, EARN_FORCED_FUMBLE = 3 };

static void earn(pos *p, int side, uint32_t a)
{
    int entry = EARN_OF_KIND[act_kind(a)];
    if (entry < 0)
        return;
    uint32_t gain = p->cards.earn[entry];
    if (act_flags(a) & F_PICKUP)
        gain += p->cards.earn[EARN_PICKUP];
    if (act_flags(a) & F_FORCED_FUMBLE)
        gain += p->cards.earn[EARN_FORCED_FUMBLE];
    add_pe(p, side, gain);
}

/* An action-phase decision's PA (R4.3) and hand-off mark (R8.2). */
static void spend_pa(pos *p, uint32_t a)
{
    p->st.pa = (uint8_t)(p->st.pa - act_cost(a));
    p->st.handoff = act_kind(a) == K_HANDOFF;
}

static void do_action(pos *p, undo_rec *u, uint32_t a)
{
    int from = act_from(a), to = act_to(a), opt = act_opt(a);
    int kind = act_kind(a);
    if (kind == K_MOVE) /* the most common decision: a predictable branch */
        do_move(p, u, from, to);
    else switch (kind) {
    case K_DODGE: do_dodge(p, u, from, to, opt); break;
    case K_TACTICAL: do_tactical(p, u, from, to, opt); break;
    case K_BLOCK:
    case K_PROTECT: do_stack(p, u, from, to); break;
    case K_HANDOFF:
    case K_SHORT_PASS:
    case K_LONG_PASS: p->st.ball = (int8_t)to; break;
    case K_STAND_UP: do_stand_up(p, u, from, to); break;
    case K_UNBLOCK:
    case K_UNPROTECT: do_release(p, u, from, to, opt, act_keeper(a)); break;
    case K_CONVERT: add_pe(p, p->st.side, (uint32_t)act_value(a)); break;
    case K_CARD: do_card(p, act_value(a)); break;
    }
    if (p->cards.on)
        earn(p, p->st.side, a);
    if (p->st.phase == PHASE_ACTION) {
        spend_pa(p, a);
    } else {
        p->st.pa = 0;
        p->st.handoff = 0;
    }
}


/* Every decision the quick path (play.h) leaves: the whole state is
 * saved, every square change recorded. */
void pos_do_slow(pos *p, uint32_t a, undo_rec *u)
{
    save_whole(p, u);
    if (act_kind(a) == K_END) {
        end_turn(p);
        return;
    }
    do_action(p, u, a);
    p->st.result = (uint8_t)touchdown_result(p); /* R11.1 */
    if (p->st.result == ONGOING && p->st.phase == PHASE_RELEASE && !release_has_solution(p))
        hand_over(p); /* R9.1 */
}

/* A plain move (moved_to) recorded with one square is a stand-up when
 * that square is where it started (do_stand_up()), else a dodge, the
 * square its knocked-down target's (do_dodge()): the only decisions that
 * record a square besides their move. Both are undone without
 * sq_set()'s general case. The hash comes back with the state. */
void pos_undo_slow(pos *p, const undo_rec *u)
{
    if (u->moved_to != NO_MOVE && u->n == 1) {
        if (u->sq[0] == u->moved_from) {
            lie_down_again(p, u);
        } else {
            move_piece_bits(p, u->moved_to, u->moved_from);
            stand_again(p, u);
        }
    } else {
        if (u->moved_to != NO_MOVE) /* a move in card mode */
            move_piece_bits(p, u->moved_to, u->moved_from);
        for (int i = u->n - 1; i >= 0; i--)
            sq_set_unhashed(p, u->sq[i], u->top[i], u->low[i]);
    }
    p->st = u->st;
}

void pos_do(pos *p, uint32_t a, undo_rec *u) { do_decision(p, a, u); }
void pos_undo(pos *p, const undo_rec *u) { undo_decision(p, u); }

/* ---------------------------------------------------------------- perft
 * perft 6 counts 90% of its last-but-one ply's positions at 0 PA left
 * (docs/performance.md, "The shape of the work"). After a decision that
 * spends the last PA, the only legal decisions are `end` and the
 * carrier's hand-offs (R4.3, R8.2), or none after a touchdown: the
 * parent's bitboards tell how many without playing the decision. */

/* What the parent tells of its children at 0 PA. */
typedef struct zero_pa {
    bb_t allies;      /* the active pieces of the coach to act */
    bb_t touch;       /* the ball, the carrier's network and its neighbours */
    int can_hand_off; /* the ball is held by an active, unrestricted ally */
    int leaves;       /* decisions after one that changes no square of touch */
} zero_pa;

/* The pieces of `allies` the carrier on c can hand off to, and c (R8.2):
 * the network grown one ring of neighbours at a time. */
static bb_t network(int c, bb_t allies)
{
    bb_t net = bb_bit(c) | (SQ_NEIGHBOURS[c] & allies), grown;
    if (net == bb_bit(c))
        return net; /* no ally next to the carrier: often, and cheap to see */
    while ((grown = net | (bb_neighbours(net) & allies)) != net)
        net = grown;
    return net;
}

/* `end` and the hand-offs of the network net: one decision per piece of
 * it, the carrier's own standing for `end`. (At most 7 pieces: a short
 * count beats the baseline popcount routine this file is built with.) */
static int end_and_handoffs(bb_t net)
{
    return bb_count_few(net);
}

/* A decision that changes no square of `touch` leaves the ball, its
 * restriction and the carrier's network as they are (a network only grows
 * through a neighbour of it): `leaves` decisions follow it at 0 PA. */
static void zero_pa_setup(zero_pa *z, const pos *p)
{
    int c = p->st.ball;
    z->allies = p->active[p->st.side];
    z->can_hand_off = bb_has(z->allies, c) && !p->st.restricted;
    bb_t net = z->can_hand_off ? network(c, z->allies) : 0;
    z->touch = bb_bit(c) | net | bb_neighbours(net);
    z->leaves = z->can_hand_off ? end_and_handoffs(net) : 1;
}

/* R11.1: the coach to act scores when one of its pieces holds the ball
 * on sq. */
static int scores_on(const pos *p, int sq)
{
    return p->st.side == ATK ? SQ_ROW[sq] > 17 - p->zone_depth : SQ_ROW[sq] <= p->zone_depth;
}

/* After a plain move from -> to that leaves 0 PA. */
static int leaves_after_move(const zero_pa *z, const pos *p, int from, int to)
{
    bb_t both = bb_bit(from) | bb_bit(to);
    int c = p->st.ball;
    if (c == to) /* a pickup restricts the piece (R8.1, R4.4) */
        return !scores_on(p, to);
    if (c == from) /* the carrier takes the ball along (R5.5); never restricted */
        return scores_on(p, to) ? 0 : end_and_handoffs(network(to, z->allies ^ both));
    if (!(both & z->touch))
        return z->leaves;
    return z->can_hand_off ? end_and_handoffs(network(c, z->allies ^ both)) : 1;
}

/* The number of decisions after `a` when the parent tells it (0 PA left
 * after a move, a pass or a hand-off), else -1. */
static int leaves_at_zero_pa(const zero_pa *z, const pos *p, uint32_t a)
{
    int kind = act_kind(a), pa = p->st.pa;
    if (kind == K_MOVE && pa == 1)
        return leaves_after_move(z, p, act_from(a), act_to(a));
    if ((kind == K_SHORT_PASS && pa == 1) || (kind == K_LONG_PASS && pa == 2))
        return 1; /* the ball lies loose on a vacant square: only `end` */
    if (kind == K_HANDOFF && pa == 0) /* no hand-off right after one (R8.2) */
        return !scores_on(p, act_to(a));
    return -1;
}

/* The decisions after each of acts[0 .. n-1], played only when the parent
 * cannot tell their number (shortcut: action phase outside card mode). */
static uint64_t sum_children(pos *p, const zero_pa *z, int shortcut, const uint32_t *acts, int n)
{
    uint64_t total = 0;
    undo_rec u;
    for (int i = 0; i < n; i++) {
        int leaves = shortcut ? leaves_at_zero_pa(z, p, acts[i]) : -1;
        if (leaves < 0) {
            do_decision(p, acts[i], &u);
            leaves = count_actions(p);
            undo_decision(p, &u);
        }
        total += (uint64_t)leaves;
    }
    return total;
}

/* perft 2. At 1 PA (outside card mode) every decision of a piece spends
 * the last PA: those that change no square of `touch` are only counted
 * (gen_split()), the others listed and summed one by one. */
static uint64_t perft_last_but_one(pos *p)
{
    uint32_t acts[MAX_ACTIONS];
    zero_pa z;
    int shortcut = !p->cards.on && p->st.phase == PHASE_ACTION && p->st.result == ONGOING
                   && p->st.turn < BALL_MAX_TURN; /* its `end` counts as one (turn_bound.h) */
    if (!shortcut)
        return sum_children(p, NULL, 0, acts, gen_actions(p, acts));
    zero_pa_setup(&z, p);
    if (p->st.pa != 1)
        return sum_children(p, &z, 1, acts, gen_actions(p, acts));
    int unlisted, n = gen_split(p, z.touch, acts, &unlisted);
    return (uint64_t)unlisted * (uint64_t)z.leaves + sum_children(p, &z, 1, acts, n);
}

uint64_t pos_perft(pos *p, int depth)
{
    if (depth <= 1) /* bulk counting: the last ply is counted, not played */
        return depth == 0 ? 1 : (uint64_t)count_actions(p);
    if (depth == 2)
        return perft_last_but_one(p);
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts);
    uint64_t total = 0;
    undo_rec u;
    for (int i = 0; i < n; i++) {
        do_decision(p, acts[i], &u);
        total += pos_perft(p, depth - 1);
        undo_decision(p, &u);
    }
    return total;
}
