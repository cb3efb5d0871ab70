/* R4 the turn: PA accounting, `end`, restriction, acting twice.
 *
 * All expected lists and BPNs are derived by hand from docs/spec.md; the
 * comment of each test says how. Moves follow R5.1 (X: 1 or 2 squares
 * diagonally), costs R4.3, hand-off network R8.2, passes R8.3/R8.4.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ATK X* G5, ATK X F6 (adjacent to G5), ATK O M1, DEF x G13. */
#define PA_POS "7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/7/6/6O ATK a 2 - 0/0 1"

/* R4.3 costs: move 1, hand-off 0, short pass 1, long pass 2.
 * G5^E7: receiver F6 at distance 1, E7 vacant and adjacent to F6 (R8.3).
 * G5^^G11: G11 vacant, distance 6/5/10 from G5/F6/M1 (R8.4). */
START_TEST(test_R4_3_action_costs)
{
    ball_game *g = tu_game(PA_POS);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "M1-L2")), 1);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5-H6")), 1);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5=F6")), 0);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5^E7")), 1);
    ck_assert_int_eq(ball_action_cost(tu_action(g, "G5^^G11")), 2);
    ball_game_free(g);
}
END_TEST

/* R4.2/R4.3/R4.5: two 1-PA moves (O M1-L2, L2-K3 by R5.1 1-square
 * diagonals) leave 0 PA. Then only the 0-PA hand-off G5=F6 (F6 is the only
 * network member, R8.2) and `end` remain. */
START_TEST(test_R4_3_two_moves_leave_handoff_and_end)
{
    ball_game *g = tu_game(PA_POS);
    tu_apply(g, "M1-L2");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/7/5O/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_pa(g), 1);
    tu_apply(g, "L2-K3");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/5O1/6/7 ATK a 0 - 0/0 1");
    ck_assert_int_eq(ball_pa(g), 0);
    ck_legal(g, "G5=F6 end");
    /* The hand-off is played at 0 PA; a second hand-off cannot follow
     * (R8.2), so only `end` is left (R4.5). */
    tu_apply(g, "G5=F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/3X3/6/5O1/6/7 ATK a 0 h 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R4.3: the long pass costs 2 PA: legal at 2 PA, not at 1 PA; the short
 * pass (1 PA) is still legal at 1 PA and not at 0. */
START_TEST(test_R4_3_long_pass_needs_two_pa)
{
    ball_game *g = tu_game(PA_POS);
    ck_assert_int_eq(tu_parse_rc(g, "G5^^G11"), BALL_OK);
    tu_apply(g, "M1-L2");
    ck_assert_int_eq(tu_parse_rc(g, "G5^^G11"), BALL_E_ILLEGAL);
    ck_legal_prefix(g, "G5^^", "");
    ck_assert_int_eq(tu_parse_rc(g, "G5^E7"), BALL_OK);
    tu_apply(g, "L2-K3");
    ck_assert_int_eq(tu_parse_rc(g, "G5^E7"), BALL_E_ILLEGAL);
    ck_legal_prefix(g, "G5^", "");
    ball_game_free(g);
}
END_TEST

/* R4.3 + R8.4: ATK X* G5 alone (DEF x G13). G5^^G11 spends both PA, the
 * ball lies loose on G11; with 0 PA and no carrier only `end` is left. */
START_TEST(test_R4_3_long_pass_spends_both_pa)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G5^^G11");
    ck_bpn(g, "7/6/7/6/3x3/6/3@3/6/7/6/7/6/3X3/6/7/6/7 ATK a 0 - 0/0 1");
    ck_legal(g, "end");
    ball_game_free(g);
}
END_TEST

/* R4.2: `end` is legal with 2 PA. DEF ends at once at the standard start:
 * no DEF release task (nothing knocked down, no stack, R9.1), so the turn
 * passes: ATK, 2 PA, turn 2, same placement (R9.5). */
START_TEST(test_R4_2_end_with_two_pa_passes_turn)
{
    ball_game *g = tu_game(NULL);
    tu_apply(g, "end");
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2");
    ck_assert_int_eq(ball_side(g), BALL_ATK);
    ck_assert_int_eq(ball_turn(g), 2);
    ball_game_free(g);
}
END_TEST

/* R4.2, R4.5: a single piece acts twice (X G9-H10 then H10-I11) and `end`
 * is listed at 2, 1 and 0 PA.
 * G9 at 2 PA (R5.1 X): F8 H8 F10 H10, and 2-squares E7 I7 E11 I11 over
 * open squares. H10 at 1 PA: G9 I9 G11 I11, 2-squares F8 J8 F12 J12.
 * Loose ball on M1, DEF x on A17 far away. */
