/* Legal-action generation (R4-R8 in the action phase, R9 in the release
 * phase). Emits actions square by square; no allocation. */
#include "action.h"
#include "rules.h"

/* Writes base | sq << shift for every square of set, in increasing order,
 * one 64-bit half at a time (cheaper than 128-bit arithmetic). */
static inline int emit_squares(uint32_t *out, bb_t set, uint32_t base, int shift)
{
    int n = 0;
    for (uint64_t w = (uint64_t)set; w; w &= w - 1)
        out[n++] = base | (uint32_t)__builtin_ctzll(w) << shift;
    for (uint64_t w = (uint64_t)(set >> 64); w; w &= w - 1)
        out[n++] = base | (uint32_t)(64 + __builtin_ctzll(w)) << shift;
    return n;
}

/* Moves of the piece on s onto the open squares of dests, with the pickup
 * flag on the one holding the loose ball (R8.1). */
static inline int emit_moves(const pos *p, int s, bb_t dests, uint32_t *out)
{
    uint32_t base = act_pack(K_MOVE, (unsigned)s, 0, A_NONE_SQ, 0);
    bb_t ball = bb_bit(p->st.ball);
    int n = emit_squares(out, dests & ~ball, base, 7);
    if (dests & ball)
        out[n++] = base | (uint32_t)p->st.ball << 7 | (uint32_t)F_PICKUP << 27;
    return n;
}

static int is_active_opponent(const pos *p, int sq, int side)
{
    return is_active(p, sq) && pc_team(p->top[sq]) != side;
}

/* R6.1: the dodge from S onto target T; one action per open exit. */
static int gen_dodge(const pos *p, int s, int t, uint32_t *out)
{
    int n = 0, e, fumble = p->st.ball == t ? F_FORCED_FUMBLE : 0;
    for (BB_EACH(e, SQ_NEIGHBOURS[t] & ~occupied(p))) {
        int pickup = p->st.ball == e ? F_PICKUP : 0;
        out[n++] = act_pack(K_DODGE, (unsigned)s, (unsigned)t, (unsigned)e, fumble | pickup);
    }
    return n;
}

/* R6.2: tactical dodge from S over M to landing L; one action per push
 * square. Vacancy is judged after the landing, so S counts as vacant. */
static int gen_tactical(const pos *p, int s, int m, int l, uint32_t *out)
{
    int n = 0, push;
    int flags = (p->st.ball == l ? F_PICKUP : 0) | (p->st.ball == m ? F_FUMBLE : 0);
    bb_t pushes = SQ_NEIGHBOURS[m] & (vacant_squares(p) | bb_bit(s)) & ~bb_bit(l);
    for (BB_EACH(push, pushes))
        out[n++] = act_pack(K_TACTICAL, (unsigned)s, (unsigned)l, (unsigned)push, flags);
    return n;
}

/* Where a 2-square move ends (R5.4) when it crosses no opponent: an open
 * square, or an active opponent to dodge. */
static inline int gen_jump_end(const pos *p, int s, int d, uint32_t *out)
{
    if (is_open(p, d))
        return emit_moves(p, s, bb_bit(d), out);
    return is_active_opponent(p, d, p->st.side) ? gen_dodge(p, s, d, out) : 0;
}

/* A 2-square diagonal move over m (R5.2, R5.3). */
static inline int gen_diagonal_jump(const pos *p, int s, int m, int d, uint32_t *out)
{
    if (!is_open(p, m)) {
        if (!is_active(p, m))
            return 0; /* knocked down or stack */
        if (pc_team(p->top[m]) != p->st.side) /* R6.2 */
            return is_open(p, d) ? gen_tactical(p, s, m, d, out) : 0;
    }
    return gen_jump_end(p, s, d, out);
}

/* R5.1: X 1-2 squares diagonally, O 1 diagonally or 2 orthogonally, the
 * square piece both. */
static int gen_piece_moves(const pos *p, int s, uint32_t *out)
{
    int n = 0, d, type = pc_type(p->top[s]), side = p->st.side;
    const int8_t *step = STEP[s];
    bb_t near = SQ_NEIGHBOURS[s], occ = occupied(p);
    n += emit_moves(p, s, near & ~occ, out);
    /* R7.1: onto a single piece, standing or down, is a block or a
     * protection; a stack is closed (R3.5) */
    for (BB_EACH(d, near & occ & ~(p->lower[ATK] | p->lower[DEF])))
        out[n++] = act_pack(pc_team(p->top[d]) == side ? K_PROTECT : K_BLOCK, (unsigned)s, (unsigned)d,
                            A_NONE_SQ, 0);
    if (type != TYPE_O)
        for (int k = 0; k < 4; k++)
            if (step[DIAG2_FIRST + k] != NO_SQ)
                n += gen_diagonal_jump(p, s, step[DIAG1_FIRST + k], step[DIAG2_FIRST + k], out + n);
    if (type != TYPE_X)
        for (int k = 0; k < 4; k++)
            if (step[ORTHO2_FIRST + k] != NO_SQ)
                n += gen_jump_end(p, s, step[ORTHO2_FIRST + k], out + n);
    return n;
}

