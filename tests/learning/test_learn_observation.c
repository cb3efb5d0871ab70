/* Learning interface, observations and returns (ball.h "Learning
 * interface", docs/learning.md): the planes and scalar features of
 * hand-built positions (stacks, knocked-down pieces, fresh stacks,
 * restriction, loose ball, card mode, turn limit, end-zone depth, both
 * sides to act); every layout (squares or grid, scalars as values or
 * planes) and both variants (float32, packed bits) equal, over random
 * games, an observation built here from the public getters alone;
 * returns of won, lost and drawn games; bad inputs. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "testutil.h"

#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

#define ALL_FLAGS 4 /* the combinations of BALL_OBS_GRID and BALL_OBS_SCALAR_PLANES */
#define MAX_OBS 20111

static float obs[MAX_OBS + 8], want[MAX_OBS + 8];

/* The observation with flags 0 of g. */
static const float *observe(ball_game *g)
{
    ck_assert_int_eq(ball_observation(g, 0, obs, MAX_OBS), BALL_OK);
    return obs;
}

/* Value of plane `plane` at board square `name` (seen by the side to act)
 * in an observation with flags 0. */
static float at(const float *o, ball_game *g, int plane, const char *name)
{
    int sq = ball_square_from_text(name);
    ck_assert_int_ge(sq, 0);
    int c = ball_square_col(sq), r = ball_square_row(sq);
    if (ball_side(g) == BALL_DEF)
        r = 18 - r;
    return o[plane * 111 + ball_square_at(c, r)];
}

static float scalar(const float *o, int s) { return o[BALL_OBS_PLANES * 111 + s]; }

static int ones(const float *o, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += o[i] != 0.0f;
    return k;
}

/* The piece plane of docs/learning.md. */
static int piece_plane(int level, int own, int type, int down)
{
    return BALL_OBS_PIECES + 12 * level + 6 * !own + 2 * (type - 1) + down;
}

/* ---- an independent observation, from the getters and the docs ---- */

