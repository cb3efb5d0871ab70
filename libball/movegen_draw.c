/* SPDX-License-Identifier: MIT */
/* The random draw (DRAW: gen_random_action() -> draw_decision()) and its
 * builds: the scalar one, and for x86-64 the AVX2 and AVX-512 ones of
 * draw_vector.h, one of them chosen for the CPU when the library is
 * loaded (draw_build_for_cpu()). The walk and the rules are those of
 * movegen_rules.h. No allocation. */
#include "movegen_rules.h"
#include "movegen_draw.h"
#include "turn_bound.h"

/* The random draw has two more builds for x86-64: one for CPUs with AVX2
 * (nearly all made since 2013), one for those with AVX-512 (VL, VPOPCNTDQ
 * and VBMI2: Ice Lake and later, Zen 4 and later), one of them chosen
 * for the CPU: see draw_build_for_cpu(). BALL_NO_CPU_DISPATCH leaves them out too,
 * BALL_NO_VECTOR_DRAW only them and BALL_NO_AVX512_DRAW only the AVX-512
 * one (to test or measure the other draws on such a CPU). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(BALL_NO_CPU_DISPATCH) \
    && !defined(BALL_NO_VECTOR_DRAW)
#define VECTOR_DRAW 1
#if defined(BALL_NO_AVX512_DRAW)
#define AVX512_DRAW 0
#else
#define AVX512_DRAW 1
#endif
#include <immintrin.h>
#define AVX2_ISA "avx2,bmi2,popcnt"
#define AVX512_ISA AVX2_ISA ",avx512f,avx512vl,avx512vpopcntdq,avx512vbmi2"
#define AVX2 __attribute__((target(AVX2_ISA)))
#define AVX512 __attribute__((target(AVX512_ISA)))
#if !defined(BALL_NO_FORCE_INLINE)
#define AVX2_HOT static inline __attribute__((always_inline, target(AVX2_ISA)))
#define AVX512_HOT static inline __attribute__((always_inline, target(AVX512_ISA)))
#else
#define AVX2_HOT static inline AVX2
#define AVX512_HOT static inline AVX512
#endif
#else
#define VECTOR_DRAW 0
#endif

/* ------------------------------------------------------------------ DRAW
 * A uniform draw needs the number of legal decisions, and counting the
 * pieces' eight direction groups is most of a draw (docs/performance.md).
 * Both ways below count the groups in the same order and find the drawn
 * number in the group that holds it, so they draw the same decision
 * (tests/rules/test_random_draw.c). */

/* Without AVX2: counted group by group, then the drawn number is found
 * inside the one group that holds it. A function of its own, so that the
 * quick cases of gen_random_action() pay none of its set-up. */
static CPU_DISPATCH int draw_action_phase(const pos *p, uint64_t random, uint32_t *action)
{
    gen g;
    gen_setup(&g, p);
    int marks[GROUPS], group = 0;
    sink count = {.mode = COUNT};
    count_groups(&count, &g, marks, 0);
    int index = draw_index(random, count.n); /* count.n >= 1: `end` */
    while (marks[group] <= index)
        group++;
    sink draw = {.mode = DRAW, .n = group ? marks[group - 1] : 0, .want = index};
    gen_group(&draw, &g, group);
    *action = draw.found;
    return 1;
}

#if VECTOR_DRAW
/* near_open and near_vacant of gen_pairs are made only when a dodge or a
 * push needs them (near_open_made, near_vacant_made); gcc 12 with
 * -fsanitize=address cannot see that and warns that they "may be used
 * uninitialized" (-Werror): a false positive, silenced for this block
 * only. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
/* With AVX2 or AVX-512, two directions at a time: a 256-bit register
 * holds two bitboards, the first in its 64-bit lanes 0-1, the second in
 * 2-3, and each step of count_diagonal() and count_orthogonal() is one
 * instruction for both directions (the shifts, which carry bits between
 * 64-bit lanes, four with AVX2 and two with AVX-512). The squares found
 * are kept for the drawn direction. About 270 instructions with AVX2 for
 * the eight groups of a playout position against 530 (docs/performance.md).
 * What differs between the two instruction sets is in draw_vector.h,
 * included below once for each; what they share is here. */
typedef __m256i bb_pair;

/* The squares of each direction's decisions, for every piece at once,
 * as count_diagonal() and count_orthogonal() find them, kept for the
 * drawn direction. By direction, so that a pair of them is one store. */
typedef struct directions {
    bb_t steps[DIAGONALS]; /* 1-square moves, protections, blocks: steppable squares */
    bb_t ends[DIRECTIONS]; /* where 2-square moves that cross no opponent end (any square) */
    bb_t over[DIAGONALS];  /* landings of tactical dodges */
} directions;

