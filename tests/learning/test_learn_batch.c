/* Learning interface, batched stepping (ball.h ::ball_batch,
 * docs/learning.md): a batch steps, game by game, exactly like single
 * games played with the same seeds (random decisions drawn from the
 * documented splitmix64 streams) or with the same caller's indices,
 * through automatic resets; every output (observations in floats and
 * bits, masks in bytes and bits, rewards, done flags, indices played,
 * sides) equals what the single-game calls give; bad inputs (batch size
 * 0, index out of range, illegal index, buffers too small or misaligned,
 * wrong counts) are refused with clear messages and change nothing. */
#define _GNU_SOURCE /* mallinfo2() */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "testutil.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define HAVE_MALLINFO2 1
#endif

#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

static ball_rules rules_of(const char *text, ball_cardset **cards)
{
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    char err[256];
    *cards = NULL;
    if (text)
        ck_assert_msg(ball_rules_from_text(&r, cards, text, err, sizeof err) == BALL_OK, "%s", err);
    return r;
}

static ball_batch *new_batch(int n, const char *rules, int flags)
{
    ball_cardset *cards;
    ball_rules r = rules_of(rules, &cards);
    ball_batch *b;
    char err[256];
    ck_assert_msg(ball_batch_new(&b, n, &r, flags, err, sizeof err) == BALL_OK, "%s", err);
    ball_cardset_free(cards);
    return b;
}

/* splitmix64, as docs/learning.md gives it. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* All outputs of a batch of n games, bound. */
typedef struct outputs {
    int n, obs_size;
    size_t obs_bytes;
    float *obs;
    uint8_t *obs_bits;
    uint8_t *mask;
    uint8_t *mask_bits;
    float *rewards;
    uint8_t *done;
    int32_t *actions;
    uint8_t *side;
} outputs;

static void bind_all(ball_batch *b, outputs *o, int flags)
{
    int n = ball_batch_size(b);
    o->n = n;
    o->obs_size = ball_observation_size(flags);
    o->obs_bytes = (size_t)(o->obs_size + 7) / 8;
    o->obs = calloc((size_t)n * (size_t)o->obs_size, sizeof(float));
    o->obs_bits = calloc((size_t)n, o->obs_bytes);
    o->mask = calloc((size_t)n, BALL_ACTION_SPACE);
    o->mask_bits = calloc((size_t)n, BALL_ACTION_MASK_BYTES);
    o->rewards = calloc((size_t)n * 2, sizeof(float));
    o->done = calloc((size_t)n, 1);
    o->actions = calloc((size_t)n, sizeof(int32_t));
    o->side = calloc((size_t)n, 1);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_OBS, o->obs, (size_t)n * (size_t)o->obs_size * 4), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_OBS_BITS, o->obs_bits, (size_t)n * o->obs_bytes), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_MASK, o->mask, (size_t)n * BALL_ACTION_SPACE), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_MASK_BITS, o->mask_bits,
                                           (size_t)n * BALL_ACTION_MASK_BYTES), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_REWARDS, o->rewards, (size_t)n * 8), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_DONE, o->done, (size_t)n), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_ACTIONS, o->actions, (size_t)n * 4), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_SIDE, o->side, (size_t)n), BALL_OK);
}

static void free_outputs(outputs *o)
{
    free(o->obs);
    free(o->obs_bits);
    free(o->mask);
    free(o->mask_bits);
    free(o->rewards);
    free(o->done);
    free(o->actions);
    free(o->side);
}