static void expected(ball_game *g, int flags, float *out)
{
    int grid = flags & BALL_OBS_GRID, planes_for_scalars = flags & BALL_OBS_SCALAR_PLANES;
    int cells = grid ? 221 : 111;
    int size = ball_observation_size(flags);
    memset(out, 0, (size_t)size * sizeof *out);
    int side = ball_side(g);
    for (int sq = 0; sq < 111; sq++) {
        int c = ball_square_col(sq), r = ball_square_row(sq);
        if (side == BALL_DEF)
            r = 18 - r;
        int cell = grid ? (r - 1) * 13 + (c - 1) : ball_square_at(c, r);
        int up = ball_piece(g, sq, BALL_UPPER), low = ball_piece(g, sq, BALL_LOWER);
        int st = ball_square_state(g, sq);
        if (up)
            out[piece_plane(0, ((up & BALL_PIECE_DEF) != 0) == side, up & BALL_PIECE_TYPE_MASK,
                            (up & BALL_PIECE_DOWN) != 0) * cells + cell] = 1;
        if (low)
            out[piece_plane(1, ((low & BALL_PIECE_DEF) != 0) == side, low & BALL_PIECE_TYPE_MASK,
                            (low & BALL_PIECE_DOWN) != 0) * cells + cell] = 1;
        if (st & BALL_SQ_FRESH)
            out[BALL_OBS_FRESH * cells + cell] = 1;
        if (st & BALL_SQ_BALL)
            out[BALL_OBS_BALL * cells + cell] = 1;
        if (st & BALL_SQ_LOOSE_BALL)
            out[BALL_OBS_LOOSE_BALL * cells + cell] = 1;
        if (up & BALL_PIECE_RESTRICTED)
            out[BALL_OBS_RESTRICTED * cells + cell] = 1;
    }
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    ck_assert_int_eq(ball_game_rules(g, &rules), BALL_OK);
    int f[BALL_OBS_SCALARS] = {0};
    int pa = ball_pa(g);
    f[BALL_SCALAR_DEF] = side == BALL_DEF;
    f[BALL_SCALAR_RELEASE] = ball_phase(g) == BALL_PHASE_RELEASE;
    f[BALL_SCALAR_HANDOFF] = ball_handoff_last(g);
    for (int i = 0; i < 4; i++)
        f[BALL_SCALAR_PA_AT_LEAST + i] = pa >= i + 1;
    for (int i = 0; i < 7; i++)
        f[BALL_SCALAR_PA_BITS + i] = pa >> i & 1;
    if (rules.turn_limit) {
        long left = (long)rules.turn_limit - ball_turn(g) + 1;
        f[BALL_SCALAR_TURN_LIMIT] = 1;
        for (int i = 0; i < 7; i++)
            f[BALL_SCALAR_TURNS_LEFT + i] = left <= (1L << i);
    }
    f[BALL_SCALAR_ZONE] = rules.end_zone_depth >= 2;
    f[BALL_SCALAR_ZONE + 1] = rules.end_zone_depth >= 3;
    if (rules.cards) {
        int own = ball_pe(g, side), other = ball_pe(g, !side);
        own = own > 1023 ? 1023 : own;
        other = other > 1023 ? 1023 : other;
        f[BALL_SCALAR_CARDS] = 1;
        for (int i = 0; i < 10; i++) {
            f[BALL_SCALAR_PE_OWN + i] = own >> i & 1;
            f[BALL_SCALAR_PE_OTHER + i] = other >> i & 1;
        }
        for (int i = 0; i < 9; i++) {
            f[BALL_SCALAR_HAND_OWN + i] = ball_hand(g, side) >> i & 1;
            f[BALL_SCALAR_HAND_OTHER + i] = ball_hand(g, !side) >> i & 1;
        }
    }
    for (int s = 0; s < BALL_OBS_SCALARS; s++) {
        if (planes_for_scalars)
            for (int i = 0; i < cells; i++)
                out[(BALL_OBS_PLANES + s) * cells + i] = (float)f[s];
        else
            out[BALL_OBS_PLANES * cells + s] = (float)f[s];
    }
}

/* Every layout and variant of g's observation equals expected(). */
static void check_all_layouts(ball_game *g)
{
    static uint8_t bits[MAX_OBS / 8 + 8];
    for (int flags = 0; flags < ALL_FLAGS; flags++) {
        int size = ball_observation_size(flags);
        size_t bytes = (size_t)(size + 7) / 8;
        expected(g, flags, want);
        memset(obs, 0x55, sizeof obs);
        REQUIRE(ball_observation(g, flags, obs, (size_t)size) == BALL_OK, "observation");
        for (int i = 0; i < size; i++)
            REQUIRE(obs[i] == want[i], "flags %d: value %d is %g, expected %g", flags, i, obs[i], want[i]);
        REQUIRE(obs[size] != 0.0f, "flags %d: wrote past the end", flags);
        memset(bits, 0x55, sizeof bits);
        REQUIRE(ball_observation_bits(g, flags, bits, bytes) == BALL_OK, "observation bits");
        for (int i = 0; i < size; i++)
            REQUIRE((bits[i >> 3] >> (i & 7) & 1) == (want[i] != 0.0f), "flags %d: bit %d", flags, i);
        for (int i = size; i < (int)bytes * 8; i++)
            REQUIRE(!(bits[i >> 3] >> (i & 7) & 1), "flags %d: padding bit %d set", flags, i);
        REQUIRE(bits[bytes] == 0x55, "flags %d: wrote past the end of the bits", flags);
    }
}

/* ---- tests ---- */

