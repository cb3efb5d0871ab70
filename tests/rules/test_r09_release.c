/* R9 — the release phase: `end`, stand-ups, releases with U/W pairs and
 * keepers, fresh stacks, R9.4, tasks without solution, the automatic
 * hand-over, and the task API. Every expected list and BPN is derived by
 * hand from docs/spec.md; the comments say how. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* R9.5: `end` with the restricted carrier X*! on G5 and the knocked-down
 * O_ on C5: release phase `r`, PA 0, `-`, the `!` cleared. The stand-up task
 * of C5 has the solutions B4 B6 D4 D6 (R9.2, all vacant). After the
 * stand-up no task is left: hand-over to DEF, PA 2, turn 3. */
START_TEST(test_R9_5_end_enters_release_phase_and_clears_restriction)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*!3/6/7/6/7 ATK a 1 - 0/0 2");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK r 0 - 0/0 2");
    ck_assert_int_eq(ball_phase(g), BALL_PHASE_RELEASE);
    ck_assert_int_eq(ball_pa(g), 0);
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal(g, "C5-B4 C5-B6 C5-D4 C5-D6");
    tu_apply(g, "C5-D6");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/1O4/3X*3/6/7/6/7 DEF a 2 - 0/0 3");
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ck_assert_int_eq(ball_pa(g), 2);
    ck_assert_int_eq(ball_turn(g), 3);
    ball_game_free(g);
}
END_TEST

/* R9.5: `end` right after a hand-off (`h`) clears the hand-off mark and
 * drops the 2 unused PA. */
START_TEST(test_R9_5_end_clears_handoff_mark)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/2O3/3X*3/6/7/6/1O_5/6/7/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "G9=F10");
    ck_bpn(g, "7/6/7/6/3o3/6/7/2O*3/3X3/6/7/6/1O_5/6/7/6/7 ATK a 2 h 0/0 2");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3o3/6/7/2O*3/3X3/6/7/6/1O_5/6/7/6/7 ATK r 0 - 0/0 2");
    ck_assert_int_eq(ball_handoff_last(g), 0);
    ball_game_free(g);
}
END_TEST

/* R9.2 + R3.4: stand-up squares must be vacant. O_ on C5: B4 holds the
 * loose ball (open but not vacant), D6 holds DEF x; B6 and D4 remain. */