/* The bitboard in x twice. */
AVX2_HOT bb_pair pair_of(__m128i x) { return _mm256_broadcastsi128_si256(x); }

AVX2_HOT bb_pair pair_and(bb_pair a, bb_pair b) { return _mm256_and_si256(a, b); }

/* a and b have a bit in common. */
AVX2_HOT int pair_meet(bb_pair a, bb_pair b) { return !_mm256_testz_si256(a, b); }

/* Stores both bitboards: to[0] and to[1]. */
AVX2_HOT void pair_store(bb_t *to, bb_pair x) { _mm256_storeu_si256((__m256i *)to, x); }

/* What the directions read, each bitboard twice; near_open and
 * near_vacant, made when first needed, are the squares whose neighbour
 * one step down-left (first half of near_*[0]), down-right (second
 * half), up-left (near_*[1], first half) or up-right (second) is open or
 * vacant. */
typedef struct gen_pairs {
    bb_pair movers, diagonal_jumpers, orthogonal_jumpers, steppable, passable, open, vacant, foes;
    int near_open_made, near_vacant_made;
    bb_pair near_open[2], near_vacant[2];
    bb_pair low_nibbles; /* 0x0f in every byte: counts() with AVX2 */
} gen_pairs;

AVX2_HOT bb_pair load_pair(const bb_t *b) { return pair_of(_mm_loadu_si128((const __m128i *)b)); }
AVX2_HOT void store_bb(bb_t *to, bb_pair x) { _mm_storeu_si128((__m128i *)to, _mm256_castsi256_si128(x)); }

/* gen_setup() in 256-bit registers, each bitboard twice in v, and in g
 * what the drawn decision is found with: draw_in_direction() and
 * gen_late_group() (not the movers' sets). */
AVX2_HOT void gen_setup_pairs(gen *g, gen_pairs *v, const pos *p)
{
    int side = p->st.side, ball = p->st.ball;
    const bb_t board_bb = BB_BOARD;
    bb_pair board = load_pair(&board_bb), ball_bit = load_pair(&SQ_BIT[ball]);
    bb_pair occ = _mm256_or_si256(load_pair(&p->piece[ATK]), load_pair(&p->piece[DEF]));
    bb_pair stacks = _mm256_or_si256(load_pair(&p->lower[ATK]), load_pair(&p->lower[DEF]));
    bb_pair mine = load_pair(&p->active[side]);
    bb_pair squares = load_pair(&p->typed[TYPE_S - 1]);
    v->foes = load_pair(&p->active[side ^ 1]);
    v->open = _mm256_andnot_si256(occ, board);
    v->vacant = _mm256_andnot_si256(ball_bit, v->open);
    v->steppable = _mm256_andnot_si256(stacks, board);
    v->passable = _mm256_or_si256(v->open, mine);
    /* every move costs 1 PA; R4.4: a restricted carrier starts nothing */
    v->movers = p->st.pa < 1 ? _mm256_setzero_si256()
                : p->st.restricted ? _mm256_andnot_si256(ball_bit, mine) : mine;
    v->diagonal_jumpers = pair_and(v->movers, _mm256_or_si256(load_pair(&p->typed[TYPE_X - 1]), squares));
    v->orthogonal_jumpers = pair_and(v->movers, _mm256_or_si256(load_pair(&p->typed[TYPE_O - 1]), squares));
    v->near_open_made = v->near_vacant_made = 0;
    /* made opaque to the compiler, which would otherwise build it anew
     * (3 instructions) for most counts rather than keep it in a
     * register or read it from the stack */
    v->low_nibbles = _mm256_set1_epi8(0x0f);
    __asm__("" : "+x"(v->low_nibbles));
    g->p = p;
    g->side = side;
    g->ball = ball;
    _mm_storeu_si128((__m128i *)&g->own, _mm_loadu_si128((const __m128i *)&p->piece[side]));
    store_bb(&g->ball_bit, ball_bit);
    store_bb(&g->open, v->open);
    store_bb(&g->vacant, v->vacant);
    store_bb(&g->foes, v->foes);
}

/* The square of the j-th (from 0) set bit of a bitboard that has more:
 * nth_square() with BMI2's bit deposit instead of a loop. */
AVX2_HOT int nth_square_bmi2(bb_t set, int j)
{
    uint64_t lo = (uint64_t)set;
    int in_lo = __builtin_popcountll(lo);
    if (j < in_lo)
        return BIT_SQUARE[__builtin_ctzll(_pdep_u64(1ull << j, lo))];
    return BIT_SQUARE[64 + __builtin_ctzll(_pdep_u64(1ull << (j - in_lo), (uint64_t)(set >> 64)))];
}

