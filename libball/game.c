/* Game lifetime, rulesets, errors and version: the API layer's base. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "game.h"
#include "notation.h"

_Static_assert(MAX_ACTIONS == BALL_MAX_ACTIONS, "action bound out of sync");
_Static_assert(BPN_MAX == BALL_BPN_MAX, "BPN bound out of sync");
_Static_assert(ACTION_TEXT_MAX == BALL_ACTION_TEXT_MAX, "text bound out of sync");
_Static_assert(NSQ == BALL_NUM_SQUARES, "square count out of sync");

#define INITIAL_HISTORY 256

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

/* Writes the first `size` bytes of a full struct: the caller's struct may
 * be an older, smaller one (see ball_rules_init in ball.h). */
static void copy_prefix(void *dst, const void *full, size_t full_size, size_t size)
{
    memcpy(dst, full, size < full_size ? size : full_size);
}

void ball_rules_init(ball_rules *rules, size_t size)
{
    if (!rules)
        return;
    ball_rules r;
    memset(&r, 0, sizeof r);
    r.size = size < sizeof r ? size : sizeof r;
    r.end_zone_depth = 1;
    copy_prefix(rules, &r, sizeof r, size);
}

/* Reads the caller's struct, which may come from an older header: fields
 * beyond its size keep their defaults. Fills the engine's card rules. */
/* The size of the first published ball_rules, without `cards`. */
#define RULES_SIZE_V1 (offsetof(ball_rules, flags) + sizeof(unsigned))

static int copy_rules(ball_rules *dst, card_rules *cards, const ball_rules *src, char *err, size_t errlen)
{
    ball_rules_init(dst, sizeof *dst);
    memset(cards, 0, sizeof *cards);
    if (!src)
        return BALL_OK;
    if (src->size < RULES_SIZE_V1 || src->size > sizeof *dst) {
        snprintf(err, errlen, "ball_rules size %zu, expected %zu (use ball_rules_init)", src->size, sizeof *dst);
        return BALL_E_ARG;
    }
    memcpy(dst, src, src->size);
    dst->size = sizeof *dst;
    if (dst->end_zone_depth < 1 || dst->end_zone_depth > 3) {
        snprintf(err, errlen, "end-zone depth %d out of range 1-3", dst->end_zone_depth);
        return BALL_E_RANGE;
    }
    if (dst->flags != 0) {
        snprintf(err, errlen, "reserved flags 0x%x must be 0", dst->flags);
        return BALL_E_RANGE;
    }
    return cards_compile(dst->cards, cards, err, errlen);
}

int ball_rules_check(const ball_rules *rules, char *err, size_t errlen)
{
    char buf[256];
    ball_rules r;
    card_rules cards;
    if (!rules)
        return BALL_E_ARG;
    int rc = copy_rules(&r, &cards, rules, buf, sizeof buf);
    if (err && errlen)
        snprintf(err, errlen, "%s", rc == BALL_OK ? "" : buf);
    return rc;
}

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

void ball_allocator_init(ball_allocator *alloc, size_t size)
{
    if (!alloc)
        return;
    ball_allocator a = {size < sizeof a ? size : sizeof a, std_malloc, std_realloc, std_free, NULL};
    copy_prefix(alloc, &a, sizeof a, size);
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
    if (!g->hist) {
        a->free_fn(a->user, g);
        return NULL;
    }
    g->cap = cap;
    g->alloc = *a;
    return g;
}

int ball_game_new_with_allocator(ball_game **out, const ball_rules *rules,
                                 const ball_allocator *alloc)
{
    if (!out)
        return BALL_E_ARG;
    *out = NULL;
    ball_allocator a;
    ball_allocator_init(&a, sizeof a);
    if (alloc) {
        if (alloc->size != sizeof *alloc || !alloc->malloc_fn || !alloc->realloc_fn || !alloc->free_fn)
            return BALL_E_ARG;
        a = *alloc;
    }
    ball_rules r;
    card_rules cards;
    char err[256];
    int rc = copy_rules(&r, &cards, rules, err, sizeof err);
    if (rc != BALL_OK)
        return rc;
    ball_game *g = game_alloc(&a, INITIAL_HISTORY);
    if (!g)
        return BALL_E_NOMEM;
    g->rules = r;
    if (r.cards) {
        g->cards = *r.cards;
        g->rules.cards = &g->cards;
    }
    pos_start(&g->p, r.end_zone_depth, r.turn_limit, &cards);
    *out = g;
    return BALL_OK;
}

int ball_game_new(ball_game **out, const ball_rules *rules)
{
    return ball_game_new_with_allocator(out, rules, NULL);
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
    *g = *game;
    g->hist = hist;
    if (g->rules.cards)
        g->rules.cards = &g->cards; /* its own copy, not the original's */
    memcpy(g->hist, game->hist, game->nhist * sizeof *g->hist);
    *out = g;
    return BALL_OK;
}

void ball_game_free(ball_game *game)
{
    if (!game)
        return;
    ball_allocator a = game->alloc;
    a.free_fn(a.user, game->hist);
    a.free_fn(a.user, game);
}

int ball_game_rules(const ball_game *game, ball_rules *out)
{
    if (!game || !out || out->size < RULES_SIZE_V1)
        return BALL_E_ARG;
    size_t size = out->size;
    copy_prefix(out, &game->rules, sizeof game->rules, size);
    out->size = size < sizeof game->rules ? size : sizeof game->rules;
    return BALL_OK;
}

int ball_history_reserve(ball_game *game, size_t n)
{
    if (!game)
        return BALL_E_ARG;
    if (n <= game->cap - game->nhist)
        return game_ok(game);
    if (n > ((size_t)-1) / sizeof *game->hist - game->nhist)
        return game_error(game, BALL_E_NOMEM, "history of %zu decisions is too large", n);
    size_t want = game->nhist + n;
    undo_rec *h = game->alloc.realloc_fn(game->alloc.user, game->hist, want * sizeof *h);
    if (!h)
        return game_error(game, BALL_E_NOMEM, "out of memory growing the undo history to %zu decisions", want);
    game->hist = h;
    game->cap = want;
    return game_ok(game);
}

size_t ball_history_length(const ball_game *game) { return game ? game->nhist : 0; }