/* Game i's outputs equal those of the single game g. */
static void compare(const ball_batch *b, const outputs *o, int i, ball_game *g, int flags, int32_t played,
                    int end, const float ret[2])
{
    static float obs[20111 + 8];
    static uint8_t bits[20111 / 8 + 8], mask[BALL_ACTION_SPACE], mask_bits[BALL_ACTION_MASK_BYTES];
    char bpn[BALL_BPN_MAX], batch_bpn[BALL_BPN_MAX];
    ball_position_to_text(g, bpn, sizeof bpn);
    REQUIRE(ball_batch_position_to_text(b, i, batch_bpn, sizeof batch_bpn) > 0, "batch BPN");
    REQUIRE(strcmp(bpn, batch_bpn) == 0, "game %d: batch at %s, single game at %s", i, batch_bpn, bpn);
    REQUIRE(ball_observation(g, flags, obs, sizeof obs / sizeof obs[0]) == BALL_OK, "obs");
    REQUIRE(memcmp(obs, o->obs + (size_t)i * (size_t)o->obs_size, (size_t)o->obs_size * 4) == 0,
            "game %d: observation differs", i);
    REQUIRE(ball_observation_bits(g, flags, bits, sizeof bits) == BALL_OK, "bits");
    REQUIRE(memcmp(bits, o->obs_bits + (size_t)i * o->obs_bytes, o->obs_bytes) == 0,
            "game %d: observation bits differ", i);
    REQUIRE(ball_legal_mask(g, mask, sizeof mask, 0) >= 0, "mask");
    REQUIRE(memcmp(mask, o->mask + (size_t)i * BALL_ACTION_SPACE, BALL_ACTION_SPACE) == 0,
            "game %d: mask differs", i);
    REQUIRE(ball_legal_mask(g, mask_bits, sizeof mask_bits, BALL_MASK_BITS) >= 0, "mask bits");
    REQUIRE(memcmp(mask_bits, o->mask_bits + (size_t)i * BALL_ACTION_MASK_BYTES, BALL_ACTION_MASK_BYTES) == 0,
            "game %d: mask bits differ", i);
    REQUIRE(o->side[i] == ball_side(g), "game %d: side", i);
    REQUIRE(o->actions[i] == played, "game %d: played %d, expected %d", i, o->actions[i], played);
    REQUIRE(o->done[i] == end, "game %d: done %d, expected %d", i, o->done[i], end);
    REQUIRE(o->rewards[2 * i] == ret[0] && o->rewards[2 * i + 1] == ret[1], "game %d: rewards %g %g", i,
            o->rewards[2 * i], o->rewards[2 * i + 1]);
}

/* B games of the batch against B single games for `steps` steps; with
 * `caller` the indices are chosen here (uniformly among the legal ones
 * by a test generator), else the batch draws them. */
static void run_equivalence(const char *rules, int n, int flags, uint64_t seed, int steps, int caller,
                            int want_touchdown)
{
    ball_batch *b = new_batch(n, rules, flags);
    outputs o;
    bind_all(b, &o, flags);
    ball_game **g = calloc((size_t)n, sizeof *g);
    uint64_t *state = calloc((size_t)n, sizeof *state);
    int32_t *indices = calloc((size_t)n, sizeof *indices);
    uint64_t seeder = seed, pick = seed ^ 0x5555;
    for (int i = 0; i < n; i++) {
        g[i] = tu_game_text(rules, NULL);
        state[i] = splitmix64(&seeder); /* output i + 1 of `seed` */
    }
    static const float zero[2] = {0, 0};
    ck_assert_int_eq(ball_batch_reset(b, seed), BALL_OK);
    for (int i = 0; i < n; i++)
        compare(b, &o, i, g[i], flags, -1, 0, zero);
    int ends[4] = {0, 0, 0, 0};
    for (int step = 0; step < steps; step++) {
        if (caller)
            for (int i = 0; i < n; i++) {
                int32_t legal[BALL_MAX_ACTIONS];
                int k = ball_legal_indices(g[i], legal, BALL_MAX_ACTIONS);
                REQUIRE(k > 0, "a game of the batch is over");
                indices[i] = legal[tu_random(&pick) % (uint64_t)k];
            }
        int rc = ball_batch_step(b, caller ? indices : NULL, caller ? (size_t)n : 0);
        REQUIRE(rc >= 0, "step %d: %d %s", step, rc, ball_batch_errmsg(b));
        int ended = 0;
        for (int i = 0; i < n; i++) {
            ball_action a;
            int32_t played;
            if (caller) {
                played = indices[i];
                REQUIRE(ball_action_from_index(g[i], played, &a) == BALL_OK, "decode");
            }
            else {
                REQUIRE(ball_random_action(g[i], splitmix64(&state[i]), &a) == BALL_OK, "draw");
                played = ball_action_to_index(g[i], a);
            }
            REQUIRE(ball_apply(g[i], a) == BALL_OK, "apply");
            float ret[2];
            int end = ball_returns(g[i], ret);
            if (end) {
                ended++;
                ends[end]++;
                ball_game_free(g[i]);
                g[i] = tu_game_text(rules, NULL);
            }
            compare(b, &o, i, g[i], flags, played, end, ret);
        }
        REQUIRE(rc == ended, "step %d: %d games ended, batch says %d", step, ended, rc);
    }
    fprintf(stderr, "learn_batch: %s, %d games x %d steps%s: %d touchdowns, %d turn limits\n",
            rules ? rules : "default rules", n, steps, caller ? " (caller's indices)" : "",
            ends[BALL_TERMINAL_TOUCHDOWN], ends[BALL_TERMINAL_TURN_LIMIT]);
    /* the run went through resets of both kinds */
    if (want_touchdown)
        ck_assert_int_gt(ends[BALL_TERMINAL_TOUCHDOWN], 0);
    if (rules && strstr(rules, "turns="))
        ck_assert_int_gt(ends[BALL_TERMINAL_TURN_LIMIT], 0);
    /* a clone of a batch game is that game */
    for (int i = 0; i < n; i++) {
        ball_game *c;
        ck_assert_int_eq(ball_batch_game_clone(b, i, &c), BALL_OK);
        char x[BALL_BPN_MAX], y[BALL_BPN_MAX];
        ball_position_to_text(c, x, sizeof x);
        ball_position_to_text(g[i], y, sizeof y);
        ck_assert_str_eq(x, y);
        ck_assert_int_eq(ball_history_length(c), 0);
        ck_assert_int_eq(ball_legal_actions(c, NULL, 0), ball_legal_actions(g[i], NULL, 0));
        ball_game_free(c);
        ball_game_free(g[i]);
    }
    free(g);
    free(state);
    free(indices);
    free_outputs(&o);
    ball_batch_free(b);
}

