/* SPDX-License-Identifier: MIT */
/* The rules of the action phase (R4-R8, R10) as the generator walks
 * them: the sink and its five modes, the set-up, and the walk piece by
 * piece and direction by direction, all inlined (HOT) into each entry
 * point, where the mode is a constant. Included by movegen.c (LIST,
 * COUNT, PICK, SPLIT) and movegen_draw.c (DRAW) only.
 *
 * Legal-action generation (R4-R8 in the action phase, R9 in the release
 * phase) on the bitboards of bitboard.h. The action phase is written once
 * and compiled in five modes (see sink): listing piece by piece,
 * counting direction by direction with popcounts, picking one action in
 * either order, and perft's split count. The random-game tests check
 * after every decision that the first four agree, the perft tests the
 * fifth. No allocation. */

/* Rule map: where each rule is generated, by mode (see sink below).
 * Entry points: LIST gen_actions(), COUNT count_actions(), PICK
 * gen_action_at(), DRAW gen_random_action() (movegen.h) ->
 * draw_decision() -> draw_for_cpu() (movegen_draw.c; chosen by
 * draw_build_for_cpu() when the library is loaded) ->
 * draw_action_phase(), or with AVX2 or AVX-512
 * draw_action_phase_avx2() / _avx512() (draw_vector.h: the eight
 * directions two at a time, count_diagonal_pair_*(),
 * count_orthogonal_pair_*(); the drawn one: draw_from_marks() ->
 * draw_in_direction()), SPLIT gen_split(). LIST and PICK walk piece by
 * piece (list_piece()); COUNT, DRAW and SPLIT direction by direction
 * (count_groups() -> gen_group(): groups 0-3 count_diagonal(), 4-7
 * count_orthogonal(), 8 gen_carrier(), 9 gen_card_mode(), 10 `end`);
 * SPLIT lists the pieces on `touch` with list_piece() too.
 *
 *   rule                      LIST / PICK                 COUNT / DRAW / SPLIT
 *   R4.3-R4.4 who may move    gen_setup() (movers)        gen_setup() (movers, *_jumpers)
 *   R5.1 patterns by type     list_piece() (W_NEIGHBOURS, count_diagonal() (diagonal_jumpers),
 *                             jumps, W_ORTHOGONAL2)       count_orthogonal() (orthogonal_jumpers)
 *   R5.2-R5.4 destinations,   list_piece() (passable,     count_diagonal() (passable),
 *     R8.1 pickup             open) -> put_group(), put() count_jump_ends() -> put_steps(),
 *                                                         step_action()
 *   R6.1 dodge                list_piece() -> gen_dodge() count_jump_ends() -> gen_dodge()
 *   R6.2 tactical dodge       list_piece() (over)         count_diagonal() -> gen_tactical()
 *                             -> gen_tactical()
 *   R7 protect / block        list_piece() -> put_window() put_steps() -> step_action()
 *                             (singles & own / ~own)      (steppable, own)
 *   R8.2 hand-off             gen_carrier() -> gen_handoffs()      (all modes)
 *   R8.3 / R8.4 passes        gen_carrier() -> gen_short_passes(), gen_long_passes() (all modes)
 *   R10.2 / R10.4 card mode   gen_card_mode()                      (all modes, card mode only)
 *   R4.2 end                  gen_action_phase(),         gen_group() group 10; gen_split();
 *                             put(K_END)                  DRAW at 0 PA: only_end(), END_ACTION
 *                                                         (movegen.h)
 *   R9 release phase          release.c: gen_release_solutions() (LIST), count_release_solutions()
 *                             (COUNT), release_solution_at() (PICK), release_random_solution()
 *                             (DRAW); SPLIT is action phase only
 *
 * Tests that the modes agree: tu_check_generator_modes() (tests/testutil.c:
 * LIST = COUNT through ball_perft(g, 1) and ball_legal_actions(g, NULL,
 * 0), PICK for every index, DRAW over the n ranges by
 * tu_check_random_action()), after every decision of
 * tests/rules/test_random_games.c and tests/rules/test_r10_games.c (card mode);
 * SPLIT: tests/rules/test_perft.c (test_N3_perft_counts,
 * test_N3_divide_apply_undo_vs_clone: ball_perft() against apply/undo
 * over LIST); all modes and ball_select() differentially:
 * tests/fuzz/fuzz_diff.c; DRAW, both builds, against the count order
 * rebuilt from LIST and against the draws of libball 1.0.0:
 * tests/rules/test_random_draw.c. */
