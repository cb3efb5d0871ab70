/* Legal-action generation (R4-R8 in the action phase, R9 in the release
 * phase). Emits actions square by square; no allocation. */
#include "action.h"
#include "rules.h"

/* Movement patterns (R5.1): which vector slots of STEP each type uses. */
static const uint16_t PATTERN[4] = {
    [TYPE_X] = 0x0FF, /* slots 0-7: one or two squares diagonally */
    [TYPE_O] = 0xF0F, /* slots 0-3 and 8-11 */
    [TYPE_S] = 0xFFF, /* every slot */
};

static int is_active_opponent(const pos *p, int sq, int side)
{
    return is_active(p, sq) && pc_team(p->top[sq]) != side;
}

/* R6.1: the dodge from S onto target T; one action per open exit. */
static int gen_dodge(const pos *p, int s, int t, uint32_t *out)
{
    int n = 0, fumble = p->st.ball == t ? F_FORCED_FUMBLE : 0;
    for (int k = 0; k < 4; k++) {
        int e = neighbour(t, k);
        if (e == NO_SQ || !is_open(p, e))
            continue;
        int pickup = p->st.ball == e ? F_PICKUP : 0;
        out[n++] = act_make(K_DODGE, s, t, e, KEEP_NONE, fumble | pickup);
    }
    return n;
}

/* R6.2: tactical dodge from S over M to landing L; one action per push
 * square. Vacancy is judged after the landing, so S counts as vacant. */
static int gen_tactical(const pos *p, int s, int m, int l, uint32_t *out)
{
    int n = 0;
    int flags = (p->st.ball == l ? F_PICKUP : 0) | (p->st.ball == m ? F_FUMBLE : 0);
    for (int k = 0; k < 4; k++) {
        int push = neighbour(m, k);
        if (push == NO_SQ || push == l)
            continue;
        if (push == s || is_vacant(p, push))
            out[n++] = act_make(K_TACTICAL, s, l, push, KEEP_NONE, flags);
    }
    return n;
}

/* Where a move ends (R5.4) when it has no opponent to cross. */
static int gen_destination(const pos *p, int s, int d, int one_square, uint32_t *out)
{
    int side = p->st.side;
    if (is_open(p, d)) {
        out[0] = act_make(K_MOVE, s, d, NO_SQ, KEEP_NONE, p->st.ball == d ? F_PICKUP : 0);
        return 1;
    }
    if (p->low[d])
        return 0; /* R3.5: a stack is closed */
    if (one_square) { /* R7.1: block or protection, standing or down */
        int kind = pc_team(p->top[d]) == side ? K_PROTECT : K_BLOCK;
        out[0] = act_make(kind, s, d, NO_SQ, KEEP_NONE, 0);
        return 1;
    }
    if (is_active_opponent(p, d, side))
        return gen_dodge(p, s, d, out);
    return 0;
}

static int gen_piece_moves(const pos *p, int s, uint32_t *out)
{
    int n = 0, side = p->st.side;
    unsigned pattern = PATTERN[pc_type(p->top[s])];
    for (int slot = 0; slot < NVEC; slot++) {
        int d = STEP[s][slot];
        if (!(pattern >> slot & 1) || d == NO_SQ)
            continue;
        if (slot >= DIAG2_FIRST && slot < ORTHO2_FIRST) {
            int m = STEP[s][slot - DIAG2_FIRST]; /* R5.2 intermediate */
            if (!is_open(p, m)) {
                if (!is_active(p, m))
                    continue; /* R5.3: knocked down or stack */
                if (pc_team(p->top[m]) != side) {
                    if (is_open(p, d)) /* R6.2 */
                        n += gen_tactical(p, s, m, d, out + n);
                    continue;
                }
            }
        }
        n += gen_destination(p, s, d, slot < DIAG2_FIRST, out + n);
    }
    return n;
}

/* R8.2: every other piece of the carrier's network of active allies. */
static int gen_handoffs(const pos *p, int c, uint32_t *out)
{
    uint8_t seen[NSQ] = {0};
    int queue[NSQ], head = 0, tail = 0, n = 0, side = p->st.side;
    seen[c] = 1;
    queue[tail++] = c;
    while (head < tail) {
        int sq = queue[head++];
        for (int k = 0; k < 4; k++) {
            int nb = neighbour(sq, k);
            if (nb == NO_SQ || seen[nb] || !is_active(p, nb) || pc_team(p->top[nb]) != side)
                continue;
            seen[nb] = 1;
            queue[tail++] = nb;
        }
    }
    for (int sq = 0; sq < NSQ; sq++)
        if (seen[sq] && sq != c)
            out[n++] = act_make(K_HANDOFF, c, sq, NO_SQ, KEEP_NONE, 0);
    return n;
}

/* R8.3: one action per vacant square next to an eligible receiver. */
static int gen_short_passes(const pos *p, int c, uint32_t *out)
{
    uint8_t target[NSQ] = {0};
    int n = 0, side = p->st.side;
    for (int r = 0; r < NSQ; r++) {
        if (r == c || !is_active(p, r) || pc_team(p->top[r]) != side
            || square_distance(c, r) > 4)
            continue;
        for (int k = 0; k < 4; k++) {
            int b = neighbour(r, k);
            if (b != NO_SQ && is_vacant(p, b))
                target[b] = 1;
        }
    }
    for (int b = 0; b < NSQ; b++)
        if (target[b])
            out[n++] = act_make(K_SHORT_PASS, c, b, NO_SQ, KEEP_NONE, 0);
    return n;
}

/* R8.4: vacant squares at distance >= 2 from every piece of the team. */
static int gen_long_passes(const pos *p, int c, uint32_t *out)
{
    uint8_t near[NSQ] = {0};
    int n = 0, side = p->st.side;
    for (int sq = 0; sq < NSQ; sq++) {
        int own = (p->top[sq] && pc_team(p->top[sq]) == side)
                  || (p->low[sq] && pc_team(p->low[sq]) == side);
        if (!own)
            continue;
        near[sq] = 1;
        for (int k = 0; k < 4; k++)
            if (neighbour(sq, k) != NO_SQ)
                near[neighbour(sq, k)] = 1;
    }
    for (int b = 0; b < NSQ; b++)
        if (!near[b] && is_vacant(p, b))
            out[n++] = act_make(K_LONG_PASS, c, b, NO_SQ, KEEP_NONE, 0);
    return n;
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
    int n = 0, side = p->st.side, pa = p->st.pa;
    for (int s = 0; s < NSQ; s++) {
        if (!is_active(p, s) || pc_team(p->top[s]) != side)
            continue;
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
    int n = 0;
    for (int sq = 0; sq < NSQ; sq++)
        n += gen_task_solutions(p, sq, out + n);
    return n;
}