/* The decision numbered `index` of direction dir, whose first is numbered
 * `first`, from its squares. Most draws (five in six) land on a 1-square
 * decision or a 2-square move onto an open square, found here directly;
 * the dodges and tactical dodges through the generator's DRAW walk,
 * from the first of them. */
AVX2_HOT uint32_t draw_in_direction(const gen *g, const directions *d, int dir, int first, int index)
{
    int j = index - first, sq = DIRECTION_SQ[dir], n;
    if (dir < DIAGONALS) {
        n = bb_count(d->steps[dir]);
        if (j < n)
            return step_action(g, nth_square_bmi2(d->steps[dir], j), sq);
        j -= n;
        sq *= 2;
    }
    bb_t open_ends = d->ends[dir] & g->open;
    n = bb_count(open_ends);
    if (j < n) { /* a 2-square move, which picks up a loose ball there */
        int t = nth_square_bmi2(open_ends, j);
        return act_pack(K_MOVE, (unsigned)(t - sq), (unsigned)t, A_NONE_SQ, t == g->ball ? F_PICKUP : 0);
    }
    /* a dodge or a tactical dodge: the generator's walk, from the first */
    sink draw = {.mode = DRAW, .n = index - (j - n), .want = index};
    put_dodges(&draw, g, d->ends[dir] & g->foes, sq);
    if (dir < DIAGONALS && !picked(&draw))
        put_tacticals(&draw, g, d->over[dir], sq / 2);
    return draw.found;
}

/* The per-direction counts of c01 ... c67 (each a 64-bit lane per
 * bitboard half, directions 0-1, 2-3, 4-5, 6-7) into marks[0-7] as
 * running totals. */
AVX2_HOT void running_totals(bb_pair c01, bb_pair c23, bb_pair c45, bb_pair c67, int *marks)
{
    /* one count per direction: two horizontal adds give [0 2 4 6 | 1 3 5 7] */
    bb_pair n = _mm256_hadd_epi32(_mm256_hadd_epi32(c01, c23), _mm256_hadd_epi32(c45, c67));
    n = _mm256_permutevar8x32_epi32(n, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    /* running totals: within each 128-bit half, then the first half's total added to the second */
    n = _mm256_add_epi32(n, _mm256_slli_si256(n, 4));
    n = _mm256_add_epi32(n, _mm256_slli_si256(n, 8));
    n = _mm256_add_epi32(n, _mm256_shuffle_epi32(_mm256_permute2x128_si256(n, n, 0x08), 0xff));
    _mm256_storeu_si256((__m256i *)marks, n);
}

/* The group that holds decision `index`: the first whose running total
 * in marks[] passes it. The eight directions' totals are compared at
 * once (a loop over them took 16 instructions a draw). */
AVX2_HOT int group_of(const int *marks, int index)
{
    __m256i passed = _mm256_cmpgt_epi32(_mm256_loadu_si256((const __m256i *)marks), _mm256_set1_epi32(index));
    unsigned first = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(passed));
    if (first)
        return __builtin_ctz(first);
    return DIRECTIONS + (marks[8] <= index) + (marks[9] <= index); /* marks[10] > index */
}

/* With the pieces' groups counted into marks[0-7]: the carrier's,
 * card-mode and `end` groups counted as gen_group() has them, then the
 * decision drawn with `random`, found from the squares kept in d. */
AVX2_HOT uint32_t draw_from_marks(const gen *g, const directions *d, int *marks, uint64_t random)
{
    sink last = {.mode = COUNT, .n = marks[DIRECTIONS - 1]};
    gen_carrier(&last, g);
    marks[8] = last.n;
    if (g->p->cards.on) {
        sink cards = {.mode = COUNT};
        gen_card_mode(&cards, g->p);
        last.n += cards.n;
    }
    marks[9] = last.n;
    marks[10] = last.n + 1; /* `end` */
    int index = draw_index(random, marks[10]), group = group_of(marks, index);
    if (group < DIRECTIONS)
        return draw_in_direction(g, d, group, group ? marks[group - 1] : 0, index);
    sink draw = {.mode = DRAW, .n = marks[group - 1], .want = index};
    gen_late_group(&draw, g, group);
    return draw.found;
}

/* The counting, once per instruction set. */
#define VEC(name) name##_avx2
#define VEC_HOT AVX2_HOT
#define VEC_ENTRY AVX2
#define VEC_AVX512 0
#include "draw_vector.h"
#undef VEC
#undef VEC_HOT
#undef VEC_ENTRY
#undef VEC_AVX512