#ifndef BALL_MOVEGEN_RULES_H
#define BALL_MOVEGEN_RULES_H

#include <stddef.h>

#include "action.h"
#include "compiler.h"
#include "movegen.h"
#include "release.h"

/* The hot helpers (HOT, compiler.h) are inlined into every copy of the
 * action phase, where the mode is a constant: each copy keeps only its
 * own code. */

/* On x86-64 with GNU ifunc, the entry points below are compiled twice,
 * for CPUs with the POPCNT instruction (nearly all made since 2008) and
 * for the x86-64 baseline, which counts bits in about 20 instructions;
 * the loader picks one when the library is loaded. Counting moves is
 * mostly popcounts. Define BALL_NO_CPU_DISPATCH to build the baseline
 * only. GCC only: clang before 16 names the dispatcher so that calls
 * from other files do not link. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute) \
    && !defined(__clang__) && !defined(BALL_NO_CPU_DISPATCH)
#if __has_attribute(target_clones)
#define CPU_DISPATCH __attribute__((target_clones("popcnt", "default")))
#endif
#endif
#ifndef CPU_DISPATCH
#define CPU_DISPATCH
#endif

/* Where generated actions go. Five modes, each with its own copy of the
 * action phase, in which the mode is a constant:
 *   LIST:  written to `out`, piece by piece (the order of
 *          ball_legal_actions());
 *   COUNT: only counted, direction by direction (perft's last ply);
 *   PICK:  only the action numbered `want` in list order is kept, in
 *          `found` (ball_legal_action_at());
 *   DRAW:  the same in count order, which is cheaper to walk
 *          (ball_random_action());
 *   SPLIT: counted like COUNT, but the few actions that change a square
 *          of `touch` are also written to `out` (`kept` of them): perft's
 *          last-but-one ply, gen_split(). */
enum { LIST, COUNT, PICK, DRAW, SPLIT };
typedef struct sink {
    int mode;
    int n;
    uint32_t *out;
    int want;
    uint32_t found;
    bb_t touch;
    int kept;
} sink;

HOT int counting(const sink *k) { return k->mode == COUNT; }
HOT int picking(const sink *k) { return k->mode == PICK || k->mode == DRAW; }
/* LIST and PICK walk the pieces one by one, COUNT and DRAW the directions. */
HOT int piece_order(const sink *k) { return k->mode == LIST || k->mode == PICK; }
/* PICK and DRAW: the wanted action is found; the rest can be skipped. */
HOT int picked(const sink *k) { return picking(k) && k->n > k->want; }

/* SPLIT: a counted action that is also kept, to be played. */
HOT void keep(sink *k, uint32_t a) { k->out[k->kept++] = a; }

HOT void put(sink *k, uint32_t a)
{
    if (k->mode == LIST)
        k->out[k->n] = a;
    else if (picking(k) && k->n == k->want)
        k->found = a;
    else if (k->mode == SPLIT) /* only the pickup of gen_dodge(): on the ball, in `touch` */
        keep(k, a);
    k->n++;
}

/* The index of the j-th (from 0) set bit of w, which has more than j. */
HOT int nth_bit(uint64_t w, int j)
{
    while (j--)
        w &= w - 1;
    return __builtin_ctzll(w);
}