START_TEST(test_R4_5_piece_acts_twice_and_end_always_legal)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    ck_legal(g, "G9-E11 G9-E7 G9-F10 G9-F8 G9-H10 G9-H8 G9-I11 G9-I7 end");
    tu_apply(g, "G9-H10");
    ck_bpn(g, "x6/6/7/6/7/6/7/3X2/7/6/7/6/7/6/7/6/6@ ATK a 1 - 0/0 1");
    ck_legal(g, "H10-F12 H10-F8 H10-G11 H10-G9 H10-I11 H10-I9 H10-J12 H10-J8 end");
    tu_apply(g, "H10-I11");
    ck_bpn(g, "x6/6/7/6/7/6/4X2/6/7/6/7/6/7/6/7/6/6@ ATK a 0 - 0/0 1");
    ck_legal(g, "end");
    tu_apply(g, "end");
    /* No ATK release task: the turn passes to DEF (R9.1, R9.5). */
    ck_bpn(g, "x6/6/7/6/7/6/4X2/6/7/6/7/6/7/6/7/6/6@ DEF a 2 - 0/0 2");
    ball_game_free(g);
}
END_TEST

/* ATK X G5, ATK X E5, loose ball F6, DEF x G13. */
#define RESTR_POS "7/6/7/6/3x3/6/7/6/7/6/7/2@3/2XX3/6/7/6/7 ATK a 2 - 0/0 1"

/* R4.4, R8.1: G5-F6 picks up the ball and the piece becomes restricted
 * (`!`). It starts no further action: no move, no hand-off, no pass from
 * F6. E5 still acts: D4 F4 D6, F6 = protection of the ally (R7.1),
 * 2-squares C3 G3 C7 and G7 over the active ally on F6 (R5.3). */
START_TEST(test_R4_4_restricted_after_pickup)
{
    ball_game *g = tu_game(RESTR_POS);
    tu_apply(g, "G5-F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*!3/2X4/6/7/6/7 ATK a 1 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), ball_square_from_text("F6"));
    ck_assert_int_eq(ball_piece(g, ball_square_from_text("F6"), BALL_UPPER),
                     BALL_X | BALL_PIECE_BALL | BALL_PIECE_RESTRICTED);
    ck_legal_prefix(g, "F6", "");
    ck_legal(g, "E5-C3 E5-C7 E5-D4 E5-D6 E5-F4 E5-F6 E5-G3 E5-G7 end");
    ball_game_free(g);
}
END_TEST

/* R4.4 + R9.5: `end` clears the restriction; no ATK task, turn passes. */
START_TEST(test_R4_4_restriction_cleared_by_end)
{
    ball_game *g = tu_game(RESTR_POS);
    tu_apply(g, "G5-F6");
    tu_apply(g, "end");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/2X4/6/7/6/7 DEF a 2 - 0/0 2");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ball_game_free(g);
}
END_TEST

/* R4.4, R8.2: a hand-off receiver is not restricted. ATK X* G5, X F6,
 * DEF x G13. After G5=F6 (0 PA, `h`), F6 holds the ball without `!`.
 * F6 moves (R5.1): E5 E7 G7, G5 = protection, 2-squares D4 D8 H8 and H4
 * over the active ally G5. No hand-off right after a hand-off (R8.2). */
START_TEST(test_R4_4_handoff_receiver_not_restricted)
{
    ball_game *g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/2X3/3X*3/6/7/6/7 ATK a 2 - 0/0 1");
    tu_apply(g, "G5=F6");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/7/2X*3/3X3/6/7/6/7 ATK a 2 h 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_legal_prefix(g, "F6-", "F6-D4 F6-D8 F6-E5 F6-E7 F6-G5 F6-G7 F6-H4 F6-H8");
    ck_legal_prefix(g, "F6=", "");
    /* The receiver moves with the ball (R5.5), then may pass: receiver G5
     * (distance 2), vacant squares adjacent to G5: F4 H4 F6 H6 (R8.3);
     * 1 PA left so no long pass. G5 is no longer adjacent: no hand-off. */
    tu_apply(g, "F6-G7");
    ck_bpn(g, "7/6/7/6/3x3/6/7/6/7/6/3X*3/6/3X3/6/7/6/7 ATK a 1 - 0/0 1");
    ck_legal_prefix(g, "G7^", "G7^F4 G7^F6 G7^H4 G7^H6");
    ck_legal_prefix(g, "G7=", "");
    ball_game_free(g);
}
END_TEST

/* R4.4: only active pieces of the coach to move act. ATK X_ (knocked
 * down) on G9 has no action, DEF x on H10 is not ATK's. ATK O on A1:
 * B2, and orthogonal 2-squares C1, A3 (R5.1 O; A-1, row -1 off board). */
START_TEST(test_R4_4_only_active_own_pieces_act)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/3x2/3X_3/6/7/6/7/6/7/6/O5@ ATK a 2 - 0/0 1");
    ck_legal(g, "A1-A3 A1-B2 A1-C1 end");
    ball_game_free(g);
}
END_TEST

