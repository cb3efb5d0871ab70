/* Legal-action generation (R4-R8 in the action phase, R9 in the release
 * phase): for each piece in square order its moves, then the carrier's
 * hand-offs and passes, card-mode actions, `end`. No allocation. */
#include "action.h"
#include "rules.h"

/* Where generated actions go: written to `out`, or only counted when out
 * is NULL (perft's last ply needs no list). */
typedef struct sink {
    uint32_t *out;
    int n;
} sink;

static inline void put(sink *k, uint32_t a)
{
    if (k->out)
        k->out[k->n] = a;
    k->n++;
}

/* base | sq << 7 for every square of set, in increasing order, one 64-bit
 * half at a time (cheaper than 128-bit arithmetic). */
static inline void put_squares(sink *k, bb_t set, uint32_t base)
{
    if (!k->out) {
        k->n += bb_count(set);
        return;
    }
    for (uint64_t w = (uint64_t)set; w; w &= w - 1)
        k->out[k->n++] = base | (uint32_t)__builtin_ctzll(w) << 7;
    for (uint64_t w = (uint64_t)(set >> 64); w; w &= w - 1)
        k->out[k->n++] = base | (uint32_t)(64 + __builtin_ctzll(w)) << 7;
}

/* What every part of one generation reads. */
typedef struct gen {
    const pos *p;
    int side;
    int ball;
    bb_t occupied;
    bb_t single;  /* squares with exactly one piece */
    bb_t vacant;
} gen;

static inline void move(sink *k, const gen *g, int s, int d)
{
    put(k, act_pack(K_MOVE, (unsigned)s, (unsigned)d, A_NONE_SQ, g->ball == d ? F_PICKUP : 0));
}

static int is_active_opponent(const gen *g, int sq)
{
    return is_active(g->p, sq) && pc_team(g->p->top[sq]) != g->side;
}

/* R6.1: the dodge from S onto target T; one action per open exit. */
static void gen_dodge(sink *k, const gen *g, int s, int t)
{
    int fumble = g->ball == t ? F_FORCED_FUMBLE : 0;
    for (int i = 0; i < 4; i++) {
        int e = neighbour(t, i);
        if (e != NO_SQ && is_open(g->p, e))
            put(k, act_pack(K_DODGE, (unsigned)s, (unsigned)t, (unsigned)e, fumble | (g->ball == e ? F_PICKUP : 0)));
    }
}

/* R6.2: tactical dodge from S over M to landing L; one action per push
 * square. Vacancy is judged after the landing, so S counts as vacant. */
static void gen_tactical(sink *k, const gen *g, int s, int m, int l)
{
    int flags = (g->ball == l ? F_PICKUP : 0) | (g->ball == m ? F_FUMBLE : 0);
    for (int i = 0; i < 4; i++) {
        int push = neighbour(m, i);
        if (push != NO_SQ && push != l && (push == s || is_vacant(g->p, push)))
            put(k, act_pack(K_TACTICAL, (unsigned)s, (unsigned)l, (unsigned)push, flags));
    }
}

/* Where a 2-square move ends (R5.4) when it crosses no opponent: an open
 * square, or an active opponent to dodge. */
static inline void gen_jump_end(sink *k, const gen *g, int s, int d)
{
    if (is_open(g->p, d))
        move(k, g, s, d);
    else if (is_active_opponent(g, d))
        gen_dodge(k, g, s, d);
}

/* A 2-square diagonal move over m (R5.2, R5.3). */
static inline void gen_diagonal_jump(sink *k, const gen *g, int s, int m, int d)
{
    const pos *p = g->p;
    if (!is_open(p, m)) {
        if (!is_active(p, m))
            return; /* knocked down or stack */
        if (pc_team(p->top[m]) != g->side) { /* R6.2 */
            if (is_open(p, d))
                gen_tactical(k, g, s, m, d);
            return;
        }
    }
    gen_jump_end(k, g, s, d);
}

