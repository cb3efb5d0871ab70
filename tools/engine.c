/* SPDX-License-Identifier: MIT */
/*
 * ball engine — serves the library's searcher over BEP, the BALL engine
 * protocol (docs/protocol.md), on standard input and output.
 *
 * Two threads: this one reads and runs the commands; a search runs on a
 * thread of its own, so that `isready` and `stop` are answered while it
 * searches. Every line written goes through say(), under one lock, to
 * standard output and to the --log file. The searcher is seen only through
 * engine_searcher.h.
 */
#define _POSIX_C_SOURCE 200809L

#include "edit_distance.h"
#include "engine.h"
#include "engine_options.h"
#include "engine_searcher.h"
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 8191
#define MAX_WORDS 4096
#define ERR_LEN 512

struct engine {
    FILE *log;              /* --log, NULL when none or after a write error */
    const char *log_path;
    int log_failed;         /* a write to the log failed (reported once) */
    pthread_mutex_t out_lock;
    engine_searcher *searcher;
    ball_game *base; /* the standard start under the game's ruleset */
    ball_game *game; /* the current position */
    unsigned long line_no;
    /* the search */
    int searching;          /* a search thread exists (reader thread only) */
    pthread_t thread;
    ball_game *search_game; /* the position it searches (kept between searches) */
    int search_rules_stale; /* search_game has the rules of an older newgame */
    engine_limits lim;
    engine_result res;      /* its answer */
    atomic_int stop;        /* stop asked */
    atomic_int quiet;       /* quit: no bestdecision */
    atomic_int done;        /* the thread has finished */
};

/* ---------------------------------------------------------------- output */

/* Writes "@p dir TEXT" to the --log file (under out_lock). A failed write
 * is reported on standard error once, the log then closed: the session
 * goes on, and the exit status says that its log is incomplete. */
static void log_line(struct engine *e, const char *dir, const char *text, int len)
{
    if (e->log == NULL)
        return;
    if (fprintf(e->log, "%s %.*s\n", dir, len, text) >= 0 && fflush(e->log) == 0)
        return;
    fprintf(stderr, "ball: engine: --log %s: %s; the log stops here\n", e->log_path, strerror(errno));
    fclose(e->log);
    e->log = NULL;
    e->log_failed = 1;
}

static void say(struct engine *e, const char *fmt, ...)
{
    char buf[LINE_MAX_BYTES + 1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&e->out_lock);
    fputs(buf, stdout);
    putc('\n', stdout);
    fflush(stdout);
    log_line(e, "<", buf, (int)strlen(buf));
    pthread_mutex_unlock(&e->out_lock);
}

