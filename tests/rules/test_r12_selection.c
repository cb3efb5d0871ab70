/* R12: step-by-step selection (piece -> verb -> destination -> option ->
 * keeper) through ball_select, which never changes the game. Expected
 * choices are derived by hand from R5-R9; squares are compared by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The choices after `path` (space-separated: squares by name, verbs as
 * digits) as names or verb digits, space-joined; "" when complete. */
static char *choices_after(ball_game *g, const char *path, ball_action *complete)
{
    int chosen[BALL_SELECT_STEPS], n = 0, choices[BALL_NUM_SQUARES];
    char buf[128];
    strncpy(buf, path, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        ck_assert_int_lt(n, BALL_SELECT_STEPS);
        chosen[n] = n == 1 ? atoi(tok) : tu_sq(tok);
        n++;
    }
    int k = ball_select(g, chosen, (size_t)n, choices, BALL_NUM_SQUARES, complete);
    ck_assert_msg(k >= 0, "select '%s': %s", path, ball_errmsg(g));
    char *out = calloc(1, 512);
    for (int i = 0; i < k; i++) {
        char name[BALL_SQUARE_TEXT_MAX];
        if (n == 1)
            snprintf(name, sizeof name, "%d", choices[i]);
        else
            ball_square_to_text(choices[i], name, sizeof name);
        if (i)
            strcat(out, " ");
        strcat(out, name);
    }
    return out;
}

#define ck_choices(g, path, expected) do { ball_action a_; \
    char *got_ = choices_after((g), (path), &a_); \
    ck_assert_str_eq(got_, (expected)); \
    ck_assert_uint_eq(a_, BALL_ACTION_NONE); free(got_); } while (0)

/* The prefix completes exactly the action with this text. */
#define ck_complete(g, path, text) do { ball_action a_; char t_[BALL_ACTION_TEXT_MAX]; \
    char *got_ = choices_after((g), (path), &a_); \
    ck_assert_str_eq(got_, ""); free(got_); \
    ck_assert_int_gt(ball_action_to_text(a_, t_, sizeof t_), 0); \
    ck_assert_str_eq(t_, (text)); } while (0)

/* Start, DEF to act: every DEF piece can move (R5.1), listed in square
 * order (rows 11, 13, 15). E11's X: D10 F10 D12 F12 one square, C9 G9 C13
 * two squares (G13 holds its own s). */
START_TEST(test_R12_piece_then_destination)
{
    ball_game *g = tu_game(NULL);
    ck_choices(g, "", "C11 E11 G11 I11 K11 G13 G15");
    ck_choices(g, "E11", "1"); /* only BALL_VERB_MOVE: no ball */
    ck_choices(g, "E11 1", "C9 G9 D10 F10 D12 F12 C13");
    ck_complete(g, "E11 1 F10", "E11-F10");
    ck_bpn(g, BALL_START_BPN); /* nothing changed */
    ball_game_free(g);
}
END_TEST

/* ATK's carrier X* on G5 with 2 PA: moves, short and long passes; no
 * hand-off, nobody stands next to it (R8.2). */
START_TEST(test_R12_carrier_verbs)
{
    ball_game *g = tu_game("7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2");
    ck_choices(g, "G5", "1 3 4");
    ck_complete(g, "G5 4 A1", "G5^^A1");
    ball_game_free(g);
}
END_TEST

/* R6.1 dodge: G9 onto I11 needs an exit, chosen in step 4. */
START_TEST(test_R12_dodge_exit_step)
{
    ball_game *g = tu_game("7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1");
    ck_choices(g, "G9 1 I11", "H10 J10 H12 J12");
    ck_complete(g, "G9 1 I11 J12", "G9-I11/J12");
    ball_game_free(g);
}
END_TEST

/* R9.3 release of G9's stack, ATK's X holding the ball over a standing
 * DEF o: U, then W, then the keeper (U: the upper keeps, W: the lower
 * takes it, R9.3). */