/* R5.1: X 1-2 squares diagonally, O 1 diagonally or 2 orthogonally, the
 * square piece both. */
static void gen_piece_moves(sink *k, const gen *g, int s)
{
    const pos *p = g->p;
    int type = pc_type(p->top[s]);
    const int8_t *step = STEP[s];
    for (int i = 0; i < 4; i++) {
        int d = step[DIAG1_FIRST + i];
        if (d == NO_SQ)
            continue;
        if (is_open(p, d))
            move(k, g, s, d);
        else if (bb_has(g->single, d)) /* R7.1: block or protection; a stack is closed (R3.5) */
            put(k, act_pack(pc_team(p->top[d]) == g->side ? K_PROTECT : K_BLOCK, (unsigned)s, (unsigned)d,
                            A_NONE_SQ, 0));
    }
    if (type != TYPE_O)
        for (int i = 0; i < 4; i++)
            if (step[DIAG2_FIRST + i] != NO_SQ)
                gen_diagonal_jump(k, g, s, step[DIAG1_FIRST + i], step[DIAG2_FIRST + i]);
    if (type != TYPE_X)
        for (int i = 0; i < 4; i++)
            if (step[ORTHO2_FIRST + i] != NO_SQ)
                gen_jump_end(k, g, s, step[ORTHO2_FIRST + i]);
}

/* R8.2: every other piece of the carrier's network of active allies,
 * grown one ring of neighbours at a time. */
static void gen_handoffs(sink *k, const gen *g, int c)
{
    bb_t allies = g->p->active[g->side], net = bb_bit(c), grown;
    while ((grown = net | (bb_neighbours(net) & allies)) != net)
        net = grown;
    put_squares(k, net & ~bb_bit(c), act_pack(K_HANDOFF, (unsigned)c, 0, A_NONE_SQ, 0));
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
static void gen_short_passes(sink *k, const gen *g, int c)
{
    bb_t receivers = g->p->active[g->side] & within(c, 4) & ~bb_bit(c);
    put_squares(k, bb_neighbours(receivers) & g->vacant, act_pack(K_SHORT_PASS, (unsigned)c, 0, A_NONE_SQ, 0));
}

/* R8.4: vacant squares at distance >= 2 from every piece of the team,
 * whatever its state. */
static void gen_long_passes(sink *k, const gen *g, int c)
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

static void gen_action_phase(sink *k, const pos *p)
{
    gen g = {p, p->st.side, p->st.ball, occupied(p), 0, vacant_squares(p)};
    g.single = g.occupied & ~(p->lower[ATK] | p->lower[DEF]);
    int s, pa = p->st.pa;
    for (BB_EACH(s, pa >= 1 ? p->active[g.side] : 0)) {
        if (s == g.ball && p->st.restricted)
            continue; /* R4.4: a restricted piece starts nothing */
        gen_piece_moves(k, &g, s);
    }
    /* R8.5: an unrestricted active carrier hands off and passes */
    if (bb_has(p->active[g.side], g.ball) && !p->st.restricted) {
        if (!p->st.handoff) /* R8.2: no hand-off right after a hand-off */
            gen_handoffs(k, &g, g.ball);
        if (pa >= 1)
            gen_short_passes(k, &g, g.ball);
        if (pa >= 2)
            gen_long_passes(k, &g, g.ball);
    }
    if (p->cards.on)
        gen_card_mode(k, p);
    put(k, act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0));
}

int gen_actions(const pos *p, uint32_t *out)
{
    sink k = {out, 0};
    if (p->st.result != ONGOING)
        return 0;
    if (p->st.phase == PHASE_ACTION) {
        gen_action_phase(&k, p);
        return k.n;
    }
    uint32_t scratch[MAX_ACTIONS];
    int sq;
    for (BB_EACH(sq, p->piece[p->st.side]))
        k.n += gen_task_solutions(p, sq, (out ? out : scratch) + k.n);
    return k.n;
}
