/* Allocation failure through the default allocator (`make check-malloc-fail`).
 *
 * The program is linked with -Wl,--wrap=malloc,--wrap=realloc,--wrap=calloc,
 * --wrap=free against the static library, so that every allocation libball
 * makes with the C library's functions (the default ball_allocator,
 * ball_cardset_new()) goes through the wrappers below. For every call that
 * allocates -- ball_game_new() (default and card rules, and
 * ball_game_new_with_allocator() with the default allocator, NULL or
 * ball_allocator_init()), ball_game_clone(), ball_apply() when the undo
 * history grows (and ball_apply_unchecked(), ball_apply_index(),
 * ball_random_apply(), ball_random_playout(), whose failure takes back
 * the decisions it played), ball_history_reserve(), ball_cardset_new(),
 * ball_rules_from_text() in card mode, ball_mcts_new(), ball_mcts_choose()
 * when the undo history must grow, ball_batch_new(), ball_batch_game_clone(),
 * ball_record_read(), and ball_perft() from a full history in case it
 * needs room (it does not) -- the N-th
 * allocation is made to fail for N = 1, 2, 3, ... until the call makes
 * fewer than N allocations and succeeds. Each failure must return
 * BALL_E_NOMEM, leave no block allocated (the wrappers count live
 * blocks), leave outputs NULL (or untouched) and the game exactly as it
 * was (BPN, hash, history), with a message; the same call then succeeds.
 * The calls that promise not to allocate (ball_legal_actions(), ball_apply()
 * within the reserved history, ball_undo(), ball_random_action(),
 * ball_legal_action_at(), ball_is_legal(), ball_select(), BPN and action
 * text in and out, ball_rules_from_text() outside card mode) must make no
 * allocation at all. Run it under valgrind or LeakSanitizer as well
 * (the make target uses valgrind) for leaks the counts cannot see.
 *
 * Every exported function that can reach an allocation must be in the
 * table entry_points[] below, and every entry must be exercised by a
 * scenario: scripts/check-malloc-fail-table.sh (run by
 * `make check-malloc-fail`) compares the table with the functions that
 * scripts/alloc-entry-points.py finds in the call graph of libball.a, and
 * this program fails when a table entry has no scenario.
 *
 *   malloc_fail        prints one line per scenario (unbuffered, so that a
 *                      crash keeps what came before); exits 0 when all pass
 *   malloc_fail --list prints the table, one function a line
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BALL_EXPERIMENTAL /* ball_net_load(), ball_apply_index(), ball_random_apply(), ball_random_playout() */
#include "ball.h"
#include "crc32.h"

/* ------------------------------------------------------------ the wrappers */

