/* Bad input to the public API (ball.h conventions): NULL arguments, tiny
 * buffers, out-of-range squares and values, bad rulesets, undo without
 * history, error strings. No call may crash; each returns its documented
 * error code and leaves the game unchanged. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

static ball_game *new_game(void)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL), BALL_OK);
    ck_assert_ptr_nonnull(g);
    return g;
}

/* Version macros agree with the loaded library. */
START_TEST(api_version)
{
    ck_assert_uint_eq(ball_version_number(), BALL_VERSION_NUMBER);
    ck_assert_str_eq(ball_version_string(), BALL_VERSION_STRING);
}
END_TEST

/* ball_strerror: every code has a non-empty, distinct text; unknown codes
 * give "unknown error". */
START_TEST(api_strerror)
{
    const int codes[] = { BALL_OK, BALL_E_ARG, BALL_E_NOMEM, BALL_E_BPN,
                          BALL_E_NOTATION, BALL_E_ILLEGAL, BALL_E_BUFFER,
                          BALL_E_RANGE, BALL_E_NO_HISTORY };
    const int n = (int)(sizeof codes / sizeof codes[0]);
    for (int i = 0; i < n; i++) {
        const char *s = ball_strerror(codes[i]);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_gt((int)strlen(s), 0);
        ck_assert_str_ne(s, "unknown error");
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(s, ball_strerror(codes[j]));
    }
    ck_assert_str_eq(ball_strerror(-9), "unknown error");
    ck_assert_str_eq(ball_strerror(12345), "unknown error");
    ck_assert_str_eq(ball_strerror(-100000), "unknown error");
}
END_TEST

