/* The sparring players' threat-aware evaluation (examples/common/sparring.c,
 * `alphabeta:threat=1`): whether the coach to act can take the ball within
 * its PA (sparring_can_take()) in hand-built positions where the rules say
 * it can or cannot, what sparring_evaluate_threat() makes of them, and the
 * player's determinism. The sparring code is compiled into this program
 * (it lives with the examples, not in the library). */
#include "testutil.h"

#include "../../examples/common/args.c"
#include "../../examples/common/sparring.c"

#include <string.h>

/* ATK's carrier X on G9 with its four neighbours F8 F10 H8 H10 held by ATK
 * pieces except where a position leaves one open; DEF's O on G11, two
 * squares away on its 2-square orthogonal pattern (R5.1). DEF to act. */
#define NO_EXIT "7/6/7/6/7/6/3o3/2XO2/3X*3/2OS2/7/6/7/6/7/6/7 DEF a 1 - 0/0 5"
#define EXIT_H8 "7/6/7/6/7/6/3o3/2XO2/3X*3/2O3/7/6/7/6/7/6/7 DEF a 1 - 0/0 5"
/* The carrier alone on G9, DEF's O four rows away on G13. */
#define FAR_1PA "7/6/7/6/3o3/6/7/6/3X*3/6/7/6/7/6/7/6/7 DEF a 1 - 0/0 5"
#define FAR_2PA "7/6/7/6/3o3/6/7/6/3X*3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 5"
/* DEF's X on H10, next to the carrier. */
#define BLOCK "7/6/7/6/7/6/7/3x2/3X*3/6/7/6/7/6/3O3/6/7 DEF a 1 - 0/0 5"
/* The carrier protecting its own O on G9 (a stack), DEF's X next to it on
 * H10 and DEF's O two squares away on G11; three neighbours are vacant. */
#define STACK_DEF "7/6/7/6/7/6/3o3/3x2/3[X*O]3/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 5"
#define STACK_ATK "7/6/7/6/7/6/3o3/3x2/3[X*O]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 5"
#define STACK_ATK_FRESH "7/6/7/6/7/6/3o3/3x2/3[X*O]+3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 5"
/* The loose ball next to DEF's X on G11 (on F10), or three squares away
 * (on D8); ATK's only piece far off on G3. */
#define LOOSE_NEXT "7/6/7/6/7/6/3x3/2@3/7/6/7/6/7/6/3X3/6/7 DEF a 1 - 0/0 5"
#define LOOSE_3_1PA "7/6/7/6/7/6/3x3/6/7/1@4/7/6/7/6/3X3/6/7 DEF a 1 - 0/0 5"
#define LOOSE_3_2PA "7/6/7/6/7/6/3x3/6/7/1@4/7/6/7/6/3X3/6/7 DEF a 2 - 0/0 5"

/* sparring_can_take() of the position, the same with every first action
 * tried, and the game unchanged (the same BPN). */
static int can_take(const char *bpn)
{
    ball_game *g = tu_game(bpn);
    char after[BALL_BPN_MAX];
    int r = sparring_can_take(g, 0);
    ck_assert_int_eq(sparring_can_take(g, 1), r);
    tu_bpn(g, after);
    ck_assert_str_eq(after, bpn);
    ball_game_free(g);
    return r;
}

/* sparring_evaluate_threat() for @p team, checked to be zero-sum (the
 * negamax needs it) and to leave the game as it was. */
static long threat_value(const char *bpn, int team)
{
    ball_game *g = tu_game(bpn);
    char after[BALL_BPN_MAX];
    long v = sparring_evaluate_threat(g, team);
    ck_assert_int_eq(sparring_evaluate_threat(g, 1 - team), -v);
    tu_bpn(g, after);
    ck_assert_str_eq(after, bpn);
    ball_game_free(g);
    return v;
}

/* R6.1, R4.3: a dodge needs an open square next to the target to exit to.
 * With all four neighbours of G9 held there is none, and no DEF piece is
 * next to the carrier to block it (R7.1): DEF cannot take the ball. With
 * H8 open, G11-G9/H8 is a forced fumble. */
START_TEST(dodge_needs_an_exit)
{
    ck_assert_int_eq(can_take(NO_EXIT), 0);
    ck_assert_int_eq(can_take(EXIT_H8), 1);
    /* the carrier DEF takes at once is DEF's; the one it cannot take is
     * still ATK's, though a DEF piece stands two squares away */
    ck_assert_int_lt(threat_value(EXIT_H8, BALL_ATK), 0);
    ck_assert_int_gt(threat_value(NO_EXIT, BALL_ATK), 0);
}
END_TEST

/* R4.1, R4.3, R5.1: the O on G13 reaches G11 with one move (1 PA) and
 * dodges the carrier from there with a second (1 PA, exits open, R6.1):
 * with 2 PA DEF takes the ball, with 1 PA it does not. */
START_TEST(move_then_dodge_needs_two_pa)
{
    ck_assert_int_eq(can_take(FAR_1PA), 0);
    ck_assert_int_eq(can_take(FAR_2PA), 1);
    ck_assert_int_gt(threat_value(FAR_1PA, BALL_ATK), 0);
    ck_assert_int_lt(threat_value(FAR_2PA, BALL_ATK), 0);
}
END_TEST

/* R7.1, R7.3: a 1-square move onto the carrier blocks it and the upper
 * piece takes the ball. */
START_TEST(block_takes_the_ball)
{
    ck_assert_int_eq(can_take(BLOCK), 1);
    ck_assert_int_lt(threat_value(BLOCK, BALL_ATK), 0);
}
END_TEST

/* R3.5, R5.4: a stack's square is closed: neither the block from H10 nor
 * the dodge from G11 can end on it, even with 2 PA. */