START_TEST(test_random_equals_single_games)
{
    run_equivalence("zone=3 turns=150", 8, 0, 42, 3000, 0, 1);
}
END_TEST

START_TEST(test_random_equals_single_games_cards_grid)
{
    run_equivalence("zone=3 turns=150 earn.move=1 earn.pickup=2 atk=A:1:pa+2,B:0:again def=C:2:pa+3",
                    5, BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES, 7, 3000, 0, 1);
}
END_TEST

START_TEST(test_caller_indices_equal_single_games)
{
    run_equivalence("zone=3 turns=150", 6, BALL_OBS_SCALAR_PLANES, 99, 3000, 1, 1);
    run_equivalence("turns=10", 3, BALL_OBS_GRID, 1, 500, 1, 0);
}
END_TEST

/* The same seed gives the same games; another seed other games. */
START_TEST(test_seeds)
{
    int32_t a1[16], a2[16];
    ball_batch *b = new_batch(16, NULL, 0);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_ACTIONS, a1, sizeof a1), BALL_OK);
    ck_assert_int_eq(ball_batch_reset(b, 5), BALL_OK);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(a1[i], -1);
    ck_assert_int_eq(ball_batch_step(b, NULL, 0), 0);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_ACTIONS, a2, sizeof a2), BALL_OK);
    ck_assert_int_eq(ball_batch_reset(b, 5), BALL_OK);
    ck_assert_int_eq(ball_batch_step(b, NULL, 0), 0);
    ck_assert(memcmp(a1, a2, sizeof a1) == 0);
    ck_assert_int_eq(ball_batch_reset(b, 6), BALL_OK);
    ck_assert_int_eq(ball_batch_step(b, NULL, 0), 0);
    ck_assert(memcmp(a1, a2, sizeof a1) != 0);
    /* games of one batch differ from each other */
    int same = 1;
    for (int i = 1; i < 16; i++)
        same &= a2[i] == a2[0];
    ck_assert(!same);
    ball_batch_free(b);
}
END_TEST