/* Geometry functions out of range. */
START_TEST(api_geometry_range)
{
    char buf[8];
    ck_assert_int_eq(ball_square_at(0, 1), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(14, 2), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(1, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(1, 18), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(1, 2), BALL_E_RANGE); /* A2 unplayable */
    ck_assert_int_eq(ball_square_col(-1), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_col(111), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_row(-1), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_row(111), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_name(-1, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_name(111, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_name(0, NULL, 4), BALL_E_ARG);
    ck_assert_int_eq(ball_square_name(0, buf, 2), BALL_E_BUFFER);   /* "A1" + NUL */
    ck_assert_int_eq(ball_square_name(0, buf, 3), 2);
    ck_assert_str_eq(buf, "A1");
    ck_assert_int_eq(ball_square_name(110, buf, 3), BALL_E_BUFFER); /* "M17" + NUL */
    ck_assert_int_eq(ball_square_name(110, buf, 4), 3);
    ck_assert_str_eq(buf, "M17");
    ck_assert_int_eq(ball_square_from_name(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_square_distance(-1, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_distance(0, 111), BALL_E_RANGE);
}
END_TEST

/* Rulesets: bad depth -> BALL_E_RANGE, bad size -> BALL_E_ARG, *out NULL. */
START_TEST(api_rules)
{
    ball_rules r;
    ball_game *g = (ball_game *)&r; /* any non-NULL value, must be reset */
    ball_rules_init(NULL, sizeof(ball_rules));          /* does nothing */
    ball_rules_init(&r, sizeof r);
    ck_assert_uint_eq(r.size, sizeof(ball_rules));
    ck_assert_int_eq(r.end_zone_depth, 1);
    ck_assert_uint_eq(r.turn_limit, 0);
    ck_assert_uint_eq(r.flags, 0);

    r.end_zone_depth = 0;
    ck_assert_int_eq(ball_game_new(&g, &r), BALL_E_RANGE);
    ck_assert_ptr_null(g);
    r.end_zone_depth = 4;
    g = (ball_game *)&r;
    ck_assert_int_eq(ball_game_new(&g, &r), BALL_E_RANGE);
    ck_assert_ptr_null(g);

    ball_rules_init(&r, sizeof r);
    r.size = 0;
    g = (ball_game *)&r;
    ck_assert_int_eq(ball_game_new(&g, &r), BALL_E_ARG);
    ck_assert_ptr_null(g);

    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_game_new(NULL, &r), BALL_E_ARG);

    /* Depth 3 is fine and read back. */
    r.end_zone_depth = 3;
    r.turn_limit = 9;
    ck_assert_int_eq(ball_game_new(&g, &r), BALL_OK);
    ball_rules back;
    ball_rules_init(&back, sizeof back);
    ck_assert_int_eq(ball_game_rules(g, &back), BALL_OK);
    ck_assert_int_eq(back.end_zone_depth, 3);
    ck_assert_uint_eq(back.turn_limit, 9);
    ck_assert_int_eq(ball_game_rules(g, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_game_rules(NULL, &back), BALL_E_ARG);
    ball_game_free(g);
}
END_TEST

/* Lifetime and position readers with NULL. */
START_TEST(api_null_game_readers)
{
    ball_game *c = (ball_game *)&c;
    ck_assert_int_eq(ball_game_clone(&c, NULL), BALL_E_ARG);
    ck_assert_ptr_null(c);
    ball_game *g = new_game();
    ck_assert_int_eq(ball_game_clone(NULL, g), BALL_E_ARG);
    ball_game_free(NULL);
    ck_assert_str_eq(ball_errmsg(NULL), "");
    ck_assert_int_eq(ball_side(NULL), -1);
    ck_assert_int_eq(ball_phase(NULL), -1);
    ck_assert_int_eq(ball_pa(NULL), -1);
    ck_assert_int_eq(ball_handoff_last(NULL), -1);
    ck_assert_uint_eq(ball_turn(NULL), 0);
    ck_assert_int_eq(ball_result(NULL), -1);
    ck_assert_int_eq(ball_piece(NULL, 0, BALL_UPPER), BALL_E_ARG);
    ck_assert_int_eq(ball_square_state(NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_ball_square(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_restricted_square(NULL), BALL_E_ARG);
    ck_assert_uint_eq(ball_history_length(NULL), 0);
    ck_assert_int_eq(ball_history_reserve(NULL, 4), BALL_E_ARG);
    ball_game_free(g);
}
END_TEST

/* Squares out of range for ball_piece / ball_square_state; bad level. */
START_TEST(api_piece_range)
{
    ball_game *g = new_game();
    ck_assert_int_eq(ball_piece(g, -1, BALL_UPPER), BALL_E_RANGE);
    ck_assert_int_eq(ball_piece(g, 111, BALL_UPPER), BALL_E_RANGE);
    ck_assert_int_eq(ball_piece(g, 0, 2), BALL_E_ARG);
    ck_assert_int_eq(ball_piece(g, 0, -1), BALL_E_ARG);
    ck_assert_int_eq(ball_square_state(g, -1), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_state(g, 111), BALL_E_RANGE);
    /* Valid reads of the standard start: X* on G5 (29), nothing on A1. */
    ck_assert_int_eq(ball_piece(g, 29, BALL_UPPER), BALL_X | BALL_PIECE_BALL);
    ck_assert_int_eq(ball_piece(g, 29, BALL_LOWER), 0);
    ck_assert_int_eq(ball_square_state(g, 0), 0);
    ck_assert_int_eq(ball_ball_square(g), 29);
    ck_assert_int_eq(ball_restricted_square(g), -1);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Action accessors on BALL_ACTION_NONE (never an action). */
START_TEST(api_action_none)
{
    char buf[BALL_ACTION_TEXT_MAX];
    ck_assert_int_eq(ball_action_kind(BALL_ACTION_NONE), 0);
    ck_assert_int_eq(ball_action_from(BALL_ACTION_NONE), -1);
    ck_assert_int_eq(ball_action_to(BALL_ACTION_NONE), -1);
    ck_assert_int_eq(ball_action_option(BALL_ACTION_NONE), -1);
    ck_assert_int_eq(ball_action_keeper(BALL_ACTION_NONE), BALL_KEEPER_NONE);
    ck_assert_int_eq(ball_action_flags(BALL_ACTION_NONE), 0);
    ck_assert_int_eq(ball_action_cost(BALL_ACTION_NONE), -1);
    ck_assert_int_eq(ball_action_text(BALL_ACTION_NONE, buf, sizeof buf), BALL_E_ARG);
}
END_TEST

/* Legal actions: NULL game, counting mode, tiny buffer. */
START_TEST(api_legal_actions)
{
    ball_game *g = new_game();
    ball_action acts[BALL_MAX_ACTIONS];
    ck_assert_int_eq(ball_legal_actions(NULL, acts, BALL_MAX_ACTIONS), BALL_E_ARG);
    int n = ball_legal_actions(g, NULL, 0);
    ck_assert_int_gt(n, 1);
    ck_assert_int_eq(ball_legal_actions(g, acts, BALL_MAX_ACTIONS), n);
    ck_assert_int_eq(ball_legal_actions(g, acts, 1), BALL_E_BUFFER);
    ck_assert_int_eq(ball_legal_actions(g, acts, (size_t)n - 1), BALL_E_BUFFER);
    ck_assert_int_eq(ball_legal_actions(g, acts, (size_t)n), n);
    ck_assert_int_eq(ball_is_legal(NULL, acts[0]), BALL_E_ARG);
    ck_assert_int_eq(ball_is_legal(g, BALL_ACTION_NONE), 0);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* One legal action by index: NULL arguments and indices out of range are
 * errors that say what, and change nothing. */
START_TEST(api_legal_action_at)
{
    ball_game *g = new_game();
    ball_action a = BALL_ACTION_NONE, acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_eq(ball_legal_action_at(NULL, 0, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_legal_action_at(g, 0, NULL), BALL_E_ARG);
    ck_assert_str_eq(ball_errmsg(g), "NULL output");
    ck_assert_int_eq(ball_legal_action_at(g, n, &a), BALL_E_RANGE);
    ck_assert_str_eq(ball_errmsg(g), "action index 55 out of range 0-54");
    ck_assert_int_eq(ball_legal_action_at(g, -1, &a), BALL_E_RANGE);
    ck_assert_int_eq(ball_legal_action_at(g, 2147483647, &a), BALL_E_RANGE);
    ck_assert_uint_eq(a, BALL_ACTION_NONE);
    ck_assert_int_eq(ball_legal_action_at(g, n - 1, &a), BALL_OK);
    ck_assert_uint_eq(a, acts[n - 1]);
    ck_assert_str_eq(ball_errmsg(g), "");
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* A random action: NULL arguments are errors; every 64-bit value draws a
 * legal action; the state does not change. */
START_TEST(api_random_action)
{
    ball_game *g = new_game();
    ball_action a = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_random_action(NULL, 0, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_random_action(g, 0, NULL), BALL_E_ARG);
    ck_assert_str_eq(ball_errmsg(g), "NULL output");
    ck_assert_uint_eq(a, BALL_ACTION_NONE);
    const uint64_t values[] = {0, 1, 0x8000000000000000ull, UINT64_MAX};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(ball_random_action(g, values[i], &a), BALL_OK);
        ck_assert_int_eq(ball_is_legal(g, a), 1);
    }
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Apply / undo: NULL, BALL_ACTION_NONE, garbage values, empty history. */
START_TEST(api_apply_undo)
{
    ball_game *g = new_game();
    ball_action e = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_parse(g, "end", &e), BALL_OK);
    ck_assert_int_eq(ball_apply(NULL, e), BALL_E_ARG);
    ck_assert_int_eq(ball_apply_unchecked(NULL, e), BALL_E_ARG);
    ck_assert_int_eq(ball_apply(g, BALL_ACTION_NONE), BALL_E_ILLEGAL);
    ck_assert_int_ne(ball_errmsg(g)[0], '\0');
    ck_assert_int_eq(ball_apply(g, 0xFFFFFFFFu), BALL_E_ILLEGAL);
    ck_bpn(g, BALL_START_BPN);
    ck_assert_uint_eq(ball_history_length(g), 0);
    ck_assert_int_eq(ball_undo(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_undo(g), BALL_E_NO_HISTORY);
    ck_bpn(g, BALL_START_BPN);
    /* After a success the error message is empty again. */
    ck_assert_int_eq(ball_apply(g, e), BALL_OK);
    ck_assert_str_eq(ball_errmsg(g), "");
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_E_NO_HISTORY);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* BPN I/O: NULL arguments and tiny buffers. */
START_TEST(api_bpn_io)
{
    ball_game *g = new_game();
    char buf[BALL_BPN_MAX];
    ck_assert_int_eq(ball_get_bpn(NULL, buf, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_get_bpn(g, NULL, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_get_bpn(g, buf, 1), BALL_E_BUFFER);
    size_t len = strlen(BALL_START_BPN);
    ck_assert_int_eq(ball_get_bpn(g, buf, len), BALL_E_BUFFER);   /* no room for NUL */
    ck_assert_int_eq(ball_get_bpn(g, buf, len + 1), (int)len);
    ck_assert_str_eq(buf, BALL_START_BPN);
    ck_assert_int_eq(ball_set_bpn(NULL, BALL_START_BPN), BALL_E_ARG);
    ck_assert_int_eq(ball_set_bpn(g, NULL), BALL_E_ARG);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Action text I/O: NULL arguments and tiny buffers. */
START_TEST(api_action_io)
{
    ball_game *g = new_game();
    ball_action a = BALL_ACTION_NONE;
    char buf[BALL_ACTION_TEXT_MAX];
    /* Standard start, DEF to act: x on G13 may step to F12. */
    ck_assert_int_eq(ball_action_parse(g, "G13-F12", &a), BALL_OK);
    ck_assert_int_eq(ball_action_text(a, NULL, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_action_text(a, buf, 2), BALL_E_BUFFER);
    ck_assert_int_eq(ball_action_text(a, buf, 0), BALL_E_BUFFER);
    ck_assert_int_eq(ball_action_text(a, buf, sizeof buf), 7);
    ck_assert_str_eq(buf, "G13-F12");
    ck_assert_int_eq(ball_action_parse(NULL, "end", &a), BALL_E_ARG);
    ck_assert_int_eq(ball_action_parse(g, NULL, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_action_parse(g, "end", NULL), BALL_E_ARG);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Release-phase API and selection API with NULL. */
START_TEST(api_release_and_select_null)
{
    ball_game *g = new_game();
    int tasks[14];
    ball_action sols[BALL_MAX_ACTIONS];
    int choices[BALL_NUM_SQUARES];
    int chosen[6] = { 29, BALL_VERB_MOVE, 0, 0, 0, 0 };
    ball_action a;
    ck_assert_int_eq(ball_release_tasks(NULL, tasks, 14), BALL_E_ARG);
    ck_assert_int_eq(ball_task_solutions(NULL, 0, sols, BALL_MAX_ACTIONS), BALL_E_ARG);
    ck_assert_int_eq(ball_select(NULL, chosen, 0, choices, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_select(g, chosen, 6, choices, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_select(g, NULL, 1, choices, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_select(g, chosen, 0, NULL, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Perft: NULL, negative and too deep depths; depth 0 is 1. */
START_TEST(api_perft)
{
    ball_game *g = new_game();
    uint64_t n = 99;
    ck_assert_int_eq(ball_perft(NULL, 1, &n), BALL_E_ARG);
    ck_assert_int_eq(ball_perft(g, 1, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_perft(g, -1, &n), BALL_E_RANGE);
    ck_assert_int_eq(ball_perft(g, 65, &n), BALL_E_RANGE);
    ck_assert_int_eq(ball_perft(g, 0, &n), BALL_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(ball_perft(g, 1, &n), BALL_OK);
    ck_assert_uint_eq(n, (uint64_t)ball_legal_actions(g, NULL, 0));
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Clone is independent of the original. */
START_TEST(api_clone_independent)
{
    ball_game *g = new_game();
    ball_game *c = NULL;
    ck_assert_int_eq(ball_game_clone(&c, g), BALL_OK);
    tu_apply(c, "G13-F12");
    ck_bpn(g, BALL_START_BPN);
    ck_assert_uint_eq(ball_history_length(c), 1);
    ck_assert_uint_eq(ball_history_length(g), 0);
    ball_game_free(c);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("bad input");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, api_version);
    tcase_add_test(tc, api_strerror);
    tcase_add_test(tc, api_geometry_range);
    tcase_add_test(tc, api_rules);
    tcase_add_test(tc, api_null_game_readers);
    tcase_add_test(tc, api_piece_range);
    tcase_add_test(tc, api_action_none);
    tcase_add_test(tc, api_legal_actions);
    tcase_add_test(tc, api_legal_action_at);
    tcase_add_test(tc, api_random_action);
    tcase_add_test(tc, api_apply_undo);
    tcase_add_test(tc, api_bpn_io);
    tcase_add_test(tc, api_action_io);
    tcase_add_test(tc, api_release_and_select_null);
    tcase_add_test(tc, api_perft);
    tcase_add_test(tc, api_clone_independent);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
