/* Legal-action generation (R4-R8 in the action phase, R9 in the release
 * phase). The action phase works one direction at a time on bitboards:
 * shifting the set of pieces that may move gives the squares they all
 * reach in that direction (bitboard.h), so the moves of every piece cost
 * a few word operations per direction, and perft's last ply counts them
 * with popcounts instead of listing them. No allocation. */
#include <stddef.h>

#include "action.h"
#include "rules.h"

/* The hot helpers are inlined into both copies of the action phase (see
 * gen_actions()) so that the counting copy loses every write. */
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* On x86-64 with GNU ifunc, gen_actions() is compiled twice, for CPUs
 * with the POPCNT instruction (nearly all made since 2008) and for the
 * x86-64 baseline, which counts bits in about 20 instructions; the loader
 * picks one when the library is loaded. Counting moves is mostly
 * popcounts. Define BALL_NO_CPU_DISPATCH to build the baseline only. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute) \
    && !defined(BALL_NO_CPU_DISPATCH)
#if __has_attribute(target_clones)
#define CPU_DISPATCH __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef CPU_DISPATCH
#define CPU_DISPATCH
#endif

/* Where generated actions go: written to `out`, or only counted when out
 * is NULL (perft's last ply needs no list). */
typedef struct sink {
    uint32_t *out;
    int n;
} sink;

HOT void put(sink *k, uint32_t a)
{
    if (k->out)
        k->out[k->n] = a;
    k->n++;
}

/* One action per square sq of set, in increasing order: base + sq * mul.
 * mul = 1 << 7 writes sq as the `to` square, 1 << 14 as the option
 * square; mul = 129 writes it as `to` and adds it to `from`, so with
 * base = action - delta the action goes from sq - delta to sq. Works one
 * 64-bit half at a time (cheaper than 128-bit arithmetic). */
HOT void put_set(sink *k, bb_t set, uint32_t base, uint32_t mul)
{
    if (!k->out) {
        k->n += bb_count(set);
        return;
    }
    uint32_t *o = k->out + k->n; /* a local pointer: the stores cannot alias it */
    for (uint64_t w = (uint64_t)set; w; w &= w - 1)
        *o++ = base + (uint32_t)BIT_SQUARE[__builtin_ctzll(w)] * mul;
    for (uint64_t w = (uint64_t)(set >> 64); w; w &= w - 1)
        *o++ = base + (uint32_t)BIT_SQUARE[64 + __builtin_ctzll(w)] * mul;
    k->n = (int)(o - k->out);
}

/* base | sq << 7 for every square of set. */
HOT void put_squares(sink *k, bb_t set, uint32_t base) { put_set(k, set, base, 1u << 7); }

/* `kind` from sq - delta to sq for every square sq of set. */
HOT void put_steps(sink *k, bb_t set, int kind, int delta)
{
    put_set(k, set, act_pack(kind, 0, 0, A_NONE_SQ, 0) - (uint32_t)delta, 129);
}

/* What every part of one generation reads. Bitboards hold real squares
 * only (no ghost bits). */
typedef struct gen {
    const pos *p;
    int side;
    int ball;
    bb_t ball_bit;
    bb_t open;      /* no piece (R3.4): a loose ball allowed */
    bb_t vacant;    /* neither piece nor ball */
    bb_t single;    /* exactly one piece */
    bb_t steppable; /* open or single: where a 1-square move goes (R5.4) */
    bb_t own;       /* the coach's pieces (top of a square) */
    bb_t foes;      /* active opponents (R3.2) */
    bb_t passable;  /* what a 2-square diagonal move may cross (R5.3) */
    bb_t movers;    /* active pieces that may start a move (R4.4) */
    bb_t diagonal_jumpers;   /* movers that move 2 diagonally: X, square */
    bb_t orthogonal_jumpers; /* movers that move 2 orthogonally: O, square */
} gen;

/* Moves onto the open squares of `to` from sq - delta; the one onto a
 * loose ball picks it up (R8.1). */
HOT void put_moves(sink *k, const gen *g, bb_t to, int delta)
{
    if (k->out && (to & g->ball_bit)) {
        put(k, act_pack(K_MOVE, (unsigned)(g->ball - delta), (unsigned)g->ball, A_NONE_SQ, F_PICKUP));
        to &= ~g->ball_bit;
    }
    put_steps(k, to, K_MOVE, delta);
}

/* R6.1: dodges onto each target T of `targets` from T - delta; one action
 * per open exit. */
