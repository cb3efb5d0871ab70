/* Random games with fixed seeds: after every decision the BPN round-trips,
 * every legal action's text round-trips, undo restores the previous
 * position exactly, and the invariants of R3 hold. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define GAMES 120
#define MAX_DECISIONS 400

/* R3: square contents and piece states, read through the public API. */
static void check_invariants(ball_game *g, const int start_count[2])
{
    int count[2] = {0, 0}, balls = 0, restricted = 0;
    int side = ball_side(g), phase = ball_phase(g);
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int st = ball_square_state(g, sq);
        int up = ball_piece(g, sq, BALL_UPPER), low = ball_piece(g, sq, BALL_LOWER);
        tu_require(st >= 0);
        if (up) count[(up & BALL_PIECE_DEF) ? 1 : 0]++;
        if (low) count[(low & BALL_PIECE_DEF) ? 1 : 0]++;
        tu_require(!!(st & BALL_SQ_PIECE) == (up != 0));
        tu_require(!!(st & BALL_SQ_STACK) == (low != 0));
        if (st & BALL_SQ_BALL) {
            balls++;
            tu_require(ball_square_of_ball(g) == sq);
            /* R3.3: held by the only or the upper piece, never a downed one */
            if (up) {
                tu_require(up & BALL_PIECE_BALL);
                tu_require(!(up & BALL_PIECE_DOWN));
                tu_require(!(st & BALL_SQ_LOOSE_BALL));
            } else {
                tu_require(st & BALL_SQ_LOOSE_BALL);
            }
        } else {
            tu_require(!(up & BALL_PIECE_BALL));
        }
        tu_require(!(low & BALL_PIECE_BALL));
        if (low) /* N1: an upper piece stands and is not restricted */
            tu_require(!(up & (BALL_PIECE_DOWN | BALL_PIECE_RESTRICTED)));
        if (st & BALL_SQ_FRESH) /* R7.4: made this turn by the coach to act */
            tu_require(((up & BALL_PIECE_DEF) ? BALL_DEF : BALL_ATK) == side);
        if (up & BALL_PIECE_RESTRICTED) {
            restricted++;
            tu_require(phase == BALL_PHASE_ACTION);
            tu_require(((up & BALL_PIECE_DEF) ? BALL_DEF : BALL_ATK) == side);
        }
    }
    tu_require(balls == 1);
    tu_require(restricted <= 1);
    /* pieces never appear or vanish */
    tu_require(count[0] == start_count[0]);
    tu_require(count[1] == start_count[1]);
    if (phase == BALL_PHASE_RELEASE)
        tu_require(ball_pa(g) == 0);
}

/* The generator reads bitboards that apply/undo keep in step with the
 * board: the same position rebuilt from its BPN (bitboards computed from
 * scratch) lists the same actions in the same order; and the generator's
 * other modes agree with the list. */
static void check_same_actions(ball_game *g, ball_game *scratch, const ball_action *acts, int n)
{
    ball_action again[BALL_MAX_ACTIONS];
    tu_require(ball_legal_actions(scratch, again, BALL_MAX_ACTIONS) == n);
    tu_require(memcmp(again, acts, (size_t)n * sizeof *acts) == 0);
    tu_check_generator_modes(g, acts, n);
}

static void play_random_game(uint64_t seed, long *decisions)
{
    ball_game *g = tu_game(NULL), *scratch = tu_game(NULL);
    int start_count[2] = {7, 7};
    ball_action acts[BALL_MAX_ACTIONS];
    for (int d = 0; d < MAX_DECISIONS; d++) {
        check_invariants(g, start_count);
        tu_check_bpn_round_trip(g, scratch); /* hash from scratch too */
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        tu_require(n >= 0);
        if (n == 0) {
            tu_require(ball_result(g) != BALL_ONGOING);
            break;
        }
        tu_check_text_round_trip(g, acts, n);
        check_same_actions(g, scratch, acts, n);
        tu_apply_undo_round_trip(g, acts[tu_random(&seed) % (uint64_t)n]);
        (*decisions)++;
    }
    /* undo all the way back to the start */
    while (ball_history_length(g) > 0)
        tu_require(ball_undo(g) == BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(scratch);
    ball_game_free(g);
}

START_TEST(test_random_games_round_trip)
{
    long decisions = 0;
    for (int i = 0; i < GAMES; i++)
        play_random_game(0x9E3779B97F4A7C15ull * (uint64_t)(i + 1), &decisions);
    ck_assert_int_ge(decisions, 10000);
}
END_TEST

/* Clones are independent: playing on one leaves the other as it was. */
START_TEST(test_clone_is_independent)
{
    ball_game *g = tu_game(NULL), *c = NULL;
    tu_apply_all(g, "E11-F10 G13-F12");
    ck_assert_int_eq(ball_game_clone(&c, g), BALL_OK);
    tu_apply(c, "end");
    ck_assert_int_eq(ball_history_length(c), 3);
    ck_assert_int_eq(ball_history_length(g), 2);
    char bg[BALL_BPN_MAX], bc[BALL_BPN_MAX];
    tu_bpn(g, bg);
    tu_bpn(c, bc);
    ck_assert_str_ne(bg, bc);
    ck_assert_int_eq(ball_undo(c), BALL_OK);
    ck_bpn(c, bg);
    ball_game_free(c);
    ball_game_free(g);
}
END_TEST

/* Equal positions reached in different orders share a hash; a change of
 * side, PA or square contents changes it. */
START_TEST(test_hash_transposition_and_difference)
{
    ball_game *a = tu_game(NULL), *b = tu_game(NULL);
    uint64_t start = ball_hash(a);
    tu_apply_all(a, "E11-F10 I11-J10");
    tu_apply_all(b, "I11-J10 E11-F10");
    ck_bpn(a, "7/6/3s3/6/3x3/6/1o1s1o1/2x1x1/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 0 - 0/0 1");
    ck_assert_uint_eq(ball_hash(a), ball_hash(b));
    ck_assert_uint_ne(ball_hash(a), start);
    tu_apply(a, "end"); /* phase, PA and side change: ATK to act */
    ck_assert_uint_ne(ball_hash(a), ball_hash(b));
    ck_assert_int_eq(ball_undo(a), BALL_OK);
    ck_assert_uint_eq(ball_hash(a), ball_hash(b));
    ball_game_free(a);
    ball_game_free(b);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("random games");
    TCase *tc = tcase_create("round trips");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_random_games_round_trip);
    tcase_add_test(tc, test_clone_is_independent);
    tcase_add_test(tc, test_hash_transposition_and_difference);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
