/* SPDX-License-Identifier: MIT */
/* Game records (docs/records.md): the tags of a game, the writer and the
 * strict reader. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bpn.h"
#include "game.h"
#include "history.h"
#include "notation.h"
#include "play.h"
#include "record_sink.h"
#include "err_text.h"
#include "text_reader.h"

/* The tags in record order: the five the game keeps, then the three that
 * come from the game itself. */
enum { T_RULES = BALL_TAG_COUNT, T_START, T_RESULT, T_ALL };
static const char *const TAG_NAMES[T_ALL] = {"Event", "Site", "Date", "ATK", "DEF",
                                             "Rules", "Start", "Result"};
/* The size of each tag's value with its NUL. */
static const size_t TAG_SIZES[T_ALL] = {BALL_TAG_TEXT_MAX, BALL_TAG_TEXT_MAX, BALL_TAG_TEXT_MAX,
                                        BALL_TAG_TEXT_MAX, BALL_TAG_TEXT_MAX, BALL_RULES_TEXT_MAX,
                                        BALL_BPN_MAX,      16};

/* Result tokens by ball_result. */
static const char *const RESULTS[4] = {"*", "1-0", "0-1", "1/2-1/2"};

/* ---------------------------------------------------------------- tags */

/* The first control character of text (bytes below 0x20 and 0x7f), or NULL. */
static const char *control_char(const char *text)
{
    for (; *text; text++)
        if ((unsigned char)*text < 0x20 || *text == 0x7f)
            return text;
    return NULL;
}

int ball_game_set_tag(ball_game *game, int tag, const char *value)
{
    if (!game)
        return BALL_E_ARG;
    if (tag < 0 || tag >= BALL_TAG_COUNT)
        return game_error(game, BALL_E_ARG, "unknown tag %d (0-%d)", tag, BALL_TAG_COUNT - 1);
    if (!value)
        value = "";
    size_t n = strlen(value);
    if (n >= BALL_TAG_TEXT_MAX)
        return game_error(game, BALL_E_RANGE, "%s tag of %zu bytes: at most %d", TAG_NAMES[tag], n,
                          BALL_TAG_TEXT_MAX - 1);
    const char *bad = control_char(value);
    if (bad)
        return game_error(game, BALL_E_RANGE, "%s tag: control character 0x%02x at byte %zu",
                          TAG_NAMES[tag], (unsigned)(unsigned char)*bad, (size_t)(bad - value) + 1);
    size_t invalid = utf8_invalid(value, n);
    if (invalid < n)
        return game_error(game, BALL_E_RANGE, "%s tag: not UTF-8: byte 0x%02x at byte %zu", TAG_NAMES[tag],
                          (unsigned)(unsigned char)value[invalid], invalid + 1);
    memcpy(game->tags[tag], value, n + 1);
    return game_ok(game);
}

int ball_game_tag(const ball_game *game, int tag, char *buf, size_t len)
{
    if (!game || !buf || tag < 0 || tag >= BALL_TAG_COUNT)
        return BALL_E_ARG;
    size_t n = strlen(game->tags[tag]);
    if (n >= len)
        return BALL_E_BUFFER;
    memcpy(buf, game->tags[tag], n + 1);
    return (int)n;
}

/* ---------------------------------------------------------------- writer */

/* [Name "value"] with \ and " escaped. */
static void put_tag(sink *s, int tag, const char *value)
{
    sink_printf(s, "[%s \"", TAG_NAMES[tag]);
    for (const char *c = value; *c; c++) {
        if (*c == '"' || *c == '\\')
            sink_put(s, "\\", 1);
        sink_put(s, c, 1);
    }
    sink_puts(s, "\"]\n");
}

/* The rules text of the game's ruleset. */
static void rules_text(const ball_game *g, char out[BALL_RULES_TEXT_MAX])
{
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    if (ruleset_write(&g->rules, &r) != BALL_OK || ball_rules_to_text(&r, out, BALL_RULES_TEXT_MAX) < 0)
        out[0] = '\0'; /* cannot happen: the game's ruleset was checked */
}

