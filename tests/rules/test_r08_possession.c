/* R8 — possession: pickup and restriction, hand-off through the network,
 * short pass, long pass, and R8.5 (a restricted carrier neither hands off
 * nor passes). Every expected list and BPN below is derived by hand from
 * docs/spec.md; the comments say how. Squares are named as in R1.1. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

/* Number of legal actions of one kind. */
static int count_kind(ball_game *g, int kind)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_ge(n, 0);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (ball_action_kind(acts[i]) == kind)
            k++;
    return k;
}

/* 1 if the action text is among the legal actions. */
static int has_action(ball_game *g, const char *text)
{
    ball_action acts[BALL_MAX_ACTIONS];
    char buf[BALL_ACTION_TEXT_MAX];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_ge(n, 0);
    for (int i = 0; i < n; i++) {
        ck_assert_int_gt(ball_action_to_text(acts[i], buf, sizeof buf), 0);
        if (strcmp(buf, text) == 0)
            return 1;
    }
    return 0;
}

/* ATK X on G5, the loose ball on H6, ATK O on C3, DEF o on G13. */
#define POS_PICKUP "7/6/7/6/3o3/6/7/6/7/6/7/3@2/3X3/6/1O5/6/7 ATK a 2 - 0/0 2"

/* R8.1 + R4.4: G5-H6 ends on the loose ball: X takes it (`*`) and is
 * restricted (`!`); it cost 1 PA. The restricted X starts nothing more, the
 * O on C3 still moves: diagonal B2 D2 B4 D4, orthogonal A3 E3 C1 C5 (R5.1),
 * all open. */
START_TEST(test_R8_1_pickup_restricts_the_picker)
{
    ball_game *g = tu_game(POS_PICKUP);
    tu_apply(g, "G5-H6");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/3X*!2/7/6/1O5/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), tu_sq("H6"));
    ck_assert_int_eq(ball_square_of_ball(g), tu_sq("H6"));
    ck_legal(g, "C3-A3 C3-B2 C3-B4 C3-C1 C3-C5 C3-D2 C3-D4 C3-E3 end");
    ball_game_free(g);
}
END_TEST

/* R8.1: passing over the loose ball does not take it. G5-I7 is a 2-square
 * diagonal move over H6 (an open intermediate square, R5.3): the ball stays
 * loose on H6, X arrives on I7 without it and is not restricted. */
START_TEST(test_R8_1_passing_over_loose_ball_does_not_pick_up)
{
    ball_game *g = tu_game(POS_PICKUP);
    tu_apply(g, "G5-I7");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/4X2/3@2/7/6/1O5/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_square_of_ball(g), tu_sq("H6"));
    ball_game_free(g);
}
END_TEST

/* R8.1 + R6.1: a dodge exit on the loose ball is a pickup and restricts.
 * X G5 dodges DEF o on I7 (2-square move over open H6), exits on J8 where
 * the ball lies: X holds it, restricted; o is knocked down on I7. X is the
 * only ATK piece and restricted, so only `end` remains. */
START_TEST(test_R8_1_pickup_at_dodge_exit_restricts)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/4@1/4o2/6/3X3/6/7/6/7 ATK a 2 - 0/0 2");
    tu_apply(g, "G5-I7/J8");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/4X*!1/4o_2/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), tu_sq("J8"));
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R8.5: X*! on G5 (restricted carrier) next to its ally O on F4. With 0 PA
 * an unrestricted carrier could hand off (0 PA, R8.2): "G5=F4 end"; the
 * restricted one cannot: "end" only. */
START_TEST(test_R8_5_restricted_carrier_cannot_hand_off)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/3X*!3/2O3/7/6/7 ATK a 0 - 0/0 2");
    ck_legal(g, "end");
    ball_game_free(g);

    g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/3X*3/2O3/7/6/7 ATK a 0 - 0/0 2");
    ck_legal(g, "G5=F4 end");
    ball_game_free(g);
}
END_TEST

/* R8.5 + R4.4: with 2 PA the restricted carrier starts no action at all:
 * no move, no hand-off, no short pass (O on F4 would be a receiver), no
 * long pass. */
START_TEST(test_R8_5_restricted_carrier_cannot_pass)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/3X*!3/2O3/7/6/7 ATK a 2 - 0/0 2");
    ck_legal_prefix(g, "G5", "");
    ck_assert_int_eq(count_kind(g, BALL_HANDOFF), 0);
    ck_assert_int_eq(count_kind(g, BALL_SHORT_PASS), 0);
    ck_assert_int_eq(count_kind(g, BALL_LONG_PASS), 0);
    ball_game_free(g);
}
END_TEST