START_TEST(test_bad_inputs)
{
    ball_batch *b;
    char err[256];
    /* creation */
    ck_assert_int_eq(ball_batch_new(NULL, 4, NULL, 0, err, sizeof err), BALL_E_ARG);
    b = (ball_batch *)1;
    ck_assert_int_eq(ball_batch_new(&b, 0, NULL, 0, err, sizeof err), BALL_E_RANGE);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(err, "batch size 0") != NULL, "%s", err);
    ck_assert_int_eq(ball_batch_new(&b, -3, NULL, 0, NULL, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_batch_new(&b, BALL_BATCH_MAX + 1, NULL, 0, err, sizeof err), BALL_E_RANGE);
    ck_assert_int_eq(ball_batch_new(&b, 4, NULL, 4, err, sizeof err), BALL_E_ARG);
    ck_assert_msg(strstr(err, "flags") != NULL, "%s", err);
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    r.end_zone_depth = 5;
    ck_assert_int_eq(ball_batch_new(&b, 4, &r, 0, err, sizeof err), BALL_E_RANGE);
    ck_assert_msg(strstr(err, "end-zone depth") != NULL, "%s", err);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(ball_batch_size(NULL), BALL_E_ARG);
    ck_assert_str_eq(ball_batch_errmsg(NULL), "");
    ball_batch_free(NULL);

    b = new_batch(3, NULL, 0);
    ck_assert_int_eq(ball_batch_size(b), 3);
    /* outputs */
    static uint8_t buf[3 * BALL_ACTION_SPACE + 8];
    ck_assert_int_eq(ball_batch_set_output(NULL, BALL_OUT_DONE, buf, 3), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_set_output(b, -1, buf, 3), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_COUNT, buf, 3), BALL_E_ARG);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "unknown batch output") != NULL, "%s", ball_batch_errmsg(b));
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_MASK, buf, 3 * BALL_ACTION_SPACE - 1), BALL_E_BUFFER);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "BALL_OUT_MASK needs 23970 bytes") != NULL, "%s",
                  ball_batch_errmsg(b));
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_OBS, buf, 3 * 3171 * 4 - 1), BALL_E_BUFFER);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_ACTIONS, buf + 1, 16), BALL_E_ARG);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "aligned") != NULL, "%s", ball_batch_errmsg(b));
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_DONE, buf + 1, 3), BALL_OK); /* bytes: any address */
    ck_assert_str_eq(ball_batch_errmsg(b), "");
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_DONE, NULL, 0), BALL_OK); /* unbind */
    int32_t played[3];
    uint8_t done[3];
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_ACTIONS, played, sizeof played), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_DONE, done, sizeof done), BALL_OK);
    ck_assert_int_eq(ball_batch_reset(NULL, 1), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_reset(b, 1), BALL_OK);

    /* steps: wrong counts, out of range, illegal; nothing changes */
    char before[3][BALL_BPN_MAX], after[BALL_BPN_MAX];
    for (int i = 0; i < 3; i++)
        ck_assert_int_gt(ball_batch_position_to_text(b, i, before[i], sizeof before[i]), 0);
    memset(played, 0x77, sizeof played);
    memset(done, 0x77, sizeof done);
    int32_t idx[3] = {41, 41, 41}; /* E11-F10 for DEF at the start */
    ck_assert_int_eq(ball_batch_step(NULL, idx, 3), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_step(b, idx, 2), BALL_E_BUFFER);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "2 action indices for a batch of 3") != NULL, "%s",
                  ball_batch_errmsg(b));
    ck_assert_int_eq(ball_batch_step(b, NULL, 3), BALL_E_ARG);
    idx[2] = BALL_ACTION_SPACE;
    ck_assert_int_eq(ball_batch_step(b, idx, 3), BALL_E_RANGE);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "game 2: action index 7990 out of range 0-7989") != NULL, "%s",
                  ball_batch_errmsg(b));
    idx[2] = -1;
    ck_assert_int_eq(ball_batch_step(b, idx, 3), BALL_E_RANGE);
    idx[2] = 41;
    idx[1] = 0; /* a step from A17: nobody there */
    ck_assert_int_eq(ball_batch_step(b, idx, 3), BALL_E_ILLEGAL);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "game 1: action index 0") != NULL
                  && strstr(ball_batch_errmsg(b), "not legal") != NULL, "%s", ball_batch_errmsg(b));
    for (int i = 0; i < 3; i++) {
        ball_batch_position_to_text(b, i, after, sizeof after);
        ck_assert_str_eq(after, before[i]);
        ck_assert_int_eq(played[i], 0x77777777);
        ck_assert_int_eq(done[i], 0x77);
    }
    /* then a good step */
    idx[1] = 41;
    ck_assert_int_eq(ball_batch_step(b, idx, 3), 0);
    ck_assert_str_eq(ball_batch_errmsg(b), "");
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(played[i], 41);
        ck_assert_int_eq(done[i], 0);
    }
    /* reading games */
    ck_assert_int_eq(ball_batch_position_to_text(b, 3, after, sizeof after), BALL_E_RANGE);
    ck_assert_int_eq(ball_batch_position_to_text(b, -1, after, sizeof after), BALL_E_RANGE);
    ck_assert_int_eq(ball_batch_position_to_text(b, 0, after, 10), BALL_E_BUFFER);
    ck_assert_int_eq(ball_batch_position_to_text(NULL, 0, after, sizeof after), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_position_to_text(b, 0, NULL, 5), BALL_E_ARG);
    ball_game *c = (ball_game *)1;
    ck_assert_int_eq(ball_batch_game_clone(b, 3, &c), BALL_E_RANGE);
    ck_assert_ptr_null(c);
    ck_assert_int_eq(ball_batch_game_clone(NULL, 0, &c), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_game_clone(b, 0, NULL), BALL_E_ARG);
    ball_batch_free(b);
}
END_TEST

