/* ball_random_action() draws the legal action numbered floor(r * n / 2^64)
 * of the n legal ones, in the generator's count order (ball.h,
 * libball/movegen.c). Every seeded game, record, diagram and fuzz corpus
 * depends on that exact choice, so the draw may get faster but never
 * different. Two checks, over about a million positions of random games
 * under every kind of ruleset (end-zone depths, turn limits, card decks)
 * in both phases:
 *
 * - an oracle: the count order rebuilt from the legal list alone through
 *   the public accessors (the rank of each drawn action among the legal
 *   ones must be the drawn number; in the release phase the drawn action
 *   is the list's), for several numbers per position and for every number
 *   of one position in eight;
 * - a digest of every action drawn, against the value the library gave
 *   before the draw was rewritten (libball 1.0.0): the oracle could share
 *   a mistake with the library, the digest cannot.
 *
 * The library draws with one of up to three builds of the same code,
 * chosen for the CPU (scalar; AVX2; AVX-512): in the action phase every
 * draw is also made with each build the CPU can run, called one by one
 * through the library's internal hook, and must be the same. So a CPU with
 * AVX-512 checks all three here; `make check-valgrind` (valgrind has no
 * AVX-512) checks the other two as the library's choice, and the builds
 * that define BALL_NO_CPU_DISPATCH (the coverage and TSan gates) or
 * BALL_NO_VECTOR_DRAW the scalar one alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "../../libball/game.h"    /* the position inside a game, */
#include "../../libball/movegen_draw.h" /* draw_action_phase_with(): internal, linked from libball.a */

/* splitmix64: the random numbers of these games. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The number ball_random_action() draws among n with r. */
static int drawn_index(uint64_t r, int n)
{
    return (int)(((unsigned __int128)r * (unsigned)n) >> 64);
}

/* The groups of the count order: the pieces' decisions one direction at a
 * time (0-3: 1 and 2 squares diagonally down-left, down-right, up-left,
 * up-right; 4-7: 2 squares down, left, right, up), then the carrier's
 * (8), the card-mode ones (9) and `end` (10). A direction is told by the
 * difference of the dense square indices, the same from every square. */
static int direction_group(int delta)
{
    switch (delta) {
    case -7: case -14: return 0;
    case -6: case -12: return 1;
    case 6: case 12: return 2;
    case 7: case 14: return 3;
    case -13: return 4;
    case -1: return 5;
    case 1: return 6;
    case 13: return 7;
    default: return -1;
    }
}

/* Where an action-phase decision stands in the count order: its group,
 * then within a direction the 1-square moves, protections and blocks,
 * the 2-square moves onto open squares, the dodges (by target: the exit
 * that picks up the ball first, then the exits) and the tactical dodges
 * (by landing, then push square), each by square (dense order is the
 * bitboards' bit order); the carrier's hand-offs, short passes and long
 * passes; conversions, then cards. */
static uint64_t order_key(ball_action a)
{
    int kind = ball_action_kind(a), from = ball_action_from(a), to = ball_action_to(a);
    int option = ball_action_option(a), group, sub = 0, second = 0;
    switch (kind) {
    case BALL_MOVE: case BALL_PROTECT: case BALL_BLOCK: case BALL_DODGE: case BALL_TACTICAL_DODGE: {
        int delta = to - from, step = abs(delta) == 6 || abs(delta) == 7;
        group = direction_group(delta);
        tu_require(group >= 0);
        if (kind == BALL_DODGE) {
            sub = 2;
            second = ball_action_flags(a) & BALL_FLAG_PICKUP ? 0 : 1 + option;
        } else if (kind == BALL_TACTICAL_DODGE) {
            sub = 3;
            second = option;
        } else {
            sub = !step;
        }
        break;
    }
    case BALL_HANDOFF: case BALL_SHORT_PASS: case BALL_LONG_PASS:
        group = 8;
        sub = kind - BALL_HANDOFF;
        break;
    case BALL_CONVERT_PA: case BALL_PLAY_CARD:
        group = 9;
        sub = kind == BALL_PLAY_CARD;
        to = ball_action_value(a);
        break;
    case BALL_END:
        group = 10;
        to = 0;
        break;
    default:
        ck_abort_msg("action 0x%08x of kind %d in the action phase", (unsigned)a, kind);
    }
    return (uint64_t)group << 40 | (uint64_t)sub << 32 | (uint64_t)to << 16 | (uint64_t)second;
}

