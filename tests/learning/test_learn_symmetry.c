/* Learning interface, symmetries (ball.h "Learning interface",
 * docs/learning.md):
 *  - the left-right mirror on action indices and observations is an
 *    involution (mirror twice = identity) and a permutation;
 *  - over seeded random games under several rulesets, the mirrored
 *    position, built by mirroring the BPN text, has as legal indices
 *    exactly the mirrored legal indices, each decoding to the mirrored
 *    action text, and as observation the mirrored observation (every
 *    layout, float and bits);
 *  - the side to act's frame: the position with the teams swapped and the
 *    rows flipped (again built on the BPN text) has the same legal
 *    indices and the same observation except the DEF feature.
 *  */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "testutil.h"

#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* ---- BPN text transformations ---- */

#define MAX_CELLS 7
#define CELL_TEXT 12

/* Splits a placement group into the cells of its row ("" = vacant). */
static int split_group(const char *g, size_t len, char cells[MAX_CELLS][CELL_TEXT])
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        REQUIRE(n < MAX_CELLS, "group too long");
        if (isdigit((unsigned char)g[i])) {
            int run = g[i++] - '0';
            for (int k = 0; k < run; k++)
                cells[n++][0] = '\0';
            continue;
        }
        size_t start = i;
        if (g[i] == '[') {
            while (g[i] != ']')
                i++;
            i++;
            if (i < len && g[i] == '+')
                i++;
        }
        else {
            i++; /* '@' or a piece letter, then its marks */
            while (i < len && strchr("*_!", g[i]))
                i++;
        }
        memcpy(cells[n], g + start, i - start);
        cells[n++][i - start] = '\0';
    }
    return n;
}

/* Appends the cells, vacant ones as maximal runs. */
static void join_cells(char cells[MAX_CELLS][CELL_TEXT], int n, char *out)
{
    int run = 0;
    for (int k = 0; k < n; k++) {
        if (!cells[k][0]) {
            run++;
            continue;
        }
        if (run)
            sprintf(out + strlen(out), "%d", run);
        run = 0;
        strcat(out, cells[k]);
    }
    if (run)
        sprintf(out + strlen(out), "%d", run);
}

/* The BPN of the left-right mirror image: each row reversed. */
static void mirror_bpn(const char *bpn, char *out)
{
    out[0] = '\0';
    const char *p = bpn, *end = strchr(bpn, ' ');
    while (p < end) {
        const char *q = p;
        while (q < end && *q != '/')
            q++;
        char cells[MAX_CELLS][CELL_TEXT];
        int n = split_group(p, (size_t)(q - p), cells);
        for (int k = 0; k < n / 2; k++) {
            char t[CELL_TEXT];
            strcpy(t, cells[k]);
            strcpy(cells[k], cells[n - 1 - k]);
            strcpy(cells[n - 1 - k], t);
        }
        join_cells(cells, n, out);
        if (q < end)
            strcat(out, "/");
        p = q + 1;
    }
    strcat(out, end);
}

/* The BPN with the teams swapped and the rows flipped (row r -> 18 - r):
 * groups in reverse order, letter case swapped, side, PE and hands
 * swapped. */
