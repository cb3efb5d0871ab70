/* SPDX-License-Identifier: MIT */
/*
 * ball match — plays two BEP engines (docs/protocol.md) against each other,
 * in the spirit of cutechess-cli and fastchess (docs/match.md).
 *
 * Each engine is a child process (`sh -c CMD`) in a process group of its
 * own, talked to through pipes; every read has a deadline (poll), and an
 * engine that crashes, hangs past its time plus the margin, or answers a
 * malformed or illegal decision loses the game; it is then killed (its
 * whole process group) and started afresh for the next game. K worker
 * threads play K games at a time, each with its own pair of processes.
 * Games are numbered from 1; game 2k-1 and 2k start from opening k (in
 * the file's order, round and round), the first engine playing ATK in the
 * odd one and DEF in the even one. Every finished game is appended to the
 * --records file, whose games are counted again when a match is restarted
 * with it, so that only the games not yet in it are played.
 */
#define _POSIX_C_SOURCE 200809L

#include "engine.h"
#include "sprt.h"

#include "ball.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE 2
#define MAX_OPTIONS 32
#define REASON_MAX 200
#define MAX_DECISIONS_DEFAULT 5000

enum limit_kind { LIM_NODES, LIM_PLAYOUTS, LIM_MOVETIME, LIM_TC };

struct engine_spec {
    const char *cmd;
    const char *name;
    int n_options;
    const char *opt_name[MAX_OPTIONS];
    const char *opt_value[MAX_OPTIONS];
    int limit_kind; /* its own nodes=, playouts= or movetime=, or -1 */
    long limit;
};

struct config {
    struct engine_spec eng[2];
    int n_engines;
    long games;
    int limit_kind;
    long limit;     /* nodes, playouts, movetime ms, or tc base ms */
    long tc_inc;    /* tc increment ms */
    int concurrency;
    const char *openings_path;
    const char *records_path;
    const char *json_path;
    const char *rules_text;
    long margin_ms;
    long max_decisions;
    int sprt;
    double elo0, elo1, alpha, beta;
    char limit_text[200];
};

/* A running engine process. */
struct proc {
    pid_t pid; /* 0: none */
    int in, out, err;
    char buf[16384];
    size_t len;
    char errtail[256]; /* the end of its stderr */
    size_t errlen;
    int out_eof, err_eof;
    int slot; /* its entry in children[] */
};

/* The process groups of the running engines, for the signal handler: an
 * interrupted match (SIGINT, SIGTERM, SIGHUP) kills them before it ends.
 * Each slot is written by the one worker that owns it. (The tool's own
 * state, not the library's.) */
#define MAX_CHILDREN 128
static volatile pid_t children[MAX_CHILDREN];