/* Steps every game of a batch started at `bpn` with index `index`;
 * checks the outputs of the step: done `end`, the returns, the games back
 * at the start. */
static void terminal_step(const char *rules, const char *bpn, int32_t index, int end, float atk, float def)
{
    int n = 2;
    ball_batch *b = new_batch(n, rules, 0);
    outputs o;
    bind_all(b, &o, 0);
    ck_assert_msg(ball_batch_set_start(b, bpn) == BALL_OK, "%s", ball_batch_errmsg(b));
    ck_assert_int_eq(ball_batch_reset(b, 3), BALL_OK);
    int32_t idx[2] = {index, index};
    ck_assert_msg(ball_batch_step(b, idx, 2) == 2, "%s", ball_batch_errmsg(b));
    ball_game *start = tu_game_text(rules, NULL);
    ck_assert_int_eq(ball_position_from_text(start, bpn), BALL_OK);
    float ret[2] = {atk, def};
    for (int i = 0; i < n; i++)
        compare(b, &o, i, start, 0, index, end, ret);
    ball_game_free(start);
    free_outputs(&o);
    ball_batch_free(b);
}

START_TEST(test_start_positions_and_terminals)
{
    /* ATK's X on G15 jumps to I17: touchdown */
    int g15 = ball_square_from_text("G15");
    ck_assert_int_eq(g15, 94);
    terminal_step(NULL, "7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/3x3 ATK a 2 - 0/0 5",
                  (BALL_PLANE_JUMP + 0) * 111 + g15, BALL_TERMINAL_TOUCHDOWN, 1, -1);
    /* DEF's x on G3 jumps to E1, seen from DEF as G15 to E17: touchdown */
    terminal_step(NULL, "3X3/6/7/6/7/6/7/6/7/6/7/6/7/6/3x*3/6/7 DEF a 2 - 0/0 6",
                  (BALL_PLANE_JUMP + 1) * 111 + g15, BALL_TERMINAL_TOUCHDOWN, -1, 1);
    /* `end` of the last turn: a draw */
    terminal_step("turns=5", "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 5", BALL_INDEX_END,
                  BALL_TERMINAL_TURN_LIMIT, 0, 0);
    /* at the last turn BPN can write, DEF's last PA: after the move only
     * `end` is left, and it would hand over past the bound: the game is
     * stopped. `end` itself is not a legal index there. */
    const char *last = "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 DEF a 1 - 0/0 999999999";
    ball_game *at_last = tu_game(last);
    int32_t move = ball_action_to_index(at_last, tu_action(at_last, "G9-F8"));
    ck_assert_int_ge(move, 0);
    ball_action none;
    ck_assert_int_eq(ball_action_from_index(at_last, BALL_INDEX_END, &none), BALL_E_ILLEGAL);
    ball_game_free(at_last);
    terminal_step(NULL, last, move, BALL_TERMINAL_TRUNCATED, 0, 0);
    /* bad start positions change nothing */
    ball_batch *b = new_batch(2, NULL, 0);
    ck_assert_int_eq(ball_batch_set_start(NULL, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_batch_set_start(b, "7/6/7 ATK"), BALL_E_BPN);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "start position: BPN") != NULL, "%s", ball_batch_errmsg(b));
    ck_assert_int_eq(ball_batch_set_start(b, "3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/3x3 ATK a 2 - 0/0 5"),
                     BALL_E_ILLEGAL);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "over") != NULL, "%s", ball_batch_errmsg(b));
    /* nothing can be played: `end` at 0 PA would hand over past the bound */
    ck_assert_int_eq(ball_batch_set_start(b, "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 DEF a 0 - 0/0 999999999"),
                     BALL_E_LIMIT);
    ck_assert_msg(strstr(ball_batch_errmsg(b), "999999999") != NULL, "%s", ball_batch_errmsg(b));
    char text[BALL_BPN_MAX];
    ck_assert_int_eq(ball_batch_reset(b, 0), BALL_OK);
    ball_batch_position_to_text(b, 1, text, sizeof text);
    ck_assert_str_eq(text, BALL_START_BPN);
    /* a start, then back to the standard one */
    ck_assert_int_eq(ball_batch_set_start(b, "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 5"), BALL_OK);
    ck_assert_int_eq(ball_batch_reset(b, 0), BALL_OK);
    ball_batch_position_to_text(b, 0, text, sizeof text);
    ck_assert_str_eq(text, "3X3/6/7/6/7/6/7/6/3x*3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 5");
    ck_assert_int_eq(ball_batch_set_start(b, NULL), BALL_OK);
    ck_assert_int_eq(ball_batch_reset(b, 0), BALL_OK);
    ball_batch_position_to_text(b, 0, text, sizeof text);
    ck_assert_str_eq(text, BALL_START_BPN);
    ball_batch_free(b);
}
END_TEST

