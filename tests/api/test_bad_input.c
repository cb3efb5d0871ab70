/* Bad input to the public API (ball.h conventions): NULL arguments, tiny
 * buffers, out-of-range squares and values, bad rulesets, undo without
 * history, error strings. No call may crash; each returns its documented
 * error code and leaves the game unchanged. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

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
                          BALL_E_RANGE, BALL_E_NO_HISTORY, BALL_E_RULES,
                          BALL_E_LIMIT, BALL_E_RECORD };
    const int n = (int)(sizeof codes / sizeof codes[0]);
    for (int i = 0; i < n; i++) {
        const char *s = ball_strerror(codes[i]);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_gt((int)strlen(s), 0);
        ck_assert_str_ne(s, "unknown error");
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(s, ball_strerror(codes[j]));
    }
    ck_assert_str_eq(ball_strerror(-12), "unknown error");
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
    ck_assert_int_eq(ball_square_to_text(-1, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_to_text(111, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_to_text(0, NULL, 4), BALL_E_ARG);
    ck_assert_int_eq(ball_square_to_text(0, buf, 2), BALL_E_BUFFER);   /* "A1" + NUL */
    ck_assert_int_eq(ball_square_to_text(0, buf, 3), 2);
    ck_assert_str_eq(buf, "A1");
    ck_assert_int_eq(ball_square_to_text(110, buf, 3), BALL_E_BUFFER); /* "M17" + NUL */
    ck_assert_int_eq(ball_square_to_text(110, buf, 4), 3);
    ck_assert_str_eq(buf, "M17");
    ck_assert_int_eq(ball_square_from_text(NULL), BALL_E_ARG);
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
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_E_RANGE);
    ck_assert_ptr_null(g);
    r.end_zone_depth = 4;
    g = (ball_game *)&r;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_E_RANGE);
    ck_assert_ptr_null(g);

    ball_rules_init(&r, sizeof r);
    r.size = 0;
    g = (ball_game *)&r;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_E_ARG);
    ck_assert_ptr_null(g);

    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_game_new(NULL, &r, NULL, 0), BALL_E_ARG);

    /* Depth 3 is fine and read back. */
    r.end_zone_depth = 3;
    r.turn_limit = 9;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_OK);
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

/* Issue item (1.0 contracts): ball_game_new() and
 * ball_game_new_with_allocator() say why they fail in err: a bad end-zone
 * depth names the valid range 1-3, a bad turn limit its range, a bad size
 * the published one; the buffer is cut (and NUL-terminated) when short,
 * left alone for errlen 0, and emptied on success. ball_rules_check()
 * writes the same messages. */
START_TEST(api_game_new_error_message)
{
    ball_rules r;
    ball_game *g = (ball_game *)&r;
    char err[256] = "untouched";
    ball_rules_init(&r, sizeof r);
    r.end_zone_depth = 7;
    ck_assert_int_eq(ball_game_new(&g, &r, err, sizeof err), BALL_E_RANGE);
    ck_assert_ptr_null(g);
    ck_assert_ptr_nonnull(strstr(err, "1-3"));
    ck_assert_ptr_nonnull(strstr(err, "7"));
    ck_assert_ptr_nonnull(strstr(err, "depth"));
    char check[256] = "";
    ck_assert_int_eq(ball_rules_check(&r, check, sizeof check), BALL_E_RANGE);
    ck_assert_str_eq(check, err);
    strcpy(err, "untouched");
    ck_assert_int_eq(ball_game_new_with_allocator(&g, &r, NULL, err, sizeof err), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err, "1-3"));
    /* a short buffer gets the start of the message, NUL-terminated */
    char small[8];
    memset(small, 'x', sizeof small);
    ck_assert_int_eq(ball_game_new(&g, &r, small, sizeof small), BALL_E_RANGE);
    ck_assert_uint_eq(strlen(small), sizeof small - 1);
    ck_assert_int_eq(strncmp(small, err, sizeof small - 1), 0);
    /* errlen 0: the buffer is not written; NULL/0 is accepted */
    memset(small, 'x', sizeof small);
    ck_assert_int_eq(ball_game_new(&g, &r, small, 0), BALL_E_RANGE);
    ck_assert_int_eq(small[0], 'x');
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_E_RANGE);
    ck_assert_ptr_null(g);
    /* the turn limit and reserved flags */
    ball_rules_init(&r, sizeof r);
    r.turn_limit = BALL_MAX_TURN + 1u;
    ck_assert_int_eq(ball_game_new(&g, &r, err, sizeof err), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err, "turn limit"));
    ck_assert_ptr_nonnull(strstr(err, "1000000000"));
    ball_rules_init(&r, sizeof r);
    r.flags = 1;
    ck_assert_int_eq(ball_game_new(&g, &r, err, sizeof err), BALL_E_RANGE);
    ck_assert_ptr_nonnull(strstr(err, "flags"));
    /* a size that is not published names the size to use */
    ball_rules_init(&r, sizeof r);
    r.size = sizeof r + 8;
    ck_assert_int_eq(ball_game_new(&g, &r, err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_nonnull(strstr(err, "size"));
    ck_assert_ptr_nonnull(strstr(err, "ball_rules_init"));
    /* NULL output pointer */
    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_game_new(NULL, &r, err, sizeof err), BALL_E_ARG);
    ck_assert_str_ne(err, "");
    /* success empties the message */
    ck_assert_int_eq(ball_game_new(&g, &r, err, sizeof err), BALL_OK);
    ck_assert_str_eq(err, "");
    ball_game_free(g);
    ck_assert_int_eq(ball_rules_check(&r, err, sizeof err), BALL_OK);
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(ball_rules_check(NULL, err, sizeof err), BALL_E_ARG);
}
END_TEST

