/* Learning interface, the fixed action space (ball.h "Learning interface",
 * docs/learning.md): every legal action of every position of seeded
 * random games, under every kind of ruleset (end zones 1-3 deep, turn
 * limit, card mode with full hands of 9 cards and large PA), maps to a
 * distinct index in [0, BALL_ACTION_SPACE) and back; the masks and index
 * lists agree; the index is the one the documented layout gives (computed
 * here independently from the action's squares); bad inputs give clear
 * errors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "testutil.h"

/* A game under the ruleset text `rules` (NULL: defaults) at `bpn` (NULL:
 * the start). */
/* ck_assert() reports each passing check to the runner (a system call
 * under fork mode); the loops over millions of values check quietly. */
#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

static ball_action parse(ball_game *g, const char *text)
{
    ball_action a;
    ck_assert_msg(ball_action_from_text(g, text, &a) == BALL_OK, "%s: %s", text, ball_errmsg(g));
    return a;
}

/* ---- the layout of docs/learning.md, derived here from the squares ---- */

/* (dc, dr) in the frame of the coach to act (rows flipped for DEF). */
static void frame_vector(int side, int a, int b, int *dc, int *dr)
{
    *dc = ball_square_col(b) - ball_square_col(a);
    *dr = ball_square_row(b) - ball_square_row(a);
    if (side == BALL_DEF)
        *dr = -*dr;
}

static int frame_square(int side, int sq)
{
    int c = ball_square_col(sq), r = ball_square_row(sq);
    return ball_square_at(c, side == BALL_DEF ? 18 - r : r);
}