START_TEST(test_sizes)
{
    ck_assert_int_eq(ball_observation_size(0), 28 * 111 + 63);
    ck_assert_int_eq(ball_observation_size(0), 3171);
    ck_assert_int_eq(ball_observation_size(BALL_OBS_GRID), 28 * 221 + 63);
    ck_assert_int_eq(ball_observation_size(BALL_OBS_SCALAR_PLANES), 91 * 111);
    ck_assert_int_eq(ball_observation_size(BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES), 91 * 221);
    ck_assert_int_eq(ball_observation_size(BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES), MAX_OBS);
    ck_assert_int_eq(ball_observation_size(4), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_size(-1), BALL_E_ARG);
    ck_assert_int_eq(BALL_OBS_PLANES, 28);
    ck_assert_int_eq(BALL_OBS_SCALARS, 63);
    ck_assert_int_eq(BALL_OBS_GRID_CELLS, 17 * 13);
}
END_TEST

/* The standard start, DEF to act: DEF's pieces are "own" and the board is
 * flipped (DEF's x on E11 is seen on E7). */
START_TEST(test_start_position)
{
    ball_game *g = tu_game_text(NULL, NULL);
    const float *o = observe(g);
    /* own (DEF) pieces, at their flipped squares */
    ck_assert(o[piece_plane(0, 1, BALL_X, 0) * 111 + ball_square_from_text("E7")] == 1);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_X, 0), "E11") == 1);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_X, 0), "G13") == 1);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_O, 0), "C11") == 1);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_SQUARE, 0), "G15") == 1);
    ck_assert(o[piece_plane(0, 1, BALL_SQUARE, 0) * 111 + ball_square_from_text("G3")] == 1);
    /* the other coach's (ATK's) pieces and the ball they hold */
    ck_assert(at(o, g, piece_plane(0, 0, BALL_X, 0), "G5") == 1);
    ck_assert(o[piece_plane(0, 0, BALL_X, 0) * 111 + ball_square_from_text("G13")] == 1);
    ck_assert(at(o, g, piece_plane(0, 0, BALL_SQUARE, 0), "G3") == 1);
    ck_assert(at(o, g, BALL_OBS_BALL, "G5") == 1);
    ck_assert(at(o, g, BALL_OBS_LOOSE_BALL, "G5") == 0);
    /* scalars: DEF, action phase, PA 2 */
    ck_assert(scalar(o, BALL_SCALAR_DEF) == 1);
    ck_assert(scalar(o, BALL_SCALAR_RELEASE) == 0);
    ck_assert(scalar(o, BALL_SCALAR_PA_AT_LEAST + 0) == 1);
    ck_assert(scalar(o, BALL_SCALAR_PA_AT_LEAST + 1) == 1);
    ck_assert(scalar(o, BALL_SCALAR_PA_AT_LEAST + 2) == 0);
    ck_assert(scalar(o, BALL_SCALAR_PA_BITS + 1) == 1);
    ck_assert(scalar(o, BALL_SCALAR_CARDS) == 0);
    /* 14 pieces, the ball, 4 scalars; nothing else */
    ck_assert_int_eq(ones(o, 3171), 19);
    check_all_layouts(g);
    /* ATK to act after DEF's `end`: not flipped, ATK is own */
    ball_action a;
    ck_assert_int_eq(ball_action_from_text(g, "end", &a), BALL_OK);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    o = observe(g);
    ck_assert(o[piece_plane(0, 1, BALL_X, 0) * 111 + ball_square_from_text("G5")] == 1);
    ck_assert(o[BALL_OBS_BALL * 111 + ball_square_from_text("G5")] == 1);
    ck_assert(o[piece_plane(0, 0, BALL_X, 0) * 111 + ball_square_from_text("E11")] == 1);
    ck_assert(scalar(o, BALL_SCALAR_DEF) == 0);
    ck_assert_int_eq(ones(o, 3171), 18);
    check_all_layouts(g);
    ball_game_free(g);
}
END_TEST

/* A fresh stack (ATK's X blocking DEF's knocked-down o), a knocked-down
 * x, the loose ball. */