static void swap_bpn(const char *bpn, char *out)
{
    char placement[BALL_BPN_MAX], side[8], phase[4], pa[8], handoff[4], pe[32], turn[16], hands[32];
    int fields = sscanf(bpn, "%1023s %7s %3s %7s %3s %31s %15s %31s", placement, side, phase, pa,
                        handoff, pe, turn, hands);
    REQUIRE(fields == 7 || fields == 8, "BPN fields");
    char *groups[17];
    int n = 0;
    for (char *tok = strtok(placement, "/"); tok; tok = strtok(NULL, "/"))
        groups[n++] = tok;
    REQUIRE(n == 17, "17 groups");
    out[0] = '\0';
    for (int k = 16; k >= 0; k--) {
        for (char *c = groups[k]; *c; c++)
            if (isalpha((unsigned char)*c))
                *c = (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
        strcat(out, groups[k]);
        if (k)
            strcat(out, "/");
    }
    char *slash = strchr(pe, '/');
    *slash = '\0';
    sprintf(out + strlen(out), " %s %s %s %s %s/%s %s", strcmp(side, "ATK") ? "ATK" : "DEF", phase, pa,
            handoff, slash + 1, pe, turn);
    if (fields == 8) {
        slash = strchr(hands, '/');
        *slash = '\0';
        sprintf(out + strlen(out), " %s/%s", slash + 1, hands);
    }
}

/* An action text with every square mirrored (column c -> 14 - c) or, with
 * `flip`, every row r -> 18 - r. */
static void transform_text(const char *in, char *out, int flip)
{
    while (*in) {
        if (*in >= 'A' && *in <= 'M' && isdigit((unsigned char)in[1])) {
            int row = atoi(in + 1);
            char col = *in;
            in++;
            while (isdigit((unsigned char)*in))
                in++;
            out += sprintf(out, "%c%d", flip ? col : 'A' + 'M' - col, flip ? 18 - row : row);
        }
        else
            *out++ = *in++;
    }
    *out = '\0';
}

/* ---- tests ---- */

START_TEST(test_index_mirror_involution)
{
    static uint8_t hit[BALL_ACTION_SPACE];
    memset(hit, 0, sizeof hit);
    for (int k = 0; k < BALL_ACTION_SPACE; k++) {
        int m = ball_index_mirror(k);
        REQUIRE(m >= 0 && m < BALL_ACTION_SPACE, "index %d mirrors to %d", k, m);
        REQUIRE(ball_index_mirror(m) == k, "index %d: mirror twice gives %d", k, ball_index_mirror(m));
        REQUIRE(k < BALL_INDEX_PLANES * 111 || m == k, "suffix index %d moved", k);
        REQUIRE(k >= BALL_INDEX_PLANES * 111 || m / 111 < BALL_INDEX_PLANES, "plane index left the planes");
        hit[m]++;
    }
    for (int k = 0; k < BALL_ACTION_SPACE; k++)
        REQUIRE(hit[k] == 1, "index %d is the image of %d indices", k, hit[k]);
    ck_assert_int_eq(ball_index_mirror(-1), BALL_E_RANGE);
    ck_assert_int_eq(ball_index_mirror(BALL_ACTION_SPACE), BALL_E_RANGE);
    /* examples: a step (+1, +1) from A1 is a step (-1, +1) from M1 */
    ck_assert_int_eq(ball_index_mirror(0 * 111 + 0), 1 * 111 + 6);
    /* a jump (0, +2) from G9 stays itself; (+2, 0) from A9 becomes (-2, 0) from M9 */
    ck_assert_int_eq(ball_index_mirror((BALL_PLANE_JUMP + 4) * 111 + 55), (BALL_PLANE_JUMP + 4) * 111 + 55);
    ck_assert_int_eq(ball_index_mirror((BALL_PLANE_JUMP + 6) * 111 + 52), (BALL_PLANE_JUMP + 7) * 111 + 58);
    /* a release U (+1,+1), W (-1,-1) becomes U (-1,+1), W (+1,-1): pair 2 -> pair 3 + 1 = 4 */
    ck_assert_int_eq(ball_index_mirror((BALL_PLANE_RELEASE + 2 * 2 + 1) * 111 + 55),
                     (BALL_PLANE_RELEASE + 2 * 4 + 1) * 111 + 55);
    ck_assert_int_eq(ball_index_mirror(BALL_PLANE_HANDOFF * 111 + 0), BALL_PLANE_HANDOFF * 111 + 6);
    ck_assert_int_eq(ball_index_mirror(BALL_INDEX_END), BALL_INDEX_END);
    ck_assert_int_eq(ball_index_mirror(BALL_INDEX_CARD + 3), BALL_INDEX_CARD + 3);
}
END_TEST

#define MAX_OBS 20111

START_TEST(test_observation_mirror_involution)
{
    static float in[MAX_OBS + 8], once[MAX_OBS + 8], twice[MAX_OBS + 8];
    static uint8_t bin[MAX_OBS / 8 + 8], bonce[MAX_OBS / 8 + 8], btwice[MAX_OBS / 8 + 8];
    uint64_t s = 12345;
    for (int flags = 0; flags < 4; flags++) {
        int size = ball_observation_size(flags);
        size_t bytes = (size_t)(size + 7) / 8;
        for (int i = 0; i < size; i++)
            in[i] = (float)(tu_random(&s) % 1000);
        for (size_t i = 0; i < bytes; i++)
            bin[i] = (uint8_t)tu_random(&s);
        bin[bytes - 1] &= (uint8_t)(0xff >> (bytes * 8 - (size_t)size));
        ck_assert_int_eq(ball_observation_mirror(flags, in, once, (size_t)size), BALL_OK);
        ck_assert_int_eq(ball_observation_mirror(flags, once, twice, (size_t)size), BALL_OK);
        ck_assert(memcmp(in, twice, (size_t)size * sizeof *in) == 0);
        ck_assert(memcmp(in, once, (size_t)size * sizeof *in) != 0);
        /* the scalar part does not move */
        if (!(flags & BALL_OBS_SCALAR_PLANES))
            ck_assert(memcmp(in + size - BALL_OBS_SCALARS, once + size - BALL_OBS_SCALARS,
                             BALL_OBS_SCALARS * sizeof *in) == 0);
        /* in place */
        memcpy(twice, in, (size_t)size * sizeof *in);
        ck_assert_int_eq(ball_observation_mirror(flags, twice, twice, (size_t)size), BALL_OK);
        ck_assert(memcmp(once, twice, (size_t)size * sizeof *in) == 0);
        /* bits: twice is identity, in place too, and matches the floats */
        ck_assert_int_eq(ball_observation_bits_mirror(flags, bin, bonce, bytes), BALL_OK);
        ck_assert_int_eq(ball_observation_bits_mirror(flags, bonce, btwice, bytes), BALL_OK);
        ck_assert(memcmp(bin, btwice, bytes) == 0);
        memcpy(btwice, bin, bytes);
        ck_assert_int_eq(ball_observation_bits_mirror(flags, btwice, btwice, bytes), BALL_OK);
        ck_assert(memcmp(bonce, btwice, bytes) == 0);
        for (int i = 0; i < size; i++)
            in[i] = (float)(bin[i >> 3] >> (i & 7) & 1);
        ck_assert_int_eq(ball_observation_mirror(flags, in, once, (size_t)size), BALL_OK);
        for (int i = 0; i < size; i++)
            REQUIRE(once[i] == (float)(bonce[i >> 3] >> (i & 7) & 1), "flags %d value %d", flags, i);
        /* errors */
        ck_assert_int_eq(ball_observation_mirror(flags, in, once, (size_t)size - 1), BALL_E_BUFFER);
        ck_assert_int_eq(ball_observation_bits_mirror(flags, bin, bonce, bytes - 1), BALL_E_BUFFER);
    }
    ck_assert_int_eq(ball_observation_mirror(0, NULL, once, MAX_OBS), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_mirror(0, in, NULL, MAX_OBS), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_mirror(4, in, once, MAX_OBS), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_bits_mirror(0, NULL, bonce, sizeof bonce), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_bits_mirror(0, bin, NULL, sizeof bonce), BALL_E_ARG);
    ck_assert_int_eq(ball_observation_bits_mirror(-1, bin, bonce, sizeof bonce), BALL_E_ARG);
}
END_TEST

START_TEST(test_text_transforms)
{
    char out[BALL_BPN_MAX], back[BALL_BPN_MAX];
    mirror_bpn("7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1", out);
    ck_assert_str_eq(out, "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1");
    mirror_bpn("X*!2[Xo_]+3/5@/7/6/7/6/7/6/7/6/7/6/7/6/7/6/1O_4x ATK a 1 h 3/4 7 12/-", out);
    ck_assert_str_eq(out, "3[Xo_]+2X*!/@5/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x4O_1 ATK a 1 h 3/4 7 12/-");
    swap_bpn("X*!2[Xo_]+3/5@/7/6/7/6/7/6/7/6/7/6/7/6/7/6/1O_4x ATK a 1 h 3/4 7 12/-", out);
    ck_assert_str_eq(out, "1o_4X/6/7/6/7/6/7/6/7/6/7/6/7/6/7/5@/x*!2[xO_]+3 DEF a 1 h 4/3 7 -/12");
    swap_bpn(out, back);
    ck_assert_str_eq(back, "X*!2[Xo_]+3/5@/7/6/7/6/7/6/7/6/7/6/7/6/7/6/1O_4x ATK a 1 h 3/4 7 12/-");
    transform_text("G7-E9/F10", out, 0);
    ck_assert_str_eq(out, "G7-I9/H10");
    transform_text("card2@B8", out, 1);
    ck_assert_str_eq(out, "card2@B10");
    transform_text("pe+12", out, 0);
    ck_assert_str_eq(out, "pe+12");
}
END_TEST

static float obs_a[MAX_OBS + 8], obs_b[MAX_OBS + 8];
static uint8_t bits_a[MAX_OBS / 8 + 8], bits_b[MAX_OBS / 8 + 8];
static long mirrored_positions, swapped_positions;

/* The mirrored position M of P: legal indices, decoded texts and
 * observations are the mirrored ones. */
static void check_mirror(ball_game *p, const char *rules)
{
    char bpn[BALL_BPN_MAX], mbpn[BALL_BPN_MAX], back[BALL_BPN_MAX];
    ball_position_to_text(p, bpn, sizeof bpn);
    mirror_bpn(bpn, mbpn);
    mirror_bpn(mbpn, back);
    REQUIRE(strcmp(back, bpn) == 0, "mirror twice: %s", back);
    ball_game *m = tu_game_text(rules, mbpn);
    int32_t ip[BALL_MAX_ACTIONS], im[BALL_MAX_ACTIONS];
    int n = ball_legal_indices(p, ip, BALL_MAX_ACTIONS);
    REQUIRE(ball_legal_indices(m, im, BALL_MAX_ACTIONS) == n, "%s: legal counts differ", bpn);
    static uint32_t seen[BALL_ACTION_SPACE], stamp;
    stamp++;
    for (int i = 0; i < n; i++)
        seen[im[i]] = stamp;
    for (int i = 0; i < n; i++) {
        int mk = ball_index_mirror(ip[i]);
        REQUIRE(seen[mk] == stamp, "%s: mirror of index %d (%d) not legal in the mirror", bpn, ip[i], mk);
        ball_action a, b;
        char ta[BALL_ACTION_TEXT_MAX], tb[BALL_ACTION_TEXT_MAX], want[BALL_ACTION_TEXT_MAX];
        REQUIRE(ball_action_from_index(p, ip[i], &a) == BALL_OK, "decode");
        REQUIRE(ball_action_from_index(m, mk, &b) == BALL_OK, "decode mirror");
        ball_action_to_text(a, ta, sizeof ta);
        ball_action_to_text(b, tb, sizeof tb);
        transform_text(ta, want, 0);
        REQUIRE(strcmp(want, tb) == 0, "%s: %s mirrors to %s, expected %s", bpn, ta, tb, want);
    }
    for (int flags = 0; flags < 4; flags++) {
        int size = ball_observation_size(flags);
        size_t bytes = (size_t)(size + 7) / 8;
        REQUIRE(ball_observation(p, flags, obs_a, MAX_OBS) == BALL_OK, "obs");
        REQUIRE(ball_observation_mirror(flags, obs_a, obs_a, MAX_OBS) == BALL_OK, "mirror");
        REQUIRE(ball_observation(m, flags, obs_b, MAX_OBS) == BALL_OK, "obs of the mirror");
        REQUIRE(memcmp(obs_a, obs_b, (size_t)size * sizeof(float)) == 0, "%s: flags %d: mirrored "
                "observation differs from the mirror's", bpn, flags);
        REQUIRE(ball_observation_bits(p, flags, bits_a, sizeof bits_a) == BALL_OK, "bits");
        REQUIRE(ball_observation_bits_mirror(flags, bits_a, bits_b, sizeof bits_b) == BALL_OK, "bits");
        REQUIRE(ball_observation_bits(m, flags, bits_a, sizeof bits_a) == BALL_OK, "bits");
        REQUIRE(memcmp(bits_a, bits_b, bytes) == 0, "%s: flags %d: mirrored bits differ", bpn, flags);
    }
    ball_game_free(m);
    mirrored_positions++;
}

/* The position S with teams swapped and rows flipped: same legal indices,
 * decoding to the flipped texts; same observation but the DEF feature. */
static void check_swap(ball_game *p, const char *rules)
{
    char bpn[BALL_BPN_MAX], sbpn[BALL_BPN_MAX];
    ball_position_to_text(p, bpn, sizeof bpn);
    swap_bpn(bpn, sbpn);
    ball_game *s = tu_game_text(rules, sbpn);
    int32_t ip[BALL_MAX_ACTIONS], is[BALL_MAX_ACTIONS];
    int n = ball_legal_indices(p, ip, BALL_MAX_ACTIONS);
    REQUIRE(ball_legal_indices(s, is, BALL_MAX_ACTIONS) == n, "%s: legal counts differ", bpn);
    REQUIRE(memcmp(ip, is, (size_t)n * sizeof *ip) == 0, "%s: legal indices differ", bpn);
    for (int i = 0; i < n; i++) {
        ball_action a, b;
        char ta[BALL_ACTION_TEXT_MAX], tb[BALL_ACTION_TEXT_MAX], want[BALL_ACTION_TEXT_MAX];
        REQUIRE(ball_action_from_index(p, ip[i], &a) == BALL_OK, "decode");
        REQUIRE(ball_action_from_index(s, ip[i], &b) == BALL_OK, "decode swapped");
        ball_action_to_text(a, ta, sizeof ta);
        ball_action_to_text(b, tb, sizeof tb);
        transform_text(ta, want, 1);
        REQUIRE(strcmp(want, tb) == 0, "%s: index %d is %s, swapped %s, expected %s", bpn, ip[i], ta, tb, want);
    }
    for (int flags = 0; flags < 4; flags++) {
        int size = ball_observation_size(flags);
        int cells = flags & BALL_OBS_GRID ? 221 : 111;
        REQUIRE(ball_observation(p, flags, obs_a, MAX_OBS) == BALL_OK, "obs");
        REQUIRE(ball_observation(s, flags, obs_b, MAX_OBS) == BALL_OK, "obs");
        for (int i = 0; i < size; i++) {
            int def_value = flags & BALL_OBS_SCALAR_PLANES
                ? i / cells == BALL_OBS_PLANES + BALL_SCALAR_DEF
                : i == BALL_OBS_PLANES * cells + BALL_SCALAR_DEF;
            if (def_value)
                REQUIRE(obs_a[i] + obs_b[i] == 1.0f, "%s: DEF feature", bpn);
            else
                REQUIRE(obs_a[i] == obs_b[i], "%s: flags %d: value %d differs in the swapped position", bpn,
                        flags, i);
        }
    }
    ball_game_free(s);
    swapped_positions++;
}

#define SYM_HAND "G1:0:pa+9,G2:1:pa+2,Again:0:again,G4:2:pa+1"
#define SYM_DECK "earn.move=1 earn.pickup=1 earn.dodge=1 atk=" SYM_HAND " def=" SYM_HAND

static void random_games(const char *rules, int games, int decisions, uint64_t seed)
{
    mirrored_positions = swapped_positions = 0;
    for (int gi = 0; gi < games; gi++) {
        ball_game *g = tu_game_text(rules, NULL);
        uint64_t s = seed + 104729u * (uint64_t)gi;
        for (int d = 0; d < decisions && ball_result(g) == BALL_ONGOING; d++) {
            if (d % 2 == 0)
                check_mirror(g, rules);
            if (d % 2 == 1)
                check_swap(g, rules);
            ball_action a;
            REQUIRE(ball_random_action(g, tu_random(&s), &a) == BALL_OK, "draw");
            REQUIRE(ball_apply(g, a) == BALL_OK, "apply");
        }
        check_mirror(g, rules);
        ball_game_free(g);
    }
    ck_assert_int_gt(mirrored_positions, 500);
    ck_assert_int_gt(swapped_positions, 500);
}

START_TEST(test_random_games_default)
{
    random_games(NULL, 12, 300, 0xfeed);
}
END_TEST

START_TEST(test_random_games_zone_limit)
{
    random_games("zone=2 turns=30", 12, 300, 0xbeef);
    random_games("zone=3", 8, 300, 0xcafe);
}
END_TEST

START_TEST(test_random_games_cards)
{
    random_games(SYM_DECK, 12, 300, 0xd00d);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("learn_symmetry");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_index_mirror_involution);
    tcase_add_test(tc, test_observation_mirror_involution);
    tcase_add_test(tc, test_text_transforms);
    tcase_add_test(tc, test_random_games_default);
    tcase_add_test(tc, test_random_games_zone_limit);
    tcase_add_test(tc, test_random_games_cards);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
