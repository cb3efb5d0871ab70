/* SPDX-License-Identifier: MIT */
/* The records file of `ball match`: each game appended, and the games
 * already in it counted when a match resumes; see match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Sets a tag, cut to fit at a UTF-8 boundary. */
static void set_tag(ball_game *g, int tag, const char *text)
{
    char buf[BALL_TAG_TEXT_MAX];
    size_t n = strlen(text);
    if (n >= sizeof buf) {
        n = sizeof buf - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xc0) == 0x80)
            n--;
    }
    memcpy(buf, text, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
            buf[i] = ' ';
    if (ball_game_set_tag(g, tag, buf) < 0)
        ball_game_set_tag(g, tag, "?");
}

int write_record(struct match *m, ball_game *g, long idx, const struct outcome *o,
                        const char *atk, const char *def)
{
    char text[1024], date[16]; /* a limit text (200) and a reason (REASON_MAX + 128) fit */
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

/* Reads the games already in the records file: their numbers and scores. */
int resume(struct match *m)
{
    FILE *f = fopen(m->cfg.records_path, "r");
    if (f == NULL)
        return errno == ENOENT ? 0 : -1;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    size_t k;
    while (text && (k = fread(text + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            char *t = realloc(text, cap *= 2);
            if (t == NULL) {
                free(text);
                text = NULL;
            }
            text = t;
        }
    }
    fclose(f);
    if (text == NULL) {
        fprintf(stderr, "ball: match: --records %s: out of memory\n", m->cfg.records_path);
        return -1;
    }
    size_t at = 0;
    ball_game *g;
    char err[256], prefix[256], ev[BALL_TAG_TEXT_MAX], site[BALL_TAG_TEXT_MAX], atk[BALL_TAG_TEXT_MAX];
    int rc;
    snprintf(prefix, sizeof prefix, "ball match %s vs %s game ", m->cfg.eng[0].name,
             m->cfg.eng[1].name);
    long found = 0;
    while ((rc = ball_record_read(&g, text, len, &at, err, sizeof err)) == 1) {
        ball_game_tag(g, BALL_TAG_EVENT, ev, sizeof ev);
        ball_game_tag(g, BALL_TAG_SITE, site, sizeof site);
        ball_game_tag(g, BALL_TAG_ATK, atk, sizeof atk);
        long idx = strncmp(ev, prefix, strlen(prefix)) == 0 ? atol(ev + strlen(prefix)) - 1 : -1;
        if (idx >= 0 && idx < m->cfg.games && !m->done[idx]) {
            int res = ball_result(g);
            const char *ff = strstr(site, "; forfeit ");
            if (ff)
                res = strncmp(ff + 10, "ATK", 3) == 0 ? BALL_DEF_WON : BALL_ATK_WON;
            int a_is_atk = strcmp(atk, m->cfg.eng[0].name) == 0;
            int s2 = res == BALL_ATK_WON ? (a_is_atk ? 2 : 0)
                   : res == BALL_DEF_WON ? (a_is_atk ? 0 : 2) : 1;
            m->done[idx] = 1;
            if (ff) {
                m->forfeits[(strncmp(ff + 10, "ATK", 3) == 0) == a_is_atk ? 0 : 1]++;
                m->term_forfeit++;
            } else if (res == BALL_DRAW) {
                m->term_turnlimit++;
            } else if (res == BALL_ONGOING) {
                m->term_adjudicated++;
            } else {
                m->term_touchdown++;
            }
            count_game(m, idx, s2);
            found++;
        }
        ball_game_free(g);
    }
    free(text);
    if (rc < 0) {
        fprintf(stderr, "ball: match: --records %s: %s\n", m->cfg.records_path, err);
        return -1;
    }
    if (found)
        fprintf(stderr, "ball: match: %ld game(s) of this match already in %s\n", found,
                m->cfg.records_path);
    return 0;
}
