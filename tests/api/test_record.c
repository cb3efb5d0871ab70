/* Game records (docs/records.md): the writer's text for a known game, round
 * trips over seeded random games (default rules, deep zones with a turn
 * limit, card mode, a start BPN), several games in one text, tags, and
 * malformed records rejected with line and column and nothing loaded. */
#define _DEFAULT_SOURCE /* mmap(), mprotect(), MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

/* The record of g in a malloc'd string, sized by a first call. */
static char *record_of(ball_game *g)
{
    int n = ball_record_write(g, NULL, 0);
    ck_assert_int_gt(n, 0);
    char *text = malloc((size_t)n + 1);
    ck_assert_int_eq(ball_record_write(g, text, (size_t)n + 1), n);
    ck_assert_uint_eq(strlen(text), (size_t)n);
    return text;
}

/* Reads one record; fails the test on error. */
static ball_game *read_one(const char *text)
{
    char err[256];
    size_t at = 0;
    ball_game *g = NULL;
    int rc = ball_record_read(&g, text, strlen(text), &at, err, sizeof err);
    if (rc != 1)
        ck_abort_msg("record not read (%d): %s\n%s", rc, err, text);
    ck_assert_uint_eq(at, strlen(text));
    return g;
}

START_TEST(test_known_record)
{
    ball_game *g = tu_game(NULL);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_EVENT, "Spec \"worked\" example"), BALL_OK);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_DATE, "2026-11-30"), BALL_OK);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_ATK, "greedy"), BALL_OK);
    tu_apply_all(g, "E11-F10 F10-E9 end G7-E9/F10 G5-H6 H6=I7 end end E9-F8");
    char *text = record_of(g);
    ck_assert_str_eq(text, "[Event \"Spec \\\"worked\\\" example\"]\n"
                           "[Date \"2026-11-30\"]\n"
                           "[ATK \"greedy\"]\n"
                           "[Rules \"\"]\n"
                           "[Result \"*\"]\n"
                           "\n"
                           "1. DEF: E11-F10 F10-E9 end\n"
                           "2. ATK: G7-E9/F10 G5-H6 H6=I7 end\n"
                           "3. DEF: end E9-F8\n"
                           "*\n");
    ball_game *r = read_one(text);
    char *again = record_of(r), tag[BALL_TAG_TEXT_MAX];
    ck_assert_str_eq(again, text);
    ck_assert_int_eq(ball_game_tag(r, BALL_TAG_EVENT, tag, sizeof tag), 21);
    ck_assert_str_eq(tag, "Spec \"worked\" example");
    ck_assert_int_eq(ball_game_tag(r, BALL_TAG_SITE, tag, sizeof tag), 0);
    ck_assert_int_eq(ball_history_length(r), 9);
    free(again);
    free(text);
    ball_game_free(r);
    ball_game_free(g);
}
END_TEST

START_TEST(test_tags_contracts)
{
    ball_game *g = tu_game(NULL);
    char big[BALL_TAG_TEXT_MAX + 1], buf[8];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_int_eq(ball_game_set_tag(NULL, 0, "x"), BALL_E_ARG);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_COUNT, "x"), BALL_E_ARG);
    ck_assert_int_eq(ball_game_set_tag(g, -1, "x"), BALL_E_ARG);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_SITE, big), BALL_E_RANGE);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_SITE, "a\nb"), BALL_E_RANGE);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_SITE, "Lyon"), BALL_OK);
    ck_assert_int_eq(ball_game_tag(g, BALL_TAG_SITE, buf, 4), BALL_E_BUFFER);
    ck_assert_int_eq(ball_game_tag(g, BALL_TAG_SITE, buf, 5), 4);
    ck_assert_int_eq(ball_game_tag(NULL, BALL_TAG_SITE, buf, 5), BALL_E_ARG);
    ck_assert_int_eq(ball_game_tag(g, 9, buf, 5), BALL_E_ARG);
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_SITE, NULL), BALL_OK);
    ck_assert_int_eq(ball_game_tag(g, BALL_TAG_SITE, buf, 5), 0);
    /* the writer's buffer */
    ck_assert_int_eq(ball_record_write(NULL, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_record_write(g, NULL, 10), BALL_E_ARG);
    ck_assert_int_eq(ball_record_write(g, buf, sizeof buf), BALL_E_BUFFER);
    ck_assert_str_ne(ball_errmsg(g), "");
    ball_game_free(g);
}
END_TEST

