/* SPDX-License-Identifier: MIT */
/*
 * engine_searcher over the library's turn search (ball_search_*), the
 * strongest player and the searcher `ball engine` serves.
 *
 * The searcher is kept between the searches of a game, so that its
 * transposition table carries what one decision's search found into the
 * next (a turn is several decisions); `newgame` clears it. It is made anew
 * only when a setting or the limits of a `go` change (ball_search_config is
 * fixed at creation). A `go` maps onto the config: `nodes` (or `playouts`,
 * the same count for this searcher) -> nodes, `movetime` -> time_ms,
 * `depth` -> depth in turns, `multipv` -> multipv; a `go` with none of them
 * searches the option Nodes' budget, and `go infinite` searches to the
 * deepest depth and then waits for `stop`, as the protocol asks.
 *
 * Values: the library's [-1, 1] for the coach to act becomes the protocol's
 * 0-1 by (v + 1) / 2. The stop request is this file's own flag, polled by
 * the search's info callback every few milliseconds, so that a stop sent
 * before the run has begun is not lost (a run clears ball_search_stop()'s
 * request when it starts). docs/protocol.md ("ball engine") documents this.
 *
 * Eval chooses the evaluation the searcher is made with
 * (ball_search_config::eval): `network`, the network the library carries
 * (the default), or `hand`, the hand-written one. EvalFile names a network
 * file (docs/network-format.md): the file is read and loaded when the
 * option is set (a bad file is refused then, the option unchanged), and
 * the search evaluates its leaves with it instead of Eval's
 * (ball_search_set_eval(), experimental); the empty text goes back to
 * Eval's.
 */
#define _POSIX_C_SOURCE 200809L
#define BALL_EXPERIMENTAL /* ball_net_*, ball_search_set_eval() */

#include "engine_searcher.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OPT_NODES, OPT_HASH, OPT_THREADS, OPT_SEED, OPT_EVAL, OPT_EVALFILE, N_OPT };

static const engine_option OPTIONS[N_OPT] = {
    {"Nodes", ENGINE_OPT_SPIN, "200000", "1", "1000000000000", NULL},
    {"Hash", ENGINE_OPT_SPIN, "16", "1", "65536", NULL},
    {"Threads", ENGINE_OPT_SPIN, "1", "1", "64", NULL},
    {"Seed", ENGINE_OPT_SPIN, "1", "0", "18446744073709551615", NULL},
    /* the words in the order of enum ball_search_evaluation (ball.h) */
    {"Eval", ENGINE_OPT_COMBO, "network", NULL, NULL, "network hand"},
    {"EvalFile", ENGINE_OPT_STRING, "", NULL, NULL, NULL},
};

/* The largest network file EvalFile reads (the format's largest is 42 MB). */
#define MAX_NET_FILE (64L << 20)

/* How often the search calls back, to poll the stop flag (ms), and how
 * often that becomes an `info` line between the ends of depths (ms). */
enum { POLL_MS = 5, INFO_MS = 250 };

struct search_state {
    engine_searcher *owner;   /* for the stop flag, in the callback */
    ball_net *net;            /* EvalFile's network, or NULL */
    ball_search *search;      /* kept between searches of a game */
    ball_search_config cfg;   /* its settings */
    /* the current run's callback state */
    engine_info_fn info_fn;
    void *info_ud;
    engine_info info;
    int last_depth;
    double last_report;
    ball_search_line lines[ENGINE_MAX_MULTIPV];
};

static void search_free(void *state)
{
    struct search_state *t = state;
    ball_search_free(t->search);
    ball_net_free(t->net);
}

/* Opens @p path for reading if it is a regular file: without blocking
 * (O_NONBLOCK: a FIFO with no writer would hold the engine's command loop,
 * isready and quit unanswered, in open() or read()). NULL with a message. */
static FILE *open_regular(const char *path, long *len, char *err, size_t errlen)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "EvalFile '%.200s': %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "EvalFile '%.200s': not a regular file", path);
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "EvalFile '%.200s': %s", path, strerror(errno));
        close(fd);
    }
    *len = st.st_size > LONG_MAX ? LONG_MAX : (long)st.st_size;
    return f;
}

/* Reads and loads the network file @p path into @p *out; 0, or -1 with a
 * message naming the file. */
