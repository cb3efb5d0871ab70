/* R1 board geometry and end zones, R2 standard start.
 *
 * Every expected value below is derived by hand from docs/spec.md:
 *  - R1.2: square (c, r) is playable iff c + r is even; 7 squares on odd
 *    rows (A C E G I K M), 6 on even rows (B D F H J L).
 *  - ball.h numbering: row by row from row 1, column A to M within a row.
 *    Index of (c, r) = 13 * ((r - 1) / 2) + 7 * ((r - 1) % 2) + position
 *    within the row ((c - 1) / 2 on odd rows, (c - 2) / 2 on even rows).
 *  - R1.3: distance = max(|dc|, |dr|).
 *  - R1.4: end zones widened to the first 1-3 rows by end_zone_depth.
 *  - R2.2/R2.3, N1: standard start.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int idx_formula(int c, int r)
{
    int base = 13 * ((r - 1) / 2) + 7 * ((r - 1) % 2);
    return base + ((r % 2) ? (c - 1) / 2 : (c - 2) / 2);
}

/* R1.2 + numbering: A1 = 0, C1 = 1, M1 = 6, B2 = 7, L2 = 12, A3 = 13,
 * G5 = 7+6+7+6 + 3 = 29, G9 = 4*13 + 3 = 55, A17 = 8*13 = 104, M17 = 110. */
START_TEST(test_R1_1_square_at_known)
{
    ck_assert_int_eq(ball_square_at(1, 1), 0);
    ck_assert_int_eq(ball_square_at(3, 1), 1);
    ck_assert_int_eq(ball_square_at(13, 1), 6);
    ck_assert_int_eq(ball_square_at(2, 2), 7);
    ck_assert_int_eq(ball_square_at(12, 2), 12);
    ck_assert_int_eq(ball_square_at(1, 3), 13);
    ck_assert_int_eq(ball_square_at(7, 5), 29);
    ck_assert_int_eq(ball_square_at(7, 9), 55);
    ck_assert_int_eq(ball_square_at(1, 17), 104);
    ck_assert_int_eq(ball_square_at(13, 17), 110);
}
END_TEST