/* The diagonal direction d of (dc, dr), -1 if it is none. */
static int diagonal_of(int dc, int dr)
{
    static const int dirs[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    for (int d = 0; d < 4; d++)
        if (dirs[d][0] == dc && dirs[d][1] == dr)
            return d;
    return -1;
}

/* The two-square vector v of (dc, dr), -1 if none. */
static int jump_of(int dc, int dr)
{
    static const int vecs[8][2] = {{2, 2}, {-2, 2}, {2, -2}, {-2, -2}, {0, 2}, {0, -2}, {2, 0}, {-2, 0}};
    for (int v = 0; v < 8; v++)
        if (vecs[v][0] == dc && vecs[v][1] == dr)
            return v;
    return -1;
}

static int expected_index(int side, ball_action a)
{
    int kind = ball_action_kind(a), from = ball_action_from(a), to = ball_action_to(a);
    int opt = ball_action_option(a), dc, dr, plane;
    switch (kind) {
    case BALL_END: return BALL_INDEX_END;
    case BALL_CONVERT_PA: return BALL_INDEX_END + ball_action_value(a);
    case BALL_PLAY_CARD: return BALL_INDEX_CARD + ball_action_value(a);
    case BALL_HANDOFF: return BALL_PLANE_HANDOFF * 111 + frame_square(side, to);
    case BALL_SHORT_PASS: return BALL_PLANE_SHORT_PASS * 111 + frame_square(side, to);
    case BALL_LONG_PASS: return BALL_PLANE_LONG_PASS * 111 + frame_square(side, to);
    case BALL_DODGE: {
        frame_vector(side, from, to, &dc, &dr);
        int v = jump_of(dc, dr);
        frame_vector(side, to, opt, &dc, &dr);
        int d = diagonal_of(dc, dr);
        REQUIRE(v >= 0 && d >= 0, "layout");
        plane = BALL_PLANE_DODGE + 4 * v + d;
        break;
    }
    case BALL_TACTICAL_DODGE: {
        frame_vector(side, from, to, &dc, &dr);
        int v = jump_of(dc, dr);
        int m = ball_square_at((ball_square_col(from) + ball_square_col(to)) / 2,
                               (ball_square_row(from) + ball_square_row(to)) / 2);
        frame_vector(side, m, opt, &dc, &dr);
        int d = diagonal_of(dc, dr);
        REQUIRE(v >= 0 && v < 4 && d >= 0, "layout");
        plane = BALL_PLANE_DODGE + 4 * v + d;
        break;
    }
    case BALL_UNBLOCK:
    case BALL_UNPROTECT: {
        frame_vector(side, from, to, &dc, &dr);
        int du = diagonal_of(dc, dr);
        frame_vector(side, from, opt, &dc, &dr);
        int dw = diagonal_of(dc, dr);
        REQUIRE(du >= 0 && dw >= 0 && du != dw, "layout");
        int pair = 3 * du + (dw < du ? dw : dw - 1);
        plane = BALL_PLANE_RELEASE + 2 * pair + (ball_action_keeper(a) == BALL_KEEPER_LOWER);
        break;
    }
    default: { /* move, pickup, block, protection, stand-up */
        frame_vector(side, from, to, &dc, &dr);
        int d = diagonal_of(dc, dr), v = jump_of(dc, dr);
        REQUIRE(d >= 0 || v >= 0, "layout");
        plane = d >= 0 ? BALL_PLANE_STEP + d : BALL_PLANE_JUMP + v;
        break;
    }
    }
    return plane * 111 + frame_square(side, from);
}

/* ---- the per-position check ---- */

static uint32_t stamp[BALL_ACTION_SPACE];
static uint32_t generation;
static long positions_checked, actions_checked, full_scans;
static unsigned kinds_seen; /* bit k: an action of kind k was checked */
static int max_convert;     /* the largest k of a pe+k checked */

static void check_position(ball_game *g, int full_scan)
{
    ball_action acts[BALL_MAX_ACTIONS], back;
    static uint8_t mask[BALL_ACTION_SPACE];
    uint8_t bits[BALL_ACTION_MASK_BYTES];
    int32_t idx[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS), side = ball_side(g);
    REQUIRE(n >= 0, "legal actions: %d", n);
    generation++;
    memset(mask, 0xee, sizeof mask);
    memset(bits, 0xee, sizeof bits);
    REQUIRE(ball_legal_mask(g, mask, sizeof mask, 0) == n, "mask count");
    REQUIRE(ball_legal_mask(g, bits, sizeof bits, BALL_MASK_BITS) == n, "bit mask count");
    REQUIRE(ball_legal_indices(g, NULL, 0) == n, "index count");
    REQUIRE(ball_legal_indices(g, idx, BALL_MAX_ACTIONS) == n, "index list");
    for (int i = 0; i < n; i++) {
        int k = ball_action_to_index(g, acts[i]);
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_to_text(acts[i], text, sizeof text);
        REQUIRE(k >= 0 && k < BALL_ACTION_SPACE, "%s: index %d", text, k);
        REQUIRE(stamp[k] != generation, "%s: index %d given twice", text, k);
        stamp[k] = generation;
        REQUIRE(k == expected_index(side, acts[i]), "%s: index %d, layout says %d", text, k,
                      expected_index(side, acts[i]));
        REQUIRE(ball_action_from_index(g, k, &back) == BALL_OK, "%s: index %d not decoded", text, k);
        REQUIRE(back == acts[i], "%s: index %d decodes to another action", text, k);
        REQUIRE(mask[k] == 1, "%s: mask[%d] not set", text, k);
        REQUIRE(bits[k >> 3] >> (k & 7) & 1, "%s: mask bit %d not set", text, k);
        kinds_seen |= 1u << ball_action_kind(acts[i]);
        if (ball_action_kind(acts[i]) == BALL_CONVERT_PA && ball_action_value(acts[i]) > max_convert)
            max_convert = ball_action_value(acts[i]);
    }
    int ones = 0, bit_ones = 0;
    for (int k = 0; k < BALL_ACTION_SPACE; k++) {
        REQUIRE(mask[k] == 0 || mask[k] == 1, "mask[%d] = %d", k, mask[k]);
        ones += mask[k];
        bit_ones += bits[k >> 3] >> (k & 7) & 1;
    }
    REQUIRE(ones == n, "%d ones in the mask, %d legal", ones, n);
    REQUIRE(bit_ones == n, "%d bits in the mask, %d legal", bit_ones, n);
    REQUIRE(bits[BALL_ACTION_MASK_BYTES - 1] >> (BALL_ACTION_SPACE % 8) == 0, "padding bits set");
    for (int i = 0; i < n; i++) {
        REQUIRE(stamp[idx[i]] == generation, "listed index %d is not legal", idx[i]);
        if (i)
            REQUIRE(idx[i - 1] < idx[i], "indices not increasing");
    }
    if (full_scan) { /* every other index is refused */
        full_scans++;
        for (int k = 0; k < BALL_ACTION_SPACE; k++) {
            int rc = ball_action_from_index(g, k, &back);
            REQUIRE(rc == (stamp[k] == generation ? BALL_OK : BALL_E_ILLEGAL), "index %d: %d", k, rc);
        }
    }
    positions_checked++;
    actions_checked += n;
}

/* Seeded random games under `rules`, every position checked; every
 * action kind of the rules (the card-mode ones when `cards`) was seen. */
static void random_games(const char *label, const char *rules, int games, int max_decisions, uint64_t seed,
                         int cards)
{
    positions_checked = actions_checked = full_scans = 0;
    kinds_seen = 0;
    max_convert = 0;
    for (int gi = 0; gi < games; gi++) {
        ball_game *g = tu_game_text(rules, NULL);
        uint64_t s = seed + 7919u * (uint64_t)gi;
        for (int d = 0; d < max_decisions && ball_result(g) == BALL_ONGOING; d++) {
            check_position(g, (d % 97) == 13);
            ball_action a;
            REQUIRE(ball_random_action(g, tu_random(&s), &a) == BALL_OK, "draw");
            REQUIRE(ball_apply(g, a) == BALL_OK, "apply: %s", ball_errmsg(g));
        }
        check_position(g, 0); /* a finished game: no index at all */
        ball_game_free(g);
    }
    unsigned want = 0;
    for (int k = BALL_MOVE; k <= (cards ? BALL_PLAY_CARD : BALL_UNPROTECT); k++)
        want |= 1u << k;
    ck_assert_msg((kinds_seen & want) == want, "kinds seen 0x%x, wanted 0x%x", kinds_seen, want);
    ck_assert_int_gt(full_scans, 0);
    if (cards)
        ck_assert_int_ge(max_convert, 20);
    fprintf(stderr, "learn_actions: %-15s %ld positions, %ld actions, %ld full scans, largest pe+k %d\n",
            label, positions_checked, actions_checked, full_scans, max_convert);
}

/* Nine cheap cards a side: 8 gain 9 PA (PA climb far above 2, so
 * conversions pe+k with large k arise), 1 lifts a restriction. */
#define DECK_HAND "G1:0:pa+9,G2:1:pa+9,G3:0:pa+9,G4:2:pa+9,G5:0:pa+9,G6:1:pa+9,G7:0:pa+9,G8:3:pa+9,Again:0:again"
#define DECK "earn.move=1 earn.pickup=2 earn.dodge=1 earn.block=1 earn.standup=1 atk=" DECK_HAND " def=" DECK_HAND

START_TEST(test_layout_constants)
{
    ck_assert_int_eq(BALL_INDEX_PLANES, 71);
    ck_assert_int_eq(BALL_INDEX_END, 71 * 111);
    ck_assert_int_eq(BALL_INDEX_CARD, BALL_INDEX_END + 1 + BALL_MAX_PA);
    ck_assert_int_eq(BALL_ACTION_SPACE, BALL_INDEX_CARD + BALL_MAX_HAND);
    ck_assert_int_eq(BALL_ACTION_SPACE, 7990);
    ck_assert_int_eq(BALL_ACTION_MASK_BYTES, (BALL_ACTION_SPACE + 7) / 8);
    ck_assert_int_eq(BALL_PLANE_JUMP, BALL_PLANE_STEP + 4);
    ck_assert_int_eq(BALL_PLANE_DODGE, BALL_PLANE_JUMP + 8);
    ck_assert_int_eq(BALL_PLANE_RELEASE, BALL_PLANE_DODGE + 32);
    ck_assert_int_eq(BALL_PLANE_HANDOFF, BALL_PLANE_RELEASE + 24);
}
END_TEST

/* The worked example of docs/learning.md. */
START_TEST(test_worked_example)
{
    ball_game *g = tu_game_text(NULL, NULL);
    /* DEF to act: E11-F10 is seen as E7-F8, a step (+1, +1) from E7 = 41. */
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "E11-F10")), 41);
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "end")), BALL_INDEX_END);
    /* G11-G13 is blocked by DEF's own x on G13; G11-E9: jump (-2, +2) from G7 (= 42) */
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "G11-E9")), (BALL_PLANE_JUMP + 1) * 111 + 42);
    ball_apply(g, parse(g, "E11-F10"));
    ball_apply(g, parse(g, "F10-E9"));
    ball_apply(g, parse(g, "end"));
    /* ATK: the frame is the board. G7-E9/F10: dodge by v = 1 (-2, +2), exit
     * d = 0 (+1, +1) from G7 = 42: plane 12 + 4 + 0 = 16. */
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "G7-E9/F10")), 16 * 111 + 42);
    /* G5^H8: short pass to H8 = (13 * 7 + 7) / 2 = 49 */
    ck_assert_int_eq(ball_square_from_text("H8"), 49);
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "G5^H8")), BALL_PLANE_SHORT_PASS * 111 + 49);
    /* G3-E3: the S jumps (-2, 0) = v 7, from G3 = 16 */
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "G3-E3")), (BALL_PLANE_JUMP + 7) * 111 + 16);
    ball_action a;
    ck_assert_int_eq(ball_action_from_index(g, (BALL_PLANE_JUMP + 7) * 111 + 16, &a), BALL_OK);
    char text[BALL_ACTION_TEXT_MAX];
    ball_action_to_text(a, text, sizeof text);
    ck_assert_str_eq(text, "G3-E3");
    ball_game_free(g);
}
END_TEST

