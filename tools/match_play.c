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

/* One game being played: the players by team and their clocks. */
struct game_run {
    const struct config *cfg;
    ball_game *g;
    const char *opening;
    struct player **pl; /* by team */
    struct outcome *o;
    double clock[2];
};

/* The game lost by @p side: "forfeit DEF (NAME): WHY", and the engine's
 * last error line after it ("(it said: go: ...)"), which often tells why
 * it answered as it did; its process is ended (started afresh for the
 * next game). Returns -1. */
static int lose(struct game_run *r, int side, const char *fmt, ...)
{
    struct player *p = r->pl[side];
    char buf[REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    r->o->forfeit_side = side;
    r->o->result = side == BALL_ATK ? BALL_DEF_WON : BALL_ATK_WON;
    snprintf(r->o->reason, sizeof r->o->reason, "forfeit %s (%s): %s%s%.120s%s",
             side == BALL_ATK ? "ATK" : "DEF", p->spec->name, buf, *p->proc.said ? " (it said: " : "",
             p->proc.said, *p->proc.said ? ")" : "");
    proc_close(&p->proc);
    return -1;
}

/* lose() with why the engine's process ended. */
static int lose_dead(struct game_run *r, int side)
{
    char why[REASON_MAX] = "";
    proc_death(&r->pl[side]->proc, why, sizeof why);
    return lose(r, side, "%s", why);
}

/* The largest clock word sent: the protocol's 2^31 - 1 (docs/protocol.md). */
#define CLOCK_WORD_MAX 2147483647.0

static long clock_word(double ms)
{
    return (long)(ms < 1 ? 1 : ms > CLOCK_WORD_MAX ? CLOCK_WORD_MAX : ms);
}

/* The `go` of team @p side into @p line; returns the time it may take
 * before it forfeits (ms): its limit plus the margin. */
static double go_line(const struct game_run *r, int side, char *line, size_t len)
{
    const struct config *cfg = r->cfg;
    const struct engine_spec *spec = r->pl[side]->spec;
    int kind = spec->limit_kind >= 0 ? spec->limit_kind : cfg->limit_kind;
    long amount = spec->limit_kind >= 0 ? spec->limit : cfg->limit;
    static const char *const WORD[] = {"nodes", "playouts", "movetime"};
    if (kind != LIM_TC) {
        snprintf(line, len, "go %s %ld", WORD[kind], amount);
        return (double)cfg->margin_ms + (kind == LIM_MOVETIME ? (double)amount : 0);
    }
    snprintf(line, len, "go atime %ld dtime %ld ainc %ld dinc %ld", clock_word(r->clock[0]),
             clock_word(r->clock[1]), cfg->tc_inc, cfg->tc_inc);
    return (double)cfg->margin_ms + r->clock[side];
}

/* Sends the position and the `go` to team @p side and reads up to its
 * bestdecision, into @p line; the time it took in @p used. 0, or -1
 * after the forfeit. */
static int ask(struct game_run *r, int side, char *line, size_t cap, double *used)
{
    struct proc *p = &r->pl[side]->proc;
    char *pos = position_line(r->g, r->opening);
    if (pos == NULL)
        return lose(r, side, "out of memory");
    double allowed = go_line(r, side, line, cap), t0 = now_ms();
    int bad = proc_send(p, pos) < 0 || proc_send(p, line) < 0;
    free(pos);
    p->said[0] = '\0'; /* only what it says about this decision */
    if (bad)
        return lose_dead(r, side);
    for (;;) {
        int rc = proc_readline(p, line, cap, t0 + allowed);
        if (rc == -1)
            return lose(r, side, "hung (no bestdecision within %.0f ms)", allowed);
        if (rc == -2)
            return lose_dead(r, side);
        if (strncmp(line, "bestdecision", 12) == 0 && (line[12] == ' ' || line[12] == '\0'))
            break;
    }
    *used = now_ms() - t0;
    return 0;
}

/* Plays the decision of the bestdecision @p line of team @p side, after
 * charging its clock; 0, or -1 after the forfeit. */
static int play_answer(struct game_run *r, int side, const char *line, double used)
{
    const struct config *cfg = r->cfg;
    char text[64] = "";
    ball_action a;
    if (cfg->limit_kind == LIM_TC) {
        r->clock[side] -= used;
        if (r->clock[side] < -(double)cfg->margin_ms)
            return lose(r, side, "lost on time");
        r->clock[side] += (double)cfg->tc_inc;
    }
    if (sscanf(line + 12, " %63s", text) != 1 || strcmp(text, "none") == 0)
        return lose(r, side, "malformed answer '%.60s'", line);
    int rc = ball_action_from_text(r->g, text, &a);
    if (rc >= 0)
        rc = ball_apply(r->g, a);
    if (rc < 0)
        return lose(r, side, "%s decision '%.40s': %.80s",
                    rc == BALL_E_NOTATION ? "malformed" : "illegal", text, ball_errmsg(r->g));
    return 0;
}

/* Plays one game of @p g (at its opening) between pl[ATK] and pl[DEF]. */
static void play_game(const struct config *cfg, ball_game *g, const char *opening,
                      struct player *pl[2], struct outcome *o)
{
    struct game_run r = {cfg, g, opening, pl, o, {(double)cfg->limit, (double)cfg->limit}};
    char line[8192];
    long decisions = 0;
    o->forfeit_side = -1;
    o->reason[0] = '\0';
    for (int side = 0; side < 2; side++) {
        char why[REASON_MAX] = "";
        if (player_newgame(pl[side], cfg->margin_ms, why, sizeof why) < 0) {
            lose(&r, side, "%s", why);
            return;
        }
    }
    while (ball_result(g) == BALL_ONGOING) {
        int side = ball_side(g);
        double used = 0;
        if (decisions++ >= cfg->max_decisions) {
            o->result = BALL_ONGOING;
            snprintf(o->reason, sizeof o->reason, "adjudicated a draw after %ld decisions",
                     cfg->max_decisions);
            return;
        }
        if (ask(&r, side, line, sizeof line, &used) < 0 || play_answer(&r, side, line, used) < 0)
            return;
    }
    o->result = ball_result(g);
    snprintf(o->reason, sizeof o->reason, "%s", o->result == BALL_DRAW ? "turn limit" : "touchdown");
}

/* ---------------------------------------------------------------- workers */

/* The next game not yet played (0-based), marked taken; -1 when none is
 * left or the match stops. */
static long take_game(struct match *m)
{
    long idx = -1;
    pthread_mutex_lock(&m->lock);
    while (!m->stop && m->next < m->cfg.games && m->done[m->next])
        m->next++;
    if (!m->stop && m->next < m->cfg.games) {
        idx = m->next++;
        m->done[idx] = 1;
    }
    pthread_mutex_unlock(&m->lock);
    return idx;
}

/* Records and counts game @p idx (under the lock): its record, a forfeit's
 * reason on standard error, the statistics and the status line. */
static void game_done(struct match *m, ball_game *g, long idx, int a_side, struct player **by_side,
                      const struct outcome *o)
{
    pthread_mutex_lock(&m->lock);
    if (write_record(m, g, idx, o, by_side[BALL_ATK]->spec->name, by_side[BALL_DEF]->spec->name) < 0 &&
        !m->failed) {
        fprintf(stderr, "\nball: match: --records %s: cannot write: %s\n", m->cfg.records_path,
                strerror(errno));
        m->failed = 1;
        m->stop = 1;
    }
    if (o->forfeit_side >= 0)
        fprintf(stderr, "%sball: match: game %ld: %s\n", m->tty ? "\n" : "", idx + 1, o->reason);
    count_game(m, idx, a_side, o->result, o->forfeit_side);
    status_line(m);
    pthread_mutex_unlock(&m->lock);
}

/* Plays game @p idx with the players @p pl (engine 1's, engine 2's); 0, or
 * -1 when its opening cannot be set up (the match then stops). */
static int play_one(struct match *m, long idx, struct player pl[2])
{
    const char *opening = m->openings[(idx / 2) % m->n_openings];
    int a_side = idx % 2 == 0 ? BALL_ATK : BALL_DEF; /* engine 1's team */
    struct player *by_side[2];
    ball_game *g = NULL;
    struct outcome o;
    char err[256] = "";
    by_side[a_side] = &pl[0];
    by_side[!a_side] = &pl[1];
    if (ball_game_new(&g, &m->rules, err, sizeof err) < 0 || ball_position_from_text(g, opening) < 0) {
        pthread_mutex_lock(&m->lock);
        fprintf(stderr, "ball: match: game %ld: %s\n", idx + 1, g ? ball_errmsg(g) : err);
        m->failed = 1;
        m->stop = 1;
        pthread_mutex_unlock(&m->lock);
        ball_game_free(g);
        return -1;
    }
    play_game(&m->cfg, g, opening, by_side, &o);
    game_done(m, g, idx, a_side, by_side, &o);
    ball_game_free(g);
    return 0;
}

void *worker(void *arg)
{
    struct match *m = arg;
    struct player pl[2];
    long idx;
    memset(pl, 0, sizeof pl);
    pthread_mutex_lock(&m->lock);
    int worker_no = m->workers++;
    pthread_mutex_unlock(&m->lock);
    for (int i = 0; i < 2; i++) {
        pl[i].proc.slot = worker_no * 2 + i;
        pl[i].spec = &m->cfg.eng[i];
        pl[i].rules_text = m->cfg.rules_text;
    }
    while ((idx = take_game(m)) >= 0 && play_one(m, idx, pl) == 0)
        continue;
    player_quit(&pl[0]);
    player_quit(&pl[1]);
    return NULL;
}