/* The square of the j-th (from 0) set bit of a bitboard that has more. */
HOT int nth_square(bb_t set, int j)
{
    uint64_t lo = (uint64_t)set;
    int in_lo = __builtin_popcountll(lo);
    return j < in_lo ? BIT_SQUARE[nth_bit(lo, j)] : BIT_SQUARE[64 + nth_bit((uint64_t)(set >> 64), j - in_lo)];
}

/* PICK, DRAW: the wanted action is among the next `count` ones. */
HOT int wanted_among(const sink *k, int count) { return (unsigned)(k->want - k->n) < (unsigned)count; }

/* SPLIT: the actions base + sq * mul of set are counted, those of `hot`
 * (a subset) kept. */
HOT void put_hot(sink *k, bb_t set, bb_t hot, uint32_t base, uint32_t mul)
{
    int sq;
    k->n += bb_count(set);
    if (hot)
        for (BB_EACH(sq, hot))
            keep(k, base + (uint32_t)sq * mul);
}

/* One action per square sq of set, in increasing order: base + sq * mul.
 * mul = A_TO_UNIT writes sq as the `to` square, A_OPT_UNIT as the option
 * square. Works one 64-bit half at a time (cheaper than 128-bit
 * arithmetic). */
HOT void put_set(sink *k, bb_t set, uint32_t base, uint32_t mul)
{
    uint64_t lo = (uint64_t)set, hi = (uint64_t)(set >> 64);
    if (counting(k)) {
        k->n += bb_count(set);
        return;
    }
    if (k->mode == SPLIT) {
        put_hot(k, set, set & k->touch, base, mul);
        return;
    }
    if (picking(k)) {
        int count = bb_count(set);
        if (wanted_among(k, count))
            k->found = base + (uint32_t)nth_square(set, k->want - k->n) * mul;
        k->n += count;
        return;
    }
    uint32_t *o = k->out + k->n; /* a local pointer: the stores cannot alias it */
    for (; lo; lo &= lo - 1)
        *o++ = base + (uint32_t)BIT_SQUARE[__builtin_ctzll(lo)] * mul;
    for (; hi; hi &= hi - 1)
        *o++ = base + (uint32_t)BIT_SQUARE[64 + __builtin_ctzll(hi)] * mul;
    k->n = (int)(o - k->out);
}

/* base | sq << 7 for every square of set. */
HOT void put_squares(sink *k, bb_t set, uint32_t base) { put_set(k, set, base, A_TO_UNIT); }

/* What every part of one generation reads. Bitboards hold real squares
 * only (no ghost bits). */
typedef struct gen {
    const pos *p;
    int side;
    int ball;
    bb_t ball_bit;
    bb_t open;      /* no piece (R3.4): a loose ball allowed */
    bb_t vacant;    /* neither piece nor ball */
    int ball_index; /* bit of the ball's square (listing only: list_piece()) */
    bb_t single;    /* exactly one piece */
    bb_t steppable; /* open or single: where a 1-square move goes (R5.4) */
    bb_t own;       /* the coach's pieces (top of a square) */
    bb_t foes;      /* active opponents (R3.2) */
    bb_t passable;  /* what a 2-square diagonal move may cross (R5.3) */
    bb_t movers;    /* active pieces that may start a move (R4.4) */
    bb_t diagonal_jumpers;   /* movers that move 2 diagonally: X, square */
    bb_t orthogonal_jumpers; /* movers that move 2 orthogonally: O, square */
} gen;

/* R6.1: the dodge from S onto target T; one action per open exit. */
HOT void gen_dodge(sink *k, const gen *g, int s, int t)
{
    bb_t exits = SQ_NEIGHBOURS[t] & g->open;
    uint32_t base = act_pack(K_DODGE, (unsigned)s, (unsigned)t, 0, g->ball == t ? F_FORCED_FUMBLE : 0);
    if (!counting(k) && (exits & g->ball_bit)) { /* the exit picks up the loose ball */
        put(k, base | (uint32_t)g->ball << A_OPT_SHIFT | (uint32_t)F_PICKUP << A_FLAGS_SHIFT);
        exits &= ~g->ball_bit;
    }
    if (k->mode == SPLIT && bb_has(k->touch, t)) /* the target changes too */
        put_hot(k, exits, exits, base, A_OPT_UNIT);
    else
        put_set(k, exits, base, A_OPT_UNIT);
}