/* A release with keeper and the stand-up share no index; the release
 * layout of the docs. */
START_TEST(test_release_phase_indices)
{
    /* ATK stack [X*o] on G9 (not fresh), released in ATK's release phase. */
    ball_game *g = tu_game_text(NULL, "7/6/7/6/7/6/7/6/3[X*o]3/6/7/6/7/6/7/6/3S_3 ATK r 0 - 0/0 5");
    ball_action a = parse(g, "G9-H10/F8=F8"); /* U = H10 (+1,+1) d0, W = F8 (-1,-1) d3, keeper lower */
    int pair = 3 * 0 + (3 - 1);
    ck_assert_int_eq(ball_action_to_index(g, a), (BALL_PLANE_RELEASE + 2 * pair + 1) * 111 + 55);
    a = parse(g, "G9-H10/F8=H10");
    ck_assert_int_eq(ball_action_to_index(g, a), (BALL_PLANE_RELEASE + 2 * pair + 0) * 111 + 55);
    /* the knocked-down S on G1 stands up to F2 (-1, +1) = d1: plane 1 from G1 = 3 */
    a = parse(g, "G1-F2");
    ck_assert_int_eq(ball_action_to_index(g, a), 1 * 111 + 3);
    check_position(g, 1);
    ball_game_free(g);
}
END_TEST