/* Plays a seeded random game of at most `max` decisions on g. */
static void random_game(ball_game *g, uint64_t *seed, int max)
{
    ball_action a;
    for (int i = 0; i < max && ball_random_action(g, tu_random(seed), &a) == BALL_OK; i++)
        ck_assert_int_eq(ball_apply(g, a), BALL_OK);
}

/* Writes, reads back, writes again: the same text, the same final BPN
 * and history. */
static void check_round_trip(ball_game *g)
{
    char *text = record_of(g), a[BALL_BPN_MAX], b[BALL_BPN_MAX];
    ball_game *r = read_one(text);
    char *again = record_of(r);
    ck_assert_str_eq(again, text);
    tu_bpn(g, a);
    tu_bpn(r, b);
    ck_assert_str_eq(a, b);
    ck_assert_int_eq(ball_history_length(r), ball_history_length(g));
    ck_assert_int_eq(ball_result(r), ball_result(g));
    ck_assert_int_eq(ball_history_position(g, 0, a, sizeof a), ball_history_position(r, 0, b, sizeof b));
    ck_assert_str_eq(a, b);
    free(again);
    free(text);
    ball_game_free(r);
}

START_TEST(test_random_round_trips)
{
    static const char *const rules[] = {"", "zone=2 turns=12", "zone=3 turns=3", TU_DECK,
                                        "earn.move=1 earn.pickup=2 " TU_DECK};
    uint64_t seed = 0xba11ull + (uint64_t)_i;
    for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
        for (int k = 0; k < 8; k++) {
            ball_game *g = tu_game_text(rules[r], NULL);
            random_game(g, &seed, k == 0 ? 0 : 50 + 60 * k);
            check_round_trip(g);
            /* the same from a later start position */
            char bpn[BALL_BPN_MAX];
            tu_bpn(g, bpn);
            if (ball_result(g) == BALL_ONGOING) {
                ck_assert_int_eq(ball_position_from_text(g, bpn), BALL_OK);
                ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_DEF, "later start"), BALL_OK);
                random_game(g, &seed, 40);
                check_round_trip(g);
            }
            ball_game_free(g);
        }
    }
}
END_TEST

START_TEST(test_several_games)
{
    uint64_t seed = 77;
    char *texts[3];
    size_t total = 0;
    for (int k = 0; k < 3; k++) {
        ball_game *g = tu_game_text(k == 1 ? "zone=2 turns=5" : "", NULL);
        random_game(g, &seed, 100 * (k + 1));
        texts[k] = record_of(g);
        total += strlen(texts[k]) + 1;
        ball_game_free(g);
    }
    char *all = calloc(total + 8, 1);
    strcat(all, "\n");
    for (int k = 0; k < 3; k++) {
        strcat(all, texts[k]);
        strcat(all, "\n");
    }
    size_t at = 0;
    char err[256];
    ball_game *g;
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(ball_record_read(&g, all, strlen(all), &at, err, sizeof err), 1);
        char *again = record_of(g);
        ck_assert_str_eq(again, texts[k]);
        free(again);
        ball_game_free(g);
    }
    ck_assert_uint_eq(at, strlen(all));
    ck_assert_int_eq(ball_record_read(&g, all, strlen(all), &at, err, sizeof err), 0);
    ck_assert_ptr_null(g);
    for (int k = 0; k < 3; k++)
        free(texts[k]);
    free(all);
}
END_TEST