START_TEST(test_stack_knocked_down_loose_ball)
{
    ball_game *g = tu_game_text(NULL, "7/6/7/6/7/6/7/6/3[Xo_]+3/2x_3/7/6/3@3/6/7/6/7 ATK a 1 - 0/0 3");
    const float *o = observe(g);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_X, 0), "G9") == 1);  /* upper: own X */
    ck_assert(at(o, g, piece_plane(1, 0, BALL_O, 1), "G9") == 1);  /* lower: their o, down */
    ck_assert(at(o, g, BALL_OBS_FRESH, "G9") == 1);
    ck_assert(at(o, g, piece_plane(0, 0, BALL_X, 1), "F8") == 1);  /* their x, down */
    ck_assert(at(o, g, BALL_OBS_BALL, "G5") == 1);
    ck_assert(at(o, g, BALL_OBS_LOOSE_BALL, "G5") == 1);
    ck_assert(scalar(o, BALL_SCALAR_PA_AT_LEAST) == 1);
    ck_assert(scalar(o, BALL_SCALAR_PA_AT_LEAST + 1) == 0);
    ck_assert(scalar(o, BALL_SCALAR_PA_BITS) == 1);
    ck_assert_int_eq(ones(o, 3171), 8);
    check_all_layouts(g);
    ball_game_free(g);
    /* the same seen by DEF, a stack not fresh (DEF's o upper on ATK's X) */
    g = tu_game_text(NULL, "7/6/7/6/7/6/7/6/3[oX]3/2X_3/7/6/3@3/6/7/6/7 DEF a 2 h 0/0 3");
    o = observe(g);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_O, 0), "G9") == 1);
    ck_assert(at(o, g, piece_plane(1, 0, BALL_X, 0), "G9") == 1);
    ck_assert(at(o, g, BALL_OBS_FRESH, "G9") == 0);
    ck_assert(at(o, g, piece_plane(0, 0, BALL_X, 1), "F8") == 1);
    ck_assert(o[piece_plane(0, 0, BALL_X, 1) * 111 + ball_square_from_text("F10")] == 1);
    ck_assert(at(o, g, BALL_OBS_LOOSE_BALL, "G5") == 1);
    ck_assert(o[BALL_OBS_LOOSE_BALL * 111 + ball_square_from_text("G13")] == 1);
    ck_assert(scalar(o, BALL_SCALAR_DEF) == 1);
    ck_assert(scalar(o, BALL_SCALAR_HANDOFF) == 1);
    check_all_layouts(g);
    ball_game_free(g);
}
END_TEST

/* A restricted carrier, for ATK and for DEF; the release phase. */
START_TEST(test_restricted_and_release)
{
    ball_game *g = tu_game_text(NULL, "7/6/3s3/6/7/6/7/6/7/4S*!1/7/6/7/6/7/6/7 ATK a 1 - 0/0 6");
    const float *o = observe(g);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_SQUARE, 0), "J8") == 1);
    ck_assert(at(o, g, BALL_OBS_RESTRICTED, "J8") == 1);
    ck_assert(at(o, g, BALL_OBS_BALL, "J8") == 1);
    ck_assert(at(o, g, BALL_OBS_LOOSE_BALL, "J8") == 0);
    ck_assert_int_eq(ones(o, 3171), 6); /* 2 pieces, ball, restricted, PA >= 1, PA bit 0 */
    check_all_layouts(g);
    ball_game_free(g);
    g = tu_game_text(NULL, "7/6/3s*!3/6/7/6/7/6/7/4S1/7/6/7/6/7/6/7 DEF a 0 - 0/0 7");
    o = observe(g);
    ck_assert(o[BALL_OBS_RESTRICTED * 111 + ball_square_from_text("G3")] == 1);
    ck_assert(o[piece_plane(0, 1, BALL_SQUARE, 0) * 111 + ball_square_from_text("G3")] == 1);
    ck_assert(o[piece_plane(0, 0, BALL_SQUARE, 0) * 111 + ball_square_from_text("J10")] == 1);
    ck_assert_int_eq(ones(o, 3171), 5); /* 2 pieces, ball, restricted, DEF */
    check_all_layouts(g);
    ball_game_free(g);
    /* release phase: ATK's knocked-down S must stand up */
    g = tu_game_text(NULL, "7/6/3s*3/6/7/6/7/6/7/4S_1/7/6/7/6/7/6/7 ATK r 0 - 0/0 8");
    o = observe(g);
    ck_assert(scalar(o, BALL_SCALAR_RELEASE) == 1);
    ck_assert(at(o, g, piece_plane(0, 1, BALL_SQUARE, 1), "J8") == 1);
    check_all_layouts(g);
    ball_game_free(g);
}
END_TEST