START_TEST(stacked_carrier_is_out_of_reach)
{
    ck_assert_int_eq(can_take(STACK_DEF), 0);
    ck_assert_int_gt(threat_value(STACK_DEF, BALL_ATK), 0);
}
END_TEST

/* R9.3, R7.4: with ATK to act, a stack that is not fresh is released at
 * the end of this turn (three vacant neighbours), which leaves the carrier
 * next to the stack's square, where DEF's pieces are, before DEF acts; a
 * fresh one stays a stack through DEF's turn. The first is worth less to
 * ATK. */
START_TEST(stack_released_before_the_other_coach_acts)
{
    ck_assert_int_lt(threat_value(STACK_ATK, BALL_ATK), threat_value(STACK_ATK_FRESH, BALL_ATK));
}
END_TEST

/* R8.1: the X on G11 picks up the ball on F10 with one move. On D8, three
 * diagonal steps away, it needs a 2-square and a 1-square move (R5.1),
 * two actions (R4.3, R4.5): not with 1 PA, yes with 2. A ball the side to
 * act picks up is nearly its own. */
START_TEST(loose_ball_within_the_pa)
{
    ck_assert_int_eq(can_take(LOOSE_NEXT), 1);
    ck_assert_int_eq(can_take(LOOSE_3_1PA), 0);
    ck_assert_int_eq(can_take(LOOSE_3_2PA), 1);
    ck_assert_int_gt(threat_value(LOOSE_NEXT, BALL_DEF), 500);
    ck_assert_int_gt(threat_value(LOOSE_3_2PA, BALL_DEF), 500);
    ck_assert_int_lt(threat_value(LOOSE_3_1PA, BALL_DEF), threat_value(LOOSE_3_2PA, BALL_DEF));
}
END_TEST

/* The look at a second action after only the first actions that change a
 * square near the ball gives the same answer as trying every first action,
 * in positions of random games (action phases, both coaches). */
START_TEST(pruned_look_is_exact)
{
    uint64_t rng = 0x5eed5eedULL;
    int looks = 0, yes = 0;
    for (int game = 0; game < 40; game++) {
        ball_game *g = tu_game_rules(NULL, 1, 60);
        ball_action a;
        while (ball_random_action(g, tu_random(&rng), &a) == BALL_OK) {
            ck_assert_int_eq(ball_apply(g, a), BALL_OK);
            if (ball_phase(g) == BALL_PHASE_ACTION && ball_pa(g) == 2) {
                int r = sparring_can_take(g, 0);
                ck_assert_int_ge(r, 0);
                ck_assert_int_eq(sparring_can_take(g, 1), r);
                looks++;
                yes += r;
            }
        }
        ball_game_free(g);
    }
    /* both answers met often enough for the comparison to mean something */
    ck_assert_int_gt(yes, 50);
    ck_assert_int_gt(looks - yes, 50);
}
END_TEST

/* The player with threat=1 is deterministic: the same position and budget
 * give the same decision and the same node count, and the game is left as
 * it was; the node budget bounds the search. */
START_TEST(threat_player_repeats)
{
    ball_action acts[BALL_MAX_ACTIONS], first, second;
    sparring *s1 = NULL, *s2 = NULL;
    ball_game *g = tu_game(BLOCK);
    char after[BALL_BPN_MAX];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS), d1, d2;
    ck_assert_int_eq(sparring_new(&s1, "alphabeta:threat=1,nodes=3000"), 0);
    ck_assert_int_eq(sparring_new(&s2, "alphabeta:nodes=3000,threat=1"), 0);
    ck_assert_int_eq(sparring_choose(s1, g, acts, n, &first), BALL_OK);
    ck_assert_int_eq(sparring_choose(s2, g, acts, n, &second), BALL_OK);
    ck_assert_uint_eq(first, second);
    ck_assert_int_eq(sparring_last_nodes(s1, &d1), sparring_last_nodes(s2, &d2));
    ck_assert_int_eq(d1, d2);
    /* the budget is checked as a node is entered; the children a node
     * orders by their static value count too, at most 480 (BALL_MAX_ACTIONS'
     * comment) past it */
    ck_assert_int_le(sparring_last_nodes(s1, NULL), 3001 + 480);
    ck_assert_int_gt(sparring_last_nodes(s1, NULL), 3000);
    tu_bpn(g, after);
    ck_assert_str_eq(after, BLOCK);
    sparring_free(s1);
    sparring_free(s2);
    ball_game_free(g);
}
END_TEST

/* threat takes 0 or 1 and nothing else. */
START_TEST(threat_setting)
{
    sparring *s = NULL;
    ck_assert_int_eq(sparring_new(&s, "alphabeta:threat=0"), 0);
    sparring_free(s);
    ck_assert_int_eq(sparring_new(&s, "turn:threat=1,nodes=1000"), 0);
    sparring_free(s);
    ck_assert_int_eq(sparring_new(&s, "alphabeta:threat=2"), -1);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(sparring_new(&s, "alphabeta:threat=0.5"), -1);
    ck_assert_ptr_null(s);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("sparring_threat");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, dodge_needs_an_exit);
    tcase_add_test(tc, move_then_dodge_needs_two_pa);
    tcase_add_test(tc, block_takes_the_ball);
    tcase_add_test(tc, stacked_carrier_is_out_of_reach);
    tcase_add_test(tc, stack_released_before_the_other_coach_acts);
    tcase_add_test(tc, loose_ball_within_the_pa);
    tcase_add_test(tc, pruned_look_is_exact);
    tcase_add_test(tc, threat_player_repeats);
    tcase_add_test(tc, threat_setting);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