/* R6.2: the tactical dodge from S over the active opponent on M to the
 * open landing L; one action per push square. Vacancy is judged after
 * the landing, so S counts as vacant and L does not. */
HOT void gen_tactical(sink *k, const gen *g, int s, int m, int l)
{
    bb_t pushes = SQ_NEIGHBOURS[m] & (g->vacant | bb_bit(s)) & ~bb_bit(l);
    int flags = (g->ball == l ? F_PICKUP : 0) | (g->ball == m ? F_FUMBLE : 0);
    uint32_t base = act_pack(K_TACTICAL, (unsigned)s, (unsigned)l, 0, flags);
    if (k->mode == SPLIT && ((bb_bit(m) | bb_bit(l)) & k->touch)) /* the middle and landing change too */
        put_hot(k, pushes, pushes, base, A_OPT_UNIT);
    else
        put_set(k, pushes, base, A_OPT_UNIT);
}

/* COUNT and DRAW work one direction at a time on whole bitboards:
 * shifting the set of pieces that may move gives the squares they all
 * reach in that direction, and a popcount counts the moves. */

/* The 1-square move from t - delta onto the steppable square t: a move
 * onto an open square (picking up a loose ball there), a protection or a
 * block onto a single piece (R7.1). */
HOT uint32_t step_action(const gen *g, int t, int delta)
{
    int kind = bb_has(g->open, t) ? K_MOVE : bb_has(g->own, t) ? K_PROTECT : K_BLOCK;
    int flags = kind == K_MOVE && t == g->ball ? F_PICKUP : 0;
    return act_pack(kind, (unsigned)(t - delta), (unsigned)t, A_NONE_SQ, flags);
}

/* 1-square diagonal moves from t - delta onto each square t of `to`
 * (steppable squares), as step_action() has them. */
HOT void put_steps(sink *k, const gen *g, bb_t to, int delta)
{
    int count = bb_count(to), t;
    if (k->mode == DRAW && wanted_among(k, count))
        k->found = step_action(g, nth_square(to, k->want - k->n), delta);
    if (k->mode == SPLIT && (to & k->touch))
        for (BB_EACH(t, to & k->touch))
            keep(k, step_action(g, t, delta));
    k->n += count;
}

/* R6.1: the dodges onto the active opponents of `targets`, each from
 * t - delta, exit by exit. */
HOT void put_dodges(sink *k, const gen *g, bb_t targets, int delta)
{
    int t;
    if (targets)
        for (BB_EACH(t, targets))
            gen_dodge(k, g, t - delta, t);
}

/* Where 2-square moves in direction delta (a dense-square delta) end
 * when they cross no opponent (R5.4): open squares (a loose ball there is
 * picked up), or active opponents to dodge (exit by exit). */
HOT void count_jump_ends(sink *k, const gen *g, bb_t to, int delta)
{
    put_steps(k, g, to & g->open, delta);
    if (picked(k)) /* DRAW: found, the rest is not needed */
        return;
    put_dodges(k, g, to & g->foes, delta);
}

/* R6.2: the tactical dodges landing on each square l of `landings`, from
 * l - 2 sq over l - sq (sq: a diagonal dense-square delta). */
HOT void put_tacticals(sink *k, const gen *g, bb_t landings, int sq)
{
    int l;
    for (BB_EACH(l, landings))
        gen_tactical(k, g, l - 2 * sq, l - sq, l);
}

/* The pieces' decisions come in eight groups, one per direction: 0-3
 * diagonally down-left, down-right, up-left, up-right (1 and 2 squares),
 * 4-7 2 squares orthogonally down, left, right, up. Their bit and dense
 * square deltas: */