#define DECK "earn.move=1 atk=A:1:pa+1,B:2:again,C:3:pa+2 def=D:1:pa+2,E:5:again"

/* Card mode: PE (capped at 1023), hands, PA above 2; seen by both sides. */
START_TEST(test_card_mode_scalars)
{
    const char *place = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7";
    char bpn[256];
    snprintf(bpn, sizeof bpn, "%s ATK a 37 - 5/1234 4 13/2", place);
    ball_game *g = tu_game_text(DECK, bpn);
    const float *o = observe(g);
    ck_assert(scalar(o, BALL_SCALAR_CARDS) == 1);
    for (int i = 0; i < 4; i++)
        ck_assert(scalar(o, BALL_SCALAR_PA_AT_LEAST + i) == 1);
    for (int i = 0; i < 7; i++) /* 37 = 100101b */
        ck_assert(scalar(o, BALL_SCALAR_PA_BITS + i) == ((37 >> i) & 1));
    for (int i = 0; i < 10; i++) {
        ck_assert(scalar(o, BALL_SCALAR_PE_OWN + i) == ((5 >> i) & 1));
        ck_assert(scalar(o, BALL_SCALAR_PE_OTHER + i) == 1); /* 1234 capped at 1023 */
    }
    ck_assert(scalar(o, BALL_SCALAR_HAND_OWN + 0) == 1);   /* ATK holds 1 and 3 */
    ck_assert(scalar(o, BALL_SCALAR_HAND_OWN + 1) == 0);
    ck_assert(scalar(o, BALL_SCALAR_HAND_OWN + 2) == 1);
    ck_assert(scalar(o, BALL_SCALAR_HAND_OTHER + 0) == 0); /* DEF holds 2 */
    ck_assert(scalar(o, BALL_SCALAR_HAND_OTHER + 1) == 1);
    check_all_layouts(g);
    ball_game_free(g);
    snprintf(bpn, sizeof bpn, "%s DEF a 37 - 5/1234 4 13/2", place);
    g = tu_game_text(DECK, bpn);
    o = observe(g);
    for (int i = 0; i < 10; i++) {
        ck_assert(scalar(o, BALL_SCALAR_PE_OWN + i) == 1);
        ck_assert(scalar(o, BALL_SCALAR_PE_OTHER + i) == ((5 >> i) & 1));
    }
    ck_assert(scalar(o, BALL_SCALAR_HAND_OWN + 0) == 0);
    ck_assert(scalar(o, BALL_SCALAR_HAND_OWN + 1) == 1);
    ck_assert(scalar(o, BALL_SCALAR_HAND_OTHER + 0) == 1);
    ck_assert(scalar(o, BALL_SCALAR_HAND_OTHER + 2) == 1);
    check_all_layouts(g);
    ball_game_free(g);
}
END_TEST

