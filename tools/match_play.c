/* SPDX-License-Identifier: MIT */
/* The workers of `ball match` and one game between two engines; see
 * match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- one game */

/* The "position bpn ... decisions ..." line of @p g into a malloc'd text. */
static char *position_line(ball_game *g, const char *opening)
{
    int n = ball_history_length(g);
    size_t cap = strlen(opening) + 64 + (size_t)n * BALL_ACTION_TEXT_MAX;
    char *s = malloc(cap);
    if (s == NULL)
        return NULL;
    size_t k = (size_t)snprintf(s, cap, "position bpn %s", opening);
    if (n > 0)
        k += (size_t)snprintf(s + k, cap - k, " decisions");
    for (int i = 0; i < n; i++) {
        ball_action a;
        char t[BALL_ACTION_TEXT_MAX];
        ball_history_action(g, i, &a);
        ball_action_to_text(a, t, sizeof t);
        k += (size_t)snprintf(s + k, cap - k, " %s", t);
    }
    return s;
}

static void forfeit(struct outcome *o, int side, const char *name, const char *fmt, ...)
{
    char buf[REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    o->forfeit_side = side;
    o->result = side == BALL_ATK ? BALL_DEF_WON : BALL_ATK_WON;
    snprintf(o->reason, sizeof o->reason, "forfeit %s (%s): %s", side == BALL_ATK ? "ATK" : "DEF",
             name, buf);
}

/* Plays one game of @p g (at its opening) between pl[ATK] and pl[DEF]. */
static void play_game(const struct config *cfg, ball_game *g, const char *opening,
                      struct player *pl[2], struct outcome *o)
{
    char why[REASON_MAX] = "", line[8192];
    double clock[2] = {(double)cfg->limit, (double)cfg->limit};
    long decisions = 0;
    o->forfeit_side = -1;
    o->reason[0] = '\0';
    for (int side = 0; side < 2; side++) {
        why[0] = '\0';
        if (player_newgame(pl[side], cfg->margin_ms, why, sizeof why) < 0) {
            forfeit(o, side, pl[side]->spec->name, "%s", why);
            return;
        }
    }
    while (ball_result(g) == BALL_ONGOING) {
        int side = ball_side(g);
        struct player *p = pl[side];
        const char *name = p->spec->name;
        if (decisions++ >= cfg->max_decisions) {
            o->result = BALL_ONGOING;
            snprintf(o->reason, sizeof o->reason, "adjudicated a draw after %ld decisions",
                     cfg->max_decisions);
            return;
        }
        char *pos = position_line(g, opening);
        if (pos == NULL) {
            forfeit(o, side, name, "out of memory");
            return;
        }
        int kind = p->spec->limit_kind >= 0 ? p->spec->limit_kind : cfg->limit_kind;
        long amount = p->spec->limit_kind >= 0 ? p->spec->limit : cfg->limit;
        switch (kind) {
        case LIM_NODES: snprintf(line, sizeof line, "go nodes %ld", amount); break;
        case LIM_PLAYOUTS: snprintf(line, sizeof line, "go playouts %ld", amount); break;
        case LIM_MOVETIME: snprintf(line, sizeof line, "go movetime %ld", amount); break;
        default:
            snprintf(line, sizeof line, "go atime %ld dtime %ld ainc %ld dinc %ld",
                     (long)(clock[0] > 1 ? clock[0] : 1), (long)(clock[1] > 1 ? clock[1] : 1),
                     cfg->tc_inc, cfg->tc_inc);
        }
        double allowed = (double)cfg->margin_ms;
        if (kind == LIM_MOVETIME)
            allowed += (double)amount;
        if (kind == LIM_TC)
            allowed += clock[side];
        double t0 = now_ms();
        int bad = proc_send(&p->proc, pos) < 0 || proc_send(&p->proc, line) < 0;
        free(pos);
        if (bad) {
            proc_death(&p->proc, why, sizeof why);
            proc_close(&p->proc);
            forfeit(o, side, name, "%s", why);
            return;
        }
        for (;;) {
            int r = proc_readline(&p->proc, line, sizeof line, t0 + allowed);
            if (r == -1) {
                proc_close(&p->proc);
                forfeit(o, side, name, "hung (no bestdecision within %.0f ms)", allowed);
                return;
            }
            if (r == -2) {
                proc_death(&p->proc, why, sizeof why);
                proc_close(&p->proc);
                forfeit(o, side, name, "%s", why);
                return;
            }
            if (strncmp(line, "bestdecision", 12) == 0 && (line[12] == ' ' || line[12] == '\0'))
                break;
        }
        double used = now_ms() - t0;
        if (cfg->limit_kind == LIM_TC) {
            clock[side] -= used;
            if (clock[side] < -(double)cfg->margin_ms) {
                proc_close(&p->proc);
                forfeit(o, side, name, "lost on time");
                return;
            }
            clock[side] += (double)cfg->tc_inc;
        }
        char text[64] = "";
        if (sscanf(line + 12, " %63s", text) != 1 || strcmp(text, "none") == 0) {
            proc_close(&p->proc);
            forfeit(o, side, name, "malformed answer '%.60s'", line);
            return;
        }
        ball_action a;
        int arc = ball_action_from_text(g, text, &a);
        if (arc >= 0)
            arc = ball_apply(g, a);
        if (arc < 0) {
            proc_close(&p->proc);
            forfeit(o, side, name, "%s decision '%.40s': %.80s",
                    arc == BALL_E_NOTATION ? "malformed" : "illegal", text, ball_errmsg(g));
            return;
        }
    }
    o->result = ball_result(g);
    snprintf(o->reason, sizeof o->reason, "%s", o->result == BALL_DRAW ? "turn limit" : "touchdown");
}

/* ---------------------------------------------------------------- workers */

void *worker(void *arg)
{
    struct match *m = arg;
    struct player pl[2];
    memset(pl, 0, sizeof pl);
    pthread_mutex_lock(&m->lock);
    int worker_no = m->workers++;
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < 2; i++) {
        pl[i].proc.slot = worker_no * 2 + i;
        pl[i].spec = &m->cfg.eng[i];
        pl[i].rules_text = m->cfg.rules_text;
    }
    for (;;) {
        long idx = -1;
        pthread_mutex_lock(&m->lock);
        while (!m->stop && m->next < m->cfg.games && m->done[m->next])
            m->next++;
        if (!m->stop && m->next < m->cfg.games) {
            idx = m->next++;
            m->done[idx] = 1;
        }
        pthread_mutex_unlock(&m->lock);
        if (idx < 0)
            break;
        const char *opening = m->openings[(idx / 2) % m->n_openings];
        int a_side = idx % 2 == 0 ? BALL_ATK : BALL_DEF; /* engine 1's team */
        struct player *by_side[2];
        by_side[a_side] = &pl[0];
        by_side[!a_side] = &pl[1];
        ball_game *g = NULL;
        struct outcome o;
        char err[256] = "";
        if (ball_game_new(&g, &m->rules, err, sizeof err) < 0 ||
            ball_position_from_text(g, opening) < 0) {
            pthread_mutex_lock(&m->lock);
            fprintf(stderr, "ball: match: game %ld: %s\n", idx + 1, g ? ball_errmsg(g) : err);
            m->failed = 1;
            m->stop = 1;
            pthread_mutex_unlock(&m->lock);
            ball_game_free(g);
            break;
        }
        play_game(&m->cfg, g, opening, by_side, &o);
        int s2;
        if (o.result == BALL_ATK_WON)
            s2 = a_side == BALL_ATK ? 2 : 0;
        else if (o.result == BALL_DEF_WON)
            s2 = a_side == BALL_DEF ? 2 : 0;
        else
            s2 = 1;
        pthread_mutex_lock(&m->lock);
        if (write_record(m, g, idx, &o, by_side[BALL_ATK]->spec->name,
                         by_side[BALL_DEF]->spec->name) < 0 && !m->failed) {
            fprintf(stderr, "\nball: match: --records %s: cannot write: %s\n", m->cfg.records_path,
                    strerror(errno));
            m->failed = 1;
            m->stop = 1;
        }
        if (o.forfeit_side >= 0) {
            m->forfeits[o.forfeit_side == a_side ? 0 : 1]++;
            m->term_forfeit++;
            if (m->tty)
                fputc('\n', stderr);
            fprintf(stderr, "ball: match: game %ld: %s\n", idx + 1, o.reason);
        } else if (o.result == BALL_DRAW) {
            m->term_turnlimit++;
        } else if (o.result == BALL_ONGOING) {
            m->term_adjudicated++;
        } else {
            m->term_touchdown++;
        }
        count_game(m, idx, s2);
        status_line(m);
        pthread_mutex_unlock(&m->lock);
        ball_game_free(g);
    }
    player_quit(&pl[0]);
    player_quit(&pl[1]);
    return NULL;
}
