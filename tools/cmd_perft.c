/* SPDX-License-Identifier: MIT */
/* ball perft and ball divide (N3), on several threads with --threads. */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno, clock_gettime */

#include "action_order.h"
#include "tool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- perft
 * With --threads N the root actions are shared out among N threads. Each
 * thread works on its own clone of the game, made before any thread
 * starts, and takes the next root action from an atomic counter until
 * none is left, so threads that draw small subtrees simply take more of
 * them. The largest subtrees are handed out first, so that no thread is
 * left with a big one at the end while the others wait: from depth 4 on,
 * a first pass of the same kind counts each root action's subtree two
 * plies short (perft DEPTH-3 after it: 0.3-0.6% of the work from the
 * start), and the root actions are taken in decreasing order of that
 * estimate, ties in list order (docs/performance.md, "Threads"). Each
 * root action's count is written by the one thread that took it; errors
 * stay in the thread's own record; an atomic flag tells the others to
 * stop early. Everything is read after the threads are joined. */

/* From this depth on, the root actions are ordered by an estimate. */
#define ESTIMATE_MIN_DEPTH 4

struct perft_shared {
    const ball_action *acts; /* the root decisions */
    const int *order;        /* the order in which they are taken */
    uint64_t *counts;        /* their counts */
    int n;
    int depth;
    atomic_int next;
    atomic_int done;
    atomic_int failed;
    /* progress on standard error, when it is a terminal */
    const char *label;       /* NULL: none */
    struct timespec start;
    atomic_int shown;
};