/* Card mode: pe+1 ... pe+99 at PA 99, and the card plays. */
START_TEST(test_card_mode_suffix)
{
    ball_game *g = tu_game_text(DECK, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 99 - 10/10 4 "
                                  "123456789/123456789");
    for (int k = 1; k <= 99; k++) {
        char text[16];
        snprintf(text, sizeof text, "pe+%d", k);
        ck_assert_int_eq(ball_action_to_index(g, parse(g, text)), BALL_INDEX_END + k);
    }
    for (int c = 1; c <= 8; c++) { /* the gain cards; Again needs a restricted piece */
        char text[16];
        snprintf(text, sizeof text, "card%d", c);
        ck_assert_int_eq(ball_action_to_index(g, parse(g, text)), BALL_INDEX_CARD + c - 1);
    }
    check_position(g, 1);
    ball_game_free(g);
    /* a restricted carrier: Again (hand number 9) targets it */
    g = tu_game_text(DECK, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*!3/6/3S3/6/7 ATK a 0 - 0/0 4 "
                       "123456789/123456789");
    ck_assert_int_eq(ball_action_to_index(g, parse(g, "card9@G5")), BALL_INDEX_CARD + 8);
    check_position(g, 1);
    ball_game_free(g);
}
END_TEST

START_TEST(test_random_games_default)
{
    random_games("default", NULL, 40, 600, 0x1234567u, 0);
}
END_TEST

START_TEST(test_random_games_zone2)
{
    random_games("zone=2", "zone=2", 30, 600, 0xabcdefu, 0);
}
END_TEST

START_TEST(test_random_games_zone3_turn_limit)
{
    random_games("zone=3 turns=40", "zone=3 turns=40", 30, 600, 0x5151u, 0);
}
END_TEST

START_TEST(test_random_games_cards)
{
    random_games("cards", DECK, 40, 600, 0x77777u, 1);
}
END_TEST

