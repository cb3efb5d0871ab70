/* SPDX-License-Identifier: MIT */
/* The helper threads of the turn search (search.h): lazy SMP. Each helper
 * searches the main thread's position in its own game with its own
 * worker, sharing the table; the main thread's budget stops them all.
 * Without thread support (a WebAssembly build without threads) these do
 * nothing and one thread searches. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_search_set_eval(), ball_search_set_prior() */

#include <stdlib.h>

#include "search.h"

#if SEARCH_THREADS
/* A helper's run: the main thread's position in its own game, searched
 * until the main thread halts it; odd helpers start one turn deeper, so
 * that the threads do not all search the same depth at once. */
static void helper_run(struct worker *w)
{
    ball_search *bs = w->owner;
    prepare(w, bs, bs->helper_game[w->id], 0);
    w->cfg.nodes = 0; /* the main thread's budget stops everyone */
    w->cfg.time_ms = 0;
    deepen(w, 1 + (w->id & 1));
    w->g = NULL;
}

/* A helper thread: waits for a run, searches it until halted, again. */
static void *helper_main(void *arg)
{
    struct worker *w = arg;
    ball_search *bs = w->owner;
    int seen = 0;
    pthread_mutex_lock(&bs->mu);
    for (;;) {
        while (!bs->quit && bs->job == seen)
            pthread_cond_wait(&bs->cv_go, &bs->mu);
        if (bs->quit)
            break;
        seen = bs->job;
        pthread_mutex_unlock(&bs->mu);
        helper_run(w);
        pthread_mutex_lock(&bs->mu);
        if (--bs->running == 0)
            pthread_cond_broadcast(&bs->cv_done);
    }
    pthread_mutex_unlock(&bs->mu);
    return NULL;
}
#endif

/* Starts the helpers of @p s (its workers and games made): 0, or
 * BALL_E_NOMEM with what was made left for ball_search_free(). */
int threads_start(ball_search *s)
{
#if SEARCH_THREADS
    if (s->n_workers > 1) {
        s->thread = calloc((size_t)s->n_workers, sizeof *s->thread);
        if (s->thread == NULL || pthread_mutex_init(&s->mu, NULL) != 0)
            return BALL_E_NOMEM;
        if (pthread_cond_init(&s->cv_go, NULL) != 0) {
            pthread_mutex_destroy(&s->mu);
            return BALL_E_NOMEM;
        }
        if (pthread_cond_init(&s->cv_done, NULL) != 0) {
            pthread_cond_destroy(&s->cv_go);
            pthread_mutex_destroy(&s->mu);
            return BALL_E_NOMEM;
        }
        s->sync_ok = 1;
        for (int i = 1; i < s->n_workers; i++) {
            if (pthread_create(&s->thread[i - 1], NULL, helper_main, &s->w[i]) != 0)
                return BALL_E_LIMIT;
            s->n_threads++;
        }
    }
#else
    (void)s;
#endif
    return BALL_OK;
}

/* Stops and joins the helpers of @p s. */
void threads_stop(ball_search *s)
{
#if SEARCH_THREADS
    if (s->sync_ok) {
        pthread_mutex_lock(&s->mu);
        s->quit = 1;
        pthread_cond_broadcast(&s->cv_go);
        pthread_mutex_unlock(&s->mu);
        for (int i = 0; i < s->n_threads; i++)
            pthread_join(s->thread[i], NULL);
        pthread_cond_destroy(&s->cv_done);
        pthread_cond_destroy(&s->cv_go);
        pthread_mutex_destroy(&s->mu);
    }
    free(s->thread);
#else
    (void)s;
#endif
}

/* Starts the helpers on the position of @p g (@p n root decisions). */
void threads_go(ball_search *bs, const ball_game *g, int n)
{
#if SEARCH_THREADS
    if (bs->n_threads > 0 && n > 1) {
        /* the position into each helper's game, before the main thread
         * starts changing its own (a position is a plain value; the
         * helper keeps its own history buffers) */
        for (int i = 1; i < bs->n_workers; i++) {
            ball_game *h = bs->helper_game[i];
            h->p = g->p;
            h->rules = g->rules;
            ruleset_rebind(&h->rules);
            h->nhist = 0;
        }
        pthread_mutex_lock(&bs->mu);
        bs->running = bs->n_threads;
        bs->job++;
        pthread_cond_broadcast(&bs->cv_go);
        pthread_mutex_unlock(&bs->mu);
    }
#else
    (void)bs, (void)g, (void)n;
#endif
}

/* Halts the helpers started by threads_go() and waits for them; their
 * nodes go to the main thread's count. */
void threads_wait(ball_search *bs, int n)
{
#if SEARCH_THREADS
    if (bs->n_threads > 0 && n > 1) {
        struct worker *s = &bs->w[0];
        atomic_store_explicit(&bs->halt, 1, memory_order_relaxed);
        pthread_mutex_lock(&bs->mu);
        while (bs->running > 0)
            pthread_cond_wait(&bs->cv_done, &bs->mu);
        pthread_mutex_unlock(&bs->mu);
        for (int i = 1; i < bs->n_workers; i++)
            s->helper_nodes += bs->w[i].nodes;
    }
#else
    (void)bs, (void)n;
#endif
}