/* A batch of 1,024 games with the bit outputs runs through many resets. */
START_TEST(test_large_batch)
{
    int n = 1024;
    ball_batch *b = new_batch(n, "turns=40", 0);
    uint8_t *obs = malloc((size_t)n * 397), *mask = malloc((size_t)n * BALL_ACTION_MASK_BYTES), *done = malloc((size_t)n);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_OBS_BITS, obs, (size_t)n * 397), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_MASK_BITS, mask, (size_t)n * BALL_ACTION_MASK_BYTES), BALL_OK);
    ck_assert_int_eq(ball_batch_set_output(b, BALL_OUT_DONE, done, (size_t)n), BALL_OK);
    ck_assert_int_eq(ball_batch_reset(b, 2024), BALL_OK);
    long ended = 0;
    for (int step = 0; step < 300; step++) {
        int rc = ball_batch_step(b, NULL, 0);
        REQUIRE(rc >= 0, "%s", ball_batch_errmsg(b));
        ended += rc;
        for (int i = 0; i < n; i++) { /* every game has a legal decision: `end` at least */
            int any = 0;
            for (int k = 0; k < BALL_ACTION_MASK_BYTES; k++)
                any |= mask[(size_t)i * BALL_ACTION_MASK_BYTES + k];
            REQUIRE(any, "game %d has an empty mask", i);
        }
    }
    ck_assert_int_gt(ended, 100);
    free(obs);
    free(mask);
    free(done);
    ball_batch_free(b);
}
END_TEST

/* Stepping, resetting and reading outputs never allocate: the C
 * library's count of allocated bytes does not move over many steps with
 * every output bound, in both modes. */
START_TEST(test_no_allocation_when_stepping)
{
#ifdef HAVE_MALLINFO2
    int n = 64;
    ball_batch *b = new_batch(n, "turns=20", BALL_OBS_GRID);
    outputs o;
    bind_all(b, &o, BALL_OBS_GRID);
    int32_t *idx = calloc((size_t)n, sizeof *idx);
    ball_batch_reset(b, 77);
    size_t before = mallinfo2().uordblks;
    int bad = 0;
    for (int step = 0; step < 2000; step++) {
        if (step % 2) {
            for (int i = 0; i < n; i++) /* the first legal index of the mask */
                for (int k = 0; k < BALL_ACTION_SPACE; k++)
                    if (o.mask[(size_t)i * BALL_ACTION_SPACE + (size_t)k]) {
                        idx[i] = k;
                        break;
                    }
            bad |= ball_batch_step(b, idx, (size_t)n) < 0;
        }
        else
            bad |= ball_batch_step(b, NULL, 0) < 0;
        if (step % 500 == 0)
            bad |= ball_batch_reset(b, (uint64_t)step) != BALL_OK;
    }
    size_t after = mallinfo2().uordblks;
    ck_assert_msg(!bad, "%s", ball_batch_errmsg(b));
    ck_assert_msg(after == before, "%zu bytes allocated before the steps, %zu after", before, after);
    free(idx);
    free_outputs(&o);
    ball_batch_free(b);
#endif
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("learn_batch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_random_equals_single_games);
    tcase_add_test(tc, test_random_equals_single_games_cards_grid);
    tcase_add_test(tc, test_caller_indices_equal_single_games);
    tcase_add_test(tc, test_seeds);
    tcase_add_test(tc, test_bad_inputs);
    tcase_add_test(tc, test_start_positions_and_terminals);
    tcase_add_test(tc, test_large_batch);
    tcase_add_test(tc, test_no_allocation_when_stepping);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
