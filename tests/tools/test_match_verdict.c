/* The SPRT's decision in `ball match` (tools/match_report.c): the test
 * decides where its log-likelihood ratio first reaches a bound, and the
 * games still running then, finished and counted afterwards, do not undo
 * that decision even when they move the ratio back inside the bounds
 * (docs/match.md, "The statistics"). The LLRs come from tools/sprt.c,
 * checked against fastchess's published values by test_sprt. */
#define _POSIX_C_SOURCE 200809L /* mkstemp(), as tools/match_report.c asks for it too */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "../../tools/sprt.c"
#include "../../tools/match_report.c"

static signed char scores[64];

/* A match of 64 planned games under SPRT elo0 = 0, elo1 = 50 at
 * alpha = beta = 0.05 (bounds -2.944 and 2.944). */
static void sprt_match(struct match *m)
{
    memset(m, 0, sizeof *m);
    memset(scores, -1, sizeof scores);
    m->cfg.games = 64;
    m->cfg.sprt = 1;
    m->cfg.elo0 = 0;
    m->cfg.elo1 = 50;
    m->cfg.alpha = m->cfg.beta = 0.05;
    m->lower = log(0.05 / 0.95);
    m->upper = log(0.95 / 0.05);
    m->a_score = scores;
    m->cfg.eng[0].name = m->cfg.eng[0].cmd = "a";
    m->cfg.eng[1].name = m->cfg.eng[1].cmd = "b";
    m->cfg.rules_text = "";
}

static void json_of(const struct match *m, char *buf, size_t len)
{
    char path[] = "/tmp/test_match_verdict.XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    close(fd);
    ck_assert(report_json(m, path) == 0);
    FILE *f = fopen(path, "r");
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    fclose(f);
    unlink(path);
}

START_TEST(test_h1_kept_after_running_games)
{
    struct match m;
    char json[4096];
    long g = 0;
    sprt_match(&m);
    /* wins until the ratio reaches the upper bound */
    while (!m.stop)
        count_game(&m, g++, BALL_ATK, BALL_ATK_WON, -1);
    ck_assert_int_eq(m.verdict, 1);
    ck_assert_int_eq(m.decided_at, g);
    ck_assert(m.llr_decided >= m.upper);
    /* a game that was running: a loss, back inside the bounds */
    count_game(&m, g++, BALL_ATK, BALL_DEF_WON, -1);
    ck_assert_msg(m.llr < m.upper, "the loss moved the LLR back (%.3f)", m.llr);
    ck_assert_int_eq(m.verdict, 1);
    ck_assert_int_eq(m.decided_at, g - 1);
    json_of(&m, json, sizeof json);
    ck_assert_msg(strstr(json, "\"result\": \"H1\"") != NULL, "%s", json);
    char want[64];
    snprintf(want, sizeof want, "\"decided_at\": %ld,", g - 1);
    ck_assert_msg(strstr(json, want) != NULL, "%s", json);
}
END_TEST

START_TEST(test_undecided_is_continue)
{
    struct match m;
    char json[4096];
    sprt_match(&m);
    count_game(&m, 0, BALL_ATK, BALL_ATK_WON, -1);
    count_game(&m, 1, BALL_ATK, BALL_DEF_WON, -1);
    ck_assert_int_eq(m.verdict, 0);
    json_of(&m, json, sizeof json);
    ck_assert_msg(strstr(json, "\"result\": \"continue\", \"decided_at\": null") != NULL, "%s", json);
}
END_TEST

START_TEST(test_h0_by_losses)
{
    struct match m;
    long g = 0;
    sprt_match(&m);
    while (!m.stop)
        count_game(&m, g++, BALL_ATK, BALL_DEF_WON, -1);
    ck_assert_int_eq(m.verdict, -1);
    ck_assert(m.llr_decided <= m.lower);
    count_game(&m, g++, BALL_ATK, BALL_ATK_WON, -1);
    ck_assert_int_eq(m.verdict, -1);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("match_verdict");
    TCase *tc = tcase_create("sprt decision");
    tcase_add_test(tc, test_h1_kept_after_running_games);
    tcase_add_test(tc, test_undecided_is_continue);
    tcase_add_test(tc, test_h0_by_losses);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