enum { DIRECTIONS = 8, DIAGONALS = 4 };
static const int8_t DIRECTION_BIT[DIRECTIONS] = {
    BIT_DOWN_LEFT, BIT_DOWN_RIGHT, BIT_UP_LEFT, BIT_UP_RIGHT, BIT_DOWN2, BIT_LEFT2, BIT_RIGHT2, BIT_UP2
};
static const int8_t DIRECTION_SQ[DIRECTIONS] = {
    SQ_DOWN_LEFT, SQ_DOWN_RIGHT, SQ_UP_LEFT, SQ_UP_RIGHT, SQ_DOWN2, SQ_LEFT2, SQ_RIGHT2, SQ_UP2
};

/* One diagonal direction: 1-square moves, protections and blocks (R5.1,
 * R7.1; a stack is closed, R3.5), 2-square moves crossing an open square
 * or an active ally, and tactical dodges over an active opponent (R5.2,
 * R5.3, R6.2). */
HOT void count_diagonal(sink *k, const gen *g, int dir)
{
    int bit = DIRECTION_BIT[dir], sq = DIRECTION_SQ[dir];
    put_steps(k, g, bb_shift(g->movers, bit) & g->steppable, sq);
    bb_t middle = bb_shift(g->diagonal_jumpers, bit);
    count_jump_ends(k, g, bb_shift(middle & g->passable, bit), 2 * sq);
    if (middle & g->foes)
        put_tacticals(k, g, bb_shift(middle & g->foes, bit) & g->open, sq);
}

/* One 2-square orthogonal direction (R5.1, R5.2: nothing is crossed). */
HOT void count_orthogonal(sink *k, const gen *g, int dir)
{
    count_jump_ends(k, g, bb_shift(g->orthogonal_jumpers, DIRECTION_BIT[dir]), DIRECTION_SQ[dir]);
}

/* LIST and PICK work piece by piece, on 64-bit windows of the bitboards
 * centred on the piece: bit W_CENTRE of a window is the piece's own bit,
 * so every square the piece may reach is a constant bit of the window
 * (rows are at most 15 bits apart, bitboard.h). */
enum { W_CENTRE = 32 };
#define W_BIT(delta) (1ull << (W_CENTRE + (delta)))
#define W_NEIGHBOURS \
    (W_BIT(BIT_DOWN_LEFT) | W_BIT(BIT_DOWN_RIGHT) | W_BIT(BIT_UP_LEFT) | W_BIT(BIT_UP_RIGHT))
#define W_ORTHOGONAL2 (W_BIT(BIT_DOWN2) | W_BIT(BIT_LEFT2) | W_BIT(BIT_RIGHT2) | W_BIT(BIT_UP2))

/* Bits b - 32 ... b + 31 of x. */
HOT uint64_t window(bb_t x, int b)
{
    return b >= W_CENTRE ? (uint64_t)(x >> (b - W_CENTRE)) : (uint64_t)x << (W_CENTRE - b);
}

/* The squares one more diagonal step beyond the neighbours in n. */
HOT uint64_t beyond(uint64_t n)
{
    return (n & W_BIT(BIT_DOWN_LEFT)) >> 8 | (n & W_BIT(BIT_DOWN_RIGHT)) >> 7
           | (n & W_BIT(BIT_UP_LEFT)) << 7 | (n & W_BIT(BIT_UP_RIGHT)) << 8;
}

/* The dense square of bit i of the window of bit b. */
HOT int window_square(int b, int i) { return BIT_SQUARE[b - W_CENTRE + i]; }

/* base + sq * 128 (sq as the `to` square) for every square of window w
 * of bit b. */
HOT void put_window(sink *k, uint64_t w, int b, uint32_t base)
{
    if (counting(k)) {
        k->n += __builtin_popcountll(w);
        return;
    }
    if (picking(k)) {
        int count = __builtin_popcountll(w);
        if (wanted_among(k, count))
            k->found = base + (uint32_t)window_square(b, nth_bit(w, k->want - k->n)) * A_TO_UNIT;
        k->n += count;
        return;
    }
    uint32_t *o = k->out + k->n;
    for (; w; w &= w - 1)
        *o++ = base + (uint32_t)window_square(b, __builtin_ctzll(w)) * A_TO_UNIT;
    k->n = (int)(o - k->out);
}