static int load_net_file(const char *path, ball_net **out, char *err, size_t errlen)
{
    unsigned char *data = NULL;
    long len = -1;
    char why[256];
    FILE *f = open_regular(path, &len, err, errlen);
    *out = NULL;
    if (f == NULL)
        return -1;
    if (len > MAX_NET_FILE) {
        snprintf(err, errlen, "EvalFile '%.200s': %ld bytes, at most %ld", path, len, MAX_NET_FILE);
        fclose(f);
        return -1;
    }
    data = malloc(len > 0 ? (size_t)len : 1);
    if (data == NULL || fread(data, 1, (size_t)len, f) != (size_t)len) {
        snprintf(err, errlen, "EvalFile '%.200s': %s", path, data ? "read error" : "out of memory");
        free(data);
        fclose(f);
        return -1;
    }
    fclose(f);
    int rc = ball_net_load(out, data, (size_t)len, why, sizeof why);
    free(data);
    if (rc != BALL_OK) {
        snprintf(err, errlen, "EvalFile '%.200s': %s", path, why);
        return -1;
    }
    return 0;
}

/* EvalFile: the network is loaded when the option is set. */
static int search_set_string(engine_searcher *s, void *state, int k, const char *value,
                             char *err, size_t errlen)
{
    struct search_state *t = state;
    ball_net *net = NULL;
    (void)s;
    (void)k; /* EvalFile, the one string option */
    if (*value != '\0' && strcmp(value, "<empty>") != 0 &&
        load_net_file(value, &net, err, errlen) < 0)
        return -1;
    ball_net_free(t->net);
    t->net = net;
    if (t->search != NULL)
        ball_search_set_eval(t->search, net ? ball_net_search_eval : NULL, net);
    return 0;
}

static void search_new_game(void *state)
{
    struct search_state *t = state;
    if (t->search != NULL)
        ball_search_clear(t->search);
}

static double to_protocol(double v)
{
    return (v + 1.0) / 2.0;
}

static void copy_pv(engine_line *l, const ball_action *pv, int n)
{
    if (n > ENGINE_MAX_PV)
        n = ENGINE_MAX_PV;
    l->n_pv = n < 0 ? 0 : n;
    if (n > 0)
        memcpy(l->pv, pv, (size_t)n * sizeof *pv);
}

/* The search's callback: a poll of the stop flag every POLL_MS, an `info`
 * at the end of each depth and every INFO_MS. */
static int on_search_info(void *ud, const ball_search_info *bi)
{
    struct search_state *s = ud;
    double t = engine_now_ms();
    if (s->info_fn != NULL && (bi->depth != s->last_depth || t - s->last_report >= INFO_MS)) {
        engine_info *info = &s->info;
        s->last_depth = bi->depth;
        s->last_report = t;
        info->depth = bi->depth;
        info->nodes = bi->nodes;
        info->elapsed_ms = bi->elapsed_ms;
        info->n_lines = 1;
        info->lines[0].value = to_protocol(bi->value);
        info->lines[0].visits = 0;
        copy_pv(&info->lines[0], bi->pv, bi->pv_len);
        if (info->lines[0].n_pv > 0 && s->info_fn(s->info_ud, info))
            return 1;
    } else if (s->info_fn != NULL && s->info_fn(s->info_ud, NULL)) {
        return 1;
    }
    return engine_searcher_stopped(s->owner);
}

/* The searcher for @p cfg: the kept one when its settings are the same. */
static int searcher_for(struct search_state *s, const ball_search_config *cfg, char *err,
                        size_t errlen)
{
    if (s->search != NULL && s->cfg.nodes == cfg->nodes && s->cfg.time_ms == cfg->time_ms &&
        s->cfg.depth == cfg->depth && s->cfg.threads == cfg->threads &&
        s->cfg.seed == cfg->seed && s->cfg.multipv == cfg->multipv &&
        s->cfg.hash_mb == cfg->hash_mb && s->cfg.eval == cfg->eval)
        return 0;
    ball_search_free(s->search);
    s->search = NULL;
    if (ball_search_new(&s->search, cfg, err, errlen) < 0)
        return -1;
    if (s->net != NULL)
        ball_search_set_eval(s->search, ball_net_search_eval, s->net);
    s->cfg = *cfg;
    return 0;
}