/* R4.2: `end` is legal in the middle of the turn with 1 PA left, and the
 * remaining PA is lost: the next coach gets 2 PA (R4.1). */
START_TEST(test_R4_2_end_with_one_pa)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 2 - 0/0 1");
    tu_apply(g, "G9-F10");
    ck_assert_int_eq(ball_pa(g), 1);
    tu_apply(g, "end");
    ck_bpn(g, "x6/6/7/6/7/6/7/2X3/7/6/7/6/7/6/7/6/6@ DEF a 2 - 0/0 2");
    ck_assert_int_eq(ball_pa(g), 2);
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ball_game_free(g);
}
END_TEST

/* R4.3: with 0 PA no 1-PA action is legal, even for a fresh piece: parse
 * of a move is refused. */
START_TEST(test_R4_3_no_move_at_zero_pa)
{
    ball_game *g = tu_game("x6/6/7/6/7/6/7/6/3X3/6/7/6/7/6/7/6/6@ ATK a 0 - 0/0 1");
    ck_legal(g, "end");
    ck_assert_int_eq(tu_parse_rc(g, "G9-H10"), BALL_E_ILLEGAL);
    ball_game_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The turn bound (N1 "Clarification (turn)", R9.1, R9.5, R11.1;
 * docs/rules-choices.md "Turn bound"). At turn 999999999 a decision that
 * would hand the turn over is refused, so it is not listed: `end` with no
 * release task that has a solution, or a release-phase decision after
 * which no task has one and nothing scores. */

/* The BPN of g with its turn field (the last of seven) set to `turn`. */
static ball_game *at_turn(ball_game *g, const char *turn)
{
    char bpn[BALL_BPN_MAX + 16];
    tu_bpn(g, bpn);
    char *last = strrchr(bpn, ' ');
    ck_assert_ptr_nonnull(last);
    strcpy(last + 1, turn);
    return tu_game(bpn);
}

struct bound_seen {
    long positions, kept_end, dropped_end, kept_release, dropped_release, refused_checked;
};

/* In one position: the list at turn 999999999 is, in order, the list one
 * turn earlier less the decisions that there hand the turn over (seen by
 * playing them: the turn number goes up and the game goes on). Every
 * listed decision is played by ball_apply(); every left-out one is
 * refused with BALL_E_LIMIT, state untouched, and is not legal by
 * ball_is_legal(); counts, picks, draws, masks and perft agree. */
static void ck_bound_position(ball_game *g, struct bound_seen *seen)
{
    ball_game *before = at_turn(g, "999999998"), *last = at_turn(g, "999999999");
    ball_action all[BALL_MAX_ACTIONS], want[BALL_MAX_ACTIONS], got[BALL_MAX_ACTIONS];
    ball_action dropped[BALL_MAX_ACTIONS];
    int n_all = ball_legal_actions(before, all, BALL_MAX_ACTIONS), n_want = 0, n_dropped = 0;
    int release = ball_phase(before) == BALL_PHASE_RELEASE;
    ck_assert_int_ge(n_all, 1);
    for (int i = 0; i < n_all; i++) {
        ck_assert_int_eq(ball_apply(before, all[i]), BALL_OK);
        int handed = ball_turn(before) != 999999998 && ball_result(before) == BALL_ONGOING;
        ck_assert_int_eq(ball_undo(before), BALL_OK);
        int is_end = ball_action_kind(all[i]) == BALL_END;
        if (handed)
            dropped[n_dropped++] = all[i];
        else
            want[n_want++] = all[i];
        if (is_end)
            handed ? seen->dropped_end++ : seen->kept_end++;
        else if (release)
            handed ? seen->dropped_release++ : seen->kept_release++;
    }
    int n = ball_legal_actions(last, got, BALL_MAX_ACTIONS);
    ck_assert_int_eq(n, n_want);
    for (int i = 0; i < n; i++)
        ck_assert_uint_eq(got[i], want[i]);
    char bpn[BALL_BPN_MAX];
    tu_bpn(last, bpn);
    for (int i = 0; i < n; i++) { /* every listed decision is played */
        ck_assert_int_eq(ball_is_legal(last, got[i]), 1);
        ck_assert_int_eq(ball_apply(last, got[i]), BALL_OK);
        ck_assert_int_le(ball_turn(last), BALL_MAX_TURN);
        ck_assert_int_eq(ball_undo(last), BALL_OK);
        ck_assert_int_eq(ball_apply_unchecked(last, got[i]), BALL_OK);
        ck_assert_int_eq(ball_undo(last), BALL_OK);
    }
    for (int i = 0; i < n_dropped; i++) { /* and every other one refused */
        char text[BALL_ACTION_TEXT_MAX];
        ck_assert_int_gt(ball_action_to_text(dropped[i], text, sizeof text), 0);
        ck_assert_int_eq(tu_parse_rc(last, text), BALL_E_LIMIT); /* its text: refused alike */
        ck_assert_int_eq(ball_is_legal(last, dropped[i]), 0);
        ck_assert_int_eq(ball_apply(last, dropped[i]), BALL_E_LIMIT);
        ck_assert_ptr_nonnull(strstr(ball_errmsg(last), "999999999"));
        ck_bpn(last, bpn);
        ck_assert_int_eq(ball_history_length(last), 0);
        seen->refused_checked++;
    }
    uint8_t mask[BALL_ACTION_SPACE];
    ck_assert_int_eq(ball_legal_mask(last, mask, sizeof mask, 0), n);
    ck_assert_int_eq(ball_legal_indices(last, NULL, 0), n);
    if (release) { /* the tasks' solutions are the list, task by task */
        ball_task tasks[BALL_MAX_TASKS];
        int nt = ball_release_tasks(last, tasks, BALL_MAX_TASKS), sum = 0;
        for (int t = 0; t < nt; t++)
            sum += ball_task_solutions(last, ball_task_square(tasks[t]), NULL, 0);
        ck_assert_int_eq(sum, n);
    }
    ball_action a = BALL_ACTION_NONE;
    if (n > 0) {
        tu_check_generator_modes(last, got, n);
    }
    if (n > 0 && seen->positions % 16 == 0) { /* perft 2 by the library and by apply */
        uint64_t count = 0;
        ck_assert_int_eq(ball_perft(last, 2, &count), BALL_OK);
        ck_assert_uint_eq(count, tu_perft_by_apply(last, 2));
    }
    if (n == 0) { /* stopped: nothing to list, pick or draw, and the message says why */
        ck_assert_int_eq(ball_random_action(last, 0, &a), BALL_E_RANGE);
        ck_assert_ptr_nonnull(strstr(ball_errmsg(last), "999999999"));
        ck_assert_int_eq(ball_legal_action_at(last, 0, &a), BALL_E_RANGE);
        ck_assert_ptr_nonnull(strstr(ball_errmsg(last), "999999999"));
        ck_assert_uint_eq(a, BALL_ACTION_NONE);
        uint64_t count = 1;
        ck_assert_int_eq(ball_perft(last, 1, &count), BALL_OK);
        ck_assert_uint_eq(count, 0);
    }
    seen->positions++;
    ball_game_free(before);
    ball_game_free(last);
}

/* Positions of random games from the standard start (fixed seed), each
 * moved to the bound. The games meet every kind of case: `end` kept (a
 * release phase follows) and refused, release decisions kept (a task is
 * left) and refused (the last one). */
START_TEST(test_N1_turn_bound_list_equals_playable)
{
    struct bound_seen seen = {0};
    uint64_t rng = 23;
    for (int game = 0; game < 12; game++) {
        ball_game *g = tu_game(NULL);
        ball_action a;
        for (int k = 0; k < 400 && ball_result(g) == BALL_ONGOING; k++) {
            if (k % 4 == 0 || ball_phase(g) == BALL_PHASE_RELEASE)
                ck_bound_position(g, &seen);
            ck_assert_int_eq(ball_random_action(g, tu_random(&rng), &a), BALL_OK);
            ck_assert_int_eq(ball_apply(g, a), BALL_OK);
        }
        ball_game_free(g);
    }
    ck_assert_int_gt(seen.positions, 500);
    ck_assert_int_gt(seen.kept_end, 50);
    ck_assert_int_gt(seen.dropped_end, 50);
    ck_assert_int_gt(seen.kept_release, 50);
    ck_assert_int_gt(seen.dropped_release, 50);
}
END_TEST

/* R9.1 + R11.1 at the bound: a release whose keeper lands in its target
 * zone wins and does not hand over, so it stays listed although it
 * resolves the last task.
 * ATK's X holds the ball on top of DEF's standing x on F16, the row below
 * ATK's end zone (row 17, zone depth 1); the stack is not fresh and is
 * ATK's only task. Its vacant neighbours: E17 G17 E15 G15. Resolutions by
 * hand (R9.3): 12 ordered pairs (U, W), each with keeper U (the upper, ATK)
 * or W (the lower, DEF, standing): 24 decisions. Those that put the ball
 * in ATK's hands on row 17 score (R11.1): U on E17 or G17 with keeper U,
 * 3 choices of W each. DEF's target zone is row 1: its keeper never
 * scores here. The other 18 leave no task and would hand over. */
START_TEST(test_N1_turn_bound_release_that_scores)
{
    const char *bpn = "7/2[X*x]3/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK r 0 - 0/0 999999999";
    ball_game *g = tu_game(bpn);
    ck_legal(g, "F16-E17/E15=E17 F16-E17/G15=E17 F16-E17/G17=E17 "
                "F16-G17/E15=G17 F16-G17/E17=G17 F16-G17/G15=G17");
    tu_apply(g, "F16-G17/E15=G17");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_turn(g), BALL_MAX_TURN);
    ball_game_free(g);
    g = tu_game("7/2[X*x]3/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 ATK r 0 - 0/0 999999998");
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 24);
    ball_game_free(g);
}
END_TEST