/* Network position. ATK: X* G9 (carrier), O F10, S E11, O_ H10 (knocked
 * down), X I11, stack [X s] on H8 (ATK upper blocking DEF s), O I7.
 * DEF: x F8, s (lower on H8), o G15.
 * Adjacency (R1.3): G9 touches F8 F10 H8 H10; F10 touches E9 G9 E11 G11;
 * E11 touches D10 F10 D12 F12; I11 touches H10 J10 H12 J12; I7 touches
 * H6 J6 H8 J8. */
#define POS_NET "7/6/3o3/6/7/6/2S1X2/2OO_2/3X*3/2x[Xs]2/4O2/6/7/6/7/6/7 ATK a 2 - 0/0 2"

/* R8.2 + R3.2: the network of G9 is F10 (adjacent active ally) and E11
 * (through F10). H10 is knocked down, so neither it nor I11 behind it is
 * reached; the stack on H8 is inactive, so neither its upper X nor I7 behind
 * it is reached; F8 is an opponent. Exactly two hand-offs. */
START_TEST(test_R8_2_handoff_network_exact)
{
    ball_game *g = tu_game(POS_NET);
    ck_legal_prefix(g, "G9=", "G9=E11 G9=F10");
    ck_assert_int_eq(count_kind(g, BALL_HANDOFF), 2);
    ball_game_free(g);
}
END_TEST

/* R8.2: G9=E11 moves only the ball (no piece moves), costs 0 PA, sets `h`.
 * The receiver is not restricted (R4.4) and may act: S on E11 moves
 * (R5.1/R5.3/R5.4) to D10 D12 F12 (1 diag), F10 (protection of the O),
 * C9 C13 G13 (2 diag, open intermediates D10 D12 F12), C11 G11 E9 E13
 * (orthogonal); not G9 (an allied piece after a 2-square move). No hand-off
 * directly after a hand-off. */
