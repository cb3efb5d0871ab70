/* SPDX-License-Identifier: MIT */
/* The turn search's lifecycle and configuration (search.h): the searcher,
 * its table, workers and threads made and freed, the caller's hooks; and
 * a run, ball_search_run(): the main thread's iterative deepening
 * (root.c) with the helpers (thread.c) beside it. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_search_set_eval(), ball_search_set_prior() */

#include <stdlib.h>
#include <string.h>

#include "tt.h"
#include "config_check.h"
#include "err_text.h"
#include "sized.h"
#include "nnue/net.h"
#include "nnue/default_net.h"

/* ---------------------------------------------------------------- config */

/* The sizeof of every published layout (docs/abi.md): 1.1 is the first. */
static const size_t CONFIG_SIZES[] = {sizeof(ball_search_config)};
static const size_t RESULT_SIZES[] = {sizeof(ball_search_result)};
#define N_SIZES(a) (sizeof a / sizeof a[0])

void ball_search_config_init(ball_search_config *cfg, size_t size)
{
    /* no time or depth limit, no info callback */
    static const ball_search_config DEFAULTS = {
        .nodes = 200000, .threads = 1, .seed = 1, .multipv = 1, .hash_mb = 16,
    };
    if (cfg != NULL)
        sized_defaults_init(cfg, size, &DEFAULTS, sizeof DEFAULTS);
}

void ball_search_result_init(ball_search_result *r, size_t size)
{
    if (r != NULL)
        sized_zero_init(r, size, sizeof(ball_search_result));
}

void ball_search_line_init(ball_search_line *line, size_t size)
{
    if (line != NULL)
        sized_zero_init(line, size, sizeof(ball_search_line));
}

static int fail(char *err, size_t errlen, int code, const char *msg)
{
    return err_text(err, errlen, code, "search: %s", msg);
}

/* A searcher needs a budget. */
static int has_budget(const void *cfg)
{
    const ball_search_config *c = cfg;
    return c->nodes != 0 || c->time_ms != 0 || c->depth != 0;
}

/* The ranges of ball_search_config (ball.h), in the order they are
 * checked (config_check.h). */
#define SEARCH_RANGE(kind, field, lo, hi) CFG_RANGE(ball_search_config, kind, field, lo, hi, BALL_E_ARG)
static const struct cfg_rule CONFIG_RULES[] = {
    SEARCH_RANGE(CFG_U64, nodes, 0, 1e12),
    SEARCH_RANGE(CFG_INT, time_ms, 0, DAY_MS),
    SEARCH_RANGE(CFG_INT, depth, 0, MAX_DEPTH),
    CFG_TEST(has_budget, "no budget: set nodes, time_ms or depth", BALL_E_ARG),
    SEARCH_RANGE(CFG_INT, threads, 1, 64),
    SEARCH_RANGE(CFG_INT, multipv, 1, 256),
    SEARCH_RANGE(CFG_INT, hash_mb, 1, 65536),
    SEARCH_RANGE(CFG_INT, info_every_ms, 0, DAY_MS),
    SEARCH_RANGE(CFG_INT, eval, BALL_EVAL_NETWORK, BALL_EVAL_HAND),
};
static const struct cfg_spec CONFIG = {
    "search", "ball_search_config", CONFIG_SIZES, N_SIZES(CONFIG_SIZES), CONFIG_RULES, N_SIZES(CONFIG_RULES),
};

/* The buffers of one worker; 0 or BALL_E_NOMEM. */
static int worker_alloc(struct worker *w)
{
    w->acts = malloc((size_t)MAX_PLY * BALL_MAX_ACTIONS * sizeof *w->acts);
    w->scores = malloc((size_t)MAX_PLY * BALL_MAX_ACTIONS * sizeof *w->scores);
    w->history = calloc(2, sizeof *w->history);
    w->root = malloc(BALL_MAX_ACTIONS * sizeof *w->root);
    w->prior_buf = malloc(BALL_MAX_ACTIONS * sizeof *w->prior_buf);
    w->nacc = malloc(sizeof *w->nacc);
    if (w->nacc != NULL)
        net_acc_reset(w->nacc);
    w->line_pv = malloc(BALL_MAX_ACTIONS * sizeof *w->line_pv);
    w->line_pv_len = calloc(BALL_MAX_ACTIONS, sizeof *w->line_pv_len);
    if (w->acts == NULL || w->scores == NULL || w->history == NULL || w->root == NULL ||
        w->prior_buf == NULL || w->nacc == NULL || w->line_pv == NULL || w->line_pv_len == NULL)
        return BALL_E_NOMEM;
    return BALL_OK;
}

static void worker_free(struct worker *w)
{
    free(w->acts);
    free(w->scores);
    free(w->history);
    free(w->root);
    free(w->prior_buf);
    free(w->nacc);
    free(w->line_pv);
    free(w->line_pv_len);
}

/* The evaluation ball_search_config::eval chose: for the network, the
 * searcher's own copy of the one the library carries (default_net.h),
 * evaluated through the hook that the search updates incrementally. */
static int own_eval(ball_search *s, char *err, size_t errlen)
{
    char why[160];
    int rc;
    if (s->cfg.eval != BALL_EVAL_NETWORK)
        return BALL_OK;
    rc = ball_net_load(&s->own_net, nnue_default_net, nnue_default_net_len, why, sizeof why);
    if (rc != BALL_OK) /* out of memory: the file is checked by tests/meta/embedded_net_test.sh */
        return err_text(err, errlen, rc, "search: the built-in network: %s", why);
    s->eval_fn = ball_net_search_eval;
    s->eval_ud = s->own_net;
    return BALL_OK;
}