struct perft_worker {
    struct perft_shared *shared;
    ball_game *game; /* this worker's own clone */
    pthread_t thread;
    int rc;          /* BALL_OK or the first error of this worker */
    char err[ERR_MAX];
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "ball: perft 9: 12/55 root decisions, 3.2 s", rewritten in place; only
 * after the first second, so that quick runs print nothing. */
static void show_progress(struct perft_shared *sh, int done)
{
    double s = seconds_since(&sh->start);
    if (!sh->label || s < 1.0)
        return;
    atomic_store(&sh->shown, 1);
    fprintf(stderr, "\rball: %s: %d/%d root decisions, %.1f s", sh->label, done, sh->n, s);
    fflush(stderr);
}

static void *perft_work(void *arg)
{
    struct perft_worker *w = arg;
    struct perft_shared *sh = w->shared;
    while (!atomic_load(&sh->failed)) {
        int j = atomic_fetch_add(&sh->next, 1);
        if (j >= sh->n)
            break;
        int i = sh->order[j];
        int rc = ball_apply(w->game, sh->acts[i]);
        if (rc == BALL_OK) {
            rc = ball_perft(w->game, sh->depth - 1, &sh->counts[i]);
            int undo = ball_undo(w->game);
            if (rc == BALL_OK && undo < 0)
                rc = undo;
        }
        if (rc < 0) {
            char text[BALL_ACTION_TEXT_MAX];
            if (ball_action_to_text(sh->acts[i], text, sizeof text) < 0)
                strcpy(text, "?");
            w->rc = rc;
            snprintf(w->err, sizeof w->err, "after %s: %s", text,
                     *ball_errmsg(w->game) ? ball_errmsg(w->game) : ball_strerror(rc));
            atomic_store(&sh->failed, 1);
            break;
        }
        show_progress(sh, atomic_fetch_add(&sh->done, 1) + 1);
    }
    return NULL;
}

/* Runs the @p workers workers (their clones made), the calling thread
 * being worker 0; the first error of one, with its message in @p err. */
static int run_workers(struct perft_worker *w, int workers, char *err, size_t errlen)
{
    int started = 0, rc = BALL_OK;
    while (started + 1 < workers &&
           pthread_create(&w[started + 1].thread, NULL, perft_work, &w[started + 1]) == 0)
        started++;
    perft_work(&w[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(w[t].thread, NULL);
    for (int t = 0; t < workers && rc == BALL_OK; t++) {
        if (w[t].rc < 0) {
            rc = w[t].rc;
            snprintf(err, errlen, "%s", w[t].err);
        }
    }
    return rc;
}

/* The perft counts at @p depth - 1 after each of the @p n root decisions
 * @p acts of @p g, into @p counts, with @p threads threads taking them in
 * the order @p order; progress on standard error under @p label (NULL:
 * none) when it is a terminal. On failure the message is in @p err. */
static int run_roots(ball_game *g, const ball_action *acts, const int *order, int n, int depth,
                     int threads, uint64_t *counts, const char *label, char *err, size_t errlen)
{
    int workers = threads < n ? threads : n, rc = BALL_OK;
    if (workers < 1)
        workers = 1;
    *err = '\0';
    struct perft_shared *sh = calloc(1, sizeof *sh);
    struct perft_worker *w = calloc((size_t)workers, sizeof *w);
    if (sh == NULL || w == NULL) {
        free(sh);
        free(w);
        return BALL_E_NOMEM;
    }
    *sh = (struct perft_shared){.acts = acts, .order = order, .counts = counts, .n = n,
                                .depth = depth, .label = isatty(fileno(stderr)) ? label : NULL};
    clock_gettime(CLOCK_MONOTONIC, &sh->start);
    atomic_init(&sh->next, 0);
    atomic_init(&sh->done, 0);
    atomic_init(&sh->failed, 0);
    atomic_init(&sh->shown, 0);
    /* All clones first: no thread runs while the game is read. */
    for (int t = 0; t < workers && rc == BALL_OK; t++) {
        w[t].shared = sh;
        rc = ball_game_clone(&w[t].game, g);
    }
    if (rc == BALL_OK)
        rc = run_workers(w, workers, err, errlen);
    if (atomic_load(&sh->shown))
        fputs("\r\033[K", stderr); /* clear the progress line */
    for (int t = 0; t < workers; t++)
        ball_game_free(w[t].game);
    free(w);
    free(sh);
    return rc;
}

/* run_roots() over the @p n root decisions @p acts, the largest subtrees
 * first when there are several threads and @p depth is at least
 * ESTIMATE_MIN_DEPTH: their order comes from a first pass two plies
 * shallower. The counts are those of run_roots() in list order. */
static int count_roots(ball_game *g, const ball_action *acts, int n, int depth, int threads,
                       uint64_t *counts, const char *label, char *err, size_t errlen)
{
    int order[BALL_MAX_ACTIONS];
    uint64_t size[BALL_MAX_ACTIONS];
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (threads > 1 && n > 1 && depth >= ESTIMATE_MIN_DEPTH) {
        int rc = run_roots(g, acts, order, n, depth - 2, threads, size, NULL, err, errlen);
        if (rc < 0)
            return rc;
        for (int i = 1; i < n; i++) { /* insertion sort: stable, n is small */
            int j = i, v = order[i];
            for (; j > 0 && size[order[j - 1]] < size[v]; j--)
                order[j] = order[j - 1];
            order[j] = v;
        }
    }
    return run_roots(g, acts, order, n, depth, threads, counts, label, err, errlen);
}

/* perft of @p g with @p threads threads; on failure the message is in @p err. */
static int parallel_perft(ball_game *g, int depth, int threads, uint64_t *count, char *err,
                          size_t errlen)
{
    ball_action acts[BALL_MAX_ACTIONS];
    uint64_t counts[BALL_MAX_ACTIONS];
    char label[32];
    int rc, n;

    *err = '\0';
    if (depth < 2) {
        rc = ball_perft(g, depth, count);
        if (rc < 0)
            snprintf(err, errlen, "%s", ball_errmsg(g));
        return rc;
    }
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n < 0) {
        snprintf(err, errlen, "%s", ball_errmsg(g));
        return n;
    }
    snprintf(label, sizeof label, "perft %d", depth);
    rc = count_roots(g, acts, n, depth, threads, counts, label, err, errlen);
    *count = 0;
    for (int i = 0; i < n && rc == BALL_OK; i++)
        *count += counts[i];
    return rc;
}

int cmd_perft(ball_game *g, const struct settings *set, int argc, char **argv)
{
    char err[ERR_MAX];
    int depth, rc;
    uint64_t count = 0;
    if (argc < 1 || argc > 2)
        return usage_error("perft");
    if ((rc = parse_depth("perft", argv[0], &depth)) != 0)
        return rc;
    if ((rc = load_bpn(g, argc > 1 ? argv[1] : NULL)) != 0)
        return rc;
    rc = parallel_perft(g, depth, set->threads > 0 ? (int)set->threads : 1, &count, err, sizeof err);
    if (rc < 0)
        return report("perft", err, rc);
    printf("%llu\n", (unsigned long long)count);
    return 0;
}

int cmd_divide(ball_game *g, const struct settings *set, int argc, char **argv)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    ball_action roots[BALL_MAX_ACTIONS];
    uint64_t counts[BALL_MAX_ACTIONS];
    uint64_t total = 0;
    char err[ERR_MAX], label[32];
    int depth, n, rc;
    if (argc < 1 || argc > 2)
        return usage_error("divide");
    if ((rc = parse_depth("divide", argv[0], &depth)) != 0)
        return rc;
    if (depth < 1) {
        fputs("ball: divide: bad depth '0': divide needs a depth of at least 1\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argc > 1 ? argv[1] : NULL)) != 0)
        return rc;
    n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    for (int i = 0; i < n; i++)
        roots[i] = acts[i].action;
    /* Count everything first so that nothing is printed on failure. */
    snprintf(label, sizeof label, "divide %d", depth);
    rc = count_roots(g, roots, n, depth, set->threads > 0 ? (int)set->threads : 1, counts, label, err,
                     sizeof err);
    if (rc < 0)
        return report("divide", err, rc);
    for (int i = 0; i < n; i++) {
        printf("%s %llu\n", acts[i].text, (unsigned long long)counts[i]);
        total += counts[i];
    }
    printf("total %llu\n", (unsigned long long)total);
    return 0;
}
