/* SPDX-License-Identifier: MIT */
/* The records file of `ball match`: each game appended, and the games
 * already in it counted when a match resumes; see match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- records */

const char *limit_of(const struct config *c, char *buf, size_t len)
{
    switch (c->limit_kind) {
    case LIM_NODES: snprintf(buf, len, "nodes %ld", c->limit); break;
    case LIM_PLAYOUTS: snprintf(buf, len, "playouts %ld", c->limit); break;
    case LIM_MOVETIME: snprintf(buf, len, "movetime %ld", c->limit); break;
    default: snprintf(buf, len, "tc %ld+%ld", c->limit, c->tc_inc);
    }
    return buf;
}

/* The length to keep of a text longer than a tag holds (@p room bytes),
 * leaving room for "..." after it: up to the last word that fits (at a
 * UTF-8 boundary when one word is that long), so that a reason does not
 * end in "(actio" (docs/match.md). */
static size_t cut_at_word(const char *text, size_t room)
{
    size_t k = room - 3;
    while (k > 0 && ((unsigned char)text[k] & 0xc0) == 0x80)
        k--;
    size_t w = k;
    while (w > 0 && text[w] != ' ')
        w--;
    return w > k / 2 ? w : k;
}

/* Sets a tag: control characters as spaces, a text too long cut at a
 * word with "..." (cut_at_word()). */
static void set_tag(ball_game *g, int tag, const char *text)
{
    char buf[BALL_TAG_TEXT_MAX];
    size_t n = strlen(text);
    if (n < sizeof buf) {
        memcpy(buf, text, n + 1);
    } else {
        n = cut_at_word(text, sizeof buf - 1);
        memcpy(buf, text, n);
        memcpy(buf + n, "...", 4);
        n += 3;
    }
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
            buf[i] = ' ';
    if (ball_game_set_tag(g, tag, buf) < 0)
        ball_game_set_tag(g, tag, "?");
}

int write_record(struct match *m, ball_game *g, long idx, const struct outcome *o,
                        const char *atk, const char *def)
{
    char text[1024], date[16]; /* a limit text (200) and a reason (REASON_MAX + 320) fit */
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    snprintf(text, sizeof text, "ball match %s vs %s game %ld", m->cfg.eng[0].name,
             m->cfg.eng[1].name, idx + 1);
    set_tag(g, BALL_TAG_EVENT, text);
    snprintf(text, sizeof text, "%s; %s", m->cfg.limit_text, o->reason);
    set_tag(g, BALL_TAG_SITE, text);
    set_tag(g, BALL_TAG_DATE, date);
    set_tag(g, BALL_TAG_ATK, atk);
    set_tag(g, BALL_TAG_DEF, def);
    if (m->records == NULL)
        return 0;
    int n = ball_record_write(g, NULL, 0);
    char *rec = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (rec == NULL || ball_record_write(g, rec, (size_t)n + 1) < 0) {
        free(rec);
        return -1;
    }
    int bad = fprintf(m->records, "%s\n", rec) < 0 || fflush(m->records) != 0;
    free(rec);
    return bad ? -1 : 0;
}

/* "ball: match: --records FILE: WHY"; returns -1. */
static int records_error(const struct match *m, const char *why)
{
    fprintf(stderr, "ball: match: --records %s: %s\n", m->cfg.records_path, why);
    return -1;
}

/* Counts one game read back from the records, when it is a game of this
 * match not yet counted (its Event names the engines and its number). */
static int count_recorded(struct match *m, ball_game *g, const char *prefix)
{
    char ev[BALL_TAG_TEXT_MAX], site[BALL_TAG_TEXT_MAX], atk[BALL_TAG_TEXT_MAX];
    size_t lp = strlen(prefix);
    ball_game_tag(g, BALL_TAG_EVENT, ev, sizeof ev);
    ball_game_tag(g, BALL_TAG_SITE, site, sizeof site);
    ball_game_tag(g, BALL_TAG_ATK, atk, sizeof atk);
    long idx = strncmp(ev, prefix, lp) == 0 ? atol(ev + lp) - 1 : -1;
    if (idx < 0 || idx >= m->cfg.games || m->done[idx])
        return 0;
    int result = ball_result(g), forfeit_side = -1;
    const char *ff = strstr(site, "; forfeit ");
    if (ff) {
        forfeit_side = strncmp(ff + 10, "ATK", 3) == 0 ? BALL_ATK : BALL_DEF;
        result = forfeit_side == BALL_ATK ? BALL_DEF_WON : BALL_ATK_WON;
    }
    m->done[idx] = 1;
    count_game(m, idx, strcmp(atk, m->cfg.eng[0].name) == 0 ? BALL_ATK : BALL_DEF, result,
               forfeit_side);
    return 1;
}

/* Counts the games of this match in the @p len bytes @p text. */
static int resume(struct match *m, const char *text, size_t len)
{
    size_t at = 0;
    ball_game *g;
    char err[256], prefix[256];
    int rc;
    long found = 0;
    snprintf(prefix, sizeof prefix, "ball match %s vs %s game ", m->cfg.eng[0].name,
             m->cfg.eng[1].name);
    while ((rc = ball_record_read(&g, text, len, &at, err, sizeof err)) == 1) {
        found += count_recorded(m, g, prefix);
        ball_game_free(g);
    }
    if (rc < 0)
        return records_error(m, err);
    if (found)
        fprintf(stderr, "ball: match: %ld game(s) of this match already in %s\n", found,
                m->cfg.records_path);
    return 0;
}

/* The @p size bytes of the open file @p fd, from its start, into a
 * malloc'd buffer; NULL on failure. */
static char *read_all(int fd, size_t size)
{
    char *text = malloc(size + 1);
    size_t got = 0;
    while (text != NULL && got < size) {
        ssize_t n = pread(fd, text + got, size - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            free(text);
            return NULL;
        }
        got += (size_t)n;
    }
    return text;
}

/* Opens, checks and locks the records file; its descriptor or -1. It is
 * opened without blocking (a FIFO would block open()) and must be a
 * regular file: it is read back whole, and /dev/zero or a FIFO would
 * never end. */
static int lock_records(const struct match *m, struct stat *st)
{
    int fd = open(m->cfg.records_path, O_RDWR | O_CREAT | O_APPEND | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0)
        return records_error(m, strerror(errno));
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return records_error(m, "not a regular file (it is read back, then appended to)");
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        return records_error(m, e == EWOULDBLOCK ? "in use by another ball match (locked); one "
                                                   "match at a time appends to a records file"
                                                 : strerror(e));
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

int open_records(struct match *m)
{
    struct stat st;
    int fd = lock_records(m, &st);
    if (fd < 0)
        return -1;
    errno = 0;
    char *text = read_all(fd, (size_t)st.st_size);
    if (text == NULL) {
        close(fd);
        return records_error(m, errno ? strerror(errno) : "cannot read it");
    }
    int rc = resume(m, text, (size_t)st.st_size);
    free(text);
    if (rc == 0 && (m->records = fdopen(fd, "a")) == NULL)
        rc = records_error(m, strerror(errno));
    if (m->records == NULL)
        close(fd); /* and the lock with it */
    return rc;
}