int ball_search_new(ball_search **out, const ball_search_config *cfg, char *err, size_t errlen)
{
    ball_search_config c;
    ball_search *s;
    size_t entries;
    int rc;

    if (out != NULL)
        *out = NULL;
    ball_search_config_init(&c, sizeof c);
    if ((rc = cfg_read(out != NULL, &c, sizeof c, cfg, &CONFIG, err, errlen)) != BALL_OK)
        return rc;

    entries = tt_entries(c.hash_mb);
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return fail(err, errlen, BALL_E_NOMEM, "out of memory for the searcher");
    s->cfg = c;
    s->n_workers = SEARCH_THREADS ? c.threads : 1;
    s->tt_mask = entries - 1;
    atomic_init(&s->stop, 0);
    atomic_init(&s->halt, 0);
    s->tt = calloc(entries, sizeof *s->tt);
    s->w = calloc((size_t)s->n_workers, sizeof *s->w);
    s->helper_game = calloc((size_t)s->n_workers, sizeof *s->helper_game);
    if (s->tt == NULL || s->w == NULL || s->helper_game == NULL) {
        ball_search_free(s);
        return fail(err, errlen, BALL_E_NOMEM, "out of memory for the transposition table");
    }
    for (int i = 0; i < s->n_workers; i++) {
        struct worker *w = &s->w[i];
        w->id = i;
        w->owner = s;
        w->stop = &s->stop;
        w->halt = &s->halt;
        if (worker_alloc(w) != BALL_OK ||
            (i > 0 && (ball_game_new(&s->helper_game[i], NULL, NULL, 0) != BALL_OK ||
                       ball_history_reserve(s->helper_game[i], MAX_PLY + 8) != BALL_OK))) {
            ball_search_free(s);
            return fail(err, errlen, BALL_E_NOMEM, "out of memory for the search buffers");
        }
    }
    if ((rc = own_eval(s, err, errlen)) != BALL_OK) {
        ball_search_free(s);
        return rc;
    }
    rc = threads_start(s);
    if (rc != BALL_OK) {
        ball_search_free(s);
        return fail(err, errlen, BALL_E_NOMEM, rc == BALL_E_LIMIT ? "could not start the search threads"
                                                               : "out of memory for the search threads");
    }
    *out = s;
    return BALL_OK;
}

void ball_search_free(ball_search *s)
{
    if (s == NULL)
        return;
    threads_stop(s);
    if (s->w != NULL)
        for (int i = 0; i < s->n_workers; i++)
            worker_free(&s->w[i]);
    if (s->helper_game != NULL)
        for (int i = 0; i < s->n_workers; i++)
            ball_game_free(s->helper_game[i]);
    free(s->helper_game);
    ball_net_free(s->own_net);
    free(s->w);
    free(s->tt);
    free(s);
}

int ball_search_clear(ball_search *s)
{
    if (s == NULL)
        return BALL_E_ARG;
    tt_clear(s->tt, s->tt_mask);
    for (int i = 0; i < s->n_workers; i++) {
        memset(s->w[i].history, 0, 2 * sizeof *s->w[i].history);
        s->w[i].n_root = 0;
        s->w[i].have_last = 0;
    }
    s->gen = 0;
    return BALL_OK;
}

void ball_search_stop(ball_search *s)
{
    if (s != NULL)
        atomic_store_explicit(&s->stop, 1, memory_order_relaxed);
}

int ball_search_set_eval(ball_search *s, ball_search_eval_fn eval, void *ud)
{
    if (s == NULL)
        return BALL_E_ARG;
    if (eval == NULL) {
        eval = s->own_net != NULL ? ball_net_search_eval : NULL;
        ud = s->own_net;
    }
    s->eval_fn = eval;
    s->eval_ud = ud;
    /* a net freed and another loaded at its address must not meet the old
     * sums (the helpers are parked: the next run's hand-over orders this) */
    for (int i = 0; i < s->n_workers; i++)
        net_acc_reset(s->w[i].nacc);
    return BALL_OK;
}

int ball_search_set_prior(ball_search *s, ball_search_prior_fn prior, void *ud)
{
    if (s == NULL)
        return BALL_E_ARG;
    s->prior_fn = prior;
    s->prior_ud = ud;
    return BALL_OK;
}

/* ---------------------------------------------------------------- run */

int ball_search_run(ball_search *bs, ball_game *g, ball_search_result *result)
{
    int n, rc;
    struct worker *s;

    if (g == NULL)
        return BALL_E_ARG;
    if (bs == NULL)
        return game_error(g, BALL_E_ARG, "search: NULL searcher");
    if (result != NULL && !sized_published(result->size, RESULT_SIZES, N_SIZES(RESULT_SIZES)))
        return game_error(g, BALL_E_ARG, "search: result size %zu is not a published size "
                          "(initialise with ball_search_result_init(&r, sizeof r))", result->size);
    s = &bs->w[0];
    n = ball_legal_actions(g, s->acts, BALL_MAX_ACTIONS);
    if (n < 0)
        return n;
    if (n == 0)
        return game_error(g, BALL_E_RANGE, "search: %s: there is no decision to choose",
                          g->p.st.result != ONGOING ? "the game is over"
                          : "the game is stopped at turn 999999999");
    rc = ball_history_reserve(g, MAX_PLY + 8);
    if (rc != BALL_OK)
        return rc;
    bs->gen++;
    atomic_store_explicit(&bs->stop, 0, memory_order_relaxed);
    atomic_store_explicit(&bs->halt, 0, memory_order_relaxed);
    prepare(s, bs, g, n);
    threads_go(bs, g, n);
    deepen(s, 1);
    threads_wait(bs, n);
    if (s->error)
        return s->error;
    root_finish(s);
    if (result != NULL)
        sized_write(result, result->size, &s->last, sizeof s->last);
    s->g = NULL;
    return game_ok(g);
}