static void error_line(struct engine *e, const char *fmt, ...)
{
    char buf[ERR_LEN * 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    say(e, "info string error: %s", buf);
}

static void action_text(ball_action a, char *buf, size_t len)
{
    if (ball_action_to_text(a, buf, len) < 0)
        snprintf(buf, len, "?");
}

/* ---------------------------------------------------------------- search */

static void say_info(struct engine *e, const engine_info *info)
{
    uint64_t ms = (uint64_t)(info->elapsed_ms + 0.5);
    uint64_t nps = info->elapsed_ms > 0 ? (uint64_t)((double)info->nodes * 1000.0 / info->elapsed_ms) : 0;
    for (int i = 0; i < info->n_lines; i++) {
        const engine_line *l = &info->lines[i];
        char pv[ENGINE_MAX_PV * (BALL_ACTION_TEXT_MAX + 1) + 1] = "";
        size_t n = 0;
        for (int k = 0; k < l->n_pv; k++) {
            char t[BALL_ACTION_TEXT_MAX];
            action_text(l->pv[k], t, sizeof t);
            n += (size_t)snprintf(pv + n, sizeof pv - n, "%s%s", k ? " " : "", t);
        }
        say(e, "info depth %lld nodes %llu nps %llu time %llu multipv %d value %.3f visits %llu pv %s",
            (long long)info->depth, (unsigned long long)info->nodes, (unsigned long long)nps,
            (unsigned long long)ms, i + 1, l->value, (unsigned long long)l->visits, pv);
    }
}

static int on_info(void *ud, const engine_info *info)
{
    struct engine *e = ud;
    if (info != NULL && !atomic_load(&e->quiet))
        say_info(e, info);
    return atomic_load(&e->stop);
}

static void *search_main(void *arg)
{
    struct engine *e = arg;
    engine_result *res = &e->res;
    char err[ERR_LEN] = "";
    int rc = engine_searcher_run(e->searcher, e->search_game, &e->lim, on_info, e, res, err,
                                 sizeof err);
    /* Done before the answer: a client that has read bestdecision may send
     * position at once, and it must find the search over (busy()). */
    atomic_store(&e->done, 1);
    if (!atomic_load(&e->quiet)) {
        if (rc < 0) {
            error_line(e, "go: %s", err);
            say(e, "bestdecision none");
        } else {
            char line[ENGINE_MAX_PV * (BALL_ACTION_TEXT_MAX + 1) + 64], t[BALL_ACTION_TEXT_MAX];
            size_t n;
            action_text(res->best, t, sizeof t);
            n = (size_t)snprintf(line, sizeof line, "bestdecision %s", t);
            for (int k = 0; k < res->n_turn; k++) {
                action_text(res->turn[k], t, sizeof t);
                n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", k ? " " : " turn ", t);
            }
            say(e, "%s", line);
        }
    }
    return NULL;
}

/* Waits for the search thread (after asking it to stop when @p stop). */
static void join_search(struct engine *e, int stop)
{
    if (!e->searching)
        return;
    if (stop) {
        atomic_store(&e->stop, 1);
        engine_searcher_stop(e->searcher);
    }
    pthread_join(e->thread, NULL);
    e->searching = 0;
}

/* A search that ended by itself is joined; 1 when one still runs. */
static int busy(struct engine *e)
{
    if (e->searching && atomic_load(&e->done))
        join_search(e, 0);
    return e->searching;
}

/* ---------------------------------------------------------------- words */

struct words {
    int n;
    char *w[MAX_WORDS];
    const char *start[MAX_WORDS]; /* where each word begins in the line */
};

/* Splits @p line (modified) into words; the original is in @p orig. */
static int split(char *line, const char *orig, struct words *ws)
{
    ws->n = 0;
    for (char *p = line; *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (ws->n == MAX_WORDS)
            return -1;
        ws->start[ws->n] = orig + (p - line);
        ws->w[ws->n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
    return 0;
}

/* The rest of the original line from word @p i, without trailing blanks. */
static void rest_of_line(const struct words *ws, int i, const char *orig, char *buf, size_t len)
{
    if (i >= ws->n) {
        buf[0] = '\0';
        return;
    }
    size_t n = strlen(ws->start[i]);
    while (n > 0 && (ws->start[i][n - 1] == ' ' || ws->start[i][n - 1] == '\t'))
        n--;
    (void)orig;
    if (n >= len)
        n = len - 1;
    memcpy(buf, ws->start[i], n);
    buf[n] = '\0';
}

/* Words @p from to @p to - 1 of the original line, as written. */
static void span(const struct words *ws, int from, int to, char *buf, size_t len)
{
    if (from >= to) {
        buf[0] = '\0';
        return;
    }
    const char *a = ws->start[from];
    const char *b = ws->start[to - 1] + strlen(ws->w[to - 1]);
    size_t n = (size_t)(b - a);
    if (n >= len)
        n = len - 1;
    memcpy(buf, a, n);
    buf[n] = '\0';
}

/* Reads a decimal number 0..max; 0 or -1. */
static int parse_int(const char *s, int64_t max, int64_t *out)
{
    int64_t v = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        int d = *s - '0';
        if (v > (max - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static const char *const COMMAND_NAMES[] = {"bep", "isready", "setoption", "newgame", "position",
                                            "go", "stop", "quit"};
#define N_COMMAND_NAMES (sizeof COMMAND_NAMES / sizeof COMMAND_NAMES[0])

/* ---------------------------------------------------------------- commands */

static void cmd_bep(struct engine *e)
{
    const engine_option *opts;
    size_t n = engine_searcher_options(e->searcher, &opts);
    static const char *const TYPES[] = {"spin", "real", "check", "combo", "string"};
    say(e, "id name %s", engine_searcher_name(e->searcher));
    say(e, "id author the libball authors");
    for (size_t i = 0; i < n; i++) {
        const engine_option *o = &opts[i];
        char line[1024];
        size_t k = (size_t)snprintf(line, sizeof line, "option name %s type %s default %s", o->name,
                                    TYPES[o->type], *o->def ? o->def : "<empty>");
        if (o->min && o->max)
            k += (size_t)snprintf(line + k, sizeof line - k, " min %s max %s", o->min, o->max);
        if (o->vars) {
            char vars[512];
            snprintf(vars, sizeof vars, "%s", o->vars);
            for (char *v = strtok(vars, " "); v && k < sizeof line; v = strtok(NULL, " "))
                k += (size_t)snprintf(line + k, sizeof line - k, " var %s", v);
        }
        say(e, "%s", line);
    }
    say(e, "bepok");
}

static void cmd_setoption(struct engine *e, const struct words *ws, const char *orig)
{
    char value[LINE_MAX_BYTES + 1], err[ERR_LEN];
    int v = -1;
    for (int i = 1; i < ws->n; i++)
        if (strcmp(ws->w[i], "value") == 0) {
            v = i;
            break;
        }
    if (ws->n < 3 || strcmp(ws->w[1], "name") != 0) {
        error_line(e, "setoption: expected 'setoption name NAME value VALUE'");
        return;
    }
    if (v != 3) {
        error_line(e, "setoption: expected one option name then 'value VALUE'");
        return;
    }
    rest_of_line(ws, 4, orig, value, sizeof value);
    if (engine_searcher_set_option(e->searcher, ws->w[2], value, err, sizeof err) < 0)
        error_line(e, "setoption: %s", err);
}

static void cmd_newgame(struct engine *e, const struct words *ws, const char *orig)
{
    char text[LINE_MAX_BYTES + 1], err[ERR_LEN] = "";
    ball_rules rules;
    ball_cardset *cards = NULL;
    ball_game *g = NULL;
    if (ws->n >= 2 && strcmp(ws->w[1], "rules") != 0) {
        error_line(e, "newgame: expected 'rules TEXT' or nothing after newgame, got '%.40s'", ws->w[1]);
        return;
    }
    rest_of_line(ws, 2, orig, text, sizeof text);
    ball_rules_init(&rules, sizeof rules);
    if (ball_rules_from_text(&rules, &cards, text, err, sizeof err) < 0) {
        error_line(e, "newgame: bad rules: %s", err);
        return;
    }
    int rc = ball_game_new(&g, &rules, err, sizeof err);
    ball_cardset_free(cards);
    if (rc < 0) {
        error_line(e, "newgame: bad rules: %s", err);
        return;
    }
    ball_game *pos = NULL;
    if (ball_game_clone(&pos, g) < 0) {
        ball_game_free(g);
        error_line(e, "newgame: out of memory");
        return;
    }
    ball_game_free(e->base);
    ball_game_free(e->game);
    e->base = g;
    e->game = pos;
    e->search_rules_stale = 1;
    engine_searcher_new_game(e->searcher);
}

static void cmd_position(struct engine *e, const struct words *ws)
{
    ball_game *g = NULL;
    int i = 2, rc;
    if (ws->n < 2 || (strcmp(ws->w[1], "startpos") != 0 && strcmp(ws->w[1], "bpn") != 0)) {
        error_line(e, "position: expected 'startpos' or 'bpn BPN'");
        return;
    }
    if (ball_game_clone(&g, e->base) < 0) {
        error_line(e, "position: out of memory");
        return;
    }
    if (strcmp(ws->w[1], "bpn") == 0) {
        char bpn[LINE_MAX_BYTES + 1];
        int end = 2;
        while (end < ws->n && strcmp(ws->w[end], "decisions") != 0)
            end++;
        if (end == 2) {
            error_line(e, "position: 'bpn' needs a BPN");
            ball_game_free(g);
            return;
        }
        span(ws, 2, end, bpn, sizeof bpn);
        if (ball_position_from_text(g, bpn) < 0) {
            error_line(e, "position: bad BPN: %s", ball_errmsg(g));
            ball_game_free(g);
            return;
        }
        i = end;
    }
    if (i < ws->n) {
        if (strcmp(ws->w[i], "decisions") != 0) {
            error_line(e, "position: expected 'decisions' after startpos, got '%.40s'", ws->w[i]);
            ball_game_free(g);
            return;
        }
        for (int k = i + 1; k < ws->n; k++) {
            ball_action a;
            rc = ball_action_from_text(g, ws->w[k], &a);
            if (rc >= 0)
                rc = ball_apply(g, a);
            if (rc < 0) {
                error_line(e, "position: decision %d '%.40s': %s", k - i, ws->w[k], ball_errmsg(g));
                ball_game_free(g);
                return;
            }
        }
    }
    ball_game_free(e->game);
    e->game = g;
}

/* The words of `go` that take a number. */
static const char *const GO_KEYS[] = {"nodes", "playouts", "movetime", "depth", "multipv",
                                      "atime", "dtime", "ainc", "dinc", "movestogo"};
enum { K_NODES, K_PLAYOUTS, K_MOVETIME, K_DEPTH, K_MULTIPV, K_ATIME, K_DTIME, K_AINC, K_DINC,
       K_MTG, N_KEYS };

/* What a `go` says: its numbers (0 when not given) and infinite. */
struct go_words {
    int64_t val[N_KEYS];
    int seen[N_KEYS];
    int infinite;
};

/* The clamps of docs/protocol.md ("ball engine"): the protocol allows
 * larger numbers, the engine searches at most this much. */
#define MAX_MOVETIME_MS 86400000 /* a day: the library's largest time budget */
#define MAX_NODES 1000000000000LL /* 10^12: the library's largest node budget */

/* "unknown word 'nodse' (word 1); did you mean 'nodes'?" */
static void unknown_go_word(struct engine *e, const char *w, int i)
{
    const char *guess = options_nearest(w, GO_KEYS, N_KEYS, sizeof GO_KEYS[0]);
    if (guess == NULL && edit_distance(w, "infinite") <= 2)
        guess = "infinite";
    if (guess != NULL)
        error_line(e, "go: unknown word '%.40s' (word %d); did you mean '%s'?", w, i, guess);
    else
        error_line(e, "go: unknown word '%.40s' (word %d)", w, i);
}

/* Reads the words of a `go`; 0, or -1 after the error line. */
static int read_go(struct engine *e, const struct words *ws, struct go_words *g)
{
    memset(g, 0, sizeof *g);
    for (int i = 1; i < ws->n; i++) {
        int k = 0;
        if (strcmp(ws->w[i], "infinite") == 0) {
            if (g->infinite) {
                error_line(e, "go: 'infinite' given twice");
                return -1;
            }
            g->infinite = 1;
            continue;
        }
        while (k < N_KEYS && strcmp(ws->w[i], GO_KEYS[k]) != 0)
            k++;
        if (k == N_KEYS) {
            unknown_go_word(e, ws->w[i], i);
            return -1;
        }
        if (g->seen[k]) {
            error_line(e, "go: '%s' given twice", GO_KEYS[k]);
            return -1;
        }
        int64_t max = (k == K_NODES || k == K_PLAYOUTS) ? INT64_MAX : INT_MAX;
        int64_t min = (k == K_AINC || k == K_DINC) ? 0 : 1;
        if (k == K_MULTIPV)
            max = ENGINE_MAX_MULTIPV;
        if (i + 1 >= ws->n || parse_int(ws->w[i + 1], max, &g->val[k]) < 0 || g->val[k] < min) {
            error_line(e, "go: '%s' needs a number from %lld to %lld, got '%.40s'", GO_KEYS[k],
                       (long long)min, (long long)max, i + 1 < ws->n ? ws->w[i + 1] : "");
            return -1;
        }
        g->seen[k] = 1;
        i++;
    }
    return 0;
}

static int64_t at_most(int64_t v, int64_t max)
{
    return v > max ? max : v;
}

/* The limits of the search from the words of a `go`, clamped. */
static void go_limits(struct engine *e, const struct go_words *g)
{
    memset(&e->lim, 0, sizeof e->lim);
    e->lim.nodes = at_most(g->val[K_NODES], MAX_NODES);
    e->lim.playouts = at_most(g->val[K_PLAYOUTS], MAX_NODES);
    e->lim.movetime_ms = at_most(g->val[K_MOVETIME], MAX_MOVETIME_MS);
    e->lim.depth = g->val[K_DEPTH];
    e->lim.infinite = g->infinite;
    e->lim.multipv = g->seen[K_MULTIPV] ? (int)g->val[K_MULTIPV] : 1;
    int side = ball_side(e->game);
    int k_time = side == BALL_ATK ? K_ATIME : K_DTIME, k_inc = side == BALL_ATK ? K_AINC : K_DINC;
    if (g->seen[k_time]) {
        int64_t left = g->val[k_time], mtg = g->seen[K_MTG] ? g->val[K_MTG] : 30;
        int64_t t = left / mtg + g->val[k_inc] * 3 / 4;
        if (t > left / 2)
            t = left / 2;
        t = at_most(t < 1 ? 1 : t, MAX_MOVETIME_MS);
        if (e->lim.movetime_ms == 0 || t < e->lim.movetime_ms)
            e->lim.movetime_ms = t;
    }
}

/* The searched game: the current position under the current rules (the
 * search needs no history), made anew only after a newgame. 0 or -1. */
static int search_position(struct engine *e)
{
    char bpn[BALL_BPN_MAX];
    if (e->search_game == NULL || e->search_rules_stale) {
        ball_game_free(e->search_game);
        e->search_game = NULL;
        if (ball_game_clone(&e->search_game, e->base) < 0) {
            error_line(e, "go: out of memory");
            return -1;
        }
        e->search_rules_stale = 0;
    }
    if (ball_position_to_text(e->game, bpn, sizeof bpn) < 0 ||
        ball_position_from_text(e->search_game, bpn) < 0) {
        error_line(e, "go: %s", ball_errmsg(e->search_game));
        return -1;
    }
    return 0;
}

static void cmd_go(struct engine *e, const struct words *ws)
{
    struct go_words g;
    if (read_go(e, ws, &g) < 0)
        return;
    if (ball_result(e->game) != BALL_ONGOING) {
        error_line(e, "go: the game is over");
        say(e, "bestdecision none");
        return;
    }
    go_limits(e, &g);
    if (search_position(e) < 0)
        return;
    atomic_store(&e->stop, 0);
    atomic_store(&e->done, 0);
    atomic_store(&e->quiet, 0);
    if (pthread_create(&e->thread, NULL, search_main, e) != 0) {
        error_line(e, "go: cannot start the search thread");
        say(e, "bestdecision none");
        return;
    }
    e->searching = 1;
}

/* 1 when @p cmd is a command of the protocol; else 0 after the error
 * line, with the nearest command when one is near. */
static int known_command(struct engine *e, const char *cmd)
{
    for (size_t k = 0; k < N_COMMAND_NAMES; k++)
        if (strcmp(cmd, COMMAND_NAMES[k]) == 0)
            return 1;
    const char *best = options_nearest(cmd, COMMAND_NAMES, N_COMMAND_NAMES, sizeof COMMAND_NAMES[0]);
    if (best)
        error_line(e, "line %lu: unknown command '%.40s'; did you mean '%s'?", e->line_no, cmd, best);
    else
        error_line(e, "line %lu: unknown command '%.40s'", e->line_no, cmd);
    return 0;
}

/* Runs one line; returns 1 for quit. */
static int run_line(struct engine *e, char *line)
{
    struct words ws;
    char orig[LINE_MAX_BYTES + 1];
    snprintf(orig, sizeof orig, "%s", line);
    if (split(line, orig, &ws) < 0) {
        error_line(e, "line %lu: too many words", e->line_no);
        return 0;
    }
    if (ws.n == 0)
        return 0;
    const char *cmd = ws.w[0];
    if (strcmp(cmd, "quit") == 0)
        return 1;
    if (strcmp(cmd, "isready") == 0) {
        say(e, "readyok");
        return 0;
    }
    if (strcmp(cmd, "bep") == 0) {
        cmd_bep(e);
        return 0;
    }
    if (strcmp(cmd, "stop") == 0) {
        join_search(e, 1);
        return 0;
    }
    if (!known_command(e, cmd))
        return 0;
    if (busy(e)) {
        error_line(e, "%s: a search is running (send stop first)", cmd);
        return 0;
    }
    if (strcmp(cmd, "setoption") == 0)
        cmd_setoption(e, &ws, orig);
    else if (strcmp(cmd, "newgame") == 0)
        cmd_newgame(e, &ws, orig);
    else if (strcmp(cmd, "position") == 0)
        cmd_position(e, &ws);
    else if (strcmp(cmd, "go") == 0)
        cmd_go(e, &ws);
    return 0;
}

static void usage(FILE *out)
{
    fputs("usage: ball engine [--searcher search|mcts] [--eval network|hand] [--net FILE] [--log FILE]\n"
          "serves a library searcher over BEP (docs/protocol.md) on standard input/output:\n"
          "the turn search (search, the default) or the Monte-Carlo tree search (mcts);\n"
          "--eval: the turn search evaluates with the network the library carries\n"
          "(network, the default) or the hand-written evaluation (hand) (option Eval);\n"
          "--net FILE: the turn search evaluates with the network FILE (option EvalFile)\n",
          out);
}

/* The options of `ball engine`, their values by index. */
enum { ARG_SEARCHER, ARG_NET, ARG_LOG, ARG_HELP, ARG_EVAL, N_ARGS };
static const struct option ENGINE_OPTIONS[N_ARGS + 1] = {
    {"searcher", required_argument, NULL, 0}, {"net", required_argument, NULL, 0},
    {"log", required_argument, NULL, 0},      {"help", no_argument, NULL, 0},
    {"eval", required_argument, NULL, 0},     {NULL, 0, NULL, 0},
};

/* Reads the options (argv[0] is "engine") into @p value; 0, -1 after
 * --help, or an exit status after the message. */
static int engine_args(int argc, char **argv, const char *value[N_ARGS])
{
    char msg[160], *v;
    int k;
    optind = 0;
    while ((k = options_next(argc, argv, ENGINE_OPTIONS, &v, msg, sizeof msg)) >= 0) {
        if (k == ARG_HELP) {
            usage(stdout);
            return -1;
        }
        if (value[k] != NULL) {
            snprintf(msg, sizeof msg, "option --%s given twice", ENGINE_OPTIONS[k].name);
            k = OPT_ERROR;
            break;
        }
        value[k] = v;
    }
    if (k == OPT_END && optind < argc) {
        snprintf(msg, sizeof msg, "unexpected argument '%.40s'", argv[optind]);
        k = OPT_ERROR;
    }
    if (k == OPT_ERROR) {
        fprintf(stderr, "ball: engine: %s\n", msg);
        usage(stderr);
        return 2;
    }
    return 0;
}

/* The log, the searcher (with --net's network) and the start position;
 * 0, or an exit status after the message (what was made is freed by
 * engine_close()). */
static int engine_open(struct engine *e, const char *value[N_ARGS])
{
    char err[ERR_LEN] = "";
    const engine_option *opts;
    e->log_path = value[ARG_LOG];
    if (e->log_path && (e->log = fopen(e->log_path, "a")) == NULL) {
        fprintf(stderr, "ball: engine: --log %s: %s\n", e->log_path, strerror(errno));
        return 2;
    }
    int rc = engine_searcher_new(&e->searcher, value[ARG_SEARCHER], err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "ball: engine: %s\n", err);
        return rc == -2 ? 2 : 1;
    }
    size_t n_opts = engine_searcher_options(e->searcher, &opts);
    if (value[ARG_NET] != NULL && engine_option_find(opts, n_opts, "EvalFile", err, sizeof err) < 0) {
        fprintf(stderr, "ball: engine: --net: only the turn search (--searcher search) takes a network\n");
        return 2;
    }
    if (value[ARG_EVAL] != NULL && engine_option_find(opts, n_opts, "Eval", err, sizeof err) < 0) {
        fprintf(stderr, "ball: engine: --eval: only the turn search (--searcher search) has an evaluation to choose\n");
        return 2;
    }
    if (value[ARG_EVAL] != NULL &&
        engine_searcher_set_option(e->searcher, "Eval", value[ARG_EVAL], err, sizeof err) < 0) {
        fprintf(stderr, "ball: engine: --eval: %s\n", err);
        return 2;
    }
    if (value[ARG_NET] != NULL &&
        engine_searcher_set_option(e->searcher, "EvalFile", value[ARG_NET], err, sizeof err) < 0) {
        fprintf(stderr, "ball: engine: --net: %s\n", err);
        return 2;
    }
    if (ball_game_new(&e->base, NULL, err, sizeof err) < 0 || ball_game_clone(&e->game, e->base) < 0) {
        fprintf(stderr, "ball: engine: %s\n", *err ? err : "out of memory");
        return 1;
    }
    return 0;
}

/* Reads and runs the command lines until quit or the end of the input. */
static void engine_loop(struct engine *e)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        e->line_no++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        pthread_mutex_lock(&e->out_lock);
        log_line(e, ">", line, len > LINE_MAX_BYTES ? 64 : (int)len);
        pthread_mutex_unlock(&e->out_lock);
        if (len > LINE_MAX_BYTES) {
            error_line(e, "line %lu: line longer than %d bytes", e->line_no, LINE_MAX_BYTES);
            continue;
        }
        if (strlen(line) != (size_t)len) {
            error_line(e, "line %lu: a NUL byte in the line", e->line_no);
            continue;
        }
        if (run_line(e, line))
            break;
    }
    free(line);
}

/* Ends the search and frees everything; the exit status: 1 when the log
 * could not be written. */
static int engine_close(struct engine *e)
{
    atomic_store(&e->quiet, 1);
    join_search(e, 1);
    engine_searcher_free(e->searcher);
    ball_game_free(e->base);
    ball_game_free(e->game);
    ball_game_free(e->search_game);
    if (e->log && fclose(e->log) != 0 && !e->log_failed) {
        fprintf(stderr, "ball: engine: --log %s: %s\n", e->log_path, strerror(errno));
        e->log_failed = 1;
    }
    return e->log_failed ? 1 : 0;
}

int tool_engine_main(int argc, char **argv)
{
    const char *value[N_ARGS] = {NULL};
    struct engine e;
    int rc = engine_args(argc, argv, value);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    memset(&e, 0, sizeof e);
    pthread_mutex_init(&e.out_lock, NULL);
    atomic_init(&e.stop, 0);
    atomic_init(&e.quiet, 0);
    atomic_init(&e.done, 0);
    if ((rc = engine_open(&e, value)) == 0)
        engine_loop(&e);
    int closed = engine_close(&e);
    pthread_mutex_destroy(&e.out_lock);
    return rc ? rc : closed;
}
