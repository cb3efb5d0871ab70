/* SPDX-License-Identifier: MIT */
/*
 * The adapter between `ball engine` and a library searcher (see
 * engine_searcher.h): what every backend would otherwise write again,
 * the option values, the stop flag, the checks before a run and the wait
 * for `stop` after a `go infinite`.
 */
#define _POSIX_C_SOURCE 200809L

#include "engine_options.h"
#include "engine_searcher.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The backends --searcher can name; the first is the default. */
static const engine_backend *const BACKENDS[] = {&engine_backend_search, &engine_backend_mcts};
#define N_BACKENDS (sizeof BACKENDS / sizeof BACKENDS[0])

struct engine_searcher {
    const engine_backend *b;
    uint64_t spin[ENGINE_MAX_OPTIONS]; /* spin options' values */
    double real[ENGINE_MAX_OPTIONS];   /* real options' values */
    atomic_int stop;
    void *state; /* the backend's own */
};

double engine_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static const engine_backend *backend_of(const char *word, char *err, size_t errlen)
{
    if (word == NULL)
        return BACKENDS[0];
    for (size_t i = 0; i < N_BACKENDS; i++)
        if (strcmp(word, BACKENDS[i]->word) == 0)
            return BACKENDS[i];
    snprintf(err, errlen, "--searcher '%.40s': expected search or mcts", word);
    return NULL;
}

int engine_searcher_new(engine_searcher **out, const char *word, char *err, size_t errlen)
{
    const engine_backend *b = backend_of(word, err, errlen);
    engine_searcher *s = b ? calloc(1, sizeof *s) : NULL;
    *out = NULL;
    if (b == NULL)
        return -2;
    if (s != NULL && (s->state = calloc(1, b->state_size)) == NULL) {
        free(s);
        s = NULL;
    }
    if (s == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s->b = b;
    for (size_t i = 0; i < b->n_options && i < ENGINE_MAX_OPTIONS; i++) {
        const engine_option *o = &b->options[i];
        unsigned long long pos = 0;
        char why[128];
        /* a combo's value is its word's position among the vars */
        if (o->type == ENGINE_OPT_COMBO && engine_option_combo(o, o->def, &pos, why, sizeof why) == 0)
            s->spin[i] = pos;
        else
            s->spin[i] = strtoull(o->def, NULL, 10);
        s->real[i] = strtod(b->options[i].def, NULL);
    }
    atomic_init(&s->stop, 0);
    *out = s;
    return 0;
}

void engine_searcher_free(engine_searcher *s)
{
    if (s == NULL)
        return;
    s->b->free_state(s->state);
    free(s->state);
    free(s);
}

const char *engine_searcher_name(const engine_searcher *s)
{
    return s->b->name;
}

size_t engine_searcher_options(const engine_searcher *s, const engine_option **out)
{
    *out = s->b->options;
    return s->b->n_options;
}

int engine_searcher_set_option(engine_searcher *s, const char *name, const char *value,
                               char *err, size_t errlen)
{
    const engine_option *opts = s->b->options;
    int k = engine_option_find(opts, s->b->n_options, name, err, errlen);
    if (k < 0)
        return -1;
    if (opts[k].type == ENGINE_OPT_SPIN) {
        unsigned long long v;
        if (engine_option_spin(&opts[k], value, &v, err, errlen) < 0)
            return -1;
        s->spin[k] = v;
        return 0;
    }
    if (opts[k].type == ENGINE_OPT_REAL)
        return engine_option_real(&opts[k], value, &s->real[k], err, errlen);
    if (opts[k].type == ENGINE_OPT_COMBO) {
        unsigned long long v;
        if (engine_option_combo(&opts[k], value, &v, err, errlen) < 0)
            return -1;
        s->spin[k] = v;
        return 0;
    }
    if (opts[k].type == ENGINE_OPT_STRING && s->b->set_string != NULL)
        return s->b->set_string(s, s->state, k, value, err, errlen);
    snprintf(err, errlen, "%s: cannot be set", opts[k].name);
    return -1;
}

void engine_searcher_new_game(engine_searcher *s)
{
    if (s->b->new_game != NULL)
        s->b->new_game(s->state);
}

void engine_searcher_stop(engine_searcher *s)
{
    atomic_store(&s->stop, 1);
}

int engine_searcher_stopped(const engine_searcher *s)
{
    return atomic_load(&((engine_searcher *)s)->stop);
}

uint64_t engine_searcher_spin(const engine_searcher *s, int k)
{
    return s->spin[k];
}

double engine_searcher_real(const engine_searcher *s, int k)
{
    return s->real[k];
}

int engine_searcher_run(engine_searcher *s, ball_game *game, const engine_limits *lim,
                        engine_info_fn info, void *ud, engine_result *out, char *err,
                        size_t errlen)
{
    int multipv = lim->multipv < 1 ? 1 : lim->multipv;
    atomic_store(&s->stop, 0);
    memset(out, 0, sizeof *out);
    if (multipv > ENGINE_MAX_MULTIPV)
        multipv = ENGINE_MAX_MULTIPV;
    if (ball_result(game) != BALL_ONGOING) {
        snprintf(err, errlen, "the game is over");
        return -1;
    }
    if (s->b->run(s, s->state, game, lim, multipv, info, ud, out, err, errlen) < 0)
        return -1;
    /* nothing left to search: wait for stop, as the protocol asks */
    while (lim->infinite && !atomic_load(&s->stop) && (info == NULL || !info(ud, NULL))) {
        struct timespec d = {0, 2000000};
        nanosleep(&d, NULL);
    }
    return 0;
}