/* One position: its legal list and, in the action phase, the list
 * sorted by order_key() (the oracle's count order). */
typedef struct position {
    ball_game *g;
    ball_action acts[BALL_MAX_ACTIONS], sorted[BALL_MAX_ACTIONS];
    int n, release;
} position;

/* Reads the position; the keys must order its decisions strictly (no two
 * tie), so that they say where each one stands. */
static void read_position(position *p)
{
    uint64_t keys[BALL_MAX_ACTIONS];
    p->n = ball_legal_actions(p->g, p->acts, BALL_MAX_ACTIONS);
    p->release = ball_phase(p->g) == BALL_PHASE_RELEASE;
    if (p->release)
        return;
    for (int i = 0; i < p->n; i++) { /* insertion sort: n is about 55 */
        uint64_t key = order_key(p->acts[i]);
        int j = i;
        for (; j > 0 && keys[j - 1] > key; j--) {
            keys[j] = keys[j - 1];
            p->sorted[j] = p->sorted[j - 1];
        }
        tu_require(j == 0 || keys[j - 1] != key);
        keys[j] = key;
        p->sorted[j] = p->acts[i];
    }
}

/* The oracle's action number k. */
static ball_action oracle(const position *p, int k)
{
    return p->release ? p->acts[k] : p->sorted[k];
}

/* What the checks saw: draws by group of the count order (11: the
 * release phase), and the digest of every drawn action (FNV-1a over the
 * 32-bit values). */
typedef struct seen {
    long positions, draws[12], builds[DRAW_BUILDS];
    uint64_t digest;
} seen;

/* Each build of the action-phase draw that the CPU can run draws a with
 * r too. */
static void check_builds(const position *p, uint64_t r, ball_action a, seen *s)
{
    for (int b = 0; b < DRAW_BUILDS; b++) {
        uint32_t x = 0;
        if (!draw_action_phase_with(b, &p->g->p, r, &x))
            continue;
        if (x != a) /* not ck_assert_msg(), which costs a system call each time (Check's mark point) */
            ck_abort_msg("r=0x%016llx: build %d draws 0x%08x, the library 0x%08x", (unsigned long long)r, b,
                         (unsigned)x, (unsigned)a);
        s->builds[b]++;
    }
}

/* Draws with r and checks the draw against the oracle. */
static ball_action check_draw(const position *p, uint64_t r, seen *s)
{
    ball_action a = BALL_ACTION_NONE;
    tu_require(ball_random_action(p->g, r, &a) == BALL_OK);
    int k = drawn_index(r, p->n);
    ball_action want = oracle(p, k);
    if (a != want) /* as in check_builds() */
        ck_abort_msg("r=0x%016llx draws 0x%08x, number %d of %d is 0x%08x", (unsigned long long)r, (unsigned)a, k,
                     p->n, (unsigned)want);
    if (!p->release)
        check_builds(p, r, a, s);
    s->digest = (s->digest ^ a) * 0x100000001B3ull;
    s->draws[p->release ? 11 : order_key(a) >> 40]++;
    return a;
}

/* Every number 0 ... n-1 once, with the smallest r that draws it. */
static void check_every_draw(const position *p, seen *s)
{
    for (int k = 0; k < p->n; k++) {
        unsigned __int128 r = ((unsigned __int128)k << 64) / (unsigned)p->n;
        if ((r * (unsigned)p->n) >> 64 < (unsigned)k) /* round up */
            r++;
        check_draw(p, (uint64_t)r, s);
    }
}

/* The decision played: the one drawn with the next number, or, in the
 * games that seek the ball, a pickup, hand-off or pass when there is one
 * (half of the time), so that carriers and their decisions are common. */