/* A piece's moves come in three groups of four window bits, each in
 * increasing bit order: 1 square diagonally, 2 diagonally, 2
 * orthogonally (R5.1). LIST writes a group without a loop or a branch:
 * the four bits form a number p (0-15), GROUP_TO[group][p] holds the
 * `to` offsets (dense delta * 128) of its set bits first, all four are
 * written, and the count of set bits is kept. Unpredictable loop exits
 * cost more than the few extra stores. */
#define W_DIAGONAL2 \
    (W_BIT(2 * BIT_DOWN_LEFT) | W_BIT(2 * BIT_DOWN_RIGHT) | W_BIT(2 * BIT_UP_LEFT) | W_BIT(2 * BIT_UP_RIGHT))
enum { STEPS, DIAGONAL2, ORTHOGONAL2 };
/* The position (0-3) of the j-th set bit of the 4-bit number p, 3 when
 * there are not that many. */
#define P_BIT(p, k) (((p) >> (k)) & 1)
#define NTH_OF_4(p, j) ((j) < P_BIT(p, 0) ? 0 : (j) < P_BIT(p, 0) + P_BIT(p, 1) ? 1 \
                        : (j) < P_BIT(p, 0) + P_BIT(p, 1) + P_BIT(p, 2) ? 2 : 3)
/* The dense deltas of the four bits of each group, in bit order. */
#define GROUP_DELTA(g, k) ((g) == STEPS ? ((k) == 0 ? SQ_DOWN_LEFT : (k) == 1 ? SQ_DOWN_RIGHT : (k) == 2 ? SQ_UP_LEFT : SQ_UP_RIGHT) \
    : (g) == DIAGONAL2 ? 2 * ((k) == 0 ? SQ_DOWN_LEFT : (k) == 1 ? SQ_DOWN_RIGHT : (k) == 2 ? SQ_UP_LEFT : SQ_UP_RIGHT) \
    : ((k) == 0 ? SQ_DOWN2 : (k) == 1 ? SQ_LEFT2 : (k) == 2 ? SQ_RIGHT2 : SQ_UP2))
#define GROUP_TO_P(g, p) { GROUP_DELTA(g, NTH_OF_4(p, 0)) * 128, GROUP_DELTA(g, NTH_OF_4(p, 1)) * 128, \
                           GROUP_DELTA(g, NTH_OF_4(p, 2)) * 128, GROUP_DELTA(g, NTH_OF_4(p, 3)) * 128 }
#define GROUP_TO_G(g) { GROUP_TO_P(g, 0), GROUP_TO_P(g, 1), GROUP_TO_P(g, 2), GROUP_TO_P(g, 3), \
    GROUP_TO_P(g, 4), GROUP_TO_P(g, 5), GROUP_TO_P(g, 6), GROUP_TO_P(g, 7), GROUP_TO_P(g, 8), \
    GROUP_TO_P(g, 9), GROUP_TO_P(g, 10), GROUP_TO_P(g, 11), GROUP_TO_P(g, 12), GROUP_TO_P(g, 13), \
    GROUP_TO_P(g, 14), GROUP_TO_P(g, 15) }
static const int32_t GROUP_TO[3][16][4] = { GROUP_TO_G(STEPS), GROUP_TO_G(DIAGONAL2), GROUP_TO_G(ORTHOGONAL2) };

/* The four bits of a group in window w as a number 0-15, in bit order. */
HOT unsigned group_bits(uint64_t w, int group)
{
    if (group == STEPS) /* bits 24, 25, 39, 40 */
        return (unsigned)((w >> 24 & 3) | (w >> 37 & 12));
    if (group == DIAGONAL2) /* bits 16, 18, 46, 48 */
        return (unsigned)((w >> 16 & 1) | (w >> 17 & 2) | (w >> 44 & 4) | (w >> 45 & 8));
    return (unsigned)((w >> 17 & 1) | (w >> 30 & 2) | (w >> 31 & 4) | (w >> 44 & 8)); /* 17, 31, 33, 47 */
}