START_TEST(test_R9_2_stand_up_only_on_vacant_squares)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/7/6/7/1x4/1O_5/@5/5X1/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/7/6/7/6/7/6/7/1x4/1O_5/@5/5X1/6/7 ATK r 0 - 0/0 2");
    ck_legal(g, "C5-B6 C5-D4");
    ball_action a = tu_action(g, "C5-B6");
    ck_assert_int_eq(ball_action_kind(a), BALL_STAND_UP);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_bpn(g, "7/6/7/6/7/6/7/6/7/6/7/Ox4/7/@5/5X1/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R9.3: the non-fresh stack [X o] on G9 (ATK upper blocking). Neighbours
 * F8 H8 F10 H10; H10 holds the loose ball (not vacant), so U and W are two
 * different squares of {F8, H8, F10}: 3 x 2 = 6 ordered pairs, no keeper
 * (the upper holds no ball). G9-F8/H8: X to F8 active, o to H8 standing.
 * Then no task: hand-over. */
START_TEST(test_R9_3_release_exact_pairs)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3@2/3[Xo]3/6/7/6/7/6/1O5/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_legal(g, "G9-F10/F8 G9-F10/H8 G9-F8/F10 G9-F8/H8 G9-H8/F10 G9-H8/F8");
    ball_action a = tu_action(g, "G9-F8/H8");
    ck_assert_int_eq(ball_action_kind(a), BALL_UNBLOCK);
    ck_assert_int_eq(ball_action_keeper(a), BALL_KEEPER_NONE);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_bpn(g, "7/6/7/6/7/6/7/3@2/7/2Xo2/7/6/7/6/1O5/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* Stack [X* o] on G9, ATK O on F10 and S on H10: only F8 and H8 are
 * vacant around G9. */
#define POS_KEEP "7/6/7/6/7/6/7/2OS2/3[X*o]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2"

/* R9.3: the upper held the ball, so each pair comes with a keeper: the
 * upper (=U) or the lower (=W), which comes back standing here. */
START_TEST(test_R9_3_keeper_choices_lower_standing)
{
    ball_game *g = tu_game(POS_KEEP);
    tu_apply(g, "end");
    ck_legal(g, "G9-F8/H8=F8 G9-F8/H8=H8 G9-H8/F8=F8 G9-H8/F8=H8");
    ck_assert_int_eq(ball_action_keeper(tu_action(g, "G9-F8/H8=F8")), BALL_KEEPER_UPPER);
    ck_assert_int_eq(ball_action_keeper(tu_action(g, "G9-F8/H8=H8")), BALL_KEEPER_LOWER);
    ball_game_free(g);
}
END_TEST

/* R9.3: `=W` gives the ball to the lower piece, even an opponent's: DEF o
 * on H8 holds it (`o*`), X on F8 does not. Hand-over to DEF. */
START_TEST(test_R9_3_lower_keeps_ball)
{
    ball_game *g = tu_game(POS_KEEP);
    tu_apply_all(g, "end G9-F8/H8=H8");
    ck_bpn(g, "7/6/7/6/7/6/7/2OS2/7/2Xo*2/7/6/7/6/7/6/7 DEF a 2 - 0/0 3");
    ck_assert_int_eq(ball_square_of_ball(g), tu_sq("H8"));
    ball_game_free(g);
}
END_TEST

/* R9.3: `=U`, the upper keeps it: X* on H8, o on F8. */
START_TEST(test_R9_3_upper_keeps_ball)
{
    ball_game *g = tu_game(POS_KEEP);
    tu_apply_all(g, "end G9-H8/F8=H8");
    ck_bpn(g, "7/6/7/6/7/6/7/2OS2/7/2oX*2/7/6/7/6/7/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R9.3: a lower piece that comes back knocked down cannot keep the ball:
 * only the =U keeper remains for each pair. DEF's knocked-down o on H8 is
 * not ATK's stand-up task (R9.2: own pieces), so the turn passes. */
START_TEST(test_R9_3_knocked_down_lower_cannot_keep)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/2OS2/3[X*o_]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_legal(g, "G9-F8/H8=F8 G9-H8/F8=H8");
    tu_apply(g, "G9-F8/H8=F8");
    ck_bpn(g, "7/6/7/6/7/6/7/2OS2/7/2X*o_2/7/6/7/6/7/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R7.4 + R9.3 + R9.5: X G5 blocks DEF o on H6: fresh stack `[Xo]+`. `end`:
 * the fresh stack is no task, ATK has no other: immediate hand-over, the
 * fresh mark is cleared. DEF has no task either (the stack's upper is
 * ATK's). Back in ATK's turn 4 the stack is released: H6's neighbours
 * G5 I5 G7 I7 are vacant: 12 ordered pairs. */
START_TEST(test_R7_4_fresh_stack_released_next_own_turn)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/3o2/3X3/6/O*6/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "G5-H6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/3[Xo]+2/7/6/O*6/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(ball_square_state(g, tu_sq("H6")) & BALL_SQ_FRESH, BALL_SQ_FRESH);
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/3[Xo]2/7/6/O*6/6/7 DEF a 2 - 0/0 3");
    ck_assert_int_eq(ball_square_state(g, tu_sq("H6")) & BALL_SQ_FRESH, 0);
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/3[Xo]2/7/6/O*6/6/7 ATK a 2 - 0/0 4");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/3[Xo]2/7/6/O*6/6/7 ATK r 0 - 0/0 4");
    ck_legal(g, "H6-G5/G7 H6-G5/I5 H6-G5/I7 H6-G7/G5 H6-G7/I5 H6-G7/I7 "
                "H6-I5/G5 H6-I5/G7 H6-I5/I7 H6-I7/G5 H6-I7/G7 H6-I7/I5");
    tu_apply(g, "H6-G7/I5");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/3X3/6/4o2/6/O*6/6/7 DEF a 2 - 0/0 5");
    ball_game_free(g);
}
END_TEST

/* R9.3: a stack is the task of its upper piece's coach. [o X] on G9 (DEF
 * upper): ATK's `end` hands over at once; DEF's `end` opens DEF's release
 * with the 12 pairs of {F8, H8, F10, H10}. */
START_TEST(test_R9_3_stack_is_task_of_upper_coach)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/3[oX]3/6/7/6/7/6/5X*1/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/3[oX]3/6/7/6/7/6/5X*1/6/7 DEF a 2 - 0/0 3");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/3[oX]3/6/7/6/7/6/5X*1/6/7 DEF r 0 - 0/0 3");
    ck_legal(g, "G9-F10/F8 G9-F10/H10 G9-F10/H8 G9-F8/F10 G9-F8/H10 G9-F8/H8 "
                "G9-H10/F10 G9-H10/F8 G9-H10/H8 G9-H8/F10 G9-H8/F8 G9-H8/H10");
    tu_apply(g, "G9-F10/H8");
    ck_bpn(g, "7/6/7/6/3x3/6/7/2o3/7/3X2/7/6/7/6/5X*1/6/7 ATK a 2 - 0/0 4");
    ball_game_free(g);
}
END_TEST

/* R9.4: [O S_] on A9 (ATK protecting its knocked-down S). A9's only
 * neighbours are B8 and B10: two pairs. A9-B8/B10 (unprotect): O to B8,
 * S back knocked down on B10, which is a new stand-up task in the same
 * phase: A9 (now vacant) C9 A11 C11. */
START_TEST(test_R9_4_own_lower_knocked_down_stands_up_same_phase)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/[OS_]6/6/7/6/7/6/5X*1/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_legal(g, "A9-B10/B8 A9-B8/B10");
    ball_action a = tu_action(g, "A9-B8/B10");
    ck_assert_int_eq(ball_action_kind(a), BALL_UNPROTECT);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_bpn(g, "7/6/7/6/3x3/6/7/S_5/7/O5/7/6/7/6/5X*1/6/7 ATK r 0 - 0/0 2");
    ck_legal(g, "B10-A11 B10-A9 B10-C11 B10-C9");
    tu_apply(g, "B10-C11");
    ck_bpn(g, "7/6/7/6/3x3/6/1S5/6/7/O5/7/6/7/6/5X*1/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* S_ on A1 (only neighbour B2, held by DEF x): a stand-up task without a
 * solution. O_ on G5: solvable (F4 H4 F6 H6). */
#define POS_NOSOL "7/6/7/6/3o3/6/7/6/7/6/7/6/3O_3/6/5X*1/x5/S_6 ATK a 2 - 0/0 2"

/* R9.1: the unsolvable task does not block: after G5's stand-up the turn
 * passes with S still down on A1. */
START_TEST(test_R9_1_unsolvable_task_does_not_block_handover)
{
    ball_game *g = tu_game(POS_NOSOL);
    tu_apply(g, "end");
    ck_legal(g, "G5-F4 G5-F6 G5-H4 G5-H6");
    tu_apply(g, "G5-H6");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/3O2/7/6/5X*1/x5/S_6 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R9.1 + R9.2 + R9.3: when no task has a solution, `end` hands over at
 * once: S_ on A1 is walled in by B2, and the stack [X o] on M17 has one
 * neighbour (L16, held by DEF s), fewer than two vacant squares. */
START_TEST(test_R9_1_no_solvable_task_immediate_handover)
{
    ball_game *g = tu_game("6[Xo]/5s/7/6/3o*3/6/7/6/7/6/7/6/7/6/7/x5/S_6 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_bpn(g, "6[Xo]/5s/7/6/3o*3/6/7/6/7/6/7/6/7/6/7/x5/S_6 DEF a 2 - 0/0 3");
    ck_assert_int_eq(ball_phase(g), BALL_PHASE_ACTION);
    ball_game_free(g);
}
END_TEST

/* R9.1 task API on POS_NOSOL after `end`: two tasks in square order, A1
 * (stand-up, no solution) then G5 (stand-up, solvable); solutions per
 * square; errors. */
START_TEST(test_R9_1_task_api)
{
    ball_game *g = tu_game(POS_NOSOL);
    ball_task tasks[BALL_MAX_TASKS];
    ball_action sols[BALL_MAX_ACTIONS];

    /* Outside the release phase there are no tasks. */
    ck_assert_int_eq(ball_release_tasks(g, tasks, BALL_MAX_TASKS), 0);
    ck_assert_int_eq(ball_task_solutions(g, tu_sq("G5"), sols, BALL_MAX_ACTIONS),
                     BALL_E_ILLEGAL);

    tu_apply(g, "end");
    ck_assert_int_eq(ball_release_tasks(g, NULL, 0), 2);
    ck_assert_int_eq(ball_release_tasks(g, tasks, 1), BALL_E_BUFFER);
    ck_assert_int_eq(ball_release_tasks(g, tasks, BALL_MAX_TASKS), 2);
    ck_assert_int_eq(ball_task_square(tasks[0]), tu_sq("A1"));
    ck_assert_int_eq(ball_task_kind(tasks[0]), BALL_TASK_STAND_UP);
    ck_assert_int_eq(ball_task_solvable(tasks[0]), 0);
    ck_assert_int_eq(ball_task_square(tasks[1]), tu_sq("G5"));
    ck_assert_int_eq(ball_task_kind(tasks[1]), BALL_TASK_STAND_UP);
    ck_assert_int_eq(ball_task_solvable(tasks[1]), 1);

    ck_assert_int_eq(ball_task_solutions(g, tu_sq("A1"), sols, BALL_MAX_ACTIONS), 0);
    ck_assert_int_eq(ball_task_solutions(g, tu_sq("G5"), sols, BALL_MAX_ACTIONS), 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(ball_action_kind(sols[i]), BALL_STAND_UP);
        ck_assert_int_eq(ball_action_from(sols[i]), tu_sq("G5"));
    }
    /* K3 holds an active carrier, C3 is empty: no task there. */
    ck_assert_int_eq(ball_task_solutions(g, tu_sq("K3"), sols, BALL_MAX_ACTIONS), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_task_solutions(g, tu_sq("C3"), sols, BALL_MAX_ACTIONS), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_task_solutions(g, 111, sols, BALL_MAX_ACTIONS), BALL_E_RANGE);
    ck_assert_int_eq(ball_task_solutions(g, -1, sols, BALL_MAX_ACTIONS), BALL_E_RANGE);
    ball_game_free(g);
}
END_TEST

/* R9.1 task API for a release: POS_KEEP after `end` has one task on G9 of kind
 * release with 4 solutions (2 pairs x 2 keepers). */
START_TEST(test_R9_1_task_api_release)
{
    ball_game *g = tu_game(POS_KEEP);
    ball_task tasks[BALL_MAX_TASKS];
    ball_action sols[BALL_MAX_ACTIONS];
    tu_apply(g, "end");
    ck_assert_int_eq(ball_release_tasks(g, tasks, BALL_MAX_TASKS), 1);
    ck_assert_int_eq(ball_task_square(tasks[0]), tu_sq("G9"));
    ck_assert_int_eq(ball_task_kind(tasks[0]), BALL_TASK_RELEASE);
    ck_assert_int_eq(ball_task_solvable(tasks[0]), 1);
    ck_assert_int_eq(ball_task_solutions(g, tu_sq("G9"), sols, BALL_MAX_ACTIONS), 4);
    ck_assert_int_eq(ball_task_solutions(g, tu_sq("G9"), sols, 1), BALL_E_BUFFER);
    ball_game_free(g);
}
END_TEST

/* R9.4 + R9.2: [O S_] on A9 with C9 (DEF x), A11 (DEF o) and C11 (ATK X)
 * occupied. After A9-B8/B10 the knocked-down S on B10 has one vacant
 * neighbour: A9, the square the stack has just left. */
START_TEST(test_R9_4_stand_up_onto_the_released_stack_square)
{
    ball_game *g = tu_game("7/6/7/6/7/6/oX5/6/[OS_]x5/6/7/6/7/6/5X*1/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_legal(g, "A9-B10/B8 A9-B8/B10");
    tu_apply(g, "A9-B8/B10");
    ck_bpn(g, "7/6/7/6/7/6/oX5/S_5/1x5/O5/7/6/7/6/5X*1/6/7 ATK r 0 - 0/0 2");
    ck_legal(g, "B10-A9");
    tu_apply(g, "B10-A9");
    ck_bpn(g, "7/6/7/6/7/6/oX5/6/Sx5/O5/7/6/7/6/5X*1/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R9.1: tasks are recomputed after each resolution. O_ on A1 and S_ on C1
 * both need B2 (D2 holds DEF x). Once S stands up on B2, A1 has no vacant
 * neighbour left: the phase ends and the turn passes. */
START_TEST(test_R9_1_tasks_recomputed_after_each_resolution)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/3X*3/6/7/6/7/6/7/1x4/O_S_5 ATK a 2 - 0/0 2");
    tu_apply(g, "end");
    ck_legal(g, "A1-B2 C1-B2");
    tu_apply(g, "C1-B2");
    ck_bpn(g, "7/6/7/6/7/6/7/6/3X*3/6/7/6/7/6/7/Sx4/O_6 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("R9 release");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R9_5_end_enters_release_phase_and_clears_restriction);
    tcase_add_test(tc, test_R9_5_end_clears_handoff_mark);
    tcase_add_test(tc, test_R9_2_stand_up_only_on_vacant_squares);
    tcase_add_test(tc, test_R9_3_release_exact_pairs);
    tcase_add_test(tc, test_R9_3_keeper_choices_lower_standing);
    tcase_add_test(tc, test_R9_3_lower_keeps_ball);
    tcase_add_test(tc, test_R9_3_upper_keeps_ball);
    tcase_add_test(tc, test_R9_3_knocked_down_lower_cannot_keep);
    tcase_add_test(tc, test_R7_4_fresh_stack_released_next_own_turn);
    tcase_add_test(tc, test_R9_3_stack_is_task_of_upper_coach);
    tcase_add_test(tc, test_R9_4_own_lower_knocked_down_stands_up_same_phase);
    tcase_add_test(tc, test_R9_1_unsolvable_task_does_not_block_handover);
    tcase_add_test(tc, test_R9_1_no_solvable_task_immediate_handover);
    tcase_add_test(tc, test_R9_4_stand_up_onto_the_released_stack_square);
    tcase_add_test(tc, test_R9_1_tasks_recomputed_after_each_resolution);
    tcase_add_test(tc, test_R9_1_task_api);
    tcase_add_test(tc, test_R9_1_task_api_release);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