void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_calloc(size_t k, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_calloc(size_t k, size_t n);
void __wrap_free(void *p);

static long live;      /* blocks allocated through the wrappers, not freed */
static long calls;     /* allocation calls while armed */
static long fail_at;   /* armed: the fail_at-th call fails (0: none fails) */
static int armed;
static int injected;   /* a failure was injected since arming */

static int should_fail(void)
{
    if (!armed)
        return 0;
    calls++;
    if (fail_at > 0 && calls == fail_at) {
        injected = 1;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n)
{
    if (should_fail())
        return NULL;
    void *p = __real_malloc(n);
    if (p)
        live++;
    return p;
}

void *__wrap_calloc(size_t k, size_t n)
{
    if (should_fail())
        return NULL;
    void *p = __real_calloc(k, n);
    if (p)
        live++;
    return p;
}

void *__wrap_realloc(void *old, size_t n)
{
    if (should_fail())
        return NULL;
    void *p = __real_realloc(old, n);
    if (p && !old)
        live++;
    return p;
}

void __wrap_free(void *p)
{
    if (p)
        live--;
    __real_free(p);
}

static void arm(long n)
{
    calls = 0;
    fail_at = n;
    injected = 0;
    armed = 1;
}

static void disarm(void) { armed = 0; }

/* ------------------------------------------------------------ checks */

static int failures;

#define CHECK(c) \
    do { \
        if (!(c)) { \
            fprintf(stderr, "malloc_fail: %s:%d: check failed: %s (scenario %s, N = %ld)\n", __FILE__, \
                    __LINE__, #c, scenario, fail_at); \
            failures++; \
            return -1; \
        } \
    } while (0)

static const char *scenario = "";

/* What a game shows to the outside, to compare before and after. */
typedef struct state {
    char bpn[BALL_BPN_MAX];
    uint64_t hash;
    int hist, legal;
} state;

static void read_state(ball_game *g, state *s)
{
    if (ball_position_to_text(g, s->bpn, sizeof s->bpn) < 0)
        strcpy(s->bpn, "?");
    s->hash = ball_hash(g);
    s->hist = ball_history_length(g);
    s->legal = ball_legal_actions(g, NULL, 0);
}

static int same_state(ball_game *g, const state *before)
{
    state now;
    read_state(g, &now);
    return strcmp(now.bpn, before->bpn) == 0 && now.hash == before->hash && now.hist == before->hist
           && now.legal == before->legal;
}

/* The exported functions that can allocate, each exercised by at least
 * one scenario below (run_failing() names it). A new allocating function
 * goes here and gets a scenario; scripts/check-malloc-fail-table.sh fails
 * with its name until then. ball_allocator_init() only hands out the
 * default functions (the call graph sees their addresses): its scenario
 * checks that it allocates nothing. */
static const char *const entry_points[] = {
    "ball_allocator_init",
    "ball_apply",
    "ball_apply_index",
    "ball_apply_unchecked",
    "ball_batch_game_clone",
    "ball_batch_new",
    "ball_cardset_new",
    "ball_game_clone",
    "ball_game_new",
    "ball_game_new_with_allocator",
    "ball_history_reserve",
    "ball_mcts_choose",
    "ball_mcts_new",
    "ball_net_load",
    "ball_perft",
    "ball_random_apply",
    "ball_random_playout",
    "ball_record_read",
    "ball_rules_from_text",
    "ball_search_evaluate",
    "ball_search_new",
    "ball_search_run",
};
#define N_ENTRY_POINTS (sizeof entry_points / sizeof entry_points[0])
static int exercised[N_ENTRY_POINTS];

/* Marks the table entry of fn as exercised; a function missing from the
 * table is a failure of the scenario's author. */
static int mark_exercised(const char *fn)
{
    for (size_t i = 0; i < N_ENTRY_POINTS; i++)
        if (strcmp(entry_points[i], fn) == 0) {
            exercised[i] = 1;
            return 0;
        }
    fprintf(stderr, "malloc_fail: scenario for %s, which is not in entry_points[]\n", fn);
    failures++;
    return -1;
}

/* A scenario: one call under test. It returns what the call returned;
 * it checks the failure case itself (on BALL_E_NOMEM) and cleans up what
 * a success made. `live` must be the same after it as before. */
typedef int (*call_fn)(void *ctx);

/* Runs fn with the N-th allocation failing, N = 1, 2, ...; the first N at
 * which no failure is injected must succeed. Returns the number of
 * allocations the call makes, or -1. */
static long run_failing(const char *fn_name, const char *name, call_fn fn, void *ctx)
{
    scenario = name;
    if (mark_exercised(fn_name) < 0)
        return -1;
    for (long n = 1; n < 1000; n++) {
        long before = live;
        arm(n);
        int rc = fn(ctx);
        disarm();
        fail_at = n;
        if (rc == -1000) /* the scenario's own check failed */
            return -1;
        if (injected) {
            CHECK(rc == BALL_E_NOMEM);
        } else {
            CHECK(rc >= 0);
        }
        if (live != before) {
            fprintf(stderr, "malloc_fail: %s: %ld block(s) leaked with allocation %ld failing (rc %d)\n",
                    name, live - before, n, rc);
            failures++;
            return -1;
        }
        if (!injected) {
            if (n == 1)
                printf("malloc_fail: %-44s no allocation\n", name);
            else
                printf("malloc_fail: %-44s %ld allocation(s), each failure returns BALL_E_NOMEM cleanly\n",
                       name, n - 1);
            return n - 1;
        }
    }
    fprintf(stderr, "malloc_fail: %s: still failing after 1000 allocations\n", name);
    failures++;
    return -1;
}

#define SCHECK(c) \
    do { \
        if (!(c)) { \
            disarm(); \
            fprintf(stderr, "malloc_fail: %s:%d: check failed: %s (scenario %s, N = %ld)\n", __FILE__, \
                    __LINE__, #c, scenario, fail_at); \
            failures++; \
            return -1000; \
        } \
    } while (0)

#define SENTINEL ((void *)&live)

/* ---- ball_game_new() and friends */

struct new_ctx {
    const ball_rules *rules;
    int how; /* 0 ball_game_new, 1 with a NULL allocator, 2 with ball_allocator_init() */
};

static int call_game_new(void *p)
{
    struct new_ctx *c = p;
    ball_game *g = SENTINEL;
    char err[128] = "";
    ball_allocator alloc;
    int rc;
    if (c->how == 2) {
        disarm();
        ball_allocator_init(&alloc, sizeof alloc);
        armed = 1;
    }
    rc = c->how == 0 ? ball_game_new(&g, c->rules, err, sizeof err)
         : c->how == 1 ? ball_game_new_with_allocator(&g, c->rules, NULL, err, sizeof err)
                       : ball_game_new_with_allocator(&g, c->rules, &alloc, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(g == NULL);
        SCHECK(err[0] != '\0');
        return rc;
    }
    SCHECK(rc == BALL_OK && g != NULL && g != SENTINEL);
    SCHECK(ball_legal_actions(g, NULL, 0) > 0);
    ball_game_free(g);
    return rc;
}

/* ---- ball_game_clone() */

static int call_clone(void *p)
{
    ball_game *g = p, *c = SENTINEL;
    state before;
    disarm();
    read_state(g, &before);
    armed = 1;
    int rc = ball_game_clone(&c, g);
    disarm();
    SCHECK(same_state(g, &before));
    if (rc == BALL_E_NOMEM) {
        SCHECK(c == NULL);
        return rc;
    }
    SCHECK(rc == BALL_OK && c && c != SENTINEL && same_state(c, &before));
    SCHECK(ball_undo(c) == (before.hist ? BALL_OK : BALL_E_NO_HISTORY));
    ball_game_free(c);
    return rc;
}

/* ---- the undo history grows in ball_apply() */

struct grow_ctx {
    ball_game *g;
    uint64_t rng;
    int unchecked; /* 0 ball_apply(), 1 ball_apply_unchecked(), 2 ball_apply_index(),
                    * 3 ball_random_apply() of the same draw */
    int grew;      /* a call that allocated succeeded */
};

static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Plays random decisions (taking back any that ends the game) until one
 * apply allocates; returns that apply's result. */
static int call_apply_grow(void *p)
{
    struct grow_ctx *c = p;
    ball_game *g = c->g;
    for (int k = 0; k < 100000; k++) {
        ball_action a;
        disarm();
        uint64_t r = next_random(&c->rng);
        if (ball_random_action(g, r, &a) != BALL_OK) {
            SCHECK(ball_undo(g) == BALL_OK); /* game over */
            continue;
        }
        int index = (int)(r % (uint64_t)ball_legal_actions(g, NULL, 0));
        state before;
        read_state(g, &before);
        long calls_before = calls;
        armed = 1;
        int rc = c->unchecked == 0   ? ball_apply(g, a)
                 : c->unchecked == 1 ? ball_apply_unchecked(g, a)
                 : c->unchecked == 2 ? ball_apply_index(g, index)
                                     : ball_random_apply(g, r, NULL);
        disarm();
        if (calls == calls_before) { /* no allocation: an ordinary decision */
            SCHECK(rc == BALL_OK);
            if (ball_result(g) != BALL_ONGOING)
                SCHECK(ball_undo(g) == BALL_OK);
            continue;
        }
        if (rc == BALL_E_NOMEM) {
            SCHECK(ball_errmsg(g)[0] != '\0'); /* before any other call clears it */
            SCHECK(same_state(g, &before));
            return rc;
        }
        SCHECK(rc == BALL_OK && ball_history_length(g) == before.hist + 1);
        c->grew = 1;
        return rc;
    }
    SCHECK(!"the history never grew");
    return -1000;
}

/* ---- ball_random_playout() grows the history after some decisions: a
 * failure takes back those it played. The game has a history allocated
 * (the growth is a realloc) with room for a few decisions, fewer than a
 * random game lasts. */

static int call_playout(void *p)
{
    ball_game *g = p;
    state before;
    disarm();
    read_state(g, &before);
    armed = 1;
    int rc = ball_random_playout(g, 424242, 1000000);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(strstr(ball_errmsg(g), "taken back") != NULL);
        SCHECK(same_state(g, &before));
        return rc;
    }
    SCHECK(rc > 8 && ball_history_length(g) == before.hist + rc);
    for (int i = 0; i < rc; i++)
        SCHECK(ball_undo(g) == BALL_OK);
    SCHECK(same_state(g, &before));
    return BALL_OK;
}

/* ---- ball_history_reserve() */

static int call_reserve(void *p)
{
    ball_game *g = p;
    state before;
    disarm();
    read_state(g, &before);
    armed = 1;
    int rc = ball_history_reserve(g, 100000);
    disarm();
    if (rc == BALL_E_NOMEM)
        SCHECK(ball_errmsg(g)[0] != '\0'); /* before any other call clears it */
    SCHECK(same_state(g, &before));
    return rc;
}

/* ---- ball_perft() from a full history (its applies must grow it) */

static int call_perft(void *p)
{
    ball_game *g = p;
    state before;
    uint64_t count = 0;
    disarm();
    read_state(g, &before);
    armed = 1;
    int rc = ball_perft(g, 2, &count);
    disarm();
    SCHECK(same_state(g, &before));
    if (rc == BALL_OK)
        SCHECK(count > 0);
    return rc;
}

/* ---- card sets and rules text */

static int call_cardset_new(void *p)
{
    (void)p;
    ball_cardset *cs = SENTINEL;
    int rc = ball_cardset_new(&cs);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(cs == NULL);
        return rc;
    }
    SCHECK(rc == BALL_OK && cs && cs != SENTINEL);
    SCHECK(ball_cardset_add_card(cs, BALL_ATK, "Sprint", 1, BALL_EFFECT_GAIN_PA, 1) == 0);
    ball_cardset_free(cs);
    return rc;
}

/* Set when ball_rules_from_text() left *cards as it was on a failure
 * (instead of setting it to NULL as ball_game_new() and
 * ball_cardset_new() do with their outputs). */
static int rules_cards_untouched;

static int call_rules_from_text(void *p)
{
    const char *text = p;
    ball_rules rules, pattern;
    ball_rules_init(&pattern, sizeof pattern);
    pattern.end_zone_depth = 3;
    pattern.turn_limit = 77;
    rules = pattern;
    ball_cardset *cs = SENTINEL;
    char err[128] = "";
    int rc = ball_rules_from_text(&rules, &cs, text, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(cs == NULL || cs == SENTINEL);
        if (cs == SENTINEL)
            rules_cards_untouched = 1;
        SCHECK(memcmp(&rules, &pattern, sizeof rules) == 0); /* nothing half-made */
        SCHECK(err[0] != '\0');
        return rc;
    }
    SCHECK(rc == BALL_OK && cs != SENTINEL && (const ball_cardset *)cs == rules.cards);
    ball_game *g = NULL;
    SCHECK(ball_game_new(&g, &rules, NULL, 0) == BALL_OK);
    ball_cardset_free(cs);
    ball_game_free(g);
    return rc;
}

/* ---- ball_allocator_init(): hands out the default functions, allocates nothing */

static int call_allocator_init(void *p)
{
    (void)p;
    ball_allocator a;
    memset(&a, 0, sizeof a);
    ball_allocator_init(&a, sizeof a);
    disarm();
    SCHECK(a.size == sizeof a && a.malloc_fn && a.realloc_fn && a.free_fn);
    return BALL_OK;
}

/* ---- ball_mcts_new(): the searcher and its pools */

/* A searcher must be usable after a success: one decision of a small
 * budget from the start (an unchecked NULL pool crashes here). */
static int mcts_try(ball_mcts *m)
{
    ball_game *g = NULL;
    ball_action a;
    SCHECK(ball_game_new(&g, NULL, NULL, 0) == BALL_OK);
    SCHECK(ball_mcts_choose(m, g, &a, NULL) == BALL_OK && ball_is_legal(g, a) == 1);
    ball_game_free(g);
    return BALL_OK;
}

static int call_mcts_new(void *p)
{
    (void)p;
    ball_mcts_config cfg;
    disarm();
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 40;
    armed = 1;
    ball_mcts *m = SENTINEL;
    char err[128] = "";
    int rc = ball_mcts_new(&m, &cfg, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(m == NULL);
        SCHECK(err[0] != '\0');
        return rc;
    }
    /* a failed allocation ignored: the searcher would crash in use */
    SCHECK(!injected && "an allocation failed, yet ball_mcts_new() returned BALL_OK");
    SCHECK(rc == BALL_OK && m != NULL && m != SENTINEL);
    rc = mcts_try(m);
    ball_mcts_free(m);
    return rc;
}

/* ---- ball_mcts_choose() on a game whose undo history must grow */

static int call_mcts_choose(void *p)
{
    ball_game *full = p, *g = NULL;
    ball_mcts *m = NULL;
    ball_mcts_config cfg;
    disarm();
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 40;
    SCHECK(ball_mcts_new(&m, &cfg, NULL, 0) == BALL_OK);
    SCHECK(ball_game_clone(&g, full) == BALL_OK);
    state before;
    read_state(g, &before);
    ball_action a;
    armed = 1;
    int rc = ball_mcts_choose(m, g, &a, NULL);
    disarm();
    if (rc == BALL_E_NOMEM)
        SCHECK(ball_errmsg(g)[0] != '\0'); /* before any other call clears it */
    else
        SCHECK(rc == BALL_OK && ball_is_legal(g, a) == 1);
    SCHECK(same_state(g, &before));
    ball_game_free(g);
    ball_mcts_free(m);
    return rc;
}

/* ---- ball_net_load(): one block of weights (docs/network-format.md; a
 * net of one hidden unit, its CRC-32 computed here) */

/* @p p NULL: a format-1 file (one hidden unit); else format 2 (H = 64,
 * H2 = 1), whose loader allocates twice (its weights, the handle). */
static int call_net_load(void *p)
{
    enum { N = 3171, LEN1 = 40 + 4 * (N + 3) + 4, F = 4783, H = 64,
           LEN2 = 40 + 2 * F * H + 2 * H + 2 * H + 6 + 8 };
    static unsigned char file[LEN2 > LEN1 ? LEN2 : LEN1];
    static const uint32_t head1[8] = {1, 1, 0, N, 1, 0, 0, 0};
    static const uint32_t head2[8] = {2, 2, 1, F, H, 1, 0, 0};
    const uint32_t *head = p == NULL ? head1 : head2;
    size_t len = p == NULL ? LEN1 : LEN2;
    disarm();
    memset(file, 0, sizeof file); /* weights 0 */
    memcpy(file, "BALLNET\0", 8);
    for (int i = 0; i < 8; i++)
        for (int b = 0; b < 4; b++)
            file[8 + 4 * i + b] = (unsigned char)(head[i] >> (8 * b));
    uint32_t c = test_crc32(file, len - 4);
    for (int b = 0; b < 4; b++)
        file[len - 4 + b] = (unsigned char)(c >> (8 * b));
    armed = 1;
    ball_net *net = SENTINEL;
    char err[128] = "";
    int rc = ball_net_load(&net, file, len, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(net == NULL);
        SCHECK(strstr(err, "out of memory") != NULL);
        return rc;
    }
    SCHECK(!injected && "an allocation failed, yet ball_net_load() returned BALL_OK");
    SCHECK(rc == BALL_OK && net != NULL && net != SENTINEL);
    ball_game *g = NULL;
    double v = 2;
    SCHECK(ball_game_new(&g, NULL, NULL, 0) == BALL_OK);
    SCHECK(ball_net_evaluate(net, g, &v) == BALL_OK && v == 0.0);
    ball_game_free(g);
    ball_net_free(net);
    return rc;
}

/* ---- ball_search_new(): the table and buffers; ball_search_run() on a
 * game whose undo history must grow */

static int call_search_new(void *p)
{
    ball_search_config cfg;
    disarm();
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 300;
    cfg.hash_mb = 1;
    cfg.threads = *(const int *)p; /* 2: a helper thread, its game and buffers too */
    armed = 1;
    ball_search *s = SENTINEL;
    char err[128] = "";
    int rc = ball_search_new(&s, &cfg, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(s == NULL);
        SCHECK(err[0] != '\0');
        return rc;
    }
    SCHECK(!injected && "an allocation failed, yet ball_search_new() returned BALL_OK");
    SCHECK(rc == BALL_OK && s != NULL && s != SENTINEL);
    ball_game *g = NULL;
    ball_search_result r;
    ball_search_result_init(&r, sizeof r);
    SCHECK(ball_game_new(&g, NULL, NULL, 0) == BALL_OK);
    SCHECK(ball_search_run(s, g, &r) == BALL_OK && ball_is_legal(g, r.best) == 1);
    ball_game_free(g);
    ball_search_free(s);
    return rc;
}

static int call_search_run(void *p)
{
    ball_game *full = p, *g = NULL;
    ball_search *s = NULL;
    ball_search_config cfg;
    disarm();
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 300;
    cfg.hash_mb = 1;
    SCHECK(ball_search_new(&s, &cfg, NULL, 0) == BALL_OK);
    SCHECK(ball_game_clone(&g, full) == BALL_OK);
    state before;
    read_state(g, &before);
    ball_search_result r;
    ball_search_result_init(&r, sizeof r);
    armed = 1;
    int rc = ball_search_run(s, g, &r);
    disarm();
    if (rc == BALL_E_NOMEM)
        SCHECK(ball_errmsg(g)[0] != '\0'); /* before any other call clears it */
    else
        SCHECK(rc == BALL_OK && ball_is_legal(g, r.best) == 1);
    SCHECK(same_state(g, &before));
    ball_game_free(g);
    ball_search_free(s);
    return rc;
}

/* ball_search_evaluate() on a game whose history must grow for the take
 * probe's two decisions: BALL_E_NOMEM leaves the game as it was. */
static int call_search_evaluate(void *p)
{
    ball_game *full = p, *g = NULL;
    ball_search *s = NULL;
    ball_search_config cfg;
    double v = 5.0;
    disarm();
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 300;
    cfg.hash_mb = 1;
    SCHECK(ball_search_new(&s, &cfg, NULL, 0) == BALL_OK);
    SCHECK(ball_game_clone(&g, full) == BALL_OK);
    state before;
    read_state(g, &before);
    armed = 1;
    int rc = ball_search_evaluate(s, g, &v);
    disarm();
    if (rc != BALL_E_NOMEM)
        SCHECK(rc == BALL_OK && v > -1.0 && v < 1.0);
    SCHECK(same_state(g, &before));
    ball_game_free(g);
    ball_search_free(s);
    return rc;
}

/* ---- ball_batch_new() and ball_batch_game_clone() */

static int call_batch_new(void *p)
{
    const ball_rules *rules = p;
    ball_batch *b = SENTINEL;
    char err[128] = "";
    int rc = ball_batch_new(&b, 3, rules, 0, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(b == NULL);
        SCHECK(err[0] != '\0');
        return rc;
    }
    SCHECK(!injected && "an allocation failed, yet ball_batch_new() returned BALL_OK");
    SCHECK(rc == BALL_OK && b != NULL && b != SENTINEL && ball_batch_size(b) == 3);
    ball_game *g = NULL;
    SCHECK(ball_batch_game_clone(b, 2, &g) == BALL_OK && ball_legal_actions(g, NULL, 0) > 0);
    ball_game_free(g);
    ball_batch_free(b);
    return rc;
}

static int call_batch_game_clone(void *p)
{
    const ball_batch *b = p;
    ball_game *g = SENTINEL;
    int rc = ball_batch_game_clone(b, 1, &g);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(g == NULL);
        return rc;
    }
    SCHECK(rc == BALL_OK && g != NULL && g != SENTINEL && ball_legal_actions(g, NULL, 0) > 0);
    ball_game_free(g);
    return rc;
}

/* ---- ball_record_read(): rules (a card set), the game, its history */

struct record_ctx {
    const char *text;
    size_t len;
    const char *bpn; /* the position the record ends in */
    int hist;        /* and its number of decisions */
};

static int call_record_read(void *p)
{
    const struct record_ctx *c = p;
    ball_game *g = SENTINEL;
    size_t at = 0;
    char err[256] = "";
    int rc = ball_record_read(&g, c->text, c->len, &at, err, sizeof err);
    disarm();
    if (rc == BALL_E_NOMEM) {
        SCHECK(g == NULL);
        SCHECK(at == 0);
        SCHECK(err[0] != '\0');
        return rc;
    }
    SCHECK(!injected && "an allocation failed, yet ball_record_read() returned a game");
    SCHECK(rc == 1 && g != NULL && g != SENTINEL && at == c->len);
    char bpn[BALL_BPN_MAX];
    SCHECK(ball_position_to_text(g, bpn, sizeof bpn) > 0 && strcmp(bpn, c->bpn) == 0);
    SCHECK(ball_history_length(g) == c->hist);
    ball_game_free(g);
    return BALL_OK;
}

/* ---- the calls that never allocate */

static int no_allocation(ball_game *g)
{
    scenario = "calls that must not allocate";
    SCHECK(ball_history_reserve(g, 400) == BALL_OK);
    uint64_t rng = 7;
    ball_action acts[BALL_MAX_ACTIONS];
    char bpn[BALL_BPN_MAX], text[BALL_ACTION_TEXT_MAX];
    int choices[BALL_NUM_SQUARES];
    ball_rules rules;
    ball_cardset *cs = SENTINEL;
    arm(0);
    for (int k = 0; k < 300; k++) {
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        if (n <= 0) {
            SCHECK(ball_undo(g) == BALL_OK);
            continue;
        }
        ball_action a;
        SCHECK(ball_random_action(g, next_random(&rng), &a) == BALL_OK);
        SCHECK(ball_legal_action_at(g, (int)(next_random(&rng) % (unsigned)n), &a) == BALL_OK);
        SCHECK(ball_is_legal(g, a) == 1);
        SCHECK(ball_action_to_text(a, text, sizeof text) > 0);
        SCHECK(ball_action_from_text(g, text, &a) == BALL_OK);
        SCHECK(ball_select(g, NULL, 0, choices, BALL_NUM_SQUARES, NULL) >= 0);
        SCHECK(ball_apply(g, a) == BALL_OK);
        if (k % 5 == 0) {
            SCHECK(ball_undo(g) == BALL_OK);
            SCHECK(ball_apply_unchecked(g, a) == BALL_OK);
        }
        if (k % 50 == 0) {
            SCHECK(ball_position_to_text(g, bpn, sizeof bpn) > 0);
            SCHECK(ball_position_from_text(g, bpn) == BALL_OK); /* clears the history */
        }
    }
    ball_rules_init(&rules, sizeof rules);
    SCHECK(ball_rules_from_text(&rules, &cs, "zone=2 turns=30", NULL, 0) == BALL_OK && cs == NULL);
    disarm();
    SCHECK(calls == 0);
    printf("malloc_fail: %-44s 0 allocations\n", scenario);
    return 0;
}

#define CARD_RULES "earn.move=1 earn.dodge=2 atk=Sprint:1:pa+1,Again:2:again def=Sprint:1:pa+2"

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < N_ENTRY_POINTS; i++)
            printf("%s\n", entry_points[i]);
        return 0;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: malloc_fail [--list]\n");
        return 2;
    }
    /* One line per scenario, each out before the next starts: a crash
     * must not lose the lines of the scenarios that passed. */
    setvbuf(stdout, NULL, _IONBF, 0);

    ball_rules card_rules;
    ball_cardset *cards = NULL;
    ball_rules_init(&card_rules, sizeof card_rules);
    if (ball_rules_from_text(&card_rules, &cards, CARD_RULES, NULL, 0) != BALL_OK) {
        fprintf(stderr, "malloc_fail: cannot read the card rules\n");
        return 1;
    }

    struct new_ctx plain = {NULL, 0}, card = {&card_rules, 0}, null_alloc = {NULL, 1}, init_alloc = {&card_rules, 2};
    run_failing("ball_game_new", "ball_game_new (default rules)", call_game_new, &plain);
    run_failing("ball_game_new", "ball_game_new (card rules)", call_game_new, &card);
    run_failing("ball_game_new_with_allocator", "ball_game_new_with_allocator (NULL)", call_game_new, &null_alloc);
    run_failing("ball_game_new_with_allocator", "ball_game_new_with_allocator (init)", call_game_new, &init_alloc);

    ball_game *g = NULL;
    if (ball_game_new(&g, &card_rules, NULL, 0) != BALL_OK)
        return 1;
    struct grow_ctx grow = {g, 1, 0, 0};
    run_failing("ball_apply", "ball_apply (the undo history grows)", call_apply_grow, &grow);
    ball_game *g2 = NULL;
    if (ball_game_new(&g2, &card_rules, NULL, 0) != BALL_OK)
        return 1;
    struct grow_ctx grow2 = {g2, 5, 1, 0};
    run_failing("ball_apply_unchecked", "ball_apply_unchecked (the history grows)", call_apply_grow, &grow2);
    ball_game_free(g2);
    if (ball_game_new(&g2, &card_rules, NULL, 0) != BALL_OK)
        return 1;
    struct grow_ctx grow3 = {g2, 9, 2, 0};
    run_failing("ball_apply_index", "ball_apply_index (the history grows)", call_apply_grow, &grow3);
    ball_game_free(g2);
    if (ball_game_new(&g2, &card_rules, NULL, 0) != BALL_OK)
        return 1;
    struct grow_ctx grow4 = {g2, 13, 3, 0};
    run_failing("ball_random_apply", "ball_random_apply (the history grows)", call_apply_grow, &grow4);
    ball_game_free(g2);
    if (ball_game_new(&g2, NULL, NULL, 0) != BALL_OK || ball_apply_index(g2, 0) != BALL_OK
        || ball_undo(g2) != BALL_OK) /* a history of 16 allocated, empty */
        return 1;
    run_failing("ball_random_playout", "ball_random_playout (grows after 16)", call_playout, g2);
    ball_game_free(g2);
    if (!grow.grew || !grow2.grew || !grow3.grew || !grow4.grew) {
        fprintf(stderr, "malloc_fail: no apply grew the history\n");
        failures++;
    }
    run_failing("ball_game_clone", "ball_game_clone (with a history)", call_clone, g);
    run_failing("ball_history_reserve", "ball_history_reserve", call_reserve, g);

    /* A game whose history is full (an apply would have to grow it): its
     * perft must grow it. */
    ball_game *full = NULL;
    if (ball_game_new(&full, NULL, NULL, 0) != BALL_OK)
        return 1;
    uint64_t rng = 99;
    for (;;) {
        ball_action a;
        if (ball_random_action(full, next_random(&rng), &a) != BALL_OK) {
            ball_undo(full);
            continue;
        }
        arm(1);
        int rc = ball_apply(full, a);
        disarm();
        if (rc == BALL_E_NOMEM)
            break; /* full */
        if (rc != BALL_OK)
            return 1;
        if (ball_result(full) != BALL_ONGOING)
            ball_undo(full);
    }
    printf("malloc_fail: (a game with a full history of %d decisions)\n", ball_history_length(full));
    run_failing("ball_game_clone", "ball_game_clone (full history)", call_clone, full);
    run_failing("ball_perft", "ball_perft (from a full history)", call_perft, full); /* needs none */
    run_failing("ball_mcts_choose", "ball_mcts_choose (the history grows)", call_mcts_choose, full);
    run_failing("ball_mcts_new", "ball_mcts_new", call_mcts_new, NULL);
    run_failing("ball_net_load", "ball_net_load", call_net_load, NULL);
    run_failing("ball_net_load", "ball_net_load (format 2)", call_net_load, (void *)1);
    static const int one = 1, two = 2;
    run_failing("ball_search_new", "ball_search_new", call_search_new, (void *)&one);
    run_failing("ball_search_new", "ball_search_new (2 threads)", call_search_new, (void *)&two);
    run_failing("ball_search_run", "ball_search_run (the history grows)", call_search_run, full);
    run_failing("ball_search_evaluate", "ball_search_evaluate (the history grows)",
                call_search_evaluate, full);
    run_failing("ball_allocator_init", "ball_allocator_init", call_allocator_init, NULL);

    run_failing("ball_batch_new", "ball_batch_new (default rules)", call_batch_new, NULL);
    run_failing("ball_batch_new", "ball_batch_new (card rules)", call_batch_new, &card_rules);
    ball_batch *batch = NULL;
    if (ball_batch_new(&batch, 2, &card_rules, 0, NULL, 0) != BALL_OK)
        return 1;
    run_failing("ball_batch_game_clone", "ball_batch_game_clone", call_batch_game_clone, batch);
    ball_batch_free(batch);

    /* A record of the card game g (tags, a card ruleset, a long history):
     * reading it back allocates the card set, the game and its history. */
    char *record = NULL;
    struct record_ctx rec = {NULL, 0, NULL, 0};
    char rec_bpn[BALL_BPN_MAX];
    int rlen = ball_record_write(g, NULL, 0);
    if (rlen <= 0 || !(record = malloc((size_t)rlen + 1)) || ball_record_write(g, record, (size_t)rlen + 1) != rlen
        || ball_position_to_text(g, rec_bpn, sizeof rec_bpn) <= 0) {
        fprintf(stderr, "malloc_fail: cannot write the record of a game\n");
        return 1;
    }
    rec.text = record;
    rec.len = (size_t)rlen;
    rec.bpn = rec_bpn;
    rec.hist = ball_history_length(g);
    printf("malloc_fail: (a record of %d decisions, %d bytes)\n", rec.hist, rlen);
    run_failing("ball_record_read", "ball_record_read (card rules, a history)", call_record_read, &rec);
    free(record);

    run_failing("ball_cardset_new", "ball_cardset_new", call_cardset_new, NULL);
    run_failing("ball_rules_from_text", "ball_rules_from_text (card mode)", call_rules_from_text, (void *)CARD_RULES);
    run_failing("ball_rules_from_text", "ball_rules_from_text (\"cards\")", call_rules_from_text, (void *)"zone=2 cards");
    no_allocation(g);

    ball_game_free(g);
    ball_game_free(full);
    ball_cardset_free(cards);
    if (rules_cards_untouched)
        printf("malloc_fail: note: ball_rules_from_text() leaves *cards untouched when it fails "
               "(ball_game_new() and ball_cardset_new() set their output to NULL)\n");
    for (size_t i = 0; i < N_ENTRY_POINTS; i++)
        if (!exercised[i]) {
            fprintf(stderr, "malloc_fail: %s is in entry_points[] but no scenario calls it\n", entry_points[i]);
            failures++;
        }
    if (live != 0) {
        fprintf(stderr, "malloc_fail: %ld block(s) still allocated at the end\n", live);
        failures++;
    }
    if (failures) {
        fprintf(stderr, "malloc_fail: %d failure(s)\n", failures);
        return 1;
    }
    printf("malloc_fail: ok\n");
    return 0;
}