int ball_record_write(ball_game *game, char *buf, size_t len)
{
    sink s;
    if (!game)
        return BALL_E_ARG;
    int rc = sink_open(game, &s, buf, len);
    if (rc < 0)
        return rc;

    pos cur; /* the game's first position, then replayed decision by decision */
    history_position(game, 0, &cur);
    char text[BALL_BPN_MAX], standard[BALL_BPN_MAX];
    for (int t = 0; t < BALL_TAG_COUNT; t++)
        if (game->tags[t][0])
            put_tag(&s, t, game->tags[t]);
    rules_text(game, text);
    put_tag(&s, T_RULES, text);
    pos start;
    pos_start(&start, game->rules.rules.end_zone_depth, game->rules.rules.turn_limit,
              &game->rules.cards.rules);
    bpn_format(&start, standard);
    bpn_format(&cur, text);
    if (strcmp(text, standard) != 0)
        put_tag(&s, T_START, text);
    put_tag(&s, T_RESULT, RESULTS[game->p.st.result & 3]);
    sink_puts(&s, "\n");

    uint32_t line_turn = 0;
    for (size_t i = 0; i < game->nhist; i++) {
        uint32_t a = game->acts[i];
        undo_rec u;
        if (i == 0 || cur.st.turn != line_turn) {
            if (i > 0)
                sink_puts(&s, "\n");
            line_turn = cur.st.turn;
            sink_printf(&s, "%u. %s:", (unsigned)line_turn, cur.st.side == ATK ? "ATK" : "DEF");
        }
        action_format(a, text);
        sink_printf(&s, " %s", text);
        pos_do(&cur, a, &u);
    }
    if (game->nhist > 0)
        sink_puts(&s, "\n");
    sink_printf(&s, "%s\n", RESULTS[game->p.st.result & 3]);
    return sink_close(game, &s, "record");
}

/* ---------------------------------------------------------------- reader */

/* The reader's state: the text, the current line and where errors go. */
typedef struct reader {
    const char *text;
    size_t len;
    size_t at;       /* start of the current line */
    size_t end;      /* end of the current line, before "\r\n" or "\n" */
    size_t next;     /* start of the next line */
    char *err;
    size_t errlen;
} reader;

/* Records "line L, column C: ..." (column from 1, of byte `col` of the
 * line, from 0) and returns code. The line number is counted here, once,
 * from the start of the text (text_where()): reading never counts lines,
 * so that a text of many records is read in time linear in its length
 * (a count at each call of ball_record_read() made it quadratic). */