/* The loop "play legal decisions until none is left" from positions at
 * the bound never meets an error: each ends with the game won or
 * stopped at turn 999999999 with no decision (ball_result() ongoing),
 * within a few decisions (the turn cannot pass). Also the loop of
 * ball.h's ball_random_action() example with ball_apply_unchecked(). */
START_TEST(test_N1_turn_bound_play_until_none)
{
    static const char *const starts[] = {
        "7/6/3s3/6/3x3/6/1o1sxo1/6/2x4/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 999999999",
        "7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK a 1 - 0/0 999999999",
        "7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK r 0 - 0/0 999999999",
    };
    uint64_t rng = 99;
    long stopped = 0, decisions = 0;
    for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++)
        for (int run = 0; run < 200; run++) {
            ball_game *g = tu_game(starts[s]);
            ball_action acts[BALL_MAX_ACTIONS];
            int n, k = 0;
            while ((n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS)) > 0) {
                ck_assert_int_lt(k++, 200);
                ck_assert_msg(ball_apply(g, acts[tu_random(&rng) % (unsigned)n]) == BALL_OK, "%s",
                              ball_errmsg(g));
                decisions++;
            }
            ck_assert_int_eq(n, 0);
            ck_assert_int_eq(ball_turn(g), BALL_MAX_TURN);
            stopped += ball_result(g) == BALL_ONGOING;
            ball_game_free(g);

            g = tu_game(starts[s]);
            ball_action a;
            k = 0;
            while (ball_random_action(g, tu_random(&rng), &a) == BALL_OK) {
                ck_assert_int_lt(k++, 200);
                ck_assert_msg(ball_apply_unchecked(g, a) == BALL_OK, "%s", ball_errmsg(g));
            }
            ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
            ball_game_free(g);
        }
    ck_assert_int_gt(stopped, 500);
    ck_assert_int_gt(decisions, 600);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("r04_turn");
    TCase *tc = tcase_create("core");
    /* The turn-bound tests replay a dozen random games each checking every
     * decision at the bound: a few seconds alone, more on a loaded machine
     * or under valgrind; Check's default 4 s failed them at load 16. */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_R4_3_action_costs);
    tcase_add_test(tc, test_R4_3_two_moves_leave_handoff_and_end);
    tcase_add_test(tc, test_R4_3_long_pass_needs_two_pa);
    tcase_add_test(tc, test_R4_3_long_pass_spends_both_pa);
    tcase_add_test(tc, test_R4_2_end_with_two_pa_passes_turn);
    tcase_add_test(tc, test_R4_5_piece_acts_twice_and_end_always_legal);
    tcase_add_test(tc, test_R4_4_restricted_after_pickup);
    tcase_add_test(tc, test_R4_4_restriction_cleared_by_end);
    tcase_add_test(tc, test_R4_4_handoff_receiver_not_restricted);
    tcase_add_test(tc, test_R4_4_only_active_own_pieces_act);
    tcase_add_test(tc, test_R4_2_end_with_one_pa);
    tcase_add_test(tc, test_R4_3_no_move_at_zero_pa);
    tcase_add_test(tc, test_N1_turn_bound_list_equals_playable);
    tcase_add_test(tc, test_N1_turn_bound_release_that_scores);
    tcase_add_test(tc, test_N1_turn_bound_play_until_none);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