static void config_for(const engine_searcher *s, const engine_limits *lim, int multipv,
                       ball_search_config *cfg)
{
    ball_search_config_init(cfg, sizeof *cfg);
    cfg->nodes = 0;
    cfg->hash_mb = (int)engine_searcher_spin(s, OPT_HASH);
    cfg->threads = (int)engine_searcher_spin(s, OPT_THREADS);
    cfg->seed = engine_searcher_spin(s, OPT_SEED);
    cfg->eval = engine_searcher_spin(s, OPT_EVAL) == 0 ? BALL_EVAL_NETWORK : BALL_EVAL_HAND;
    cfg->multipv = multipv;
    cfg->info = on_search_info;
    cfg->info_every_ms = POLL_MS;
    if (lim->infinite) {
        cfg->depth = 64; /* the deepest the search goes; then wait for stop */
        return;
    }
    if (lim->nodes > 0)
        cfg->nodes = (uint64_t)lim->nodes;
    if (lim->playouts > 0 && (cfg->nodes == 0 || (uint64_t)lim->playouts < cfg->nodes))
        cfg->nodes = (uint64_t)lim->playouts;
    /* the engine clamps movetime and nodes (docs/protocol.md); the
     * deepest the search goes is 64 turns */
    cfg->time_ms = (int)lim->movetime_ms;
    cfg->depth = (int)(lim->depth > 64 ? 64 : lim->depth);
    if (cfg->nodes == 0 && cfg->time_ms == 0 && cfg->depth == 0)
        cfg->nodes = engine_searcher_spin(s, OPT_NODES);
}

/* The answer: the lines of the run (up to multipv) and the rest of the
 * best turn. */
static void fill_result(struct search_state *s, const ball_search_result *r, int multipv,
                        engine_result *out)
{
    engine_info *info = &out->info;
    ball_action turn[BALL_SEARCH_PV_MAX];
    int n = 0;
    for (int i = 0; i < multipv; i++)
        ball_search_line_init(&s->lines[i], sizeof s->lines[i]);
    n = ball_search_lines(s->search, s->lines, (size_t)multipv);
    if (n > multipv)
        n = multipv;
    out->best = r->best;
    info->depth = r->depth;
    info->nodes = r->nodes;
    info->elapsed_ms = r->elapsed_ms;
    info->n_lines = n > 0 ? n : 1;
    for (int i = 0; i < n; i++) {
        info->lines[i].value = to_protocol(s->lines[i].value);
        info->lines[i].visits = s->lines[i].nodes;
        copy_pv(&info->lines[i], s->lines[i].pv, s->lines[i].pv_len);
    }
    if (n <= 0) { /* answered at once: one legal decision */
        info->lines[0].value = to_protocol(r->value);
        copy_pv(&info->lines[0], &r->best, 1);
    }
    int t = ball_search_best_turn(s->search, turn, BALL_SEARCH_PV_MAX);
    out->n_turn = 0;
    if (t > 1 && turn[0] == r->best) {
        out->n_turn = t - 1 > ENGINE_MAX_PV ? ENGINE_MAX_PV : t - 1;
        memcpy(out->turn, turn + 1, (size_t)out->n_turn * sizeof *turn);
    }
}

static int search_run(engine_searcher *s, void *state, ball_game *game, const engine_limits *lim,
                      int multipv, engine_info_fn info_fn, void *ud, engine_result *out, char *err,
                      size_t errlen)
{
    struct search_state *t = state;
    ball_search_config cfg;
    ball_search_result r;

    config_for(s, lim, multipv, &cfg);
    cfg.info_ud = t;
    if (searcher_for(t, &cfg, err, errlen) < 0)
        return -1;
    t->owner = s;
    t->info_fn = info_fn;
    t->info_ud = ud;
    t->last_depth = -1;
    t->last_report = engine_now_ms();
    ball_search_result_init(&r, sizeof r);
    if (ball_search_run(t->search, game, &r) < 0) {
        snprintf(err, errlen, "%s", ball_errmsg(game));
        return -1;
    }
    fill_result(t, &r, multipv, out);
    if (info_fn != NULL)
        info_fn(ud, &out->info);
    return 0;
}

/* The tool links the static library: its version is the header's. */
const engine_backend engine_backend_search = {
    "search", "libball search " BALL_VERSION_STRING, OPTIONS, N_OPT, sizeof(struct search_state),
    search_set_string, search_new_game, search_free, search_run,
};