static int fail_at(reader *r, size_t col, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail_at(reader *r, size_t col, int code, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        unsigned long line;
        size_t column;
        text_where(r->text, r->at, &line, &column);
        if (r->at >= r->len && r->len > 0 && r->text[r->len - 1] != '\n')
            line++; /* past the end of a last line without "\n": the line after it, as with one */
        char where[64];
        va_list ap;
        snprintf(where, sizeof where, "line %lu, column %zu: ", line, col + 1);
        va_start(ap, fmt);
        err_vtext(r->err, r->errlen, code, where, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Sets the line that starts at r->at: its end and the next one's start.
 * Returns 0, or -1 at the end of the text. */
static int line_set(reader *r)
{
    if (r->at >= r->len)
        return -1;
    const char *nl = memchr(r->text + r->at, '\n', r->len - r->at);
    size_t e = nl ? (size_t)(nl - r->text) : r->len;
    r->next = nl ? e + 1 : r->len;
    if (e > r->at && r->text[e - 1] == '\r')
        e--;
    r->end = e;
    return 0;
}

/* Moves to the next line. Returns 0, or -1 at the end of the text. */
static int line_next(reader *r)
{
    r->at = r->next;
    return line_set(r);
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* 1 when the current line holds only blanks. */
static int line_blank(const reader *r)
{
    for (size_t i = r->at; i < r->end; i++)
        if (!is_blank(r->text[i]))
            return 0;
    return 1;
}

/* The line's own checks: no NUL and no control character but tabs. */
static int line_chars(reader *r)
{
    for (size_t i = r->at; i < r->end; i++) {
        unsigned char c = (unsigned char)r->text[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return fail_at(r, i - r->at, BALL_E_RECORD, "control character 0x%02x", c);
    }
    return BALL_OK;
}

/* Reads a tag line "[Name "value"]" into *tag and value (TAG_SIZES bytes). */
static int read_tag(reader *r, int *tag, char *value)
{
    const char *t = r->text;
    size_t i = r->at, e = r->end;
    if (t[i] != '[')
        return fail_at(r, 0, BALL_E_RECORD, "expected a tag line [Name \"value\"] or an empty line");
    size_t name = ++i;
    while (i < e && ((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= 'a' && t[i] <= 'z')))
        i++;
    *tag = -1;
    for (int k = 0; k < T_ALL; k++)
        if (strlen(TAG_NAMES[k]) == i - name && memcmp(t + name, TAG_NAMES[k], i - name) == 0)
            *tag = k;
    if (*tag < 0)
        return fail_at(r, name - r->at, BALL_E_RECORD,
                       "unknown tag '%.*s' (tags: Event Site Date ATK DEF Rules Start Result)",
                       (int)(i - name > 20 ? 20 : i - name), t + name);
    if (i + 1 >= e || t[i] != ' ' || t[i + 1] != '"')
        return fail_at(r, i - r->at, BALL_E_RECORD, "expected a space and '\"' after the tag name");
    i += 2;
    size_t n = 0, size = TAG_SIZES[*tag];
    for (;; i++) {
        if (i >= e)
            return fail_at(r, i - r->at, BALL_E_RECORD, "the value has no closing '\"'");
        if (t[i] == '"')
            break;
        if (t[i] == '\\') {
            if (i + 1 >= e || (t[i + 1] != '"' && t[i + 1] != '\\'))
                return fail_at(r, i - r->at, BALL_E_RECORD, "bad escape: only \\\" and \\\\ are allowed");
            i++;
        }
        if (n + 1 >= size)
            return fail_at(r, i - r->at, BALL_E_RECORD, "%s value longer than %zu bytes",
                           TAG_NAMES[*tag], size - 1);
        value[n++] = t[i];
    }
    value[n] = '\0';
    /* tags are UTF-8 text (docs/records.md); the value's bytes, escapes
     * aside, are those of the line from its opening '"' on */
    size_t open = name + strlen(TAG_NAMES[*tag]) + 2;
    size_t invalid = utf8_invalid(t + open, i - open);
    if (invalid < i - open)
        return fail_at(r, open + invalid - r->at, BALL_E_RECORD, "%s value is not UTF-8: byte 0x%02x",
                       TAG_NAMES[*tag], (unsigned)(unsigned char)t[open + invalid]);
    if (i + 1 >= e || t[i + 1] != ']')
        return fail_at(r, i + 1 - r->at, BALL_E_RECORD, "expected ']' after the value");
    for (i += 2; i < e; i++)
        if (!is_blank(t[i]))
            return fail_at(r, i - r->at, BALL_E_RECORD, "text after the tag line's ']'");
    return BALL_OK;
}

/* The result whose token is t[0..n), or -1. */
static int result_of(const char *t, size_t n)
{
    for (int k = 0; k < 4; k++)
        if (strlen(RESULTS[k]) == n && memcmp(t, RESULTS[k], n) == 0)
            return k;
    return -1;
}

static const char *result_words(int result)
{
    static const char *const words[4] = {"the game goes on", "ATK won", "DEF won", "a draw"};
    return words[result & 3];
}

/* Where a tag was not given, in tag_at[]. */
#define NO_TAG ((size_t)-1)

/* The header: tags in order, each at most once, Result required, then an
 * empty line. values[k] is "" for a tag not given; tag_at[k] the start of
 * its line, or NO_TAG. */
static int read_header(reader *r, char values[T_ALL][BALL_BPN_MAX], size_t tag_at[T_ALL])
{
    int last = -1, rc;
    for (int k = 0; k < T_ALL; k++) {
        values[k][0] = '\0';
        tag_at[k] = NO_TAG;
    }
    for (;;) {
        if ((rc = line_chars(r)) < 0)
            return rc;
        if (line_blank(r))
            break;
        int tag = -1;
        char value[BALL_BPN_MAX];
        if ((rc = read_tag(r, &tag, value)) < 0)
            return rc;
        if (tag <= last)
            return fail_at(r, 1, BALL_E_RECORD, "tag %s %s: tags go in the order Event Site Date "
                           "ATK DEF Rules Start Result, each at most once", TAG_NAMES[tag],
                           tag == last ? "given twice" : "out of order");
        last = tag;
        strcpy(values[tag], value);
        tag_at[tag] = r->at;
        if (line_next(r) < 0)
            return fail_at(r, 0, BALL_E_RECORD, "the record ends after its tags (no empty line, "
                           "no decisions, no result line)");
    }
    if (tag_at[T_RESULT] == NO_TAG)
        return fail_at(r, 0, BALL_E_RECORD, "the tags lack [Result \"...\"]");
    return BALL_OK;
}

/* Copies a game's message into the reader's error, at column col. */
static int fail_game(reader *r, size_t col, int code, const char *what, const char *msg)
{
    return fail_at(r, col, code, "%s: %s", what, *msg ? msg : ball_strerror(code));
}

/* The game of the header: ruleset, start position, tags. */
static int make_game(reader *r, char values[T_ALL][BALL_BPN_MAX], const size_t tag_at[T_ALL],
                     ball_game **out)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    char msg[256] = "";
    int rc;
    size_t line = r->at;
    ball_rules_init(&rules, sizeof rules);
    rc = ball_rules_from_text(&rules, &cards, values[T_RULES], msg, sizeof msg);
    if (rc == BALL_OK) {
        rc = ball_game_new(out, &rules, msg, sizeof msg);
        ball_cardset_free(cards);
    }
    if (rc < 0) {
        r->at = tag_at[T_RULES] != NO_TAG ? tag_at[T_RULES] : line;
        rc = fail_game(r, 8, rc, "Rules", msg);
        r->at = line;
        return rc;
    }
    if (tag_at[T_START] != NO_TAG && (rc = ball_position_from_text(*out, values[T_START])) < 0) {
        r->at = tag_at[T_START];
        rc = fail_game(r, 8, rc, "Start", ball_errmsg(*out));
        r->at = line;
        return rc;
    }
    for (int t = 0; t < BALL_TAG_COUNT; t++) {
        if ((rc = ball_game_set_tag(*out, t, values[t])) < 0) {
            r->at = tag_at[t];
            rc = fail_game(r, strlen(TAG_NAMES[t]) + 3, BALL_E_RECORD, TAG_NAMES[t], ball_errmsg(*out));
            r->at = line;
            return rc;
        }
    }
    return BALL_OK;
}

/* Reads "N. SIDE:" at the start of the line; *i moves past it. */
static int read_turn(reader *r, size_t *i, unsigned long *turn, int *side)
{
    const char *t = r->text;
    size_t k = r->at, e = r->end;
    unsigned long n = 0;
    if (k >= e || t[k] < '1' || t[k] > '9')
        return fail_at(r, 0, BALL_E_RECORD, "expected a turn 'N. ATK:' or 'N. DEF:', or the result "
                       "(1-0, 0-1, 1/2-1/2, *)");
    for (; k < e && t[k] >= '0' && t[k] <= '9'; k++) {
        if (k - r->at >= 9)
            return fail_at(r, 0, BALL_E_RECORD, "turn number of more than 9 digits");
        n = n * 10 + (unsigned long)(t[k] - '0');
    }
    if (k + 6 > e || memcmp(t + k, ". ", 2) != 0 || t[k + 5] != ':'
        || (memcmp(t + k + 2, "ATK", 3) != 0 && memcmp(t + k + 2, "DEF", 3) != 0))
        return fail_at(r, k - r->at, BALL_E_RECORD, "expected '. ATK:' or '. DEF:' after the turn number");
    *turn = n;
    *side = t[k + 2] == 'A' ? BALL_ATK : BALL_DEF;
    *i = k + 6;
    return BALL_OK;
}

/* One turn's line: its decisions played on g. *ply counts decisions. */
static int read_turn_line(reader *r, ball_game *g, unsigned long *ply, unsigned long *last_turn)
{
    const char *t = r->text;
    size_t i = 0;
    unsigned long turn = 0;
    int side = 0, rc, played = 0;
    if ((rc = read_turn(r, &i, &turn, &side)) < 0)
        return rc;
    if (ball_result(g) != BALL_ONGOING)
        return fail_at(r, 0, BALL_E_RECORD, "the game is over (%s): expected the result line",
                       result_words(ball_result(g)));
    if (turn == *last_turn)
        return fail_at(r, 0, BALL_E_RECORD, "turn %lu again: a turn is written on one line", turn);
    if (turn != (unsigned long)ball_turn(g) || side != ball_side(g))
        return fail_at(r, 0, BALL_E_RECORD, "expected turn %d, %s, here, not turn %lu, %s", ball_turn(g),
                       ball_side(g) == BALL_ATK ? "ATK" : "DEF", turn, side == BALL_ATK ? "ATK" : "DEF");
    *last_turn = turn;
    for (;;) {
        size_t start = i;
        while (i < r->end && is_blank(t[i]))
            i++;
        if (i >= r->end)
            break;
        if (i == start)
            return fail_at(r, i - r->at, BALL_E_RECORD, "expected a space before the next decision");
        if (t[i] == '{') { /* a comment, closed on this line */
            const char *close = memchr(t + i, '}', r->end - i);
            if (!close)
                return fail_at(r, i - r->at, BALL_E_RECORD, "comment '{' not closed on its line");
            i = (size_t)(close - t) + 1;
            continue;
        }
        size_t n = 0;
        while (i + n < r->end && !is_blank(t[i + n]) && t[i + n] != '{')
            n++;
        char text[BALL_ACTION_TEXT_MAX + 1], what[96];
        size_t kept = n < BALL_ACTION_TEXT_MAX ? n : BALL_ACTION_TEXT_MAX;
        memcpy(text, t + i, kept);
        text[kept] = '\0';
        (*ply)++;
        /* `what` names the decision in a message: written only for one */
#define WHAT() (void)snprintf(what, sizeof what, "decision %lu (turn %lu, %s) '%.40s'", *ply, turn, \
                              side == BALL_ATK ? "ATK" : "DEF", text)
        if (ball_result(g) != BALL_ONGOING) {
            WHAT();
            return fail_at(r, i - r->at, BALL_E_RECORD, "%s: the game is over (%s)", what,
                           result_words(ball_result(g)));
        }
        if ((unsigned long)ball_turn(g) != turn) {
            WHAT();
            return fail_at(r, i - r->at, BALL_E_RECORD, "%s: turn %lu ended with the decision before; "
                           "turn %d goes on a line of its own", what, turn, ball_turn(g));
        }
        ball_action a = BALL_ACTION_NONE;
        if (n >= BALL_ACTION_TEXT_MAX) {
            WHAT();
            return fail_at(r, i - r->at, BALL_E_NOTATION, "%s: too long for an action", what);
        }
        rc = ball_action_from_text(g, text, &a);
        if (rc >= 0) /* a from the legal list of this position: listed once, not again */
            rc = ball_apply_unchecked(g, a);
        if (rc < 0) {
            WHAT();
            return fail_game(r, i - r->at, rc, what, ball_errmsg(g));
        }
#undef WHAT
        played++;
        i += n;
    }
    if (!played)
        return fail_at(r, r->end - r->at, BALL_E_RECORD, "turn %lu has no decision", turn);
    return BALL_OK;
}

/* The turn lines of a record after its header, into @p g, up to the
 * result line, which must agree with the Result tag (@p want) and with the
 * game: 1, or the error. */
static int read_movetext(reader *r, ball_game *g, int want)
{
    unsigned long ply = 0, last_turn = 0;
    int rc;
    for (;;) {
        if (line_next(r) < 0) {
            rc = fail_at(r, 0, BALL_E_RECORD, "the record ends before its result line (truncated?)");
            break;
        }
        if ((rc = line_chars(r)) < 0)
            break;
        size_t b = r->at, e = r->end;
        while (b < e && is_blank(r->text[b]))
            b++;
        while (e > b && is_blank(r->text[e - 1]))
            e--;
        if (b == e) {
            rc = fail_at(r, 0, BALL_E_RECORD, "empty line before the result line (truncated?)");
            break;
        }
        if (r->text[b] == '{' && memchr(r->text + b, '}', e - b) == r->text + e - 1)
            continue; /* a line that is one comment */
        int got = result_of(r->text + b, e - b);
        if (got < 0) {
            if ((rc = read_turn_line(r, g, &ply, &last_turn)) < 0)
                break;
            continue;
        }
        if (got != want) {
            rc = fail_at(r, b - r->at, BALL_E_RECORD, "result %s disagrees with the Result tag %s",
                         RESULTS[got], RESULTS[want]);
        } else if (got != ball_result(g)) {
            rc = fail_at(r, b - r->at, BALL_E_RECORD, "result %s, but after its %lu decisions %s (%s)",
                         RESULTS[got], ply, result_words(ball_result(g)), RESULTS[ball_result(g) & 3]);
        } else {
            rc = 1;
        }
        break;
    }
    return rc;
}

int ball_record_read(ball_game **out, const char *text, size_t len, size_t *offset, char *err,
                     size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (out)
        *out = NULL;
    if (!out || !text || !offset || *offset > len)
        return err_text(err, errlen, BALL_E_ARG, "%s",
                        !out || !text || !offset ? "NULL pointer" : "offset past the text");
    reader r = {text, len, *offset, 0, 0, err, errlen};
    if (line_set(&r) < 0)
        return 0;
    while (line_blank(&r))
        if (line_next(&r) < 0)
            return 0;

    char values[T_ALL][BALL_BPN_MAX];
    size_t tag_at[T_ALL];
    int rc = read_header(&r, values, tag_at);
    if (rc < 0)
        return rc;
    int want = result_of(values[T_RESULT], strlen(values[T_RESULT]));
    if (want < 0) {
        r.at = tag_at[T_RESULT];
        return fail_at(&r, 9, BALL_E_RECORD, "Result '%.20s': expected 1-0 (ATK won), 0-1 (DEF won), "
                       "1/2-1/2 (draw) or * (goes on)", values[T_RESULT]);
    }
    ball_game *g = NULL;
    if ((rc = make_game(&r, values, tag_at, &g)) < 0) {
        ball_game_free(g);
        return rc;
    }

    rc = read_movetext(&r, g, want);
    if (rc != 1) {
        ball_game_free(g);
        return rc;
    }
    /* past the result line and the blank lines after it */
    while (line_next(&r) == 0 && line_blank(&r))
        ;
    *offset = r.at < len ? r.at : len;
    *out = g;
    return 1;
}
