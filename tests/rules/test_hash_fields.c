/* The position hash (ball_hash): every field that BPN records, but the
 * turn, enters it without overlapping another (issue 16, item 10: PA of
 * 4 and more used to share bits with the hand-off and restriction marks).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "testutil.h"

/* Card mode, where PA up to 99 are valid. */
#define CARD_RULES "atk=Run:0:pa+3 def=Run:0:pa+3"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* N1: the ATK square piece on D14 holds the ball ('!' marks it
 * restricted); PA, the hand-off mark and the restriction vary. */
static void bpn_of(char *out, size_t len, int pa, int handoff, int restricted)
{
    snprintf(out, len, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X3/2S*%s3/7/6/7 ATK a %d %s 0/0 2 1/1",
             restricted ? "!" : "", pa, handoff ? "h" : "-");
}

START_TEST(test_N1_hash_pa_handoff_restricted_disjoint)
{
    ball_game *g = tu_game_text(CARD_RULES, NULL);
    enum { N = (BALL_MAX_PA + 1) * 4 };
    uint64_t *h = malloc(N * sizeof *h);
    char bpn[BALL_BPN_MAX];
    int n = 0;
    for (int pa = 0; pa <= BALL_MAX_PA; pa++)
        for (int handoff = 0; handoff < 2; handoff++)
            for (int restricted = 0; restricted < 2; restricted++) {
                bpn_of(bpn, sizeof bpn, pa, handoff, restricted);
                ck_assert_msg(ball_position_from_text(g, bpn) == BALL_OK, "%s: %s", bpn, ball_errmsg(g));
                h[n++] = ball_hash(g);
            }
    qsort(h, (size_t)n, sizeof *h, cmp_u64);
    int collisions = 0;
    for (int i = 1; i < n; i++)
        collisions += h[i] == h[i - 1];
    ck_assert_int_eq(collisions, 0); /* all 79,800 pairs differ */
    free(h);
    ball_game_free(g);
}
END_TEST

/* Plays two lines from the start of a card-mode game and checks that they
 * reach the same position (BPN) with the same hash, or different positions
 * with different hashes. */
static void check_lines(const char *line_a, const char *line_b, int same)
{
    ball_game *a = tu_game_text(CARD_RULES, NULL), *b = NULL;
    ck_assert_int_eq(ball_game_clone(&b, a), BALL_OK);
    tu_apply_all(a, line_a);
    tu_apply_all(b, line_b);
    char ba[BALL_BPN_MAX], bb[BALL_BPN_MAX];
    tu_bpn(a, ba);
    tu_bpn(b, bb);
    ck_assert_int_eq(strcmp(ba, bb) == 0, same);
    ck_assert_int_eq(ball_hash(a) == ball_hash(b), same);
    ball_game_free(a);
    ball_game_free(b);
}

/* The two lines of the issue: PA 4 with the hand-off mark against PA 0
 * with it, reached in play; different positions, different hashes. */
START_TEST(test_N1_hash_card_mode_lines_differ)
{
    check_lines("end card1 G3-F4 G5=F4", "end card1 G3-F4 C7-B6 B6-C7 C7-B6 B6-C7 G5=F4", 0);
}
END_TEST

/* A transposition in card mode: the same position by two move orders has
 * one BPN and one hash. */
START_TEST(test_N1_hash_card_mode_transposition)
{
    check_lines("end card1 G3-F4 C7-B6", "end card1 C7-B6 G3-F4", 1);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("hash_fields");
    TCase *tc = tcase_create("hash");
    tcase_add_test(tc, test_N1_hash_pa_handoff_restricted_disjoint);
    tcase_add_test(tc, test_N1_hash_card_mode_lines_differ);
    tcase_add_test(tc, test_N1_hash_card_mode_transposition);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