START_TEST(test_bad_inputs)
{
    ball_game *g = tu_game_text(NULL, NULL);
    ball_action a;
    uint8_t mask[BALL_ACTION_SPACE];
    int32_t idx[BALL_MAX_ACTIONS];
    /* NULL */
    ck_assert_int_eq(ball_action_to_index(NULL, parse(g, "end")), BALL_E_ARG);
    ck_assert_int_eq(ball_action_from_index(NULL, 0, &a), BALL_E_ARG);
    ck_assert_int_eq(ball_action_from_index(g, 0, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_legal_mask(NULL, mask, sizeof mask, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_legal_mask(g, NULL, sizeof mask, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_legal_indices(NULL, idx, BALL_MAX_ACTIONS), BALL_E_ARG);
    ck_assert_int_eq(ball_legal_indices(g, NULL, 5), BALL_E_ARG);
    /* index out of range */
    ck_assert_int_eq(ball_action_from_index(g, -1, &a), BALL_E_RANGE);
    ck_assert_int_eq(ball_action_from_index(g, BALL_ACTION_SPACE, &a), BALL_E_RANGE);
    ck_assert_msg(strstr(ball_errmsg(g), "out of range 0-7989"), "%s", ball_errmsg(g));
    /* index of an illegal action: a step from A1 of DEF's frame, A17, empty */
    a = 0;
    ck_assert_int_eq(ball_action_from_index(g, 0, &a), BALL_E_ILLEGAL);
    ck_assert_msg(strstr(ball_errmsg(g), "index 0") && strstr(ball_errmsg(g), "A17")
                  && strstr(ball_errmsg(g), "not legal"), "%s", ball_errmsg(g));
    ck_assert_uint_eq(a, 0); /* untouched */
    ck_assert_int_eq(ball_action_from_index(g, BALL_INDEX_END + 1, &a), BALL_E_ILLEGAL);
    ck_assert_msg(strstr(ball_errmsg(g), "pe+1"), "%s", ball_errmsg(g));
    /* an illegal action, and a value that is no action */
    ball_game *atk = tu_game_text(NULL, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 ATK a 2 - 0/0 2");
    ball_action g5f6 = parse(atk, "G5-F6");
    ck_assert_int_eq(ball_action_to_index(g, g5f6), BALL_E_ILLEGAL);
    ck_assert_msg(strstr(ball_errmsg(g), "G5-F6 is not legal"), "%s", ball_errmsg(g));
    ck_assert_int_eq(ball_action_to_index(g, 0), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_action_to_index(g, 0xffffffffu), BALL_E_ILLEGAL);
    /* buffers too small, unknown flags */
    ck_assert_int_eq(ball_legal_mask(g, mask, BALL_ACTION_SPACE - 1, 0), BALL_E_BUFFER);
    ck_assert_msg(strstr(ball_errmsg(g), "7990"), "%s", ball_errmsg(g));
    ck_assert_int_eq(ball_legal_mask(g, mask, BALL_ACTION_MASK_BYTES - 1, BALL_MASK_BITS), BALL_E_BUFFER);
    ck_assert_int_eq(ball_legal_mask(g, mask, sizeof mask, 2), BALL_E_ARG);
    ck_assert_int_eq(ball_legal_indices(g, idx, 3), BALL_E_BUFFER);
    ck_assert_msg(strstr(ball_errmsg(g), "55 needed"), "%s", ball_errmsg(g));
    /* a finished game: nothing legal */
    ball_game *over = tu_game_text(NULL, "3X*3/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/7 DEF a 2 - 0/0 9");
    ck_assert_int_eq(ball_result(over), BALL_ATK_WON);
    ck_assert_int_eq(ball_action_from_index(over, BALL_INDEX_END, &a), BALL_E_ILLEGAL);
    ck_assert_msg(strstr(ball_errmsg(over), "over"), "%s", ball_errmsg(over));
    ck_assert_int_eq(ball_action_to_index(over, parse(g, "end")), BALL_E_ILLEGAL);
    ck_assert_int_eq(ball_legal_mask(over, mask, sizeof mask, 0), 0);
    ck_assert_int_eq(ball_legal_indices(over, idx, 0), 0);
    ball_game_free(over);
    ball_game_free(atk);
    ball_game_free(g);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("learn_actions");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_layout_constants);
    tcase_add_test(tc, test_worked_example);
    tcase_add_test(tc, test_release_phase_indices);
    tcase_add_test(tc, test_card_mode_suffix);
    tcase_add_test(tc, test_random_games_default);
    tcase_add_test(tc, test_random_games_zone2);
    tcase_add_test(tc, test_random_games_zone3_turn_limit);
    tcase_add_test(tc, test_random_games_cards);
    tcase_add_test(tc, test_bad_inputs);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