START_TEST(test_R12_release_keeper_steps)
{
    ball_game *g = tu_game("7/6/7/6/7/6/7/6/3[X*o]3/6/7/6/7/6/7/6/7 ATK r 0 - 0/0 3");
    ck_choices(g, "", "G9");
    ck_choices(g, "G9 1", "F8 H8 F10 H10");
    ck_choices(g, "G9 1 F8", "H8 F10 H10");
    ck_choices(g, "G9 1 F8 H10", "F8 H10");
    ck_complete(g, "G9 1 F8 H10 H10", "G9-F8/H10=H10");
    ball_game_free(g);
}
END_TEST

/* Choices that lead nowhere are refused; the game is untouched. */
START_TEST(test_R12_refused_choices)
{
    ball_game *g = tu_game(NULL);
    int chosen[3] = {tu_sq("G5"), BALL_VERB_MOVE, 0}, choices[BALL_NUM_SQUARES];
    ball_action a = 123;
    ck_assert_int_eq(ball_select(g, chosen, 1, choices, BALL_NUM_SQUARES, &a), BALL_E_ILLEGAL);
    ck_assert_uint_eq(a, BALL_ACTION_NONE);
    chosen[0] = tu_sq("E11");
    chosen[1] = BALL_VERB_HANDOFF;
    ck_assert_int_eq(ball_select(g, chosen, 2, choices, BALL_NUM_SQUARES, &a), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_select(g, chosen, 0, choices, 3, &a), BALL_E_BUFFER);
    ck_bpn(g, BALL_START_BPN);
    ball_game_free(g);
}
END_TEST

/* Walks every selection path and collects the completed actions. */
static int walk(ball_game *g, int *chosen, size_t n, ball_action *found, int nfound)
{
    int choices[BALL_NUM_SQUARES];
    ball_action a;
    int k = ball_select(g, chosen, n, choices, BALL_NUM_SQUARES, &a);
    tu_require(k >= 0);
    if (k == 0) {
        tu_require(a != BALL_ACTION_NONE || n == 0);
        if (a != BALL_ACTION_NONE)
            found[nfound++] = a;
        return nfound;
    }
    for (int i = 0; i < k; i++) {
        chosen[n] = choices[i];
        nfound = walk(g, chosen, n + 1, found, nfound);
    }
    return nfound;
}

/* In positions of random games, the selection tree completes exactly the
 * legal actions that have a piece (all but `end`, whose from square is
 * BALL_NO_SQUARE). */
START_TEST(test_R12_selection_tree_is_the_legal_list)
{
    uint64_t seed = 2024;
    ball_game *g = tu_game(NULL);
    ball_action acts[BALL_MAX_ACTIONS], found[BALL_MAX_ACTIONS];
    int chosen[BALL_SELECT_STEPS];
    for (int d = 0; d < 600; d++) {
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        if (n == 0)
            break;
        int nf = walk(g, chosen, 0, found, 0), with_piece = 0;
        for (int i = 0; i < n; i++) {
            if (ball_action_from(acts[i]) == BALL_NO_SQUARE)
                continue;
            with_piece++;
            int seen = 0;
            for (int j = 0; j < nf; j++)
                seen += found[j] == acts[i];
            tu_require(seen == 1);
        }
        tu_require(nf == with_piece);
        tu_require(ball_apply(g, acts[tu_random(&seed) % (uint64_t)n]) == BALL_OK);
    }
    ball_game_free(g);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("R12 selection");
    TCase *tc = tcase_create("selection");
    tcase_add_test(tc, test_R12_piece_then_destination);
    tcase_add_test(tc, test_R12_carrier_verbs);
    tcase_add_test(tc, test_R12_dodge_exit_step);
    tcase_add_test(tc, test_R12_release_keeper_steps);
    tcase_add_test(tc, test_R12_refused_choices);
    tcase_add_test(tc, test_R12_selection_tree_is_the_legal_list);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
