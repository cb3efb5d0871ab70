/* SPDX-License-Identifier: MIT */
/* Legal-action generation: the entry points that list (LIST), count
 * (COUNT), pick by index (PICK) and split for perft (SPLIT), each a copy
 * of the walk of movegen_rules.h, where the rules and their map are.
 * The random draw (DRAW) and its builds for the CPU are in
 * movegen_draw.c, above this file. No allocation. */
#include "movegen_rules.h"
#include "turn_bound.h"

/* LIST, PICK: the actions of each piece (pieces in square order), then
 * the carrier's, the card-mode ones, `end`. COUNT: count order. */
HOT void gen_action_phase(sink *k, const pos *p)
{
    gen g;
    gen_setup(&g, p);
    if (!piece_order(k)) {
        count_groups(k, &g, NULL, 0);
        return;
    }
    for (bb_t rest = g.movers; rest && !picked(k); rest &= rest - 1)
        list_piece(k, &g, bb_first(rest));
    if (picked(k))
        return;
    gen_carrier(k, &g);
    if (p->cards.on)
        gen_card_mode(k, p);
    put(k, act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0));
}

/* At the turn bound (turn_bound.h) counting, picking and drawing work
 * on the list, which gen_actions() filters: out of line, so that the hot
 * entry points set up no 4 KiB frame for it. */
static OUT_OF_LINE int bound_count(const pos *p)
{
    uint32_t acts[MAX_ACTIONS];
    return gen_actions(p, acts);
}

static OUT_OF_LINE int bound_at(const pos *p, int index, uint32_t *action)
{
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts);
    if (index < n)
        *action = acts[index];
    return index < n;
}

/* Counting has a function of its own: perft calls it once per position
 * of the last-but-one ply, and it needs fewer registers than listing. */
CPU_DISPATCH int count_actions(const pos *p)
{
    if (p->st.result != ONGOING)
        return 0;
    if (at_turn_bound(p))
        return bound_count(p);
    if (p->st.phase == PHASE_ACTION) {
        sink count = {.mode = COUNT};
        gen_action_phase(&count, p);
        return count.n;
    }
    return count_release_solutions(p);
}

CPU_DISPATCH int gen_actions(const pos *p, uint32_t *out)
{
    if (!out)
        return count_actions(p);
    if (p->st.result != ONGOING)
        return 0;
    int n;
    if (p->st.phase == PHASE_ACTION) {
        sink list = {.mode = LIST, .out = out};
        gen_action_phase(&list, p);
        n = list.n;
    }
    else
        n = gen_release_solutions(p, out);
    return at_turn_bound(p) ? bound_keep(p, out, n) : n;
}

/* Only the pieces of `pieces` among the movers may start a move. */
HOT void keep_movers(gen *g, bb_t pieces)
{
    g->movers &= pieces;
    g->diagonal_jumpers &= pieces;
    g->orthogonal_jumpers &= pieces;
}

/* perft's last-but-one ply (play.c). The decisions of the pieces off
 * `touch` are counted direction by direction, and the few of them that
 * change a square of `touch` (a `to`, exit, landing, middle or dodge
 * target there) are written to `out`; then the decisions of the pieces
 * on `touch`, the carrier's, the card-mode ones and `end` are listed
 * after them. Returns the number written; *unlisted gets the number of
 * the others, which change no square of `touch`. Action phase only. */
CPU_DISPATCH int gen_split(const pos *p, bb_t touch, uint32_t *out, int *unlisted)
{
    gen g;
    gen_setup(&g, p);
    bb_t movers = g.movers;
    sink split = {.mode = SPLIT, .out = out, .touch = touch};
    keep_movers(&g, ~touch);
    count_groups(&split, &g, NULL, 1);
    *unlisted = split.n - split.kept;
    sink list = {.mode = LIST, .n = split.kept, .out = out};
    for (bb_t rest = movers & touch; rest; rest &= rest - 1)
        list_piece(&list, &g, bb_first(rest));
    gen_carrier(&list, &g);
    if (p->cards.on)
        gen_card_mode(&list, p);
    put(&list, act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0));
    return list.n;
}

CPU_DISPATCH int gen_action_at(const pos *p, int index, uint32_t *action)
{
    if (p->st.result != ONGOING || index < 0)
        return 0;
    if (at_turn_bound(p))
        return bound_at(p, index, action);
    if (p->st.phase != PHASE_ACTION)
        return release_solution_at(p, index, action);
    sink pick = {.mode = PICK, .want = index};
    gen_action_phase(&pick, p);
    *action = pick.found;
    return index < pick.n;
}
