/* SPDX-License-Identifier: MIT */
/* The helpers the commands share; see tool.h. */
#define _POSIX_C_SOURCE 200809L

#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Reads a decimal number made of digits only. Returns 0 and the value,
 * -1 when @p s is not such a number, -2 when it is above @p max. */
int parse_number(const char *s, long max, long *out)
{
    long v = 0;
    int too_big = 0;
    if (s == NULL || *s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        if (v > (max - (*s - '0')) / 10)
            too_big = 1; /* keep checking that the rest are digits */
        else
            v = v * 10 + (*s - '0');
    }
    if (too_big)
        return -2;
    *out = v;
    return 0;
}

/* Reads a perft/divide depth: 0 to BALL_MAX_PERFT_DEPTH. */
int parse_depth(const char *command, const char *s, int *depth)
{
    long d = 0;
    int rc = parse_number(s, BALL_MAX_PERFT_DEPTH, &d);
    if (rc == -1) {
        fprintf(stderr, "ball: %s: bad depth '%.40s': expected an integer from 0 to %d\n", command, s,
                BALL_MAX_PERFT_DEPTH);
        return EXIT_USAGE;
    }
    if (rc == -2) {
        fprintf(stderr, "ball: %s: depth %.40s is too deep: the maximum is %d (BALL_MAX_PERFT_DEPTH)\n",
                command, s, BALL_MAX_PERFT_DEPTH);
        return EXIT_USAGE;
    }
    *depth = (int)d;
    return 0;
}

/* Reports an error on standard error: "ball: WHAT: message", the message
 * being @p msg, else the game's, else the code's. Returns the exit status. */
int report(const char *what, const char *msg, int rc)
{
    if (msg == NULL || *msg == '\0')
        msg = ball_strerror(rc);
    fprintf(stderr, "ball: %s: %s\n", what, msg);
    return rc == BALL_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

int fail(ball_game *g, const char *what, int rc)
{
    return report(what, g ? ball_errmsg(g) : NULL, rc);
}

/* The library's message without the words it begins with that the tool
 * says already: @p prefix and ": " (the "BPN: " of a BPN's error), or
 * "action 'TEXT': " or "TEXT: " of an action's. */
static const char *without(const char *msg, const char *prefix, const char *text)
{
    size_t lp = strlen(prefix), lt = text ? strlen(text) : 0;
    if (strncmp(msg, prefix, lp) == 0 && strncmp(msg + lp, ": ", 2) == 0)
        return msg + lp + 2;
    if (text != NULL && strncmp(msg, "action '", 8) == 0 && strncmp(msg + 8, text, lt) == 0 &&
        strncmp(msg + 8 + lt, "': ", 3) == 0)
        return msg + 8 + lt + 3;
    if (text != NULL && strncmp(msg, text, lt) == 0 && strncmp(msg + lt, ": ", 2) == 0)
        return msg + lt + 2;
    return msg;
}

/* Sets the position of @p g from the optional BPN argument. */
int load_bpn(ball_game *g, const char *bpn)
{
    if (bpn == NULL)
        return 0;
    int rc = ball_position_from_text(g, bpn);
    if (rc < 0)
        return report("bad BPN", without(ball_errmsg(g), "BPN", NULL), rc);
    return 0;
}

int optional_bpn(ball_game *g, const char *command, int argc, char **argv)
{
    if (argc > 1)
        return usage_error(command);
    return load_bpn(g, argc > 0 ? argv[0] : NULL);
}

/* Parses and applies one action text; errors name it as "@p where @p index
 * 'TEXT'", followed by the library's message without its own naming of
 * the text ("action 1 'E11-Z10': expected a square at character 5"). */
int apply_text(ball_game *g, const char *text, const char *where, unsigned long index)
{
    ball_action a = BALL_ACTION_NONE;
    char what[96];
    int rc = ball_action_from_text(g, text, &a);
    if (rc >= 0)
        rc = ball_apply(g, a);
    if (rc < 0) {
        snprintf(what, sizeof what, "%s %lu '%.40s'", where, index, text);
        return report(what, without(ball_errmsg(g), "", text), rc);
    }
    return 0;
}

enum { LINE_EOF = -1, LINE_TOO_LONG = -2, LINE_NUL = -3, LINE_ERROR = -4 };

/* Reads one line of @p in into @p buf (@p cap bytes) without its newline.
 * Returns its length, or LINE_EOF at the end of the input, LINE_TOO_LONG,
 * LINE_NUL (the line holds a NUL byte) or LINE_ERROR (read error). */
static long read_line(FILE *in, char *buf, size_t cap)
{
    size_t len = 0;
    int c, nul = 0, any = 0;
    while ((c = getc(in)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0')
            nul = 1;
        if (len + 1 >= cap)
            return LINE_TOO_LONG;
        buf[len++] = (char)c;
    }
    if (ferror(in))
        return LINE_ERROR;
    if (!any)
        return LINE_EOF;
    buf[len] = '\0';
    return nul ? LINE_NUL : (long)len;
}

/* The error of a line that read_line() refused; EXIT_USAGE. */
static int bad_line(const char *command, long len, unsigned long lineno)
{
    if (len == LINE_ERROR)
        fprintf(stderr, "ball: %s: standard input: %s\n", command, strerror(errno));
    else if (len == LINE_NUL)
        fprintf(stderr, "ball: %s: NUL byte in line %lu\n", command, lineno);
    else
        fprintf(stderr, "ball: %s: line %lu too long (more than %d characters)\n", command, lineno,
                TRACE_LINE_MAX);
    return EXIT_USAGE;
}

int apply_lines(ball_game *g, const char *command, int (*after)(ball_game *g))
{
    char line[TRACE_LINE_MAX + 1];
    unsigned long lineno = 0;
    long len;
    int rc;
    while ((len = read_line(stdin, line, sizeof line)) != LINE_EOF) {
        lineno++;
        if (len < 0)
            return bad_line(command, len, lineno);
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if (strspn(line, " \t") == (size_t)len)
            continue; /* blank line */
        if ((rc = apply_text(g, line, "line", lineno)) != 0)
            return rc;
        if (after != NULL && (rc = after(g)) != 0)
            return rc;
    }
    return 0;
}

/* The largest file read whole (records for `replay`): a bound for a
 * device such as /dev/zero, which has no end. */
#define READ_FILE_MAX ((size_t)1 << 28)

char *read_file(const char *path, size_t *len, char *why, size_t whylen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *buf = f ? malloc(cap) : NULL;
    int e = f ? ENOMEM : errno;
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap >= READ_FILE_MAX)
            break;
        char *bigger = realloc(buf, cap *= 2);
        if (bigger == NULL)
            free(buf);
        buf = bigger;
    }
    if (f != NULL && ferror(f))
        e = errno;
    snprintf(why, whylen, "%s", buf == NULL || ferror(f) ? strerror(e) : "");
    if (buf != NULL && n == cap && cap >= READ_FILE_MAX) /* and more to come */
        snprintf(why, whylen, "larger than %zu bytes", READ_FILE_MAX);
    if (*why) {
        free(buf);
        buf = NULL;
    }
    if (f != NULL && f != stdin)
        fclose(f);
    *len = n;
    return buf;
}