/* The moves of one group, from the piece on square s (bit b). */
HOT void put_group(sink *k, uint64_t moves, int group, int s, int b, uint32_t base)
{
    static const uint64_t mask[3] = {W_NEIGHBOURS, W_DIAGONAL2, W_ORTHOGONAL2};
    if (k->mode != LIST) {
        put_window(k, moves & mask[group], b, base);
        return;
    }
    unsigned p = group_bits(moves, group);
    const int32_t *to = GROUP_TO[group][p];
    uint32_t *o = k->out + k->n, at = base + ((uint32_t)s << A_TO_SHIFT);
    o[0] = at + (uint32_t)to[0];
    o[1] = at + (uint32_t)to[1];
    o[2] = at + (uint32_t)to[2];
    o[3] = at + (uint32_t)to[3];
    k->n += __builtin_popcount(p);
}

/* R4-R7: every action the piece on bit b may start: moves (onto open
 * squares, 1 step diagonally, or 2 diagonally over an open square or an
 * active ally, or 2 orthogonally, by type: R5.1-R5.4), dodges (R6.1),
 * tactical dodges (R6.2), protections and blocks (R7.1). */
HOT void list_piece(sink *k, const gen *g, int b)
{
    int s = BIT_SQUARE[b], type = pc_type(g->p->top[s]), i;
    uint64_t open = window(g->open, b), foes = window(g->foes, b), jumps = 0, over = 0;
    if (type != TYPE_O) {
        uint64_t passable = open | window(g->p->active[g->side], b);
        jumps = beyond(W_NEIGHBOURS & passable);
        over = beyond(W_NEIGHBOURS & foes) & open; /* landings of tactical dodges */
    }
    if (type != TYPE_X)
        jumps |= W_ORTHOGONAL2;
    uint64_t moves = (W_NEIGHBOURS | jumps) & open;
    int ball = g->ball_index - b + W_CENTRE;
    if ((unsigned)ball < 64 && (moves >> ball & 1)) { /* onto the loose ball: pickup (R8.1) */
        put(k, act_pack(K_MOVE, (unsigned)s, (unsigned)g->ball, A_NONE_SQ, F_PICKUP));
        moves &= ~(1ull << ball);
    }
    uint32_t move = act_pack(K_MOVE, (unsigned)s, 0, A_NONE_SQ, 0);
    put_group(k, moves, STEPS, s, b, move);
    put_group(k, moves, DIAGONAL2, s, b, move);
    put_group(k, moves, ORTHOGONAL2, s, b, move);
    for (uint64_t w = jumps & foes; w; w &= w - 1)
        gen_dodge(k, g, s, window_square(b, __builtin_ctzll(w)));
    for (uint64_t w = over; w; w &= w - 1) { /* the middle is half way */
        i = __builtin_ctzll(w);
        gen_tactical(k, g, s, window_square(b, (i + W_CENTRE) / 2), window_square(b, i));
    }
    uint64_t singles = W_NEIGHBOURS & window(g->single, b);
    if (singles) {
        uint64_t own = window(g->own, b);
        put_window(k, singles & own, b, act_pack(K_PROTECT, (unsigned)s, 0, A_NONE_SQ, 0));
        put_window(k, singles & ~own, b, act_pack(K_BLOCK, (unsigned)s, 0, A_NONE_SQ, 0));
    }
}

/* R8.2: every other piece of the carrier's network of active allies,
 * grown one ring of neighbours at a time. */