#if AVX512_DRAW
#define VEC(name) name##_avx512
#define VEC_HOT AVX512_HOT
#define VEC_ENTRY AVX512
#define VEC_AVX512 1
#include "draw_vector.h"
#undef VEC
#undef VEC_HOT
#undef VEC_ENTRY
#undef VEC_AVX512
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#if VECTOR_DRAW
/* Not instrumented by the sanitizers: the ifunc resolver below and the
 * CPU tests it calls run while the library is being loaded, before the
 * sanitizers' run-times have mapped their memory. */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define LOAD_TIME __attribute__((no_sanitize("address", "undefined")))
#endif
#endif
#ifndef LOAD_TIME
#define LOAD_TIME
#endif

/* The CPU has what a build of the draw needs. AVX2 CPUs have BMI2 too
 * (nth_square_bmi2()); both are checked. The AVX-512 build needs AVX2's
 * too. */
LOAD_TIME static int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2"); }
#if AVX512_DRAW
LOAD_TIME static int cpu_has_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")
        && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vbmi2");
}
#else
static int cpu_has_avx512(void) { return 0; }
static int draw_action_phase_avx512(const pos *p, uint64_t random, uint32_t *action)
{
    (void)p, (void)random, (void)action;
    return 0; /* left out of this build: never called */
}
#endif
#endif

/* The one place that says which build of the draw this CPU gets:
 * AVX-512, then AVX2, then scalar. The ifunc resolver asks it once, when
 * the library is loaded; without ifunc, draw_for_cpu() at each draw. */
#if VECTOR_DRAW
LOAD_TIME static int draw_build_for_cpu(void)
{
    if (!cpu_has_avx2()) /* the AVX-512 test only where AVX2 passed */
        return DRAW_SCALAR;
    return cpu_has_avx512() ? DRAW_AVX512 : DRAW_AVX2;
}
#endif

int draw_action_phase_with(int build, const pos *p, uint64_t random, uint32_t *action)
{
    switch (build) {
    case DRAW_SCALAR:
        return draw_action_phase(p, random, action);
#if VECTOR_DRAW
    case DRAW_AVX2:
        return cpu_has_avx2() && draw_action_phase_avx2(p, random, action);
    case DRAW_AVX512:
        return cpu_has_avx2() && cpu_has_avx512() && draw_action_phase_avx512(p, random, action);
#endif
    default:
        return 0;
    }
}

#if VECTOR_DRAW && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(ifunc)
#define DRAW_IFUNC 1
#endif
#endif
#ifndef DRAW_IFUNC
#define DRAW_IFUNC 0
#endif
#if DRAW_IFUNC
/* Chosen once, by the loader, as GNU ifunc: a CPU test at each draw cost
 * 6 instructions a decision of random games. */
typedef int draw_build(const pos *p, uint64_t random, uint32_t *action);

static int draw_action_phase_scalar(const pos *p, uint64_t random, uint32_t *action)
{
    return draw_action_phase(p, random, action);
}

/* The ifunc resolver: runs while the library is being loaded. `used`:
 * clang does not count the ifunc attribute as a use. */
LOAD_TIME __attribute__((used)) static draw_build *choose_draw(void)
{
    __builtin_cpu_init(); /* a resolver runs before the CPU is known */
    switch (draw_build_for_cpu()) {
    case DRAW_AVX512:
        return draw_action_phase_avx512;
    case DRAW_AVX2:
        return draw_action_phase_avx2;
    default:
        return draw_action_phase_scalar;
    }
}

static int draw_for_cpu(const pos *p, uint64_t random, uint32_t *action) __attribute__((ifunc("choose_draw")));
#else
static int draw_for_cpu(const pos *p, uint64_t random, uint32_t *action)
{
#if VECTOR_DRAW
    switch (draw_build_for_cpu()) {
    case DRAW_AVX512:
        return draw_action_phase_avx512(p, random, action);
    case DRAW_AVX2:
        return draw_action_phase_avx2(p, random, action);
    default:
        break;
    }
#endif
    return draw_action_phase(p, random, action);
}
#endif

/* The draw from the filtered list, in its order (gen_random_action()). */
OUT_OF_LINE int bound_draw(const pos *p, uint64_t random, uint32_t *action)
{
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts);
    if (n)
        *action = acts[draw_index(random, n)];
    return n != 0;
}

int draw_decision(const pos *p, uint64_t random, uint32_t *action)
{
    if (at_turn_bound(p))
        return bound_draw(p, random, action);
    if (p->st.phase != PHASE_ACTION)
        return release_random_solution(p, random, action);
    return draw_for_cpu(p, random, action);
}