/* Turn limit (turns left including this one) and end-zone depth. */
START_TEST(test_turn_limit_and_zone)
{
    const char *place = "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7";
    static const struct { int turn, first; } cases[] = {{10, 0}, {9, 1}, {7, 2}, {3, 3}, {1, 4}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char bpn[256];
        snprintf(bpn, sizeof bpn, "%s %s a 2 - 0/0 %d", place, cases[k].turn % 2 ? "DEF" : "ATK",
                 cases[k].turn);
        ball_game *g = tu_game_text("turns=10 zone=2", bpn);
        const float *o = observe(g);
        ck_assert(scalar(o, BALL_SCALAR_TURN_LIMIT) == 1);
        /* 10 - turn + 1 left: at most 2^i for i >= first */
        for (int i = 0; i < 7; i++)
            ck_assert_msg(scalar(o, BALL_SCALAR_TURNS_LEFT + i) == (i >= cases[k].first),
                          "turn %d, i %d", cases[k].turn, i);
        ck_assert(scalar(o, BALL_SCALAR_ZONE) == 1);
        ck_assert(scalar(o, BALL_SCALAR_ZONE + 1) == 0);
        check_all_layouts(g);
        ball_game_free(g);
    }
    ball_game *g = tu_game_text("zone=3", NULL);
    const float *o = observe(g);
    ck_assert(scalar(o, BALL_SCALAR_TURN_LIMIT) == 0);
    for (int i = 0; i < 7; i++)
        ck_assert(scalar(o, BALL_SCALAR_TURNS_LEFT + i) == 0);
    ck_assert(scalar(o, BALL_SCALAR_ZONE) == 1);
    ck_assert(scalar(o, BALL_SCALAR_ZONE + 1) == 1);
    ball_game_free(g);
}
END_TEST

/* The grid layout puts square (c, r) of the frame at cell 13 (r - 1) +
 * c - 1; scalar planes are constant. */
START_TEST(test_grid_and_scalar_planes)
{
    ball_game *g = tu_game_text(NULL, NULL);
    static float grid[MAX_OBS];
    ck_assert_int_eq(ball_observation(g, BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES, grid, MAX_OBS), BALL_OK);
    /* DEF's x on E11 -> frame E7 -> cell 13 * 6 + 4 */
    ck_assert(grid[piece_plane(0, 1, BALL_X, 0) * 221 + 13 * 6 + 4] == 1);
    /* unplayable cells are 0 in the spatial planes */
    for (int p = 0; p < BALL_OBS_PLANES; p++)
        for (int r = 1; r <= 17; r++)
            for (int c = 1; c <= 13; c++)
                if ((r + c) % 2)
                    ck_assert(grid[p * 221 + (r - 1) * 13 + c - 1] == 0);
    for (int i = 0; i < 221; i++) {
        ck_assert(grid[(BALL_OBS_PLANES + BALL_SCALAR_DEF) * 221 + i] == 1);
        ck_assert(grid[(BALL_OBS_PLANES + BALL_SCALAR_RELEASE) * 221 + i] == 0);
    }
    ball_game_free(g);
}
END_TEST

/* Random games under several rulesets: every layout equals expected(). */
START_TEST(test_random_positions_all_layouts)
{
    static const char *const rules[] = {NULL, "zone=2 turns=30", "zone=3", DECK " earn.pickup=3 earn.dodge=2"};
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++)
        for (int game = 0; game < 6; game++) {
            ball_game *g = tu_game_text(rules[r], NULL);
            uint64_t s = 0x9e3779b9u + 31u * (uint64_t)game + 1000u * r;
            for (int d = 0; d < 300 && ball_result(g) == BALL_ONGOING; d++) {
                if (d % 3 == 0)
                    check_all_layouts(g);
                ball_action a;
                REQUIRE(ball_random_action(g, tu_random(&s), &a) == BALL_OK, "draw");
                REQUIRE(ball_apply(g, a) == BALL_OK, "apply");
            }
            check_all_layouts(g);
            ball_game_free(g);
        }
}
END_TEST