HOT void gen_dodges(sink *k, const gen *g, bb_t targets, int delta)
{
    int t;
    for (BB_EACH(t, targets)) {
        bb_t exits = SQ_NEIGHBOURS[t] & g->open;
        uint32_t base = act_pack(K_DODGE, (unsigned)(t - delta), (unsigned)t, 0, g->ball == t ? F_FORCED_FUMBLE : 0);
        if (k->out && (exits & g->ball_bit)) { /* the exit picks up the loose ball */
            put(k, base | (uint32_t)g->ball << 14 | (uint32_t)F_PICKUP << 27);
            exits &= ~g->ball_bit;
        }
        put_set(k, exits, base, 1u << 14);
    }
}

/* R6.2: tactical dodges in direction delta onto each landing L of
 * `landings`, over an active opponent on M = L - delta; one action per
 * push square. Vacancy is judged after the landing, so the start square
 * counts as vacant and L does not. */
HOT void gen_tacticals(sink *k, const gen *g, bb_t landings, int delta)
{
    int l;
    for (BB_EACH(l, landings)) {
        int m = l - delta, s = m - delta;
        bb_t pushes = SQ_NEIGHBOURS[m] & (g->vacant | bb_bit(s)) & ~bb_bit(l);
        int flags = (g->ball == l ? F_PICKUP : 0) | (g->ball == m ? F_FUMBLE : 0);
        put_set(k, pushes, act_pack(K_TACTICAL, (unsigned)s, (unsigned)l, 0, flags), 1u << 14);
    }
}

/* Where 2-square moves end (R5.4) when they cross no opponent: open
 * squares, or active opponents to dodge. */
HOT void gen_jump_ends(sink *k, const gen *g, bb_t to, int delta)
{
    put_moves(k, g, to & g->open, delta);
    if (to & g->foes)
        gen_dodges(k, g, to & g->foes, delta);
}

/* One diagonal direction (bit: BIT_ delta, sq: the matching SQ_ delta):
 * 1-square moves, protections and blocks (R5.1, R7.1; a stack is closed,
 * R3.5), then 2-square moves crossing an open square or an active ally,
 * or an active opponent (tactical dodge) (R5.2, R5.3, R6.2). */
HOT void gen_diagonal(sink *k, const gen *g, int bit, int sq)
{
    bb_t to = bb_shift(g->movers, bit);
    if (k->out) {
        put_moves(k, g, to & g->open, sq);
        put_steps(k, to & g->single & g->own, K_PROTECT, sq);
        put_steps(k, to & g->single & ~g->own, K_BLOCK, sq);
    } else {
        k->n += bb_count(to & g->steppable);
    }
    bb_t middle = bb_shift(g->diagonal_jumpers, bit);
    gen_jump_ends(k, g, bb_shift(middle & g->passable, bit), 2 * sq);
    if (middle & g->foes)
        gen_tacticals(k, g, bb_shift(middle & g->foes, bit) & g->open, sq);
}

/* One 2-square orthogonal direction (R5.1, R5.2: nothing is crossed). */
HOT void gen_orthogonal(sink *k, const gen *g, int bit, int sq)
{
    gen_jump_ends(k, g, bb_shift(g->orthogonal_jumpers, bit), sq);
}

/* R8.2: every other piece of the carrier's network of active allies,
 * grown one ring of neighbours at a time. */
HOT void gen_handoffs(sink *k, const gen *g, int c)
{
    bb_t allies = g->p->active[g->side], net = bb_bit(c), grown;
    while ((grown = net | (bb_neighbours(net) & allies)) != net)
        net = grown;
    put_squares(k, net & ~bb_bit(c), act_pack(K_HANDOFF, (unsigned)c, 0, A_NONE_SQ, 0));
}

/* R8.3: one action per vacant square next to an eligible receiver. */
HOT void gen_short_passes(sink *k, const gen *g, int c)
{
    bb_t receivers = g->p->active[g->side] & SQ_WITHIN4[c] & ~bb_bit(c);
    put_squares(k, bb_neighbours(receivers) & g->vacant, act_pack(K_SHORT_PASS, (unsigned)c, 0, A_NONE_SQ, 0));
}

/* R8.4: vacant squares at distance >= 2 from every piece of the team,
 * whatever its state. */
