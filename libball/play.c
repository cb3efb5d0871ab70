/* Playing and taking back decisions (R5-R9, R11). Every square change goes
 * through put(), which records the old contents first, so that pos_undo()
 * restores the position bit for bit from a small record. */
#include <string.h>

#include "action.h"
#include "rules.h"

static void put(pos *p, undo_rec *u, int sq, uint8_t top, uint8_t low)
{
    u->sq[u->n] = (uint8_t)sq;
    u->top[u->n] = p->top[sq];
    u->low[u->n] = p->low[sq];
    u->n++;
    sq_set(p, sq, top, low);
}

/* The ball when the single piece on `from` goes to the open square `to`
 * (R5.5: a carrier takes it along; R8.1: a loose ball on `to` is picked
 * up and restricts the piece, R4.4). */
static void carry_ball(pos *p, int from, int to)
{
    if (p->st.ball == to)
        p->st.restricted = 1;
    else if (p->st.ball == from)
        p->st.ball = (int8_t)to;
}

/* Moves that piece, recording the squares. */
static void step_piece(pos *p, undo_rec *u, int from, int to)
{
    uint8_t code = p->top[from];
    carry_ball(p, from, to);
    put(p, u, from, 0, 0);
    put(p, u, to, code, 0);
}

/* R6.1: knock the target down, take its ball (forced fumble), exit. */
static void do_dodge(pos *p, undo_rec *u, int s, int t, int e)
{
    put(p, u, t, p->top[t] | PC_DOWN, 0);
    if (p->st.ball == t) {
        p->st.ball = (int8_t)s; /* now carried by the mover */
        p->st.restricted = 1;
    }
    step_piece(p, u, s, e);
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

/* R9.5: the other coach's turn begins. */
static void hand_over(pos *p)
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

/* R10.3: the entries one decision earns (see ball_cards in ball.h). */
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

/* A plain move: as step_piece(), but undone by moving back instead of
 * from recorded squares (R5.5, R8.1). */
static void do_move(pos *p, undo_rec *u, int from, int to)
{
    carry_ball(p, from, to);
    move_piece(p, from, to);
    u->moved_from = (int8_t)from;
    u->moved_to = (int8_t)to;
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
    case K_END: /* R9.5: PA, hand-off chain and restrictions end */
        p->st.phase = PHASE_RELEASE;
        p->st.restricted = 0;
        break;
    case K_STAND_UP: put(p, u, to, p->top[from] & ~PC_DOWN, 0); put(p, u, from, 0, 0); break;
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

/* The commonest decisions outside card mode, in short (1 when done):
 * they stay in the action phase (no release check), and only a move
 * that carries or picks up the ball, or a hand-off, can score (R11.1; a
 * pass leaves the ball loose). */
static int try_quick(pos *p, undo_rec *u, uint32_t a)
{
    int kind = act_kind(a), to = act_to(a);
    if (kind == K_MOVE) {
        do_move(p, u, act_from(a), to);
    } else if (kind == K_SHORT_PASS || kind == K_LONG_PASS || kind == K_HANDOFF) {
        u->moved_from = u->moved_to = NO_SQ;
        p->st.ball = (int8_t)to;
    } else {
        return 0;
    }
    spend_pa(p, a);
    if (p->st.ball == to) /* the ball moved: only then can it score */
        p->st.result = (uint8_t)touchdown_result(p);
    return 1;
}

/* pos_do() and pos_undo(), inlined into perft's loop. */
static inline void do_decision(pos *p, uint32_t a, undo_rec *u)
{
    u->st = p->st;
    u->n = 0;
    if (!p->cards.on && try_quick(p, u, a))
        return;
    u->moved_from = u->moved_to = NO_SQ;
    do_action(p, u, a);
    p->st.result = (uint8_t)touchdown_result(p); /* R11.1 */
    if (p->st.result == ONGOING && p->st.phase == PHASE_RELEASE && !release_has_solution(p))
        hand_over(p); /* R9.1 */
}

static inline void undo_decision(pos *p, const undo_rec *u)
{
    if (u->moved_to != NO_SQ)
        move_piece(p, u->moved_to, u->moved_from);
    for (int i = u->n - 1; i >= 0; i--)
        sq_set(p, u->sq[i], u->top[i], u->low[i]);
    p->st = u->st;
}

void pos_do(pos *p, uint32_t a, undo_rec *u) { do_decision(p, a, u); }
void pos_undo(pos *p, const undo_rec *u) { undo_decision(p, u); }

uint64_t pos_perft(pos *p, int depth)
{
    if (depth <= 1) /* bulk counting: the last ply is counted, not played */
        return depth == 0 ? 1 : (uint64_t)count_actions(p);
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts);
    uint64_t total = 0;
    undo_rec u;
    for (int i = 0; i < n; i++) {
        do_decision(p, acts[i], &u);
        total += depth == 2 ? (uint64_t)count_actions(p) : pos_perft(p, depth - 1);
        undo_decision(p, &u);
    }
    return total;
}

void pos_start(pos *p, int zone_depth, uint32_t turn_limit, const card_rules *cards)
{
    /* R2.2: ATK's formation; DEF mirrors it across row 9. */
    static const struct { int col, row, type; } formation[7] = {
        {3, 7, TYPE_O}, {5, 7, TYPE_X}, {7, 7, TYPE_S}, {9, 7, TYPE_X},
        {7, 5, TYPE_X}, {11, 7, TYPE_O}, {7, 3, TYPE_S},
    };
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 7; i++) {
        const int col = formation[i].col, row = formation[i].row;
        p->top[square_at(col, row)] = (uint8_t)formation[i].type;
        p->top[square_at(col, 18 - row)] = (uint8_t)(formation[i].type | PC_DEF);
    }
    p->st.ball = (int8_t)square_at(7, 5); /* X5 holds the ball */
    p->st.side = DEF;                     /* R2.3 */
    p->st.phase = PHASE_ACTION;
    p->st.pa = 2;
    p->st.turn = 1;
    p->zone_depth = (uint8_t)zone_depth;
    p->turn_limit = turn_limit;
    p->cards = *cards;
    for (int team = 0; team < 2; team++)
        p->st.hand[team] = (uint16_t)((1u << cards->hand_size[team]) - 1);
    p->st.result = ONGOING;
    pos_rehash(p);
}

void pos_rehash(pos *p)
{
    p->st.board_hash = 0;
    p->piece[0] = p->piece[1] = p->active[0] = p->active[1] = p->lower[0] = p->lower[1] = 0;
    p->diagonal2 = p->orthogonal2 = 0;
    for (int sq = 0; sq < NSQ; sq++) {
        uint8_t top = p->top[sq], low = p->low[sq];
        p->top[sq] = p->low[sq] = 0;
        sq_set(p, sq, top, low);
    }
}

uint64_t pos_hash(const pos *p)
{
    const pos_state *st = &p->st;
    uint64_t scalars = (uint64_t)(uint8_t)st->ball | (uint64_t)st->side << 8 | (uint64_t)st->phase << 9
                       | (uint64_t)st->pa << 10 | (uint64_t)st->handoff << 12 | (uint64_t)st->restricted << 13;
    uint64_t h = st->board_hash ^ mix64(KEY_STATE | scalars) ^ mix64((uint64_t)st->fresh ^ mix64((uint64_t)(st->fresh >> 64)));
    if (p->cards.on)
        h ^= mix64(st->pe[0] ^ mix64(st->pe[1] ^ mix64((uint64_t)st->hand[0] << 16 | st->hand[1])));
    return h;
}