static ball_action choose(const position *p, uint64_t *rng, int seek_ball, seen *s)
{
    ball_action drawn = check_draw(p, next(rng), s);
    if (!seek_ball || (next(rng) & 1))
        return drawn;
    int found[BALL_MAX_ACTIONS], m = 0;
    for (int i = 0; i < p->n; i++) {
        int kind = ball_action_kind(p->acts[i]);
        if ((ball_action_flags(p->acts[i]) & BALL_FLAG_PICKUP) || kind == BALL_HANDOFF
            || kind == BALL_SHORT_PASS || kind == BALL_LONG_PASS)
            found[m++] = i;
    }
    return m ? p->acts[found[next(rng) % (uint64_t)m]] : drawn;
}

/* The rulesets of the games: end-zone depths, turn limits, and card decks
 * whose PE come quickly, so that conversions and cards are common. */
static const char *const RULESETS[] = {
    "turns=200",
    "zone=2 turns=120",
    "zone=3",
    TU_DECK " earn.move=1 earn.pickup=2 earn.dodge=2 earn.block=1",
    "zone=2 turns=90 earn.move=1 earn.dodge=1 earn.standup=1 atk=Run:2:pa+3,Free:1:again,Go:3:pa+1 "
    "def=Run:2:pa+3,Free:0:again",
};
#define NRULESETS (int)(sizeof RULESETS / sizeof *RULESETS)

/* `games` games of each ruleset. */
static void play_games(int games, seen *s)
{
    static position p;
    for (int rs = 0; rs < NRULESETS; rs++) {
        for (int i = 0; i < games; i++) {
            uint64_t rng = 0x5EED0000ull + (uint64_t)rs * 1000003u + (uint64_t)i;
            p.g = tu_game_text(RULESETS[rs], NULL);
            for (int d = 0; d < 1500; d++) {
                read_position(&p);
                if (p.n == 0)
                    break;
                s->positions++;
                check_draw(&p, 0, s);
                check_draw(&p, UINT64_MAX, s);
                check_draw(&p, next(&rng), s);
                if (s->positions % 8 == 0)
                    check_every_draw(&p, s);
                /* a legal decision: the drawn one, or one of the list */
                tu_require(ball_apply_unchecked(p.g, choose(&p, &rng, i % 2, s)) == BALL_OK);
            }
            ball_game_free(p.g);
        }
    }
}

/* The digest of every draw of play_games(games), as libball 1.0.0 drew
 * them, before the draw was rewritten: 400 games of each ruleset, or 20
 * when BALL_TEST_QUICK is set (make check-valgrind: the full run takes
 * over ten minutes under memcheck). */
static const struct size {
    int games;
    long min_positions, min_draws;
    uint64_t digest;
} FULL = {400, 1000000, 1000, 0x5e7a050de77161e1ull},
  QUICK = {20, 50000, 30, 0x1e9c4e0239a168fbull};

START_TEST(test_random_draw_is_unchanged)
{
    const char *q = getenv("BALL_TEST_QUICK");
    const struct size *z = q != NULL && *q != '\0' && strcmp(q, "0") != 0 ? &QUICK : &FULL;
    seen s = {.digest = 0xCBF29CE484222325ull};
    long draws = 0;
    play_games(z->games, &s);
    printf("random draw: %d games a ruleset, %ld positions, digest 0x%016llx; draws by group:",
           z->games, s.positions, (unsigned long long)s.digest);
    for (int i = 0; i < 12; i++) {
        printf(" %ld", s.draws[i]);
        draws += s.draws[i];
        ck_assert_int_ge(s.draws[i], z->min_draws); /* every group, and the release phase, often */
    }
    printf(" (%ld); also drawn by each build (scalar, AVX2, AVX-512): %ld %ld %ld\n", draws,
           s.builds[DRAW_SCALAR], s.builds[DRAW_AVX2], s.builds[DRAW_AVX512]);
    fflush(stdout);
    ck_assert_int_ge(s.positions, z->min_positions);
    ck_assert_int_eq(s.builds[DRAW_SCALAR], draws - s.draws[11]); /* every action-phase draw */
    ck_assert_msg(s.digest == z->digest, "the draws changed: digest 0x%016llx, expected 0x%016llx",
                  (unsigned long long)s.digest, (unsigned long long)z->digest);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("random draw");
    TCase *tc = tcase_create("identity");
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, test_random_draw_is_unchanged);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