START_TEST(test_R8_2_handoff_result_and_receiver_acts)
{
    ball_game *g = tu_game(POS_NET);
    tu_apply(g, "G9=E11");
    ck_bpn(g, "7/6/3o3/6/7/6/2S*1X2/2OO_2/3X3/2x[Xs]2/4O2/6/7/6/7/6/7 ATK a 2 h 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_handoff_last(g), 1);
    ck_assert_int_eq(count_kind(g, BALL_HANDOFF), 0);
    ck_legal_prefix(g, "E11-", "E11-C11 E11-C13 E11-C9 E11-D10 E11-D12 E11-E13 "
                               "E11-E9 E11-F10 E11-F12 E11-G11 E11-G13");
    /* The receiver moves with the ball (R5.5); `h` is cleared. */
    tu_apply(g, "E11-C9");
    ck_bpn(g, "7/6/3o3/6/7/6/4X2/2OO_2/1S*1X3/2x[Xs]2/4O2/6/7/6/7/6/7 ATK a 1 - 0/0 2");
    ball_game_free(g);
}
END_TEST

/* X* G9, O F10 (adjacent), S A1 far away; DEF o G15. */
#define POS_H0 "7/6/3o3/6/7/6/7/2O3/3X*3/6/7/6/7/6/7/6/S6 ATK a 0 - 0/0 2"
#define POS_H1 "7/6/3o3/6/7/6/7/2O3/3X*3/6/7/6/7/6/7/6/S6 ATK a 1 - 0/0 2"

/* R8.2 + R4.5: a hand-off costs 0 PA, so it is legal with 0 PA; moves and
 * passes are not. After it only `end` remains: no hand-off directly after a
 * hand-off (back to G9 would otherwise be possible). */
START_TEST(test_R8_2_handoff_legal_with_zero_pa)
{
    ball_game *g = tu_game(POS_H0);
    ck_legal(g, "G9=F10 end");
    tu_apply(g, "G9=F10");
    ck_bpn(g, "7/6/3o3/6/7/6/7/2O*3/3X3/6/7/6/7/6/7/6/S6 ATK a 0 h 0/0 2");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R8.2: after the hand-off G9=F10 no hand-off is legal; after another
 * action (S A1-B2, 1 PA) the `h` is cleared and F10 may hand back to G9. */
START_TEST(test_R8_2_handoff_again_after_another_action)
{
    ball_game *g = tu_game(POS_H1);
    tu_apply(g, "G9=F10");
    ck_bpn(g, "7/6/3o3/6/7/6/7/2O*3/3X3/6/7/6/7/6/7/6/S6 ATK a 1 h 0/0 2");
    ck_legal_prefix(g, "F10=", "");
    tu_apply(g, "A1-B2");
    ck_bpn(g, "7/6/3o3/6/7/6/7/2O*3/3X3/6/7/6/7/6/7/S5/7 ATK a 0 - 0/0 2");
    ck_assert_int_eq(ball_handoff_last(g), 0);
    ck_legal(g, "F10=G9 end");
    ball_game_free(g);
}
END_TEST

/* R8.2/R8.3: only a hand-off is barred after a hand-off. After G9=F10 with
 * 1 PA left, F10 may short pass: the only eligible receiver is X on G9
 * (S on A1 is at distance 9); ball squares = vacant neighbours of G9:
 * F8 H8 H10 (F10 holds the carrier). 1 PA: no long pass (R4.3). */
START_TEST(test_R8_3_short_pass_after_handoff)
{
    ball_game *g = tu_game(POS_H1);
    tu_apply(g, "G9=F10");
    ck_legal_prefix(g, "F10^", "F10^F8 F10^H10 F10^H8");
    tu_apply(g, "F10^H8");
    ck_bpn(g, "7/6/3o3/6/7/6/7/2O3/3X3/3@2/7/6/7/6/7/6/S6 ATK a 0 - 0/0 2");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* Short pass position, 1 PA (so no long pass, R4.3). Carrier X* G5.
 * ATK: O G9 (distance 4), S I7 (distance 2), X B10 (distance 5), O_ C5
 * (knocked down, distance 4), stack [S x] E5 (stacked, distance 2), X G11
 * (distance 6). DEF: o F10, x lower on E5. */
#define POS_SP "7/6/7/6/7/6/3X3/X1o3/3O3/6/4S2/6/1O_[Sx]X*3/6/7/6/7 ATK a 1 - 0/0 2"

/* R8.3: eligible receivers are active allies at distance <= 4: G9 and I7
 * only (B10 too far, C5 down, E5 stacked, G11 too far). Ball squares:
 * vacant neighbours of G9 = F8 H8 H10 (F10 holds DEF o); of I7 = H6 J6 H8 J8.
 * H8 is shared and listed once. H10 is at distance 5 from the carrier but
 * allowed: the limit is on the receiver. None of C5's, E5's, B10's or G11's
 * neighbours (B4 D4 B6 D6 F4 F6 A9 C9 A11 C11 F12 H12) appear. */
START_TEST(test_R8_3_short_pass_ball_squares_exact)
{
    ball_game *g = tu_game(POS_SP);
    ck_legal_prefix(g, "G5^", "G5^F8 G5^H10 G5^H6 G5^H8 G5^J6 G5^J8");
    ck_assert_int_eq(count_kind(g, BALL_SHORT_PASS), 6);
    ck_assert_int_eq(count_kind(g, BALL_LONG_PASS), 0);
    ball_game_free(g);
}
END_TEST

/* R8.3: the short pass costs 1 PA and leaves the ball loose (`@`) on H10,
 * held by nobody; the carrier keeps its square. With 0 PA and no carrier
 * only `end` remains. */
START_TEST(test_R8_3_short_pass_result)
{
    ball_game *g = tu_game(POS_SP);
    ball_action a = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_from_text(g, "G5^H10", &a), BALL_OK);
    ck_assert_int_eq(ball_action_kind(a), BALL_SHORT_PASS);
    ck_assert_int_eq(ball_action_cost(a), 1);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_bpn(g, "7/6/7/6/7/6/3X3/X1o@2/3O3/6/4S2/6/1O_[Sx]X3/6/7/6/7 ATK a 0 - 0/0 2");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* Long pass position: X* G5, ATK O_ C13 (knocked down), ATK X lower in the
 * stack [s X] on K13, DEF x G13. */
#define POS_LP "7/6/7/6/1O_1x1[sX]1/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 2"

/* R8.4: ball squares are vacant squares at distance >= 2 from every ATK
 * piece, whatever its state. Distance <= 1 means the square or one of its 4
 * diagonal neighbours (R1.3, other squares at distance 1 are unplayable):
 * G5 F4 H4 F6 H6, C13 B12 D12 B14 D14, K13 J12 L12 J14 L14 = 15 squares;
 * G13 is occupied: 111 - 16 = 95 long passes. No short pass: no active
 * ally. */
START_TEST(test_R8_4_long_pass_exclusion_zone)
{
    ball_game *g = tu_game(POS_LP);
    ck_assert_int_eq(count_kind(g, BALL_LONG_PASS), 95);
    ck_assert_int_eq(count_kind(g, BALL_SHORT_PASS), 0);
    ck_assert(has_action(g, "G5^^G7"));    /* distance 2 from G5 */
    ck_assert(has_action(g, "G5^^M17"));
    ck_assert(has_action(g, "G5^^F14"));   /* next to DEF x: allowed */
    ck_assert(!has_action(g, "G5^^H6"));   /* next to the passer */
    ck_assert(!has_action(g, "G5^^B12"));  /* next to a knocked-down ally */
    ck_assert(!has_action(g, "G5^^J12"));  /* next to a stacked (lower) ally */
    ck_assert(!has_action(g, "G5^^G13"));  /* occupied */
    ball_game_free(g);
}
END_TEST

/* R8.4 + R4.3: the long pass costs 2 PA: none with 1 PA. With 2 PA,
 * G5^^M17 leaves the loose ball on M17 (a loose ball in the end zone is no
 * touchdown, R11.1) and 0 PA. */
START_TEST(test_R8_4_long_pass_costs_two_pa)
{
    ball_game *g = tu_game("7/6/7/6/1O_1x1[sX]1/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 1 - 0/0 2");
    ck_assert_int_eq(count_kind(g, BALL_LONG_PASS), 0);
    ball_game_free(g);

    g = tu_game(POS_LP);
    tu_apply(g, "G5^^M17");
    ck_bpn(g, "6@/6/7/6/1O_1x1[sX]1/6/7/6/7/6/7/6/3X3/6/7/6/7 ATK a 0 - 0/0 2");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R7.3 + R4.4: the restricted carrier X*! on G5 is protected by its O from
 * F4: the upper O takes the ball at once (no restriction: it is stacked)
 * and the lower X loses its `!`. The stack is fresh (R7.4). 0 PA left, no
 * active carrier: only `end`, after which the fresh stack is no task and
 * the turn passes (fresh mark cleared). */
START_TEST(test_R7_3_restricted_carrier_protected_loses_restriction)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/3X*!3/2O3/7/6/7 ATK a 1 - 0/0 2");
    tu_apply(g, "F4-G5");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/6/3[O*X]+3/6/7/6/7 ATK a 0 - 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal(g, "end");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3o3/6/7/6/7/6/7/6/3[O*X]3/6/7/6/7 DEF a 2 - 0/0 3");
    ball_game_free(g);
}
END_TEST

/* R8.2 + undo: taking back the move after a hand-off restores the `h`
 * mark (and with it the ban on a second hand-off). */
START_TEST(test_R8_2_undo_restores_handoff_mark)
{
    ball_game *g = tu_game(POS_H1);
    tu_apply_all(g, "G9=F10 A1-B2");
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, "7/6/3o3/6/7/6/7/2O*3/3X3/6/7/6/7/6/7/6/S6 ATK a 1 h 0/0 2");
    ck_legal_prefix(g, "F10=", "");
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, POS_H1);
    ck_legal_prefix(g, "G9=", "G9=F10");
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("R8 possession");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R8_1_pickup_restricts_the_picker);
    tcase_add_test(tc, test_R8_1_passing_over_loose_ball_does_not_pick_up);
    tcase_add_test(tc, test_R8_1_pickup_at_dodge_exit_restricts);
    tcase_add_test(tc, test_R8_5_restricted_carrier_cannot_hand_off);
    tcase_add_test(tc, test_R8_5_restricted_carrier_cannot_pass);
    tcase_add_test(tc, test_R8_2_handoff_network_exact);
    tcase_add_test(tc, test_R8_2_handoff_result_and_receiver_acts);
    tcase_add_test(tc, test_R8_2_handoff_legal_with_zero_pa);
    tcase_add_test(tc, test_R8_2_handoff_again_after_another_action);
    tcase_add_test(tc, test_R8_3_short_pass_after_handoff);
    tcase_add_test(tc, test_R8_3_short_pass_ball_squares_exact);
    tcase_add_test(tc, test_R8_3_short_pass_result);
    tcase_add_test(tc, test_R8_4_long_pass_exclusion_zone);
    tcase_add_test(tc, test_R8_4_long_pass_costs_two_pa);
    tcase_add_test(tc, test_R7_3_restricted_carrier_protected_loses_restriction);
    tcase_add_test(tc, test_R8_2_undo_restores_handoff_mark);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