START_TEST(test_returns)
{
    float ret[2] = {7, 7};
    ball_game *g = tu_game_text(NULL, NULL);
    ck_assert_int_eq(ball_returns(g, ret), BALL_NOT_TERMINAL);
    ck_assert(ret[BALL_ATK] == 0 && ret[BALL_DEF] == 0);
    ck_assert_int_eq(ball_returns(g, NULL), BALL_NOT_TERMINAL);
    ck_assert_int_eq(ball_returns(NULL, ret), BALL_E_ARG);
    ball_game_free(g);
    /* ATK's carrier in row 17: ATK won */
    g = tu_game_text(NULL, "3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/3x3 ATK a 1 - 0/0 9");
    ck_assert_int_eq(ball_returns(g, ret), BALL_TERMINAL_TOUCHDOWN);
    ck_assert(ret[BALL_ATK] == 1 && ret[BALL_DEF] == -1);
    ball_game_free(g);
    /* DEF's carrier in row 2 with end zones 2 deep: DEF won */
    g = tu_game_text("zone=2", "3X3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/2x*3/7 DEF a 1 - 0/0 10");
    ck_assert_int_eq(ball_returns(g, ret), BALL_TERMINAL_TOUCHDOWN);
    ck_assert(ret[BALL_ATK] == -1 && ret[BALL_DEF] == 1);
    ball_game_free(g);
    /* past the turn limit: drawn */
    g = tu_game_text("turns=5", "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 6");
    ck_assert_int_eq(ball_result(g), BALL_DRAW);
    ret[0] = ret[1] = 7;
    ck_assert_int_eq(ball_returns(g, ret), BALL_TERMINAL_TURN_LIMIT);
    ck_assert(ret[BALL_ATK] == 0 && ret[BALL_DEF] == 0);
    ball_game_free(g);
    /* reached by play: DEF's last turn ends */
    g = tu_game_text("turns=1", NULL);
    ball_action a;
    ck_assert_int_eq(ball_action_from_text(g, "end", &a), BALL_OK);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_assert_int_eq(ball_returns(g, ret), BALL_TERMINAL_TURN_LIMIT);
    ball_game_free(g);
}
END_TEST

START_TEST(test_bad_inputs)
{
    ball_game *g = tu_game_text(NULL, NULL);
    uint8_t bits[MAX_OBS / 8 + 1];
    ck_assert_int_eq(ball_observation(NULL, 0, obs, MAX_OBS), BALL_E_ARG);
    ck_assert_int_eq(ball_observation(g, 0, NULL, MAX_OBS), BALL_E_ARG);
    ck_assert_int_eq(ball_observation(g, 8, obs, MAX_OBS), BALL_E_ARG);
    ck_assert_int_eq(ball_observation(g, 0, obs, 3170), BALL_E_BUFFER);
    ck_assert_int_eq(ball_observation(g, 0, obs, 3171), BALL_OK);
    ck_assert_int_eq(ball_observation(g, BALL_OBS_GRID, obs, 6250), BALL_E_BUFFER);
    ck_assert_int_eq(ball_observation_bits(NULL, 0, bits, sizeof bits), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_bits(g, 0, NULL, sizeof bits), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_bits(g, 16, bits, sizeof bits), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_bits(g, 0, bits, 396), BALL_E_BUFFER);
    ck_assert_int_eq(ball_observation_bits(g, 0, bits, 397), BALL_OK);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("learn_observation");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_sizes);
    tcase_add_test(tc, test_start_position);
    tcase_add_test(tc, test_stack_knocked_down_loose_ball);
    tcase_add_test(tc, test_restricted_and_release);
    tcase_add_test(tc, test_card_mode_scalars);
    tcase_add_test(tc, test_turn_limit_and_zone);
    tcase_add_test(tc, test_grid_and_scalar_planes);
    tcase_add_test(tc, test_random_positions_all_layouts);
    tcase_add_test(tc, test_returns);
    tcase_add_test(tc, test_bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