/* R1.2: c + r odd is unplayable; off-board coordinates too. */
START_TEST(test_R1_2_square_at_rejects_unplayable_and_offboard)
{
    ck_assert_int_eq(ball_square_at(2, 1), BALL_E_RANGE);   /* B1 */
    ck_assert_int_eq(ball_square_at(1, 2), BALL_E_RANGE);   /* A2 */
    ck_assert_int_eq(ball_square_at(7, 10), BALL_E_RANGE);  /* G10 */
    ck_assert_int_eq(ball_square_at(12, 17), BALL_E_RANGE); /* L17 */
    ck_assert_int_eq(ball_square_at(0, 2), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(14, 2), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(1, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(1, 19), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(13, 19), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_at(-1, -1), BALL_E_RANGE);
}
END_TEST

/* R1.2: exactly 111 playable squares, numbered 0..110 in row-major order,
 * and col/row give back the coordinates. */
START_TEST(test_R1_2_all_111_squares_numbered_in_order)
{
    int count = 0;
    for (int r = 1; r <= 17; r++)
        for (int c = 1; c <= 13; c++) {
            int s = ball_square_at(c, r);
            if ((c + r) % 2 != 0) {
                ck_assert_int_eq(s, BALL_E_RANGE);
                continue;
            }
            ck_assert_int_eq(s, count);
            ck_assert_int_eq(s, idx_formula(c, r));
            ck_assert_int_eq(ball_square_col(s), c);
            ck_assert_int_eq(ball_square_row(s), r);
            count++;
        }
    ck_assert_int_eq(count, 111);
    ck_assert_int_eq(BALL_NUM_SQUARES, 111);
    ck_assert_int_eq(ball_square_col(111), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_row(111), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_col(-1), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_row(-1), BALL_E_RANGE);
}
END_TEST

/* R1.1 names. */
START_TEST(test_R1_1_square_from_text)
{
    ck_assert_int_eq(ball_square_from_text("A1"), 0);
    ck_assert_int_eq(ball_square_from_text("M1"), 6);
    ck_assert_int_eq(ball_square_from_text("B2"), 7);
    ck_assert_int_eq(ball_square_from_text("G5"), 29);
    ck_assert_int_eq(ball_square_from_text("G9"), 55);
    ck_assert_int_eq(ball_square_from_text("A17"), 104);
    ck_assert_int_eq(ball_square_from_text("M17"), 110);
    /* F6: rows 1-5 = 33 squares, F is the 3rd even-row square -> 35. */
    ck_assert_int_eq(ball_square_from_text("F6"), 35);
    /* H10: rows 1-9 = 59, H is the 4th even-row square -> 62. */
    ck_assert_int_eq(ball_square_from_text("H10"), 62);
}
END_TEST

/* R1.2 unplayable names, off-board names, malformed names. */
START_TEST(test_R1_2_square_from_text_rejects)
{
    ck_assert_int_eq(ball_square_from_text(NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_square_from_text("B1"), BALL_E_NOTATION);  /* unplayable */
    ck_assert_int_eq(ball_square_from_text("G10"), BALL_E_NOTATION); /* unplayable */
    ck_assert_int_eq(ball_square_from_text("A2"), BALL_E_NOTATION);  /* unplayable */
    ck_assert_int_eq(ball_square_from_text("N1"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("A0"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("A19"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("M19"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text(""), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("G"), BALL_E_NOTATION);
    ck_assert_int_eq(ball_square_from_text("g5"), BALL_E_NOTATION);  /* upper case only */
    ck_assert_int_eq(ball_square_from_text("G05"), BALL_E_NOTATION); /* no leading zero */
    ck_assert_int_eq(ball_square_from_text("G5 "), BALL_E_NOTATION); /* nothing after */
    ck_assert_int_eq(ball_square_from_text("G5x"), BALL_E_NOTATION);
}
END_TEST

START_TEST(test_R1_1_square_to_text)
{
    char buf[8];
    ck_assert_int_eq(BALL_SQUARE_TEXT_MAX, 4);
    ck_assert_int_eq(ball_square_to_text(0, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "A1");
    ck_assert_int_eq(ball_square_to_text(55, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "G9");
    ck_assert_int_eq(ball_square_to_text(110, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "M17");
    ck_assert_int_eq(ball_square_to_text(62, buf, sizeof buf), 3);
    ck_assert_str_eq(buf, "H10");
    ck_assert_int_eq(ball_square_to_text(7, buf, sizeof buf), 2);
    ck_assert_str_eq(buf, "B2");
    /* BALL_SQUARE_TEXT_MAX (4) bytes suffice, 3 do not for "M17". */
    ck_assert_int_eq(ball_square_to_text(110, buf, BALL_SQUARE_TEXT_MAX), 3);
    ck_assert_int_eq(ball_square_to_text(110, buf, 3), BALL_E_BUFFER);
    ck_assert_int_eq(ball_square_to_text(111, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_to_text(-1, buf, sizeof buf), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_to_text(0, NULL, 4), BALL_E_ARG);
    /* Round trip over all squares. */
    for (int s = 0; s < BALL_NUM_SQUARES; s++) {
        ck_assert_int_gt(ball_square_to_text(s, buf, sizeof buf), 0);
        ck_assert_int_eq(ball_square_from_text(buf), s);
    }
}
END_TEST

/* R1.3 distance = max(|dc|, |dr|). */
START_TEST(test_R1_3_distance)
{
#define D(a, b) ball_square_distance(ball_square_from_text(a), ball_square_from_text(b))
    ck_assert_int_eq(D("G9", "G9"), 0);
    ck_assert_int_eq(D("G5", "F6"), 1);
    ck_assert_int_eq(D("A1", "B2"), 1);
    ck_assert_int_eq(D("A1", "C1"), 2);   /* dc 2, dr 0 */
    ck_assert_int_eq(D("C1", "A3"), 2);   /* dc 2, dr 2 */
    ck_assert_int_eq(D("G9", "G11"), 2);  /* dc 0, dr 2 */
    ck_assert_int_eq(D("G5", "H10"), 5);  /* dc 1, dr 5 */
    ck_assert_int_eq(D("A1", "M1"), 12);
    ck_assert_int_eq(D("A1", "A17"), 16);
    ck_assert_int_eq(D("A1", "M17"), 16);
    ck_assert_int_eq(D("M1", "A17"), 16);
    ck_assert_int_eq(D("M17", "A1"), 16);
#undef D
    ck_assert_int_eq(ball_square_distance(0, 111), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_distance(-1, 0), BALL_E_RANGE);
}
END_TEST

/* R1.4 default depth 1; ruleset limits 1-3. */
START_TEST(test_R1_4_rules_defaults_and_range)
{
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    ck_assert_uint_eq(r.size, sizeof(ball_rules));
    ck_assert_int_eq(r.end_zone_depth, 1);
    ck_assert_uint_eq(r.turn_limit, 0);
    ck_assert_uint_eq(r.flags, 0);

    ball_game *g = (ball_game *)1;
    r.end_zone_depth = 0;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_E_RANGE);
    ck_assert_ptr_null(g);
    g = (ball_game *)1;
    r.end_zone_depth = 4;
    ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_E_RANGE);
    ck_assert_ptr_null(g);

    for (int d = 1; d <= 3; d++) {
        r.end_zone_depth = d;
        ck_assert_int_eq(ball_game_new(&g, &r, NULL, 0), BALL_OK);
        ball_rules got;
        ball_rules_init(&got, sizeof got);
        ck_assert_int_eq(ball_game_rules(g, &got), BALL_OK);
        ck_assert_int_eq(got.end_zone_depth, d);
        ball_game_free(g);
    }
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    ball_rules got;
    ball_rules_init(&got, sizeof got);
    ck_assert_int_eq(ball_game_rules(g, &got), BALL_OK);
    ck_assert_int_eq(got.end_zone_depth, 1);
    ball_game_free(g);
}
END_TEST

/* ATK X* on G15, DEF x on A3. */
#define EZ_ATK "7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6/6/7 ATK a 2 - 0/0 1"

/* R1.4 + R11.1: with depth 1 row 16 is not ATK's target zone: G15-F16 is a
 * plain move (R5.1, X 1 diagonal), PA 2 -> 1, game goes on. */
START_TEST(test_R1_4_depth1_row16_no_touchdown)
{
    ball_game *g = tu_game(EZ_ATK);
    tu_apply(g, "G15-F16");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/2X*3/7/6/7/6/7/6/7/6/7/6/7/6/x6/6/7 ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R1.4 + R11.1: with depth 2 ATK's target zone is rows 16-17: the carrier
 * moving into F16 scores at once; no legal action is left. */
START_TEST(test_R1_4_depth2_row16_touchdown)
{
    ball_game *g = tu_game_rules(EZ_ATK, 2, 0);
    tu_apply(g, "G15-F16");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("F16"));
    ball_game_free(g);
}
END_TEST

/* R1.4 + R11.1: depth 1, the carrier reaching row 17 (G15-E17, 2-square X
 * move over open F16) scores. */
START_TEST(test_R1_4_depth1_row17_touchdown)
{
    ball_game *g = tu_game(EZ_ATK);
    tu_apply(g, "G15-E17");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ball_game_free(g);
}
END_TEST

/* R1.4: depth 3 -> rows 15-17; depth 2 -> rows 16-17. ATK X* on G13
 * moving to E15 (2-square, over open F14). */
#define EZ_ATK3 "7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/x6/6/7 ATK a 2 - 0/0 1"
START_TEST(test_R1_4_depth3_row15)
{
    ball_game *g = tu_game_rules(EZ_ATK3, 3, 0);
    tu_apply(g, "G13-E15");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ball_game_free(g);

    g = tu_game_rules(EZ_ATK3, 2, 0);
    tu_apply(g, "G13-E15");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/6/2X*4/6/7/6/7/6/7/6/7/6/7/6/x6/6/7 ATK a 1 - 0/0 1");
    ball_game_free(g);

    /* depth 3, row 14 is still outside the zone. */
    g = tu_game_rules(EZ_ATK3, 3, 0);
    tu_apply(g, "G13-F14");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ball_game_free(g);
}
END_TEST

/* R1.4 for DEF: DEF scores in rows 1..depth. DEF x* on G5, ATK X on A15.
 * depth 2: G5-H4 (row 4) and G5-E3 (row 3) do not score; depth 3: E3 does. */
#define EZ_DEF "7/6/X6/6/7/6/7/6/7/6/7/6/3x*3/6/7/6/7 DEF a 2 - 0/0 1"
START_TEST(test_R1_4_depth_def_zone)
{
    ball_game *g = tu_game_rules(EZ_DEF, 2, 0);
    tu_apply(g, "G5-E3");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/6/X6/6/7/6/7/6/7/6/7/6/7/6/2x*4/6/7 DEF a 1 - 0/0 1");
    tu_apply(g, "E3-D2"); /* row 2, inside a depth-2 zone */
    ck_assert_int_eq(ball_result(g), BALL_DEF_WON);
    ball_game_free(g);

    g = tu_game_rules(EZ_DEF, 3, 0);
    tu_apply(g, "G5-E3");
    ck_assert_int_eq(ball_result(g), BALL_DEF_WON);
    ck_assert_int_eq(ball_legal_actions(g, NULL, 0), 0);
    ball_game_free(g);
}
END_TEST

/* R11.1 needs a piece *holding the ball*: a non-carrier entering the
 * widened zone does not score. ATK X on G15, loose ball on M1. */
START_TEST(test_R1_4_depth2_non_carrier_no_touchdown)
{
    ball_game *g = tu_game_rules("7/6/3X3/6/7/6/7/6/7/6/7/6/7/6/x6/6/6@ ATK a 2 - 0/0 1", 2, 0);
    tu_apply(g, "G15-F16");
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_bpn(g, "7/2X3/7/6/7/6/7/6/7/6/7/6/7/6/x6/6/6@ ATK a 1 - 0/0 1");
    ball_game_free(g);
}
END_TEST

/* R2.2, R2.3, N1: the standard start. */
START_TEST(test_R2_3_standard_start_state)
{
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    ck_bpn(g, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1");
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ck_assert_int_eq(ball_phase(g), BALL_PHASE_ACTION);
    ck_assert_int_eq(ball_pa(g), 2);
    ck_assert_int_eq(ball_handoff_last(g), 0);
    ck_assert_int_eq(ball_turn(g), 1);
    ck_assert_int_eq(ball_result(g), BALL_ONGOING);
    ck_assert_int_eq(ball_restricted_square(g), BALL_NO_SQUARE);
    ck_assert_int_eq(ball_square_of_ball(g), ball_square_from_text("G5"));
    ball_game_free(g);
}
END_TEST

/* R2.2: piece codes of every piece of the formation, and nothing else. */
START_TEST(test_R2_2_formation_pieces)
{
    ball_game *g = tu_game(NULL);
    static const struct { const char *sq; int code; } want[] = {
        {"C7", BALL_O}, {"E7", BALL_X}, {"G7", BALL_SQUARE}, {"I7", BALL_X},
        {"G5", BALL_X | BALL_PIECE_BALL}, {"K7", BALL_O}, {"G3", BALL_SQUARE},
        {"C11", BALL_O | BALL_PIECE_DEF}, {"E11", BALL_X | BALL_PIECE_DEF},
        {"G11", BALL_SQUARE | BALL_PIECE_DEF}, {"I11", BALL_X | BALL_PIECE_DEF},
        {"G13", BALL_X | BALL_PIECE_DEF}, {"K11", BALL_O | BALL_PIECE_DEF},
        {"G15", BALL_SQUARE | BALL_PIECE_DEF},
    };
    int pieces = 0;
    for (int s = 0; s < BALL_NUM_SQUARES; s++) {
        int code = ball_piece(g, s, BALL_UPPER);
        ck_assert_int_ge(code, 0);
        ck_assert_int_eq(ball_piece(g, s, BALL_LOWER), 0);
        int st = ball_square_state(g, s);
        ck_assert_int_eq(st & (BALL_SQ_STACK | BALL_SQ_FRESH | BALL_SQ_LOOSE_BALL), 0);
        if (code) {
            pieces++;
            ck_assert_int_ne(st & BALL_SQ_PIECE, 0);
        } else {
            ck_assert_int_eq(st, 0);
        }
    }
    ck_assert_int_eq(pieces, 14);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int s = ball_square_from_text(want[i].sq);
        ck_assert_msg(ball_piece(g, s, BALL_UPPER) == want[i].code,
                      "piece on %s: got %d want %d", want[i].sq,
                      ball_piece(g, s, BALL_UPPER), want[i].code);
    }
    ck_assert_int_eq(ball_square_state(g, ball_square_from_text("G5")),
                     BALL_SQ_PIECE | BALL_SQ_BALL);
    ck_assert_int_eq(ball_square_state(g, ball_square_from_text("G9")), 0);
    ck_assert_int_eq(ball_square_state(g, ball_square_from_text("G13")), BALL_SQ_PIECE);
    /* bad arguments */
    ck_assert_int_eq(ball_piece(g, 111, BALL_UPPER), BALL_E_RANGE);
    ck_assert_int_eq(ball_piece(g, -1, BALL_UPPER), BALL_E_RANGE);
    ck_assert_int_eq(ball_piece(g, 0, 2), BALL_E_ARG);
    ck_assert_int_eq(ball_piece(NULL, 0, BALL_UPPER), BALL_E_ARG);
    ck_assert_int_eq(ball_square_state(g, 111), BALL_E_RANGE);
    ck_assert_int_eq(ball_square_state(NULL, 0), BALL_E_ARG);
    ball_game_free(g);
}
END_TEST

/* R2.4, N1: the start position can be set back from its text. */
START_TEST(test_R2_4_start_bpn_roundtrip)
{
    ball_game *g = tu_game(BALL_START_BPN);
    ck_bpn(g, BALL_START_BPN);
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("r01_board");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_R1_1_square_at_known);
    tcase_add_test(tc, test_R1_2_square_at_rejects_unplayable_and_offboard);
    tcase_add_test(tc, test_R1_2_all_111_squares_numbered_in_order);
    tcase_add_test(tc, test_R1_1_square_from_text);
    tcase_add_test(tc, test_R1_2_square_from_text_rejects);
    tcase_add_test(tc, test_R1_1_square_to_text);
    tcase_add_test(tc, test_R1_3_distance);
    tcase_add_test(tc, test_R1_4_rules_defaults_and_range);
    tcase_add_test(tc, test_R1_4_depth1_row16_no_touchdown);
    tcase_add_test(tc, test_R1_4_depth2_row16_touchdown);
    tcase_add_test(tc, test_R1_4_depth1_row17_touchdown);
    tcase_add_test(tc, test_R1_4_depth3_row15);
    tcase_add_test(tc, test_R1_4_depth_def_zone);
    tcase_add_test(tc, test_R1_4_depth2_non_carrier_no_touchdown);
    tcase_add_test(tc, test_R2_3_standard_start_state);
    tcase_add_test(tc, test_R2_2_formation_pieces);
    tcase_add_test(tc, test_R2_4_start_bpn_roundtrip);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