/* Malformed records: the code, the place, and nothing loaded. */
static const struct bad {
    const char *text;
    int code;
    const char *where; /* the start of the message */
} BAD[] = {
    {"[Event \"x\"]\n[Result \"*\"]\n\n1. DEF: E11-F10\n", BALL_E_RECORD, "line 5, column 1: the record ends"},
    {"[Event \"x\"]\n[Result \"*\"]\n\n1. DEF: E11-F10", BALL_E_RECORD, "line 5, column 1: the record ends"},
    {"[Result \"*\"]\n", BALL_E_RECORD, "line 2, column 1: the record ends after its tags"},
    {"[Evnt \"x\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 2: unknown tag 'Evnt'"},
    {"[Site \"x\"]\n[Event \"x\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 2, column 2: tag Event out of order"},
    {"[Event \"x\"]\n[Event \"y\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 2, column 2: tag Event given twice"},
    {"[Event \"x]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 11: the value has no closing"},
    {"[Event \"a\\nb\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 10: bad escape"},
    {"[Event \"x\"]\n\n*\n", BALL_E_RECORD, "line 2, column 1: the tags lack [Result"},
    {"[Result \"2-0\"]\n\n*\n", BALL_E_RECORD, "line 1, column 10: Result '2-0'"},
    {"[Rules \"zone=9\"]\n[Result \"*\"]\n\n*\n", BALL_E_RULES, "line 1, column 9: Rules:"},
    {"[Start \"7/6 DEF\"]\n[Result \"*\"]\n\n*\n", BALL_E_BPN, "line 1, column 9: Start:"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10 E11-E9\n*\n", BALL_E_ILLEGAL, "line 3, column 17: decision 2 (turn 1, DEF) 'E11-E9'"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10 e11-e9\n*\n", BALL_E_NOTATION, "line 3, column 17: decision 2 (turn 1, DEF) 'e11-e9'"},
    {"[Result \"*\"]\n\n1. ATK: G5-F6\n*\n", BALL_E_RECORD, "line 3, column 1: expected turn 1, DEF, here, not turn 1, ATK"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10 end G5-F6\n*\n", BALL_E_RECORD, "line 3, column 21: decision 3 (turn 1, DEF) 'G5-F6': turn 1 ended"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10\n1. DEF: end\n*\n", BALL_E_RECORD, "line 4, column 1: turn 1 again"},
    {"[Result \"1-0\"]\n\n1. DEF: E11-F10\n1-0\n", BALL_E_RECORD, "line 4, column 1: result 1-0, but after its 1 decisions"},
    {"[Result \"1-0\"]\n\n1. DEF: E11-F10\n*\n", BALL_E_RECORD, "line 4, column 1: result * disagrees with the Result tag 1-0"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10 {a note\n*\n", BALL_E_RECORD, "line 3, column 17: comment"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10\n\n*\n", BALL_E_RECORD, "line 4, column 1: empty line"},
    {"[Result \"*\"]\n*\n", BALL_E_RECORD, "line 2, column 1: expected a tag line"},
    {"[Result \"*\"]\n\n1. DEF:\n*\n", BALL_E_RECORD, "line 3, column 8: turn 1 has no decision"},
    {"x\n", BALL_E_RECORD, "line 1, column 1: expected a tag line"},
};

/* Reading the malformed record @p b fails with its code and message, and
 * nothing is loaded or consumed. */
static void check_bad(const struct bad *b, int i)
{
    char err[256] = "unchanged";
    size_t at = 0;
    ball_game *g = (ball_game *)&at; /* must become NULL */
    int rc = ball_record_read(&g, b->text, strlen(b->text), &at, err, sizeof err);
    if (rc != b->code || strncmp(err, b->where, strlen(b->where)) != 0)
        ck_abort_msg("record %d: got %d '%s', expected %d '%s...'", i, rc, err, b->code, b->where);
    ck_assert_ptr_null(g);
    ck_assert_uint_eq(at, 0);
}

START_TEST(test_malformed)
{
    check_bad(&BAD[_i], _i);
}
END_TEST

START_TEST(test_read_contracts)
{
    ball_game *g;
    size_t at = 5;
    char err[64];
    ck_assert_int_eq(ball_record_read(NULL, "", 0, &at, err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_record_read(&g, NULL, 0, &at, err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_record_read(&g, "", 0, NULL, err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_record_read(&g, "abc", 3, &at, err, sizeof err), BALL_E_ARG);
    at = 0;
    ck_assert_int_eq(ball_record_read(&g, "\n  \n", 4, &at, NULL, 0), 0);
    ck_assert_ptr_null(g);
    /* line numbers count from the start of the text, CRLF accepted */
    const char *two = "[Result \"*\"]\r\n\r\n*\r\n\r\n[Result \"*\"]\n\n1. DEF: A1-B2\n*\n";
    at = 0;
    ck_assert_int_eq(ball_record_read(&g, two, strlen(two), &at, err, sizeof err), 1);
    ball_game_free(g);
    ck_assert_int_eq(ball_record_read(&g, two, strlen(two), &at, err, sizeof err), BALL_E_ILLEGAL);
    ck_assert_msg(strncmp(err, "line 7, column 9: decision 1", 28) == 0, "%s", err);
}
END_TEST
/* More malformed records: header and turn-line errors not in BAD. */
static const struct bad BAD2[] = {
    {"[Event \"x\x01\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 10: control character 0x01"},
    {"[Event\"x\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 7: expected a space and"},
    {"[Event \"x\"x]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 11: expected ']' after the value"},
    {"[Event \"x\"] y\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 13: text after the tag line's ']'"},
    {"[Event \"a\tb\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 9: Event: "},
    {"[Result \"*\"]\n\nX\n*\n", BALL_E_RECORD, "line 3, column 1: expected a turn 'N. ATK:'"},
    {"[Result \"*\"]\n\n1234567890. DEF: end\n*\n", BALL_E_RECORD, "line 3, column 1: turn number of more than 9 digits"},
    {"[Result \"*\"]\n\n1 DEF: end\n*\n", BALL_E_RECORD, "line 3, column 2: expected '. ATK:' or '. DEF:'"},
    {"[Result \"*\"]\n\n1. DEF: E11-F10\x02\n*\n", BALL_E_RECORD, "line 3, column 16: control character 0x02"},
    /* tag values are UTF-8 (docs/records.md): ill-formed bytes are refused
     * where they are; the value's first byte is column 9 after [Event " */
    {"[Event \"a\xff\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 10: Event value is not UTF-8: byte 0xff"},
    {"[Event \"a\xc0\x80\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 10: Event value is not UTF-8: byte 0xc0"},
    {"[Event \"\xe0\x80\x80\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 9: Event value is not UTF-8: byte 0xe0"},
    {"[Site \"ab\xed\xa0\x80\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 10: Site value is not UTF-8: byte 0xed"},
    {"[Event \"x\"]\n[ATK \"\xe2\x82\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 2, column 7: ATK value is not UTF-8: byte 0xe2"},
    {"[DEF \"\xf4\x90\x80\x80\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 7: DEF value is not UTF-8: byte 0xf4"},
    {"[Date \"\x80\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 8: Date value is not UTF-8: byte 0x80"},
    {"[Event \"\xf0\x9f\x98\"]\n[Result \"*\"]\n\n*\n", BALL_E_RECORD, "line 1, column 9: Event value is not UTF-8: byte 0xf0"},
    {"[Result \"*\"]\n\n1. DEF: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n*\n", BALL_E_NOTATION,
     "line 3, column 9: decision 1 (turn 1, DEF) 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA': too long for an action"},
    {"[Rules \"turns=1\"]\n[Result \"*\"]\n\n1. DEF: end\n2. ATK: end\n*\n", BALL_E_RECORD,
     "line 5, column 1: the game is over (a draw): expected the result line"},
    {"[Rules \"turns=1\"]\n[Result \"*\"]\n\n1. DEF: end end\n*\n", BALL_E_RECORD,
     "line 4, column 13: decision 2 (turn 1, DEF) 'end': the game is over (a draw)"},
};

START_TEST(test_malformed_more)
{
    check_bad(&BAD2[_i], _i);
}
END_TEST

/* A tag value of more than BALL_TAG_TEXT_MAX - 1 bytes is refused where it
 * overflows. */
START_TEST(test_tag_value_too_long)
{
    char text[512], err[256];
    char big[BALL_TAG_TEXT_MAX + 1];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(text, sizeof text, "[Site \"%s\"]\n[Result \"*\"]\n\n*\n", big);
    size_t at = 0;
    ball_game *g = NULL;
    ck_assert_int_eq(ball_record_read(&g, text, strlen(text), &at, err, sizeof err), BALL_E_RECORD);
    ck_assert_ptr_null(g);
    ck_assert_ptr_nonnull(strstr(err, "line 1, column 135: Site value longer than 127 bytes"));
}
END_TEST

/* Comments inside a turn line and on lines of their own, blanks around the
 * result: all accepted, the decisions played, the comments dropped. */
START_TEST(test_comments_and_blanks)
{
    const char *text = "[Result \"*\"]\n\n{an opening note}\n1. DEF: E11-F10 {quick} F10-E9 end\n"
                       "{between turns}\n2. ATK: end\n \t*  \n";
    ball_game *g = read_one(text);
    ck_assert_int_eq(ball_history_length(g), 4);
    ck_assert_int_eq(ball_turn(g), 3);
    ck_assert_int_eq(ball_side(g), BALL_DEF);
    char *again = record_of(g);
    ck_assert_ptr_null(strchr(again, '{'));
    ck_assert_ptr_nonnull(strstr(again, "1. DEF: E11-F10 F10-E9 end\n2. ATK: end\n*\n"));
    free(again);
    ball_game_free(g);
}
END_TEST

/* Tags are UTF-8 text: ill-formed values are refused with BALL_E_RANGE and
 * a message, the tag unchanged; well-formed ones, up to U+10FFFF, are kept
 * and survive a record's round trip. */
START_TEST(test_tag_utf8)
{
    static const char *const bad[] = {
        "\xff",             /* never in UTF-8 */
        "ab\x80",           /* a continuation byte alone */
        "\xc0\x80",         /* overlong U+0000 */
        "\xc1\xbf",         /* overlong U+007F */
        "\xe0\x9f\xbf",     /* overlong U+07FF */
        "\xf0\x8f\xbf\xbf", /* overlong U+FFFF */
        "\xed\xa0\x80",     /* surrogate U+D800 */
        "\xed\xbf\xbf",     /* surrogate U+DFFF */
        "\xe2\x82",         /* truncated */
        "x\xf0\x9f\x98",    /* truncated */
        "\xc3",             /* truncated at the end */
        "\xc3(",            /* a lead byte, then no continuation */
        "\xf4\x90\x80\x80", /* U+110000 */
        "\xf5\x80\x80\x80", /* beyond */
    };
    static const char *const good[] = {
        "Zo\xc3\xab",           /* U+00EB */
        "\xe6\x97\xa5\xe6\x9c\xac", /* U+65E5 U+672C */
        "\xed\x9f\xbf",         /* U+D7FF, below the surrogates */
        "\xee\x80\x80",         /* U+E000, above them */
        "\xf0\x9f\x98\x80",     /* U+1F600 */
        "\xf4\x8f\xbf\xbf",     /* U+10FFFF */
    };
    ball_game *g = tu_game(NULL);
    char buf[BALL_TAG_TEXT_MAX];
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_EVENT, "kept"), BALL_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_EVENT, bad[i]), BALL_E_RANGE);
        ck_assert_msg(strstr(ball_errmsg(g), "not UTF-8") != NULL, "bad[%zu]: %s", i, ball_errmsg(g));
        ck_assert_int_eq(ball_game_tag(g, BALL_TAG_EVENT, buf, sizeof buf), 4);
        ck_assert_str_eq(buf, "kept");
    }
    ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_ATK, "a\xed\xa0\x80"), BALL_E_RANGE);
    ck_assert_str_eq(ball_errmsg(g), "ATK tag: not UTF-8: byte 0xed at byte 2");
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ck_assert_int_eq(ball_game_set_tag(g, BALL_TAG_SITE, good[i]), BALL_OK);
        char *text = record_of(g);
        ball_game *r = read_one(text);
        ck_assert_int_eq(ball_game_tag(r, BALL_TAG_SITE, buf, sizeof buf), (int)strlen(good[i]));
        ck_assert_str_eq(buf, good[i]);
        ball_game_free(r);
        free(text);
    }
    ball_game_free(g);
}
END_TEST

