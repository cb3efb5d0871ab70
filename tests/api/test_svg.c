/* The drawings of a position: the board text (ball_position_to_board_text)
 * and the SVG picture (ball_position_to_svg): contracts, sizes, and the
 * pieces of a known position. tests/api/record_test.sh parses the SVG as XML. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Occurrences of needle in text. */
static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

START_TEST(test_board_text)
{
    ball_game *g = tu_game_rules(NULL, 2, 0);
    int hl[2] = {tu_sq("G5"), tu_sq("F6")};
    int n = ball_position_to_board_text(g, hl, 2, BALL_DRAW_LEGEND, NULL, 0);
    ck_assert_int_gt(n, 0);
    char *text = malloc((size_t)n + 1);
    ck_assert_int_eq(ball_position_to_board_text(g, hl, 2, BALL_DRAW_LEGEND, text, (size_t)n + 1), n);
    ck_assert_int_eq(count(text, "\n"), 23);
    /* R1.4 with depth 2: ATK scores in rows 16-17, DEF in rows 1-2, each
     * said once on a line of its own, above and below the board */
    ck_assert_int_eq(strncmp(text, "   end zone: ATK scores in rows 16-17\n   A     B", 48), 0);
    ck_assert_ptr_nonnull(strstr(text, "     M\n   end zone: DEF scores in rows 1-2\nX O S"));
    ck_assert_int_eq(count(text, "end zone"), 2);
    ck_assert_ptr_nonnull(strstr(text, "\n 5 .           .           .          >X*          .           .           .\n"));
    ck_assert_ptr_nonnull(strstr(text, "\n 6       .           .          >.           .           .           .\n"));
    ck_assert_ptr_nonnull(strstr(text, "@ loose ball"));
    ck_assert_int_eq(count(text, " \n"), 0); /* no trailing blanks */
    ck_assert_int_eq(ball_position_to_board_text(g, hl, 2, BALL_DRAW_LEGEND, text, (size_t)n), BALL_E_BUFFER);
    int bad = 111;
    ck_assert_int_eq(ball_position_to_board_text(g, &bad, 1, 0, NULL, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_position_to_board_text(g, NULL, 1, 0, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_board_text(g, NULL, 0, 64, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_board_text(NULL, NULL, 0, 0, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_board_text(g, NULL, 0, 0, NULL, 5), BALL_E_ARG);
    free(text);
    ball_game_free(g);
}
END_TEST

/* The widest cells there are (N1: an upper piece is never knocked down or
 * restricted, a lower piece never holds the ball): a fresh stack whose upper
 * piece holds the ball and whose lower piece is knocked down, X*o_+ on M15
 * in the last column; stacks on A13 and A1; then a restricted carrier X*!
 * on M5. */
#define WIDE "7/6/6[X*o_]+/6/[xS_]5[Oo]/6/1O3x_1/[ss]5/7/6/7/6/X6/6/7/6/[Xx]6 ATK a 2 - 0/0 3"
#define WIDE_RESTRICTED "7/6/7/6/[xS_]5[Oo]/6/1O3x_1/[ss]5/7/6/7/6/6X*!/6/7/6/[Xx]6 ATK a 2 - 0/0 3"

/* The longest line of text, in bytes (the board text is ASCII). */
static int widest_line(const char *text)
{
    int widest = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        ck_assert_ptr_nonnull(end); /* every line ends with a newline */
        if (end - p > widest)
            widest = (int)(end - p);
        p = end + 1;
    }
    return widest;
}

/* Every line of the board text fits an 80-column terminal: the standard
 * start (17 rows, every kind of piece of both teams), a position with the
 * widest stack in the last column, each with every square highlighted and
 * the legend, at every end-zone depth (R1.4: 1-3). */
START_TEST(test_board_text_width)
{
    const char *bpns[] = {NULL, WIDE, WIDE_RESTRICTED};
    int all[BALL_NUM_SQUARES];
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        all[sq] = sq;
    for (size_t i = 0; i < sizeof bpns / sizeof *bpns; i++)
        for (int zone = 1; zone <= 3; zone++)
            for (size_t n = 0; n <= BALL_NUM_SQUARES; n += BALL_NUM_SQUARES) {
                ball_game *g = tu_game_rules(bpns[i], zone, 0);
                char text[4096];
                int len = ball_position_to_board_text(g, all, n, BALL_DRAW_LEGEND, text, sizeof text);
                ck_assert_int_gt(len, 0);
                ck_assert_msg(widest_line(text) <= 80, "position %zu, zone %d, %zu highlights: a line of %d columns:\n%s",
                              i, zone, n, widest_line(text), text);
                ck_assert_int_eq(count(text, "\n"), 23);
                if (i == 1) {
                    ck_assert_ptr_nonnull(strstr(text, n ? ">X*o_+\n" : " X*o_+\n"));
                    ck_assert_int_eq(widest_line(text), 80); /* the widest there is */
                }
                ball_game_free(g);
            }
}
END_TEST

/* A position with every mark of N1: a stack with a knocked-down lower
 * piece, a fresh stack, a knocked-down piece, a restricted carrier. */
#define MARKS "[Xo_]6/3O2/7/6/X6/2[ss]+2O/x6/6/7/1S_4/2x*!4/2X3/5o1/6/6x/6/1S5 DEF a 0 - 0/0 1127"

START_TEST(test_svg)
{
    ball_game *g = tu_game(MARKS);
    int hl[1] = {tu_sq("E7")};
    int n = ball_position_to_svg(g, hl, 1, BALL_ACTION_NONE, 0, NULL, 0);
    ck_assert_int_gt(n, 1000);
    char *svg = malloc((size_t)n + 1);
    ck_assert_int_eq(ball_position_to_svg(g, hl, 1, BALL_ACTION_NONE, 0, svg, (size_t)n + 1), n);
    ck_assert_int_eq(count(svg, "<g class=\"piece "), 14);
    ck_assert_int_eq(count(svg, "<g class=\"piece def x ball restricted\" data-square=\"E7\""), 1);
    ck_assert_int_eq(count(svg, "<g class=\"piece atk x upper\" data-square=\"A17\""), 1);
    ck_assert_int_eq(count(svg, "<g class=\"piece def o down lower\" data-square=\"A17\""), 1);
    ck_assert_int_eq(count(svg, "<g class=\"piece atk s down\" data-square=\"D8\""), 1);
    ck_assert_int_eq(count(svg, "class=\"fresh\""), 1);
    /* a knocked-down piece's letter is dark on its faded fill (WCAG AA), the others white */
    ck_assert_int_eq(count(svg, "fill=\"#111\">S</text>"), 1);
    ck_assert_int_eq(count(svg, "fill=\"#111\">o</text>"), 1);
    ck_assert_int_eq(count(svg, "fill=\"#111\">"), 2);
    ck_assert_int_eq(count(svg, "fill=\"#fff\">"), 12);
    ck_assert_int_eq(count(svg, "class=\"highlight\" data-square=\"E7\""), 1);
    ck_assert_int_eq(count(svg, "class=\"arrow"), 0);
    ck_assert_int_eq(count(svg, "</svg>\n"), 1);
    ck_assert_int_eq(ball_position_to_svg(g, hl, 1, BALL_ACTION_NONE, 0, svg, (size_t)n), BALL_E_BUFFER);
    ck_assert_int_eq(ball_position_to_svg(g, hl, 1, 0xffffffffu, 0, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_svg(g, NULL, 1, BALL_ACTION_NONE, 0, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_svg(NULL, NULL, 0, BALL_ACTION_NONE, 0, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_position_to_svg(g, NULL, 0, BALL_ACTION_NONE, 256, NULL, 0), BALL_E_ARG);
    free(svg);
    ball_game_free(g);

    /* a dodge's arrow goes on to its exit, dashed */
    g = tu_game("7/6/3s3/6/3x3/6/1o1sxo1/6/2x4/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2");
    ball_action a = tu_action(g, "G7-E9/F10");
    n = ball_position_to_svg(g, NULL, 0, a, BALL_DRAW_NO_COORDS, NULL, 0);
    svg = malloc((size_t)n + 1);
    ck_assert_int_eq(ball_position_to_svg(g, NULL, 0, a, BALL_DRAW_NO_COORDS, svg, (size_t)n + 1), n);
    ck_assert_int_eq(count(svg, "class=\"arrow\""), 1);
    ck_assert_int_eq(count(svg, "class=\"arrow option\""), 1);
    ck_assert_int_eq(count(svg, "class=\"coords\""), 0);
    free(svg);
    ball_game_free(g);
}
END_TEST

/* The board text of MARKS shows every mark; the SVG of a loose ball and its
 * argument errors. */
START_TEST(test_marks_and_loose_ball)
{
    ball_game *g = tu_game(MARKS);
    char text[8192];
    int n = ball_position_to_board_text(g, NULL, 0, 0, text, sizeof text);
    ck_assert_int_gt(n, 0);
    ck_assert_ptr_nonnull(strstr(text, "Xo_")); /* stack, knocked-down lower piece */
    ck_assert_ptr_nonnull(strstr(text, "ss+")); /* fresh stack */
    ck_assert_ptr_nonnull(strstr(text, "S_"));  /* knocked-down piece */
    ck_assert_ptr_nonnull(strstr(text, "x*!")); /* restricted carrier */
    int bad = 111;
    ck_assert_int_eq(ball_position_to_svg(g, &bad, 1, BALL_ACTION_NONE, 0, NULL, 0), BALL_E_RANGE);
    bad = -1;
    ck_assert_int_eq(ball_position_to_svg(g, &bad, 1, BALL_ACTION_NONE, 0, NULL, 0), BALL_E_RANGE);
    ck_assert_int_eq(ball_position_to_svg(g, NULL, 0, BALL_ACTION_NONE, 0, NULL, 5), BALL_E_ARG);
    ball_game_free(g);

    g = tu_game("7/6/7/6/3x3/6/7/6/7/6/7/2@3/3X3/6/7/6/7 ATK a 2 - 0/0 1");
    n = ball_position_to_svg(g, NULL, 0, BALL_ACTION_NONE, 0, NULL, 0);
    ck_assert_int_gt(n, 0);
    char *svg = malloc((size_t)n + 1);
    ck_assert_int_eq(ball_position_to_svg(g, NULL, 0, BALL_ACTION_NONE, 0, svg, (size_t)n + 1), n);
    ck_assert_int_eq(count(svg, "class=\"loose-ball\" data-square=\"F6\""), 1);
    free(svg);
    ball_game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("drawings");
    TCase *tc = tcase_create("drawings");
    tcase_add_test(tc, test_board_text);
    tcase_add_test(tc, test_board_text_width);
    tcase_add_test(tc, test_svg);
    tcase_add_test(tc, test_marks_and_loose_ball);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