static void on_signal(int sig)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] > 0)
            kill(-children[i], SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

struct match {
    struct config cfg;
    char **openings;
    int n_openings;
    ball_rules rules;
    ball_cardset *cards;
    pthread_mutex_t lock;
    /* guarded by lock */
    unsigned char *done; /* per game index: played (in the records or now) */
    signed char *a_score; /* per game: engine 1's score x2 (0,1,2), -1 unknown */
    long next;
    long played, w, d, l;
    long forfeits[2];
    long term_touchdown, term_turnlimit, term_forfeit, term_adjudicated;
    double pairs[5];
    int stop;
    double llr, llr_penta, lower, upper;
    FILE *records;
    int workers;
    int tty;
    int failed; /* an I/O error */
};

/* ---------------------------------------------------------------- time */

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- processes */

static void proc_kill(struct proc *p)
{
    if (p->pid <= 0)
        return;
    kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
    waitpid(p->pid, NULL, 0);
    children[p->slot] = 0;
    close(p->in);
    close(p->out);
    close(p->err);
    p->pid = 0;
}

static int proc_start(struct proc *p, const char *cmd, char *why, size_t whylen)
{
    int in[2], out[2], err[2], slot = p->slot;
    memset(p, 0, sizeof *p);
    p->slot = slot;
    if (pipe(in) < 0 || pipe(out) < 0 || pipe(err) < 0) {
        snprintf(why, whylen, "cannot start: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, whylen, "cannot start: %s", strerror(errno));
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: no race with the kill of the group */
    children[slot] = pid;
    close(in[0]);
    close(out[1]);
    close(err[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(err[0], F_SETFD, FD_CLOEXEC);
    p->pid = pid;
    p->in = in[1];
    p->out = out[0];
    p->err = err[0];
    return 0;
}

/* Why the process ended (after its output closed): "crashed (exit status 3: <stderr>)". */

/* Appends @p n bytes of an engine's stderr to the tail kept of it, control
 * characters as spaces, dropping the oldest byte when it is full. */
static void errtail_add(struct proc *p, const char *buf, ssize_t n)
{
    for (ssize_t i = 0; i < n; i++) {
        if (p->errlen == sizeof p->errtail - 1) {
            memmove(p->errtail, p->errtail + 1, p->errlen - 1);
            p->errlen--;
        }
        p->errtail[p->errlen++] = buf[i] == '\n' || (unsigned char)buf[i] < 0x20 ? ' ' : buf[i];
    }
    p->errtail[p->errlen] = '\0';
}

static void proc_death(struct proc *p, char *why, size_t whylen)
{
    int status = 0;
    pid_t r = 0;
    double until = now_ms() + 1000;
    while ((r = waitpid(p->pid, &status, WNOHANG)) == 0 && now_ms() < until) {
        struct timespec d = {0, 5000000};
        nanosleep(&d, NULL);
    }
    /* what is left of its stderr */
    for (;;) {
        struct pollfd pf = {p->err, POLLIN, 0};
        char tmp[512];
        if (poll(&pf, 1, 0) <= 0)
            break;
        ssize_t n = read(p->err, tmp, sizeof tmp);
        if (n <= 0)
            break;
        errtail_add(p, tmp, n);
    }
    char tail[100] = "";
    if (p->errlen) {
        size_t n = p->errlen;
        while (n > 0 && p->errtail[n - 1] == ' ')
            n--;
        size_t from = n > 60 ? n - 60 : 0;
        snprintf(tail, sizeof tail, ": %.*s", (int)(n - from), p->errtail + from);
    }
    if (r == p->pid && WIFEXITED(status))
        snprintf(why, whylen, "crashed (exit status %d%s)", WEXITSTATUS(status), tail);
    else if (r == p->pid && WIFSIGNALED(status))
        snprintf(why, whylen, "crashed (signal %d%s)", WTERMSIG(status), tail);
    else
        snprintf(why, whylen, "closed its output%s", tail);
    if (r == p->pid) {
        children[p->slot] = 0;
        p->pid = -p->pid; /* reaped; proc_kill must not wait again */
    }
}

static void proc_close(struct proc *p)
{
    if (p->pid < 0) {
        close(p->in);
        close(p->out);
        close(p->err);
        p->pid = 0;
        return;
    }
    proc_kill(p);
}

static int proc_send(struct proc *p, const char *line)
{
    size_t n = strlen(line);
    char nl = '\n';
    while (n > 0) {
        ssize_t k = write(p->in, line, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        line += k;
        n -= (size_t)k;
    }
    return write(p->in, &nl, 1) == 1 ? 0 : -1;
}

/* Reads one line into @p line before @p deadline (ms, now_ms()). Returns 0;
 * -1 timeout; -2 end of output. */
static int proc_readline(struct proc *p, char *line, size_t cap, double deadline)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        if (nl != NULL) {
            size_t n = (size_t)(nl - p->buf);
            size_t k = n < cap - 1 ? n : cap - 1;
            memcpy(line, p->buf, k);
            line[k] = '\0';
            if (k > 0 && line[k - 1] == '\r')
                line[k - 1] = '\0';
            memmove(p->buf, nl + 1, p->len - n - 1);
            p->len -= n + 1;
            return 0;
        }
        if (p->len == sizeof p->buf) /* a line too long: cut */
            p->len = 0;
        if (p->out_eof)
            return -2;
        double left = deadline - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd pf[2] = {{p->out, POLLIN, 0}, {p->err_eof ? -1 : p->err, POLLIN, 0}};
        int r = poll(pf, 2, left > 1e6 ? 1000000 : (int)left + 1);
        if (r < 0 && errno != EINTR)
            return -2;
        if (r <= 0)
            continue;
        if (pf[1].revents) {
            char tmp[512];
            ssize_t n = read(p->err, tmp, sizeof tmp);
            errtail_add(p, tmp, n);
            if (n <= 0)
                p->err_eof = 1;
        }
        if (pf[0].revents) {
            ssize_t n = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
            if (n <= 0)
                p->out_eof = 1;
            else
                p->len += (size_t)n;
        }
    }
}

/* Waits for a line equal to @p want; 0, or -1 with the reason. */
static int proc_expect(struct proc *p, const char *want, double deadline, const char *what,
                       char *why, size_t whylen)
{
    char line[8192];
    for (;;) {
        int r = proc_readline(p, line, sizeof line, deadline);
        if (r == -1) {
            snprintf(why, whylen, "hung (no %s after %s)", want, what);
            return -1;
        }
        if (r == -2) {
            proc_death(p, why, whylen);
            return -1;
        }
        if (strcmp(line, want) == 0)
            return 0;
    }
}

/* ---------------------------------------------------------------- engines */

struct player {
    struct proc proc;
    const struct engine_spec *spec;
    const char *rules_text;
};

/* Starts the engine when it is not running: handshake, options, isready. */
static int player_ready(struct player *pl, long margin, char *why, size_t whylen)
{
    char line[1024];
    if (pl->proc.pid > 0)
        return 0;
    if (pl->proc.pid < 0)
        proc_close(&pl->proc);
    if (proc_start(&pl->proc, pl->spec->cmd, why, whylen) < 0)
        return -1;
    double deadline = now_ms() + (double)margin;
    if (proc_send(&pl->proc, "bep") < 0 ||
        proc_expect(&pl->proc, "bepok", deadline, "bep", why, whylen) < 0)
        goto fail;
    for (int i = 0; i < pl->spec->n_options; i++) {
        snprintf(line, sizeof line, "setoption name %s value %s", pl->spec->opt_name[i],
                 pl->spec->opt_value[i]);
        if (proc_send(&pl->proc, line) < 0)
            goto fail;
    }
    deadline = now_ms() + (double)margin;
    if (proc_send(&pl->proc, "isready") < 0 ||
        proc_expect(&pl->proc, "readyok", deadline, "isready", why, whylen) < 0)
        goto fail;
    return 0;
fail:
    if (!*why)
        snprintf(why, whylen, "closed its input");
    proc_close(&pl->proc);
    return -1;
}

static int player_newgame(struct player *pl, long margin, char *why, size_t whylen)
{
    char line[2048];
    if (player_ready(pl, margin, why, whylen) < 0)
        return -1;
    snprintf(line, sizeof line, "newgame%s%s", *pl->rules_text ? " rules " : "", pl->rules_text);
    if (proc_send(&pl->proc, line) < 0 || proc_send(&pl->proc, "isready") < 0) {
        proc_death(&pl->proc, why, whylen);
        proc_close(&pl->proc);
        return -1;
    }
    if (proc_expect(&pl->proc, "readyok", now_ms() + (double)margin, "newgame", why, whylen) < 0) {
        proc_close(&pl->proc);
        return -1;
    }
    return 0;
}

static void player_quit(struct player *pl)
{
    if (pl->proc.pid > 0) {
        proc_send(&pl->proc, "quit");
        double until = now_ms() + 500;
        while (now_ms() < until && waitpid(pl->proc.pid, NULL, WNOHANG) == 0) {
            struct timespec d = {0, 5000000};
            nanosleep(&d, NULL);
        }
        kill(-pl->proc.pid, SIGKILL);
        waitpid(pl->proc.pid, NULL, WNOHANG);
        children[pl->proc.slot] = 0;
        close(pl->proc.in);
        close(pl->proc.out);
        close(pl->proc.err);
        pl->proc.pid = 0;
    } else if (pl->proc.pid < 0) {
        proc_close(&pl->proc);
    }
}

/* ---------------------------------------------------------------- one game */

struct outcome {
    int result;         /* ball_result(), or for a forfeit the winner's */
    int forfeit_side;   /* -1, or the team that forfeited */
    char reason[REASON_MAX + 128];
};

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

/* ---------------------------------------------------------------- statistics */

static void update_stats(struct match *m)
{
    double elo, err;
    (void)elo;
    (void)err;
    if (m->cfg.sprt) {
        m->llr = sprt_llr_trinomial(SPRT_LOGISTIC, (double)m->w, (double)m->d, (double)m->l,
                                    m->cfg.elo0, m->cfg.elo1);
        m->llr_penta = sprt_llr_pentanomial(SPRT_LOGISTIC, m->pairs, m->cfg.elo0, m->cfg.elo1);
        if (m->llr >= m->upper || m->llr <= m->lower)
            m->stop = 1;
    }
}

/* Counts game @p idx (0-based) with engine 1 scoring @p s2 halves (0-2). */
static void count_game(struct match *m, long idx, int s2)
{
    m->played++;
    if (s2 == 2)
        m->w++;
    else if (s2 == 1)
        m->d++;
    else
        m->l++;
    m->a_score[idx] = (signed char)s2;
    long mate = idx ^ 1;
    if (mate < m->cfg.games && m->a_score[mate] >= 0)
        m->pairs[s2 + m->a_score[mate]] += 1;
    update_stats(m);
}

static void elo_text(const struct match *m, char *buf, size_t len)
{
    double elo, err;
    int rc = sprt_elo((double)m->w, (double)m->d, (double)m->l, &elo, &err);
    if (elo == 0)
        elo = 0; /* not -0.0 */
    if (rc < 0)
        snprintf(buf, len, "Elo %s", m->played ? (elo > 0 ? "+inf" : "-inf") : "-");
    else if (isinf(err))
        snprintf(buf, len, "Elo %+.1f +/- inf", elo);
    else
        snprintf(buf, len, "Elo %+.1f +/- %.1f", elo, err);
}

static void status_line(struct match *m)
{
    char elo[64];
    elo_text(m, elo, sizeof elo);
    double n = (double)m->played;
    fprintf(stderr, "%sgames %ld/%ld  %s vs %s: %ld-%ld-%ld (W-D-L)  score %.3f  %s",
            m->tty ? "\r\033[K" : "", m->played, m->cfg.games, m->cfg.eng[0].name,
            m->cfg.eng[1].name, m->w, m->d, m->l, n > 0 ? ((double)m->w + 0.5 * (double)m->d) / n : 0.5,
            elo);
    if (m->cfg.sprt)
        fprintf(stderr, "  LLR %.2f (%.2f, %.2f)", m->llr, m->lower, m->upper);
    fputs(m->tty ? "" : "\n", stderr);
    fflush(stderr);
}

/* ---------------------------------------------------------------- records */

static const char *limit_of(const struct config *c, char *buf, size_t len)
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

static int write_record(struct match *m, ball_game *g, long idx, const struct outcome *o,
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
static int resume(struct match *m)
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

/* ---------------------------------------------------------------- workers */

static void *worker(void *arg)
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

/* ---------------------------------------------------------------- output */

static void json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            putc(c, f);
    }
    putc('"', f);
}

static const char *sprt_verdict(const struct match *m)
{
    if (m->llr >= m->upper)
        return "H1";
    if (m->llr <= m->lower)
        return "H0";
    return "continue";
}

static void report_text(const struct match *m, FILE *f)
{
    char elo[64];
    double n = (double)m->played;
    elo_text(m, elo, sizeof elo);
    fprintf(f, "Match %s vs %s (%s, rules '%s'): %ld of %ld games\n", m->cfg.eng[0].name,
            m->cfg.eng[1].name, m->cfg.limit_text, m->cfg.rules_text, m->played, m->cfg.games);
    fprintf(f, "Score of %s vs %s: %ld - %ld - %ld (W-D-L)  %.3f\n", m->cfg.eng[0].name,
            m->cfg.eng[1].name, m->w, m->d, m->l,
            n > 0 ? ((double)m->w + 0.5 * (double)m->d) / n : 0.5);
    fprintf(f, "%s (95%%)\n", elo);
    fprintf(f, "Pairs (LL, LD, DD+WL, WD, WW): %.0f %.0f %.0f %.0f %.0f\n", m->pairs[0], m->pairs[1],
            m->pairs[2], m->pairs[3], m->pairs[4]);
    fprintf(f, "Ends: %ld touchdown, %ld turn limit, %ld forfeit (%s %ld, %s %ld), %ld adjudicated\n",
            m->term_touchdown, m->term_turnlimit, m->term_forfeit, m->cfg.eng[0].name,
            m->forfeits[0], m->cfg.eng[1].name, m->forfeits[1], m->term_adjudicated);
    if (m->cfg.sprt)
        fprintf(f, "SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.2f (%.2f, %.2f), pentanomial LLR %.2f: %s\n",
                m->cfg.elo0, m->cfg.elo1, m->cfg.alpha, m->cfg.beta, m->llr, m->lower, m->upper,
                m->llr_penta, sprt_verdict(m));
}

static int report_json(const struct match *m, const char *path)
{
    FILE *f = fopen(path, "w");
    double elo, err;
    if (f == NULL)
        return -1;
    int ok = sprt_elo((double)m->w, (double)m->d, (double)m->l, &elo, &err) == 0;
    if (elo == 0)
        elo = 0; /* not -0.0 */
    fputs("{\n  \"engines\": [", f);
    for (int i = 0; i < 2; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        json_string(f, m->cfg.eng[i].name);
        fputs(", \"cmd\": ", f);
        json_string(f, m->cfg.eng[i].cmd);
        fprintf(f, ", \"forfeits\": %ld}", m->forfeits[i]);
    }
    fputs("],\n  \"limit\": ", f);
    json_string(f, m->cfg.limit_text);
    fputs(",\n  \"rules\": ", f);
    json_string(f, m->cfg.rules_text);
    fprintf(f, ",\n  \"games\": %ld,\n  \"games_planned\": %ld,\n  \"wins\": %ld,\n  \"draws\": %ld,\n"
               "  \"losses\": %ld,\n  \"score\": %.4f,\n",
            m->played, m->cfg.games, m->w, m->d, m->l,
            m->played ? ((double)m->w + 0.5 * (double)m->d) / (double)m->played : 0.5);
    if (ok && !isinf(err))
        fprintf(f, "  \"elo\": %.2f,\n  \"elo_error95\": %.2f,\n", elo, err);
    else
        fputs("  \"elo\": null,\n  \"elo_error95\": null,\n", f);
    fprintf(f, "  \"pentanomial\": [%.0f, %.0f, %.0f, %.0f, %.0f],\n", m->pairs[0], m->pairs[1],
            m->pairs[2], m->pairs[3], m->pairs[4]);
    fprintf(f, "  \"ends\": {\"touchdown\": %ld, \"turn_limit\": %ld, \"forfeit\": %ld, \"adjudicated\": %ld},\n",
            m->term_touchdown, m->term_turnlimit, m->term_forfeit, m->term_adjudicated);
    if (m->cfg.sprt)
        fprintf(f, "  \"sprt\": {\"elo0\": %g, \"elo1\": %g, \"alpha\": %g, \"beta\": %g, \"llr\": %.4f, "
                   "\"llr_pentanomial\": %.4f, \"lower\": %.4f, \"upper\": %.4f, \"result\": \"%s\"}\n",
                m->cfg.elo0, m->cfg.elo1, m->cfg.alpha, m->cfg.beta, m->llr, m->llr_penta, m->lower,
                m->upper, sprt_verdict(m));
    else
        fputs("  \"sprt\": null\n", f);
    fputs("}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------- arguments */

static void usage(FILE *f)
{
    fputs("usage: ball match --engine cmd=CMD [name=NAME] [option.X=V ...] --engine ...\n"
          "                  [--games N] [--nodes N | --playouts N | --movetime MS | --tc MS[+INC]]\n"
          "                  [--concurrency K] [--openings FILE] [--rules TEXT]\n"
          "                  [--sprt elo0=A elo1=B [alpha=X] [beta=Y]] [--records FILE]\n"
          "                  [--json FILE] [--margin MS] [--max-decisions N]\n"
          "plays two BEP engines against each other (docs/match.md)\n",
          f);
}

static int bad(const char *fmt, ...)
{
    va_list ap;
    fputs("ball: match: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (ball match --help)\n", stderr);
    return EXIT_USAGE;
}

static int number(const char *opt, const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (s == NULL || end == s || *end || errno || v < min || v > max)
        return bad("%s needs a number from %ld to %ld, got '%.40s'", opt, min, max, s ? s : "");
    *out = v;
    return 0;
}

static int real(const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return bad("%s: '%.40s' is not a number", opt, s);
    *out = v;
    return 0;
}

static int parse_args(int argc, char **argv, struct config *c)
{
    int limit_given = 0;
    memset(c, 0, sizeof *c);
    c->games = 2;
    c->limit_kind = LIM_NODES;
    c->limit = 1000;
    c->concurrency = 1;
    c->rules_text = "turns=100";
    c->margin_ms = 5000;
    c->max_decisions = MAX_DECISIONS_DEFAULT;
    c->alpha = c->beta = 0.05;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n = 0;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return -1;
        }
        if (strcmp(a, "--engine") == 0) {
            if (c->n_engines == 2)
                return bad("give --engine exactly twice");
            struct engine_spec *e = &c->eng[c->n_engines++];
            e->limit_kind = -1;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                const char *w = argv[++i];
                if (strncmp(w, "cmd=", 4) == 0)
                    e->cmd = w + 4;
                else if (strncmp(w, "name=", 5) == 0)
                    e->name = w + 5;
                else if (strncmp(w, "nodes=", 6) == 0 || strncmp(w, "playouts=", 9) == 0 ||
                         strncmp(w, "movetime=", 9) == 0) {
                    const char *eq = strchr(w, '=');
                    if (e->limit_kind >= 0)
                        return bad("--engine: give one of nodes=, playouts=, movetime=");
                    if (number(w, eq + 1, 1, 2000000000, &e->limit))
                        return EXIT_USAGE;
                    e->limit_kind = w[0] == 'n' ? LIM_NODES : w[0] == 'p' ? LIM_PLAYOUTS : LIM_MOVETIME;
                }
                else if (strncmp(w, "option.", 7) == 0 && strchr(w, '=') && strchr(w, '=') > w + 7) {
                    if (e->n_options == MAX_OPTIONS)
                        return bad("at most %d options per engine", MAX_OPTIONS);
                    char *eq = strchr(w, '=');
                    *eq = '\0';
                    e->opt_name[e->n_options] = w + 7;
                    e->opt_value[e->n_options++] = eq + 1;
                } else {
                    return bad("--engine: expected cmd=CMD, name=NAME, option.X=V, nodes=N, "
                               "playouts=N or movetime=MS, got '%.40s'", w);
                }
            }
            if (e->cmd == NULL || !*e->cmd)
                return bad("--engine needs cmd=CMD");
            continue;
        }
        if (v == NULL)
            return bad("%s needs a value", a);
        i++;
        if (strcmp(a, "--games") == 0) {
            if (number(a, v, 1, 100000000, &c->games))
                return EXIT_USAGE;
        } else if (strcmp(a, "--nodes") == 0 || strcmp(a, "--playouts") == 0 ||
                   strcmp(a, "--movetime") == 0) {
            if (limit_given++)
                return bad("give one of --nodes, --playouts, --movetime, --tc");
            if (number(a, v, 1, 2000000000, &c->limit))
                return EXIT_USAGE;
            c->limit_kind = a[2] == 'n' ? LIM_NODES : a[2] == 'p' ? LIM_PLAYOUTS : LIM_MOVETIME;
        } else if (strcmp(a, "--tc") == 0) {
            char *end;
            if (limit_given++)
                return bad("give one of --nodes, --playouts, --movetime, --tc");
            c->limit_kind = LIM_TC;
            errno = 0;
            c->limit = strtol(v, &end, 10);
            c->tc_inc = 0;
            if (*end == '+')
                c->tc_inc = strtol(end + 1, &end, 10);
            if (end == v || *end || errno || c->limit < 1 || c->tc_inc < 0)
                return bad("--tc needs MS or MS+INC (milliseconds), got '%.40s'", v);
        } else if (strcmp(a, "--concurrency") == 0) {
            if (number(a, v, 1, 64, &n))
                return EXIT_USAGE;
            c->concurrency = (int)n;
        } else if (strcmp(a, "--openings") == 0) {
            c->openings_path = v;
        } else if (strcmp(a, "--records") == 0) {
            c->records_path = v;
        } else if (strcmp(a, "--json") == 0) {
            c->json_path = v;
        } else if (strcmp(a, "--rules") == 0) {
            c->rules_text = v;
        } else if (strcmp(a, "--margin") == 0) {
            if (number(a, v, 0, 3600000, &c->margin_ms))
                return EXIT_USAGE;
        } else if (strcmp(a, "--max-decisions") == 0) {
            if (number(a, v, 1, 100000000, &c->max_decisions))
                return EXIT_USAGE;
        } else if (strcmp(a, "--sprt") == 0) {
            int have0 = 0, have1 = 0;
            i--;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                const char *w = argv[++i];
                int rc = 0;
                if (strncmp(w, "elo0=", 5) == 0)
                    rc = real("--sprt elo0", w + 5, &c->elo0), have0 = 1;
                else if (strncmp(w, "elo1=", 5) == 0)
                    rc = real("--sprt elo1", w + 5, &c->elo1), have1 = 1;
                else if (strncmp(w, "alpha=", 6) == 0)
                    rc = real("--sprt alpha", w + 6, &c->alpha);
                else if (strncmp(w, "beta=", 5) == 0)
                    rc = real("--sprt beta", w + 5, &c->beta);
                else
                    return bad("--sprt: expected elo0=, elo1=, alpha= or beta=, got '%.40s'", w);
                if (rc)
                    return rc;
            }
            if (!have0 || !have1)
                return bad("--sprt needs elo0=A and elo1=B");
            if (!(c->elo0 < c->elo1))
                return bad("--sprt: elo0 must be below elo1");
            if (!(c->alpha > 0 && c->alpha < 0.5 && c->beta > 0 && c->beta < 0.5))
                return bad("--sprt: alpha and beta must lie between 0 and 0.5");
            c->sprt = 1;
        } else {
            return bad("unknown option '%.40s'", a);
        }
    }
    if (c->n_engines != 2)
        return bad("give --engine exactly twice");
    if (c->eng[0].name == NULL)
        c->eng[0].name = "engine1";
    if (c->eng[1].name == NULL)
        c->eng[1].name = "engine2";
    if (strcmp(c->eng[0].name, c->eng[1].name) == 0)
        return bad("the engines need different names (name=...)");
    for (int k = 0; k < 2; k++)
        if (strlen(c->eng[k].name) > 40)
            return bad("engine name '%.40s...' is longer than 40 bytes", c->eng[k].name);
    if (c->games % 2)
        c->games++;
    limit_of(c, c->limit_text, sizeof c->limit_text);
    for (int k = 0; k < 2; k++) {
        static const char *const KIND[] = {"nodes", "playouts", "movetime"};
        const struct engine_spec *e = &c->eng[k];
        size_t n = strlen(c->limit_text);
        if (e->limit_kind >= 0)
            snprintf(c->limit_text + n, sizeof c->limit_text - n, ", %s %s %ld", e->name,
                     KIND[e->limit_kind], e->limit);
    }
    return 0;
}

static int load_openings(struct match *m)
{
    ball_game *g = NULL;
    char err[256];
    if (ball_game_new(&g, &m->rules, err, sizeof err) < 0)
        return bad("--rules: %s", err);
    if (m->cfg.openings_path == NULL) {
        char bpn[BALL_BPN_MAX];
        ball_position_to_text(g, bpn, sizeof bpn);
        ball_game_free(g);
        m->openings = malloc(sizeof *m->openings);
        if (m->openings == NULL || (m->openings[0] = strdup(bpn)) == NULL)
            return bad("out of memory");
        m->n_openings = 1;
        return 0;
    }
    FILE *f = fopen(m->cfg.openings_path, "r");
    if (f == NULL) {
        ball_game_free(g);
        return bad("--openings %s: %s", m->cfg.openings_path, strerror(errno));
    }
    char *line = NULL;
    size_t cap = 0, lno = 0;
    ssize_t len;
    int rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        if (ball_position_from_text(g, s) < 0) {
            rc = bad("--openings %s: line %zu: %s", m->cfg.openings_path, lno, ball_errmsg(g));
            break;
        }
        if (ball_result(g) != BALL_ONGOING) {
            rc = bad("--openings %s: line %zu: the game is already over", m->cfg.openings_path, lno);
            break;
        }
        char **o = realloc(m->openings, sizeof *o * (size_t)(m->n_openings + 1));
        if (o == NULL || (o[m->n_openings] = strdup(s)) == NULL) {
            if (o)
                m->openings = o;
            rc = bad("out of memory");
            break;
        }
        m->openings = o;
        m->n_openings++;
    }
    free(line);
    fclose(f);
    ball_game_free(g);
    if (rc == 0 && m->n_openings == 0)
        rc = bad("--openings %s: no position in the file", m->cfg.openings_path);
    return rc;
}