/* Reading the record at *offset does not read the text before it: a text
 * of many records is then read in time linear in its length (1.0 counted
 * the newlines from the start of the text at every call, for line numbers,
 * and 40,000 games took 38 s). The text before the offset is made
 * unreadable (PROT_NONE): a read of it is a crash, which fails the test.
 * The line numbers of a later error still count from the start. */
START_TEST(test_read_skips_text_before_offset)
{
    long page = sysconf(_SC_PAGESIZE);
    ck_assert_int_gt(page, 0);
    size_t ps = (size_t)page;
    char *base = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(base, MAP_FAILED);
    /* a first page of records and blank lines, then two records */
    const char *game = "[Result \"*\"]\n\n1. DEF: E11-F10 end\n*\n\n";
    size_t n = strlen(game);
    memset(base, '\n', ps);
    for (size_t at = 0; at + n <= ps; at += n)
        memcpy(base + at, game, n);
    const char *second = "[Result \"*\"]\n\n1. DEF: A1-B2\n*\n";
    memcpy(base + ps, game, n);
    memcpy(base + ps + n, second, strlen(second));
    size_t len = ps + n + strlen(second);
    ck_assert_int_eq(mprotect(base, ps, PROT_NONE), 0);

    ball_game *g = NULL;
    char err[128] = "";
    size_t at = ps;
    ck_assert_int_eq(ball_record_read(&g, base, len, &at, err, sizeof err), 1);
    ck_assert_int_eq(ball_history_length(g), 2);
    ball_game_free(g);
    ck_assert_uint_eq(at, ps + n); /* the second record's first byte */
    ck_assert_int_eq(mprotect(base, ps, PROT_READ), 0);
    /* an error names the line counted from the start of the whole text */
    ck_assert_int_eq(ball_record_read(&g, base, len, &at, err, sizeof err), BALL_E_ILLEGAL);
    unsigned long newlines = 0;
    for (size_t i = 0; i < ps + n; i++)
        newlines += base[i] == '\n';
    char want[64];
    snprintf(want, sizeof want, "line %lu, column 9: decision 1", newlines + 3);
    ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "got '%s', expected '%s...'", err, want);
    ck_assert_int_eq(munmap(base, 2 * ps), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("records");
    TCase *tc = tcase_create("records");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_known_record);
    tcase_add_test(tc, test_tags_contracts);
    tcase_add_loop_test(tc, test_random_round_trips, 0, 3);
    tcase_add_test(tc, test_several_games);
    tcase_add_loop_test(tc, test_malformed, 0, (int)(sizeof BAD / sizeof BAD[0]));
    tcase_add_test(tc, test_read_contracts);
    tcase_add_loop_test(tc, test_malformed_more, 0, (int)(sizeof BAD2 / sizeof BAD2[0]));
    tcase_add_test(tc, test_tag_value_too_long);
    tcase_add_test(tc, test_comments_and_blanks);
    tcase_add_test(tc, test_read_skips_text_before_offset);
    tcase_add_test(tc, test_tag_utf8);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