HOT void gen_long_passes(sink *k, const gen *g, int c)
{
    bb_t team = g->p->piece[g->side] | g->p->lower[g->side];
    put_squares(k, g->vacant & ~team & ~bb_neighbours(team), act_pack(K_LONG_PASS, (unsigned)c, 0, A_NONE_SQ, 0));
}

/* R10.2 and R10.4: conversions of 1..PA PA, then the affordable cards. */
static void gen_card_mode(sink *k, const pos *p)
{
    int side = p->st.side;
    for (int n = 1; n <= p->st.pa; n++)
        put(k, act_make(K_CONVERT, NO_SQ, n, NO_SQ, KEEP_NONE, 0));
    for (int i = 0; i < p->cards.hand_size[side]; i++) {
        const card_def *card = &p->cards.hand[side][i];
        if (!(p->st.hand[side] >> i & 1) || card->cost > p->st.pe[side])
            continue;
        if (card->effect == EFFECT_GAIN_PA)
            put(k, act_make(K_CARD, NO_SQ, i, NO_SQ, KEEP_NONE, 0));
        else if (card->effect == EFFECT_UNRESTRICT && p->st.restricted)
            put(k, act_make(K_CARD, p->st.ball, i, NO_SQ, KEEP_NONE, 0));
    }
}

/* R4-R7: the moves of every piece, one direction at a time. */
HOT void gen_piece_moves(sink *k, gen *g)
{
    g->diagonal_jumpers = g->movers & g->p->diagonal2;
    g->orthogonal_jumpers = g->movers & g->p->orthogonal2;
    gen_diagonal(k, g, BIT_DOWN_LEFT, SQ_DOWN_LEFT);
    gen_diagonal(k, g, BIT_DOWN_RIGHT, SQ_DOWN_RIGHT);
    gen_diagonal(k, g, BIT_UP_LEFT, SQ_UP_LEFT);
    gen_diagonal(k, g, BIT_UP_RIGHT, SQ_UP_RIGHT);
    gen_orthogonal(k, g, BIT_DOWN2, SQ_DOWN2);
    gen_orthogonal(k, g, BIT_LEFT2, SQ_LEFT2);
    gen_orthogonal(k, g, BIT_RIGHT2, SQ_RIGHT2);
    gen_orthogonal(k, g, BIT_UP2, SQ_UP2);
}

HOT void gen_action_phase(sink *k, const pos *p)
{
    int side = p->st.side, ball = p->st.ball, pa = p->st.pa;
    bb_t occ = occupied(p), stacks = p->lower[ATK] | p->lower[DEF];
    gen g;
    g.p = p;
    g.side = side;
    g.ball = ball;
    g.ball_bit = bb_bit(ball);
    g.open = BB_BOARD & ~occ;
    g.vacant = g.open & ~g.ball_bit;
    g.single = occ & ~stacks;
    g.steppable = BB_BOARD & ~stacks;
    g.own = p->piece[side];
    g.foes = p->active[side ^ 1];
    g.passable = g.open | p->active[side];
    /* every move costs 1 PA; R4.4: a restricted carrier starts nothing */
    g.movers = pa >= 1 ? p->active[side] & ~(p->st.restricted ? g.ball_bit : 0) : 0;
    if (g.movers)
        gen_piece_moves(k, &g);
    /* R8.5: an unrestricted active carrier hands off and passes */
    if (bb_has(p->active[side], ball) && !p->st.restricted) {
        if (!p->st.handoff) /* R8.2: no hand-off right after a hand-off */
            gen_handoffs(k, &g, ball);
        if (pa >= 1)
            gen_short_passes(k, &g, ball);
        if (pa >= 2)
            gen_long_passes(k, &g, ball);
    }
    if (p->cards.on)
        gen_card_mode(k, p);
    put(k, act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0));
}

CPU_DISPATCH int gen_actions(const pos *p, uint32_t *out)
{
    if (p->st.result != ONGOING)
        return 0;
    if (p->st.phase == PHASE_ACTION) {
        /* Two copies of the action phase: the sink's `out` is a constant
         * in each, so the counting one has no writes and no branches on
         * it. */
        sink list = {out, 0}, count = {NULL, 0};
        if (out)
            gen_action_phase(&list, p);
        else
            gen_action_phase(&count, p);
        return list.n + count.n;
    }
    uint32_t scratch[MAX_ACTIONS];
    int n = 0, sq;
    for (BB_EACH(sq, p->piece[p->st.side]))
        n += gen_task_solutions(p, sq, (out ? out : scratch) + n);
    return n;
}