/* Lifetime and position readers with NULL. Issue item (1.0 contracts):
 * every getter returns BALL_E_ARG for a NULL game, whatever its other
 * arguments (valid or not), and no getter returns another negative value
 * for a valid game. */
START_TEST(api_null_game_readers)
{
    ball_game *c = (ball_game *)&c;
    ck_assert_int_eq(ball_game_clone(&c, NULL), BALL_E_ARG);
    ck_assert_ptr_null(c);
    ball_game *g = tu_game(NULL);
    ck_assert_int_eq(ball_game_clone(NULL, g), BALL_E_ARG);
    ball_game_free(NULL);
    ck_assert_str_eq(ball_errmsg(NULL), "");
    ck_assert_int_eq(ball_side(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_phase(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_pa(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_handoff_last(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_turn(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_result(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_square_of_ball(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_restricted_square(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_history_length(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_history_reserve(NULL, 4), BALL_E_ARG);
    for (int team = -1; team <= 2; team++) {
        ck_assert_int_eq(ball_pe(NULL, team), BALL_E_ARG);
        ck_assert_int_eq(ball_hand(NULL, team), BALL_E_ARG);
    }
    static const int squares[] = {-1, 0, 55, 110, 111, BALL_NO_SQUARE};
    for (size_t i = 0; i < sizeof squares / sizeof squares[0]; i++) {
        ck_assert_int_eq(ball_square_state(NULL, squares[i]), BALL_E_ARG);
        for (int level = -1; level <= 2; level++)
            ck_assert_int_eq(ball_piece(NULL, squares[i], level), BALL_E_ARG);
    }
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    ck_assert_int_eq(ball_game_rules(NULL, &r), BALL_E_ARG);
    ck_assert_uint_eq(ball_hash(NULL), 0);
    /* a valid game: every getter gives a value, never an error */
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ck_assert_int_eq(ball_phase(g), BALL_PHASE_ACTION);
    ck_assert_int_eq(ball_pa(g), 2);
    ck_assert_int_eq(ball_handoff_last(g), 0);
    ck_assert_int_eq(ball_turn(g), 1);
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_assert_int_eq(ball_history_length(g), 0);
    ck_assert_int_eq(ball_pe(g, BALL_ATK), 0);
    ck_assert_int_eq(ball_hand(g, BALL_DEF), 0);
    /* a bad team is an invalid argument too */
    ck_assert_int_eq(ball_pe(g, 2), BALL_E_ARG);
    ck_assert_int_eq(ball_pe(g, -1), BALL_E_ARG);
    ck_assert_int_eq(ball_hand(g, 2), BALL_E_ARG);
    ck_assert_int_eq(ball_hand(g, -1), BALL_E_ARG);
    ball_game_free(g);
}
END_TEST

/* Issue item (1.0 contracts): ball_restricted_square() returns
 * BALL_NO_SQUARE (never -1) when no piece is restricted, and the square
 * of the restricted carrier when there is one (R4.4). */
START_TEST(api_restricted_square_none)
{
    ck_assert_int_eq(BALL_NO_SQUARE, 127);
    ck_assert_int_ge(BALL_NO_SQUARE, BALL_NUM_SQUARES);
    ball_game *g = tu_game(NULL);
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ball_game_free(g);
    /* ATK X G5 takes the loose ball on F6 and is restricted */
    g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/2@3/3X3/6/7/6/7 ATK a 2 - 0/0 1");
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    tu_apply(g, "G5-F6");
    ck_assert_int_eq(ball_restricted_square(g), tu_sq("F6"));
    tu_apply(g, "end"); /* R9.5: no restriction in the release phase or after */
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_restricted_square(g), tu_sq("F6"));
    ball_game_free(g);
}
END_TEST

/* Squares out of range for ball_piece / ball_square_state; bad level. */
START_TEST(api_piece_range)
{
    ball_game *g = tu_game(NULL);
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
    ck_assert_int_eq(ball_square_of_ball(g), 29);
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Action accessors on BALL_ACTION_NONE (never an action): every one is
 * an invalid-argument error (1.0 contracts). */
START_TEST(api_action_none)
{
    char buf[BALL_ACTION_TEXT_MAX];
    ck_assert_int_eq(ball_action_kind(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_from(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_to(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_option(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_keeper(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_flags(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_cost(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_value(BALL_ACTION_NONE), BALL_E_ARG);
    ck_assert_int_eq(ball_action_to_text(BALL_ACTION_NONE, buf, sizeof buf), BALL_E_ARG);
}
END_TEST

/* Issue item (1.0 contracts): every action accessor returns BALL_E_ARG
 * for a value that is no action. The values: 0 and all ones; a kind of 0
 * and of 15 (no such kind) with valid squares; the top bits set on a valid
 * move; a move to no square or from square 111; `end` with a square;
 * conversions pe+0 and pe+100; a card play with hand index 9 (hands hold
 * at most 9 cards: indices 0-8); a keeper on a move; flags a move cannot
 * have; a release keeper of 3. Each is built from a valid action of the
 * same shape where there is one, so only the broken field makes it
 * invalid. */
START_TEST(api_action_accessors_invalid)
{
    ball_game *g = tu_game_text("cards", "7/6/7/6/3x3/6/7/6/7/6/7/6/3X*3/6/7/6/7 ATK a 2 - 0/0 1 -/-");
    ball_action move = tu_action(g, "G5-H6"), end = tu_action(g, "end"), conv = tu_action(g, "pe+1");
    ball_game_free(g);
    const uint32_t kind_mask = 15u << 21, sq_mask = 127u, to_mask = 127u << 7;
    const uint32_t card = (uint32_t)BALL_PLAY_CARD << 21 | BALL_NO_SQUARE | BALL_NO_SQUARE << 14;
    /* the shape of a release G5-H6/I5 (no keeper) */
    const uint32_t release = (move & ~kind_mask & ~(127u << 14)) | (uint32_t)BALL_UNBLOCK << 21 | 30u << 14;
    const ball_action bad[] = {
        0u,
        0xffffffffu,
        move & ~kind_mask,                             /* kind 0 */
        move | kind_mask,                              /* kind 15 */
        move | 1u << 30,
        move | 1u << 31,
        (move & ~to_mask) | BALL_NO_SQUARE << 7,       /* move to no square */
        (move & ~sq_mask) | 111u,                      /* from square 111 */
        (end & ~sq_mask) | 29u,                        /* end from G5 */
        conv & ~to_mask,                               /* pe+0 */
        (conv & ~to_mask) | 100u << 7,                 /* pe+100 */
        card | 9u << 7,                                /* card index 9 */
        move | 1u << 25,                               /* keeper on a move */
        move | (uint32_t)BALL_FLAG_FUMBLE << 27,       /* a move cannot fumble */
        release | 3u << 25,                            /* keeper 3 */
    };
    /* the valid actions they were made from read fine */
    ck_assert_int_eq(ball_action_kind(move), BALL_MOVE);
    ck_assert_int_eq(ball_action_kind(end), BALL_END);
    ck_assert_int_eq(ball_action_value(conv), 1);
    ck_assert_int_eq(ball_action_kind(card | 8u << 7), BALL_PLAY_CARD); /* card9, untargeted */
    ck_assert_int_eq(ball_action_value(card | 8u << 7), 8);
    ck_assert_int_eq(ball_action_to(card | 8u << 7), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_kind(release), BALL_UNBLOCK);
    ck_assert_int_eq(ball_action_keeper(release | 1u << 25), BALL_KEEPER_UPPER);
    ck_assert_int_eq(ball_action_option(release), 30);
    char buf[BALL_ACTION_TEXT_MAX];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ball_action a = bad[i];
        ck_assert_msg(ball_action_kind(a) == BALL_E_ARG, "kind of 0x%08x", (unsigned)a);
        ck_assert_msg(ball_action_from(a) == BALL_E_ARG, "from of 0x%08x", (unsigned)a);
        ck_assert_msg(ball_action_to(a) == BALL_E_ARG, "to of 0x%08x: %d", (unsigned)a, ball_action_to(a));
        ck_assert_msg(ball_action_option(a) == BALL_E_ARG, "option of 0x%08x", (unsigned)a);
        ck_assert_msg(ball_action_keeper(a) == BALL_E_ARG, "keeper of 0x%08x", (unsigned)a);
        ck_assert_msg(ball_action_flags(a) == BALL_E_ARG, "flags of 0x%08x", (unsigned)a);
        ck_assert_msg(ball_action_cost(a) == BALL_E_ARG, "cost of 0x%08x", (unsigned)a);
        ck_assert_msg(ball_action_value(a) == BALL_E_ARG, "value of 0x%08x: %d", (unsigned)a,
                      ball_action_value(a));
        ck_assert_msg(ball_action_to_text(a, buf, sizeof buf) == BALL_E_ARG, "text of 0x%08x", (unsigned)a);
    }
}
END_TEST

/* Issue item (1.0 contracts): an action without such a square reads
 * BALL_NO_SQUARE (never -1): `end` has none; a conversion pe+k and an
 * untargeted card have no square; a move, block or pass has no third
 * square; a targeted card has only its target (from). Actions that carry
 * no number give BALL_E_ARG from ball_action_value(). */
START_TEST(api_action_no_square)
{
    ball_game *g = tu_game_text(TU_DECK, "x6/6/7/6/7/6/3X3/3@2/3X3/6/7/6/7/6/7/6/7 ATK a 2 - 1/0 1 123/12");
    ball_action end = tu_action(g, "end"), conv = tu_action(g, "pe+1"), sprint = tu_action(g, "card1");
    ball_action move = tu_action(g, "G11-F12");
    ck_assert_int_eq(ball_action_from(end), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_to(end), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_option(end), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_value(end), BALL_E_ARG);
    ck_assert_int_eq(ball_action_cost(end), 0);
    ck_assert_int_eq(ball_action_keeper(end), BALL_KEEPER_NONE);
    ck_assert_int_eq(ball_action_flags(end), 0);
    ck_assert_int_eq(ball_action_from(conv), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_to(conv), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_option(conv), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_value(conv), 1);
    ck_assert_int_eq(ball_action_from(sprint), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_to(sprint), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_option(sprint), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_value(sprint), 0);
    ck_assert_int_eq(ball_action_from(move), tu_sq("G11"));
    ck_assert_int_eq(ball_action_to(move), tu_sq("F12"));
    ck_assert_int_eq(ball_action_option(move), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_value(move), BALL_E_ARG);
    /* the pickup restricts H10; Rally then targets it */
    tu_apply(g, "G9-H10");
    ball_action rally = tu_action(g, "card2@H10");
    ck_assert_int_eq(ball_action_from(rally), tu_sq("H10"));
    ck_assert_int_eq(ball_action_to(rally), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_option(rally), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_action_value(rally), 1);
    /* every legal action: each square field is a square or BALL_NO_SQUARE */
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_gt(n, 0);
    for (int i = 0; i < n; i++) {
        int fields[3] = {ball_action_from(acts[i]), ball_action_to(acts[i]), ball_action_option(acts[i])};
        for (int k = 0; k < 3; k++)
            ck_assert(fields[k] == BALL_NO_SQUARE || (fields[k] >= 0 && fields[k] < BALL_NUM_SQUARES));
    }
    ball_game_free(g);
}
END_TEST

/* Issue item (1.0 contracts): the task accessors return BALL_E_ARG for a
 * value that is no task (were -1, 0 and 0): negative values, 0 (square A1
 * of kind 0), kinds 0 and 3-15 on a valid square, square 111 and 127 with
 * a valid kind, bits above the solvable bit. A real task reads fine. */
START_TEST(api_task_accessors_invalid)
{
    ball_game *g = tu_game("7/6/7/6/3o3/6/7/6/7/6/7/6/1O_1X*3/6/7/6/7 ATK a 1 - 0/0 2");
    tu_apply(g, "end");
    ball_task tasks[BALL_MAX_TASKS];
    ck_assert_int_eq(ball_release_tasks(g, tasks, BALL_MAX_TASKS), 1);
    ball_task t = tasks[0];
    ck_assert_int_eq(ball_task_square(t), tu_sq("C5"));
    ck_assert_int_eq(ball_task_kind(t), BALL_TASK_STAND_UP);
    ck_assert_int_eq(ball_task_solvable(t), 1);
    ball_game_free(g);
    const ball_task kind_bits = 15 << 8;
    ball_task bad[32];
    size_t n = 0;
    bad[n++] = -1;
    bad[n++] = INT32_MIN;
    bad[n++] = 0;
    bad[n++] = t & ~kind_bits; /* kind 0 */
    for (int k = 3; k <= 15; k++)
        bad[n++] = (t & ~kind_bits) | k << 8;
    bad[n++] = (t & ~0xff) | 111;
    bad[n++] = (t & ~0xff) | BALL_NO_SQUARE;
    bad[n++] = t | 1 << 13;
    bad[n++] = t | 1 << 30;
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(ball_task_square(bad[i]) == BALL_E_ARG, "square of 0x%08x", (unsigned)bad[i]);
        ck_assert_msg(ball_task_kind(bad[i]) == BALL_E_ARG, "kind of 0x%08x", (unsigned)bad[i]);
        ck_assert_msg(ball_task_solvable(bad[i]) == BALL_E_ARG, "solvable of 0x%08x", (unsigned)bad[i]);
    }
}
END_TEST

/* Legal actions: NULL game, counting mode, tiny buffer. */
START_TEST(api_legal_actions)
{
    ball_game *g = tu_game(NULL);
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
    ball_game *g = tu_game(NULL);
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
    ball_game *g = tu_game(NULL);
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
    ball_game *g = tu_game(NULL);
    ball_action e = BALL_ACTION_NONE;
    ck_assert_int_eq(ball_action_from_text(g, "end", &e), BALL_OK);
    ck_assert_int_eq(ball_apply(NULL, e), BALL_E_ARG);
    ck_assert_int_eq(ball_apply_unchecked(NULL, e), BALL_E_ARG);
    ck_assert_int_eq(ball_apply(g, BALL_ACTION_NONE), BALL_E_ILLEGAL);
    ck_assert_int_ne(ball_errmsg(g)[0], '\0');
    ck_assert_int_eq(ball_apply(g, 0xFFFFFFFFu), BALL_E_ILLEGAL);
    ck_bpn(g, BALL_START_BPN);
    ck_assert_int_eq(ball_history_length(g), 0);
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
    ball_game *g = tu_game(NULL);
    char buf[BALL_BPN_MAX];
    ck_assert_int_eq(ball_position_to_text(NULL, buf, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_text(g, NULL, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_text(g, buf, 1), BALL_E_BUFFER);
    size_t len = strlen(BALL_START_BPN);
    ck_assert_int_eq(ball_position_to_text(g, buf, len), BALL_E_BUFFER);   /* no room for NUL */
    ck_assert_int_eq(ball_position_to_text(g, buf, len + 1), (int)len);
    ck_assert_str_eq(buf, BALL_START_BPN);
    ck_assert_int_eq(ball_position_from_text(NULL, BALL_START_BPN), BALL_E_ARG);
    ck_assert_int_eq(ball_position_from_text(g, NULL), BALL_E_ARG);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Action text I/O: NULL arguments and tiny buffers. */
START_TEST(api_action_io)
{
    ball_game *g = tu_game(NULL);
    ball_action a = BALL_ACTION_NONE;
    char buf[BALL_ACTION_TEXT_MAX];
    /* Standard start, DEF to act: x on G13 may step to F12. */
    ck_assert_int_eq(ball_action_from_text(g, "G13-F12", &a), BALL_OK);
    ck_assert_int_eq(ball_action_to_text(a, NULL, sizeof buf), BALL_E_ARG);
    ck_assert_int_eq(ball_action_to_text(a, buf, 2), BALL_E_BUFFER);
    ck_assert_int_eq(ball_action_to_text(a, buf, 0), BALL_E_BUFFER);
    ck_assert_int_eq(ball_action_to_text(a, buf, sizeof buf), 7);
    ck_assert_str_eq(buf, "G13-F12");
    ck_assert_int_eq(ball_action_from_text(NULL, "end", &a), BALL_E_ARG);
    ck_assert_int_eq(ball_action_from_text(g, NULL, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_action_from_text(g, "end", NULL), BALL_E_ARG);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Release-phase API and selection API with NULL. */
START_TEST(api_release_and_select_null)
{
    ball_game *g = tu_game(NULL);
    ball_task tasks[BALL_MAX_TASKS];
    ball_action sols[BALL_MAX_ACTIONS];
    int choices[BALL_NUM_SQUARES];
    int chosen[BALL_SELECT_STEPS + 1] = { 29, BALL_VERB_MOVE, 0, 0, 0, 0 };
    ball_action a;
    ck_assert_int_eq(ball_release_tasks(NULL, tasks, BALL_MAX_TASKS), BALL_E_ARG);
    ck_assert_int_eq(ball_task_solutions(NULL, 0, sols, BALL_MAX_ACTIONS), BALL_E_ARG);
    ck_assert_int_eq(ball_select(NULL, chosen, 0, choices, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_select(g, chosen, BALL_SELECT_STEPS + 1, choices, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_select(g, NULL, 1, choices, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_select(g, chosen, 0, NULL, BALL_NUM_SQUARES, &a), BALL_E_ARG);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Perft: NULL, negative and too deep depths; depth 0 is 1. */
START_TEST(api_perft)
{
    ball_game *g = tu_game(NULL);
    uint64_t n = 99;
    ck_assert_int_eq(ball_perft(NULL, 1, &n), BALL_E_ARG);
    ck_assert_int_eq(ball_perft(g, 1, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_perft(g, -1, &n), BALL_E_RANGE);
    ck_assert_int_eq(ball_perft(g, BALL_MAX_PERFT_DEPTH + 1, &n), BALL_E_RANGE);
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
    ball_game *g = tu_game(NULL);
    ball_game *c = NULL;
    ck_assert_int_eq(ball_game_clone(&c, g), BALL_OK);
    tu_apply(c, "G13-F12");
    ck_bpn(g, BALL_START_BPN);
    ck_assert_int_eq(ball_history_length(c), 1);
    ck_assert_int_eq(ball_history_length(g), 0);
    ball_game_free(c);
    ball_game_free(g);
}
END_TEST

/* An allocator with a NULL function is refused, with or without err. */
START_TEST(api_allocator_null_function)
{
    ball_allocator a;
    ball_allocator_init(&a, sizeof a);
    a.free_fn = NULL;
    ball_game *g = NULL;
    char err[128] = "";
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &a, err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_null(g);
    ck_assert_str_eq(err, "ball_allocator: a NULL function");
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &a, NULL, 0), BALL_E_ARG);
    ck_assert_ptr_null(g);
}
END_TEST

/* A NULL buffer with a capacity; a BPN row too long; an over-long placement. */
START_TEST(api_more_bad_input)
{
    ball_game *g = tu_game(NULL);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 5), BALL_E_ARG);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "NULL buffer with capacity 5"));
    ck_assert_int_gt(ball_legal_actions(g, NULL, 0), 0);
    ck_assert_int_eq(ball_position_from_text(g, "7X/6/7/6/3x3/6/7/6/7/6/7/2@3/3X3/6/7/6/7 ATK a 2 - 0/0 1"),
                     BALL_E_BPN);
    ck_assert_ptr_nonnull(strstr(ball_errmsg(g), "row 17: more than the 7 squares of the row"));
    char big[BALL_BPN_MAX + 64];
    memset(big, '7', BALL_BPN_MAX + 8);
    strcpy(big + BALL_BPN_MAX + 8, " ATK a 2 - 0/0 1");
    ck_assert_int_eq(ball_position_from_text(g, big), BALL_E_BPN);
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
    tcase_add_test(tc, api_game_new_error_message);
    tcase_add_test(tc, api_null_game_readers);
    tcase_add_test(tc, api_restricted_square_none);
    tcase_add_test(tc, api_piece_range);
    tcase_add_test(tc, api_action_none);
    tcase_add_test(tc, api_action_accessors_invalid);
    tcase_add_test(tc, api_action_no_square);
    tcase_add_test(tc, api_task_accessors_invalid);
    tcase_add_test(tc, api_legal_actions);
    tcase_add_test(tc, api_legal_action_at);
    tcase_add_test(tc, api_random_action);
    tcase_add_test(tc, api_apply_undo);
    tcase_add_test(tc, api_bpn_io);
    tcase_add_test(tc, api_action_io);
    tcase_add_test(tc, api_release_and_select_null);
    tcase_add_test(tc, api_perft);
    tcase_add_test(tc, api_clone_independent);
    tcase_add_test(tc, api_allocator_null_function);
    tcase_add_test(tc, api_more_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