HOT void gen_handoffs(sink *k, const gen *g, int c)
{
    bb_t allies = g->p->active[g->side], net = bb_bit(c) | (SQ_NEIGHBOURS[c] & allies), grown;
    if (net == bb_bit(c))
        return; /* no ally next to the carrier: often, and cheap to see */
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

/* R8.5: an unrestricted active carrier hands off and passes. */
HOT void gen_carrier(sink *k, const gen *g)
{
    const pos *p = g->p;
    if (!bb_has(p->active[g->side], g->ball) || p->st.restricted)
        return;
    if (!p->st.handoff) /* R8.2: no hand-off right after a hand-off */
        gen_handoffs(k, g, g->ball);
    if (p->st.pa >= 1)
        gen_short_passes(k, g, g->ball);
    if (p->st.pa >= 2)
        gen_long_passes(k, g, g->ball);
}

/* What every part of one generation reads, computed once. */
HOT void gen_setup(gen *g, const pos *p)
{
    int side = p->st.side, ball = p->st.ball;
    bb_t occ = occupied(p), stacks = p->lower[ATK] | p->lower[DEF];
    g->p = p;
    g->side = side;
    g->ball = ball;
    g->ball_bit = bb_bit(ball);
    g->ball_index = SQ_BIT_INDEX[ball];
    g->open = BB_BOARD & ~occ;
    g->vacant = g->open & ~g->ball_bit;
    g->single = occ & ~stacks;
    g->steppable = BB_BOARD & ~stacks;
    g->own = p->piece[side];
    g->foes = p->active[side ^ 1];
    g->passable = g->open | p->active[side];
    /* every move costs 1 PA; R4.4: a restricted carrier starts nothing */
    g->movers = p->st.pa >= 1 ? p->active[side] & ~(p->st.restricted ? g->ball_bit : 0) : 0;
    g->diagonal_jumpers = g->movers & diagonal2(p);
    g->orthogonal_jumpers = g->movers & orthogonal2(p);
}

/* The action phase in count order (COUNT, DRAW): groups of actions, one
 * direction of every piece's moves at a time, then the carrier's, the
 * card-mode ones, `end`. */
enum { GROUPS = 11 };

/* Groups 8-10: the carrier's, card mode's and `end`. They read none of
 * the movers' sets (movers, jumpers, single, steppable, passable), which
 * the vector draw does not fill in g. */
HOT void gen_late_group(sink *k, const gen *g, int group)
{
    if (group == 8)
        gen_carrier(k, g);
    else if (group == 9) {
        if (g->p->cards.on)
            gen_card_mode(k, g->p);
    } else
        put(k, act_make(K_END, NO_SQ, NO_SQ, NO_SQ, KEEP_NONE, 0));
}

HOT void gen_group(sink *k, const gen *g, int group)
{
    switch (group) { /* a case per direction: each with its own constant shifts */
    case 0: count_diagonal(k, g, 0); break;
    case 1: count_diagonal(k, g, 1); break;
    case 2: count_diagonal(k, g, 2); break;
    case 3: count_diagonal(k, g, 3); break;
    case 4: count_orthogonal(k, g, 4); break;
    case 5: count_orthogonal(k, g, 5); break;
    case 6: count_orthogonal(k, g, 6); break;
    case 7: count_orthogonal(k, g, 7); break;
    default: gen_late_group(k, g, group); break;
    }
}

/* Every group in turn (the loop is unrolled: each group is a constant),
 * noting in marks[i], if asked, the count after group i. With
 * pieces_only, the pieces' groups 0-7 only. */
HOT void count_groups(sink *k, const gen *g, int *marks, int pieces_only)
{
#define GROUP(i) do { gen_group(k, g, i); if (marks) marks[i] = k->n; } while (0)
    if (g->movers) {
        GROUP(0); GROUP(1); GROUP(2); GROUP(3); GROUP(4); GROUP(5); GROUP(6); GROUP(7);
    } else if (marks) {
        for (int i = 0; i < 8; i++)
            marks[i] = 0;
    }
    if (pieces_only)
        return;
    GROUP(8); GROUP(9); GROUP(10);
#undef GROUP
}

#endif