int tool_match_main(int argc, char **argv)
{
    struct match m;
    char err[256];
    int rc;
    memset(&m, 0, sizeof m);
    if ((rc = parse_args(argc, argv, &m.cfg)) != 0)
        return rc < 0 ? 0 : rc;
    ball_rules_init(&m.rules, sizeof m.rules);
    if (ball_rules_from_text(&m.rules, &m.cards, m.cfg.rules_text, err, sizeof err) < 0)
        return bad("--rules: %s", err);
    if ((rc = load_openings(&m)) != 0)
        goto out;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    m.done = calloc((size_t)m.cfg.games, 1);
    m.a_score = malloc((size_t)m.cfg.games);
    if (m.done == NULL || m.a_score == NULL) {
        rc = bad("out of memory");
        goto out;
    }
    memset(m.a_score, -1, (size_t)m.cfg.games);
    pthread_mutex_init(&m.lock, NULL);
    m.tty = isatty(2);
    if (m.cfg.sprt)
        sprt_bounds(m.cfg.alpha, m.cfg.beta, &m.lower, &m.upper);
    if (m.cfg.records_path) {
        if (resume(&m) < 0) {
            rc = EXIT_USAGE;
            goto out;
        }
        m.records = fopen(m.cfg.records_path, "a");
        if (m.records == NULL) {
            rc = bad("--records %s: %s", m.cfg.records_path, strerror(errno));
            goto out;
        }
    }
    pthread_t th[64];
    int n_th = 0;
    for (int i = 0; i < m.cfg.concurrency; i++)
        if (pthread_create(&th[n_th], NULL, worker, &m) == 0)
            n_th++;
    if (n_th == 0) {
        rc = bad("cannot start a thread");
        goto out;
    }
    for (int i = 0; i < n_th; i++)
        pthread_join(th[i], NULL);
    if (m.tty)
        fputc('\n', stderr);
    report_text(&m, stdout);
    if (m.cfg.json_path && report_json(&m, m.cfg.json_path) < 0) {
        fprintf(stderr, "ball: match: --json %s: %s\n", m.cfg.json_path, strerror(errno));
        m.failed = 1;
    }
    rc = m.failed ? 1 : 0;
out:
    if (m.records)
        fclose(m.records);
    for (int i = 0; i < m.n_openings; i++)
        free(m.openings[i]);
    free(m.openings);
    free(m.done);
    free(m.a_score);
    ball_cardset_free(m.cards);
    return rc;
}
