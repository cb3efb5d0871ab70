/* SPDX-License-Identifier: MIT */
/* Game lifetime, rulesets, errors and version: the API layer's base. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err_text.h"
#include "game.h"
#include "play.h"
#include "sized.h"

#define INITIAL_HISTORY 16 /* small until a game needs more: the history doubles as it grows */

unsigned ball_version_number(void) { return BALL_VERSION_NUMBER; }
const char *ball_version_string(void) { return BALL_VERSION_STRING; }

const char *ball_strerror(int code)
{
    switch (code) {
    case BALL_OK: return "success";
    case BALL_E_ARG: return "invalid argument";
    case BALL_E_NOMEM: return "out of memory";
    case BALL_E_BPN: return "invalid position text (BPN)";
    case BALL_E_NOTATION: return "malformed action text";
    case BALL_E_ILLEGAL: return "illegal action";
    case BALL_E_BUFFER: return "buffer too small";
    case BALL_E_RANGE: return "value out of range";
    case BALL_E_NO_HISTORY: return "nothing to undo";
    case BALL_E_RULES: return "invalid ruleset text";
    case BALL_E_LIMIT: return "counter at its bound";
    case BALL_E_RECORD: return "malformed game record";
    default: return "unknown error";
    }
}

int game_error(ball_game *g, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    return code;
}

int game_ok(ball_game *g)
{
    g->err[0] = '\0';
    return BALL_OK;
}

const char *ball_errmsg(const ball_game *g) { return g ? g->err : ""; }

static void *std_malloc(void *user, size_t n)
{
    (void)user;
    return malloc(n);
}

static void *std_realloc(void *user, void *ptr, size_t n)
{
    (void)user;
    return realloc(ptr, n);
}

static void std_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

/* The sizeof of every published ball_allocator layout (docs/abi.md). */
static const size_t ALLOCATOR_SIZES[] = {
    SIZED_LAYOUT(ball_allocator, user), /* 1.0 */
    sizeof(ball_allocator),
};

void ball_allocator_init(ball_allocator *alloc, size_t size)
{
    if (!alloc)
        return;
    ball_allocator a = {size < sizeof a ? size : sizeof a, std_malloc, std_realloc, std_free, NULL};
    sized_write(alloc, size, &a, sizeof a);
}

/* The caller's allocator over the C library's, or why it cannot be used. */
static int allocator_read(ball_allocator *a, const ball_allocator *src, char *err, size_t errlen)
{
    ball_allocator_init(a, sizeof *a);
    if (!src)
        return BALL_OK;
    if (!sized_published(src->size, ALLOCATOR_SIZES, sizeof ALLOCATOR_SIZES / sizeof ALLOCATOR_SIZES[0]))
        return err_text(err, errlen, BALL_E_ARG, "ball_allocator size %zu is not a published size (initialise "
                        "with ball_allocator_init(&alloc, sizeof alloc))", src->size);
    memcpy(a, src, src->size);
    a->size = sizeof *a;
    if (!a->malloc_fn || !a->realloc_fn || !a->free_fn)
        return err_text(err, errlen, BALL_E_ARG, "ball_allocator: a NULL function");
    return BALL_OK;
}

/* A game and its history in one call of the allocator's functions each;
 * on failure nothing stays allocated. */
static ball_game *game_alloc(const ball_allocator *a, size_t cap)
{
    ball_game *g = a->malloc_fn(a->user, sizeof *g);
    if (!g)
        return NULL;
    memset(g, 0, sizeof *g);
    g->hist = a->malloc_fn(a->user, cap * sizeof *g->hist);
    g->acts = g->hist ? a->malloc_fn(a->user, cap * sizeof *g->acts) : NULL;
    if (!g->acts) {
        if (g->hist)
            a->free_fn(a->user, g->hist);
        a->free_fn(a->user, g);
        return NULL;
    }
    memset(g->acts, 0, cap * sizeof *g->acts);
    g->cap = cap;
    g->alloc = *a;
    return g;
}

int ball_game_new_with_allocator(ball_game **out, const ball_rules *rules,
                                 const ball_allocator *alloc, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!out)
        return err_text(err, errlen, BALL_E_ARG, "NULL output pointer");
    *out = NULL;
    ball_allocator a;
    ruleset r;
    int rc = allocator_read(&a, alloc, err, errlen);
    if (rc == BALL_OK)
        rc = ruleset_read(&r, rules, err, errlen);
    if (rc != BALL_OK)
        return rc;
    ball_game *g = game_alloc(&a, INITIAL_HISTORY);
    if (!g)
        return err_text(err, errlen, BALL_E_NOMEM, "out of memory");
    g->rules = r;
    ruleset_rebind(&g->rules);
    pos_start(&g->p, r.rules.end_zone_depth, r.rules.turn_limit, &r.cards.rules);
    *out = g;
    return BALL_OK;
}

int ball_game_new(ball_game **out, const ball_rules *rules, char *err, size_t errlen)
{
    return ball_game_new_with_allocator(out, rules, NULL, err, errlen);
}

int ball_game_clone(ball_game **out, const ball_game *game)
{
    if (!out)
        return BALL_E_ARG;
    *out = NULL;
    if (!game)
        return BALL_E_ARG;
    ball_game *g = game_alloc(&game->alloc, game->cap);
    if (!g)
        return BALL_E_NOMEM;
    undo_rec *hist = g->hist;
    ball_action *acts = g->acts;
    *g = *game;
    g->hist = hist;
    g->acts = acts;
    ruleset_rebind(&g->rules); /* its own card set, not the original's */
    memcpy(g->hist, game->hist, game->nhist * sizeof *g->hist);
    memcpy(g->acts, game->acts, game->cap * sizeof *g->acts);
    *out = g;
    return BALL_OK;
}

void ball_game_free(ball_game *game)
{
    if (!game)
        return;
    ball_allocator a = game->alloc;
    a.free_fn(a.user, game->hist);
    a.free_fn(a.user, game->acts);
    a.free_fn(a.user, game);
}

int ball_game_rules(const ball_game *game, ball_rules *out)
{
    return game && out ? ruleset_write(&game->rules, out) : BALL_E_ARG;
}

int ball_history_reserve(ball_game *game, size_t n)
{
    if (!game)
        return BALL_E_ARG;
    if (n <= game->cap - game->nhist)
        return game_ok(game);
    if (n > (size_t)INT_MAX - game->nhist)
        return game_error(game, BALL_E_NOMEM, "history of %zu decisions is too large", n);
    size_t want = game->nhist + n;
    /* On a 32-bit size_t (wasm32) the byte count can wrap below the
     * records wanted: refuse rather than get a smaller block. */
    if (want > SIZE_MAX / sizeof(undo_rec))
        return game_error(game, BALL_E_NOMEM, "history of %zu decisions is too large", n);
    undo_rec *h = game->alloc.realloc_fn(game->alloc.user, game->hist, want * sizeof *h);
    if (!h)
        return game_error(game, BALL_E_NOMEM, "out of memory growing the undo history to %zu decisions", want);
    game->hist = h;
    /* The decisions grow with the records (history.c); the records'
     * larger block is harmless if this one fails. */
    ball_action *acts = game->alloc.realloc_fn(game->alloc.user, game->acts, want * sizeof *acts);
    if (!acts)
        return game_error(game, BALL_E_NOMEM, "out of memory growing the undo history to %zu decisions", want);
    memset(acts + game->cap, 0, (want - game->cap) * sizeof *acts);
    game->acts = acts;
    game->cap = want;
    return game_ok(game);
}

int ball_history_length(const ball_game *game) { return game ? (int)game->nhist : BALL_E_ARG; }