/* R8.2: every other piece of the carrier's network of active allies,
 * grown one ring of neighbours at a time. */
static int gen_handoffs(const pos *p, int c, uint32_t *out)
{
    bb_t allies = p->active[p->st.side], net = bb_bit(c), grown;
    while ((grown = net | (bb_neighbours(net) & allies)) != net)
        net = grown;
    return emit_squares(out, net & ~bb_bit(c), act_pack(K_HANDOFF, (unsigned)c, 0, A_NONE_SQ, 0), 7);
}

/* Squares at distance <= k of c (R1.3: k diagonal steps). */
static bb_t within(int c, int k)
{
    bb_t b = bb_bit(c);
    while (k--)
        b |= bb_neighbours(b);
    return b;
}

/* R8.3: one action per vacant square next to an eligible receiver. */
static int gen_short_passes(const pos *p, int c, uint32_t *out)
{
    bb_t receivers = p->active[p->st.side] & within(c, 4) & ~bb_bit(c);
    return emit_squares(out, bb_neighbours(receivers) & vacant_squares(p),
                        act_pack(K_SHORT_PASS, (unsigned)c, 0, A_NONE_SQ, 0), 7);
}

/* R8.4: vacant squares at distance >= 2 from every piece of the team,
 * whatever its state. */
static int gen_long_passes(const pos *p, int c, uint32_t *out)
{
    bb_t team = p->piece[p->st.side] | p->lower[p->st.side];
    return emit_squares(out, vacant_squares(p) & ~team & ~bb_neighbours(team),
                        act_pack(K_LONG_PASS, (unsigned)c, 0, A_NONE_SQ, 0), 7);
}

/* R10.2 and R10.4: conversions of 1..PA PA, then the affordable cards. */
static int gen_card_mode(const pos *p, uint32_t *out)
{
    int n = 0, side = p->st.side;
    for (int k = 1; k <= p->st.pa; k++)
        out[n++] = act_make(K_CONVERT, NO_SQ, k, NO_SQ, KEEP_NONE, 0);
    for (int i = 0; i < p->cards.hand_size[side]; i++) {
        const card_def *card = &p->cards.hand[side][i];
        if (!(p->st.hand[side] >> i & 1) || card->cost > p->st.pe[side])
            continue;
        if (card->effect == EFFECT_GAIN_PA)
            out[n++] = act_make(K_CARD, NO_SQ, i, NO_SQ, KEEP_NONE, 0);
        else if (card->effect == EFFECT_UNRESTRICT && p->st.restricted)
            out[n++] = act_make(K_CARD, p->st.ball, i, NO_SQ, KEEP_NONE, 0);
    }
    return n;
}

static int gen_action_phase(const pos *p, uint32_t *out)
{
    int n = 0, s, pa = p->st.pa;
    for (BB_EACH(s, p->active[p->st.side])) {
        int carrier = p->st.ball == s;
        if (carrier && p->st.restricted)
            continue; /* R4.4: a restricted piece starts nothing */
        if (pa >= 1)
            n += gen_piece_moves(p, s, out + n);
        if (!carrier)
            continue;
        if (!p->st.handoff) /* R8.2: no hand-off right after a hand-off */
            n += gen_handoffs(p, s, out + n);
        if (pa >= 1)
            n += gen_short_passes(p, s, out + n);
        if (pa >= 2)
            n += gen_long_passes(p, s, out + n);
    }
    if (p->cards.on)
        n += gen_card_mode(p, out + n);
    out[n++] = act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0);
    return n;
}

int gen_actions(const pos *p, uint32_t *out)
{
    if (p->st.result != ONGOING)
        return 0;
    if (p->st.phase == PHASE_ACTION)
        return gen_action_phase(p, out);
    int n = 0, sq;
    for (BB_EACH(sq, p->piece[p->st.side]))
        n += gen_task_solutions(p, sq, out + n);
    return n;
}
