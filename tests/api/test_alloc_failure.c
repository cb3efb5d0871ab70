/* Allocation failure: a counting allocator (ball_allocator with a user
 * pointer) fails the 1st, 2nd, ... allocation of each public call that
 * allocates (ball_game_new_with_allocator, ball_game_clone,
 * ball_history_reserve, ball_apply and ball_apply_unchecked when the undo
 * history grows) in turn. Every failure must return BALL_E_NOMEM, leak
 * nothing (the allocator counts live blocks) and leave the game usable:
 * same BPN, same hash, same history, and it can still apply and undo.
 * The calls documented as never allocating must not call the allocator. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define TRACKER_MAGIC 0x7ac4e5u
#define MAX_BLOCKS 64

typedef struct tracker {
    unsigned magic;
    long calls;      /* allocation calls (malloc_fn and realloc_fn) */
    long fail_at;    /* the call number (1-based) that fails; 0: none */
    int fail_after;  /* with fail_at: every later call fails too */
    long failed;     /* calls that failed */
    long frees;
    int misuse;      /* wrong user pointer, free of a NULL or unknown block */
    int nblocks;
    void *blocks[MAX_BLOCKS];
} tracker;

static int find_block(const tracker *t, const void *p)
{
    for (int i = 0; i < t->nblocks; i++)
        if (t->blocks[i] == p)
            return i;
    return -1;
}

static void forget_block(tracker *t, int i)
{
    t->blocks[i] = t->blocks[--t->nblocks];
}

static int should_fail(tracker *t)
{
    t->calls++;
    if (t->fail_at && (t->calls == t->fail_at || (t->fail_after && t->calls > t->fail_at))) {
        t->failed++;
        return 1;
    }
    return 0;
}

static void *t_malloc(void *user, size_t n)
{
    tracker *t = user;
    if (!t || t->magic != TRACKER_MAGIC) {
        if (t)
            t->misuse = 1;
        return NULL;
    }
    if (should_fail(t) || t->nblocks == MAX_BLOCKS)
        return NULL;
    void *p = malloc(n ? n : 1);
    if (p)
        t->blocks[t->nblocks++] = p;
    return p;
}

static void *t_realloc(void *user, void *ptr, size_t n)
{
    tracker *t = user;
    if (!t || t->magic != TRACKER_MAGIC) {
        if (t)
            t->misuse = 1;
        return NULL;
    }
    int i = ptr ? find_block(t, ptr) : -1;
    if (ptr && i < 0) {
        t->misuse = 1;
        return NULL;
    }
    if (should_fail(t) || (!ptr && t->nblocks == MAX_BLOCKS))
        return NULL;
    void *p = realloc(ptr, n ? n : 1);
    if (!p)
        return NULL;
    if (ptr)
        t->blocks[i] = p;
    else
        t->blocks[t->nblocks++] = p;
    return p;
}

static void t_free(void *user, void *ptr)
{
    tracker *t = user;
    if (!t || t->magic != TRACKER_MAGIC || !ptr) {
        if (t)
            t->misuse = 1;
        return;
    }
    int i = find_block(t, ptr);
    if (i < 0) {
        t->misuse = 1;
        return;
    }
    forget_block(t, i);
    t->frees++;
    free(ptr);
}

static tracker tr;
static ball_allocator alloc;

static void tracker_reset(void)
{
    memset(&tr, 0, sizeof tr);
    tr.magic = TRACKER_MAGIC;
    ball_allocator_init(&alloc, sizeof alloc);
    alloc.malloc_fn = t_malloc;
    alloc.realloc_fn = t_realloc;
    alloc.free_fn = t_free;
    alloc.user = &tr;
}

/* Arms the tracker: the k-th allocation call from now fails (and every
 * later one with after set). */
static void arm(long k, int after)
{
    tr.calls = 0;
    tr.failed = 0;
    tr.fail_at = k;
    tr.fail_after = after;
}

static void disarm(void)
{
    tr.fail_at = 0;
    tr.fail_after = 0;
}

/* Frees g; the allocator then holds no block and saw no misuse. */
static void free_and_check(ball_game *g)
{
    ball_game_free(g);
    ck_assert_int_eq(tr.nblocks, 0);
    ck_assert_int_eq(tr.misuse, 0);
}

/* Every decision can still be taken back to the start; then
 * free_and_check(). */
static void undo_all_and_free(ball_game *g)
{
    disarm();
    while (ball_history_length(g) > 0)
        ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    free_and_check(g);
}

static ball_game *tracked_game(const ball_rules *rules)
{
    ball_game *g = NULL;
    disarm();
    ck_assert_int_eq(ball_game_new_with_allocator(&g, rules, &alloc, NULL, 0), BALL_OK);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_gt(tr.nblocks, 0);
    return g;
}

/* The game still works: it can apply a legal decision and take it back,
 * coming back to the same BPN and hash. */
static void check_usable(ball_game *g)
{
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    ball_action acts[BALL_MAX_ACTIONS];
    tu_bpn(g, before);
    uint64_t hash = ball_hash(g);
    int hist = ball_history_length(g);
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    ck_assert_int_gt(n, 0);
    int fail_at = (int)tr.fail_at;
    disarm(); /* applying may need to grow the history */
    ck_assert_int_eq(ball_apply(g, acts[n - 1]), BALL_OK);
    ck_assert_int_eq(ball_history_length(g), hist + 1);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    tu_bpn(g, after);
    ck_assert_str_eq(after, before);
    ck_assert_uint_eq(ball_hash(g), hash);
    tr.fail_at = fail_at;
}

/* Plays `end` n times: turns pass without anything else changing, and
 * the game never ends (no turn limit). */
static void play_ends(ball_game *g, int n)
{
    ball_action end = BALL_ACTION_NONE;
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(ball_action_from_text(g, "end", &end), BALL_OK);
        ck_assert_int_eq(ball_apply(g, end), BALL_OK);
    }
}

/* ---------------------------------------------------------------- tests */

START_TEST(test_new_fails_at_each_allocation)
{
    /* default rules, and card mode (the game keeps its own copy of the
     * cards) */
    static const char *const rule_texts[] = {"", "zone=2 turns=9 earn.move=1 atk=Sprint:2:pa+1 def=Rally:1:again"};
    for (int after = 0; after <= 1; after++)
        for (size_t r = 0; r < sizeof rule_texts / sizeof *rule_texts; r++) {
            ball_rules rules;
            ball_cardset *cards = NULL;
            char err[128];
            ball_rules_init(&rules, sizeof rules);
            ck_assert_int_eq(ball_rules_from_text(&rules, &cards, rule_texts[r], err, sizeof err), BALL_OK);
            ck_assert(r == 0 ? cards == NULL : cards != NULL);
            tracker_reset();
            long k;
            for (k = 1; k < 100; k++) {
                ball_game *g = (ball_game *)&tr; /* must be overwritten */
                arm(k, after);
                int rc = ball_game_new_with_allocator(&g, &rules, &alloc, NULL, 0);
                ck_assert_int_eq(tr.misuse, 0);
                if (tr.failed == 0) { /* fewer than k allocations: done */
                    ck_assert_int_eq(rc, BALL_OK);
                    ck_assert_ptr_nonnull(g);
                    ck_assert_str_eq(ball_errmsg(g), "");
                    check_usable(g);
                    ball_game_free(g);
                    break;
                }
                ck_assert_int_eq(rc, BALL_E_NOMEM);
                ck_assert_ptr_null(g);
                ck_assert_int_eq(tr.nblocks, 0); /* nothing leaked */
            }
            ck_assert_int_gt(k, 1); /* it allocates at all */
            ck_assert_int_eq(tr.nblocks, 0);
            ck_assert_int_eq(tr.misuse, 0);
            ball_cardset_free(cards); /* the games had their own copies */
        }
}
END_TEST

START_TEST(test_clone_fails_at_each_allocation)
{
    for (int after = 0; after <= 1; after++) {
        tracker_reset();
        ball_game *g = tracked_game(NULL);
        tu_apply_all(g, "E11-F10 G13-F12 end G5-F6");
        char bpn[BALL_BPN_MAX], again[BALL_BPN_MAX];
        tu_bpn(g, bpn);
        uint64_t hash = ball_hash(g);
        int blocks = tr.nblocks;
        long k;
        for (k = 1; k < 100; k++) {
            ball_game *c = (ball_game *)&tr;
            arm(k, after);
            int rc = ball_game_clone(&c, g);
            ck_assert_int_eq(tr.misuse, 0);
            if (tr.failed == 0) {
                ck_assert_int_eq(rc, BALL_OK);
                ck_assert_int_gt(tr.nblocks, blocks); /* the clone uses the same allocator */
                tu_bpn(c, again);
                ck_assert_str_eq(again, bpn);
                ck_assert_int_eq(ball_history_length(c), 4);
                ck_assert_int_eq(ball_undo(c), BALL_OK);
                check_usable(c);
                ball_game_free(c);
                ck_assert_int_eq(tr.nblocks, blocks);
                break;
            }
            ck_assert_int_eq(rc, BALL_E_NOMEM);
            ck_assert_ptr_null(c);
            ck_assert_int_eq(tr.nblocks, blocks);
            /* the original is untouched */
            tu_bpn(g, again);
            ck_assert_str_eq(again, bpn);
            ck_assert_uint_eq(ball_hash(g), hash);
            ck_assert_int_eq(ball_history_length(g), 4);
            check_usable(g);
        }
        ck_assert_int_gt(k, 1);
        free_and_check(g);
    }
}
END_TEST

START_TEST(test_history_reserve_fails_at_each_allocation)
{
    for (int after = 0; after <= 1; after++) {
        tracker_reset();
        ball_game *g = tracked_game(NULL);
        tu_apply_all(g, "E11-F10");
        char bpn[BALL_BPN_MAX], again[BALL_BPN_MAX];
        tu_bpn(g, bpn);
        int blocks = tr.nblocks;
        long k;
        for (k = 1; k < 100; k++) {
            arm(k, after);
            int rc = ball_history_reserve(g, 5000);
            ck_assert_int_eq(tr.misuse, 0);
            if (tr.failed == 0) {
                ck_assert_int_eq(rc, BALL_OK);
                break;
            }
            ck_assert_int_eq(rc, BALL_E_NOMEM);
            ck_assert_str_ne(ball_errmsg(g), "");
            ck_assert_int_eq(tr.nblocks, blocks);
            tu_bpn(g, again);
            ck_assert_str_eq(again, bpn);
            ck_assert_int_eq(ball_history_length(g), 1);
            check_usable(g);
        }
        ck_assert_int_gt(k, 1);
        ck_assert_int_eq(tr.nblocks, blocks);
        /* the reserved room is there: 5000 decisions without an allocation */
        arm(1, 1);
        play_ends(g, 5000);
        ck_assert_int_eq(tr.calls, 0);
        ck_assert_int_eq(ball_history_length(g), 5001);
        /* the next one must grow the history, which fails */
        ball_action end;
        ck_assert_int_eq(ball_action_from_text(g, "end", &end), BALL_OK);
        ck_assert_int_eq(ball_apply(g, end), BALL_E_NOMEM);
        ck_assert_int_eq(ball_history_length(g), 5001);
        undo_all_and_free(g);
    }
}
END_TEST

/* A size that cannot be represented (the history would pass INT_MAX
 * decisions) fails without calling the allocator at all: the tracker
 * counts every call of its malloc and realloc hooks, and none may come. */
START_TEST(test_history_reserve_too_large)
{
    tracker_reset();
    ball_game *g = tracked_game(NULL);
    int blocks = tr.nblocks;
    arm(0, 0); /* counts calls from 0, fails none */
    ck_assert_int_eq(ball_history_reserve(g, SIZE_MAX), BALL_E_NOMEM);
    ck_assert_int_eq(tr.calls, 0);
    ck_assert_int_eq(ball_history_reserve(g, SIZE_MAX / 2), BALL_E_NOMEM);
    ck_assert_int_eq(tr.calls, 0);
    ck_assert_int_eq(ball_history_reserve(g, (size_t)INT_MAX + 1), BALL_E_NOMEM);
    ck_assert_int_eq(tr.calls, 0);
    ck_assert_str_ne(ball_errmsg(g), "");
    /* with one decision in the history, INT_MAX more would pass INT_MAX */
    tu_apply(g, "end");
    ck_assert_int_eq(tr.calls, 0); /* the history has room for one */
    ck_assert_int_eq(ball_history_reserve(g, (size_t)INT_MAX), BALL_E_NOMEM);
    ck_assert_int_eq(tr.calls, 0);
    ck_assert_int_eq(tr.failed, 0);
    ck_assert_int_eq(tr.nblocks, blocks);
    ck_assert_int_eq(ball_history_length(g), 1);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_bpn(g, BALL_START_BPN);
    check_usable(g);
    ck_assert_int_eq(ball_history_reserve(g, 0), BALL_OK);
    ck_assert_int_eq(ball_history_reserve(NULL, 1), BALL_E_ARG);
    ball_game_free(g);
    ck_assert_int_eq(tr.nblocks, 0);
}
END_TEST

/* ball_apply() and ball_apply_unchecked() allocate only when the undo
 * history is full; a failure there leaves the game as it was. */
START_TEST(test_apply_fails_when_history_grows)
{
    for (int unchecked = 0; unchecked <= 1; unchecked++)
        for (int after = 0; after <= 1; after++) {
            tracker_reset();
            ball_game *g = tracked_game(NULL);
            /* fill the history until the next decision needs memory */
            ball_action end;
            long grew = 0;
            for (int i = 0; i < 100000 && !grew; i++) {
                arm(1, 1);
                ck_assert_int_eq(ball_action_from_text(g, "end", &end), BALL_OK);
                int rc = unchecked ? ball_apply_unchecked(g, end) : ball_apply(g, end);
                grew = tr.calls;
                if (!grew)
                    ck_assert_int_eq(rc, BALL_OK);
                else
                    ck_assert_int_eq(rc, BALL_E_NOMEM);
            }
            ck_assert_int_gt(grew, 0);
            int full = ball_history_length(g);
            ck_assert_int_gt(full, 0);
            char bpn[BALL_BPN_MAX], again[BALL_BPN_MAX];
            tu_bpn(g, bpn);
            uint64_t hash = ball_hash(g);
            int blocks = tr.nblocks;
            long k;
            for (k = 1; k < 100; k++) {
                arm(k, after);
                int rc = unchecked ? ball_apply_unchecked(g, end) : ball_apply(g, end);
                ck_assert_int_eq(tr.misuse, 0);
                if (tr.failed == 0) {
                    ck_assert_int_eq(rc, BALL_OK);
                    ck_assert_int_eq(ball_history_length(g), full + 1);
                    break;
                }
                ck_assert_int_eq(rc, BALL_E_NOMEM);
                ck_assert_str_ne(ball_errmsg(g), "");
                ck_assert_int_eq(tr.nblocks, blocks);
                tu_bpn(g, again);
                ck_assert_str_eq(again, bpn);
                ck_assert_uint_eq(ball_hash(g), hash);
                ck_assert_int_eq(ball_history_length(g), full);
                /* undo and redo still work with the full history */
                arm(1, 1);
                ck_assert_int_eq(ball_undo(g), BALL_OK);
                ck_assert_int_eq(ball_apply(g, end), BALL_OK);
                ck_assert_int_eq(tr.calls, 0);
                tu_bpn(g, again);
                ck_assert_str_eq(again, bpn);
            }
            ck_assert_int_gt(k, 1);
            /* every decision can be taken back to the start */
            undo_all_and_free(g);
        }
}
END_TEST

/* The calls documented as not allocating never call the allocator, even
 * one that always fails. */
START_TEST(test_other_calls_do_not_allocate)
{
    tracker_reset();
    ball_game *g = tracked_game(NULL);
    ck_assert_int_eq(ball_history_reserve(g, 64), BALL_OK);
    arm(1, 1);
    ball_action acts[BALL_MAX_ACTIONS], a = BALL_ACTION_NONE;
    char buf[BALL_BPN_MAX];
    int choices[BALL_NUM_SQUARES];
    uint64_t count = 0;
    ck_assert_int_gt(ball_legal_actions(g, acts, BALL_MAX_ACTIONS), 0);
    ck_assert_int_eq(ball_is_legal(g, acts[0]), 1);
    ck_assert_int_eq(ball_action_from_text(g, "E11-F10", &a), BALL_OK);
    ck_assert_int_gt(ball_action_to_text(a, buf, sizeof buf), 0);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ck_assert_int_gt(ball_legal_actions(g, acts, BALL_MAX_ACTIONS), 0);
    ck_assert_int_eq(ball_apply_unchecked(g, acts[0]), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_eq(ball_undo(g), BALL_OK);
    ck_assert_int_gt(ball_position_to_text(g, buf, sizeof buf), 0);
    ck_assert_int_eq(ball_position_from_text(g, buf), BALL_OK);
    ck_assert_int_eq(ball_position_from_text(g, "garbage"), BALL_E_BPN);
    ck_assert_int_eq(ball_perft(g, 2, &count), BALL_OK);
    ck_assert_int_gt(ball_select(g, NULL, 0, choices, BALL_NUM_SQUARES, NULL), 0);
    tu_apply_all(g, "E11-F10 F10-E9 end");
    ck_assert_int_ge(ball_release_tasks(g, NULL, 0), 0);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    ck_assert_int_eq(ball_game_rules(g, &rules), BALL_OK);
    (void)ball_hash(g);
    (void)ball_errmsg(g);
    ck_assert_int_eq(tr.calls, 0);
    disarm();
    free_and_check(g);
}
END_TEST

/* A bad allocator is refused before anything is allocated. */
START_TEST(test_bad_allocator_is_refused)
{
    tracker_reset();
    ball_game *g = (ball_game *)&tr;
    ball_allocator bad = alloc;
    bad.size = sizeof bad - 1;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &bad, NULL, 0), BALL_E_ARG);
    ck_assert_ptr_null(g);
    bad = alloc;
    bad.malloc_fn = NULL;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &bad, NULL, 0), BALL_E_ARG);
    bad = alloc;
    bad.realloc_fn = NULL;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &bad, NULL, 0), BALL_E_ARG);
    bad = alloc;
    bad.free_fn = NULL;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, &bad, NULL, 0), BALL_E_ARG);
    ck_assert_int_eq(ball_game_new_with_allocator(NULL, NULL, &alloc, NULL, 0), BALL_E_ARG);
    /* a bad ruleset is refused before allocating too */
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = 9;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, &rules, &alloc, NULL, 0), BALL_E_RANGE);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(tr.calls, 0);
    ball_allocator_init(NULL, sizeof(ball_allocator)); /* does nothing */
    /* NULL allocator: the C library's */
    ck_assert_int_eq(ball_game_new_with_allocator(&g, NULL, NULL, NULL, 0), BALL_OK);
    ck_assert_int_eq(tr.calls, 0);
    ball_game_free(g);
}
END_TEST

/* Clones outlive their original and free through the shared allocator;
 * the user pointer reaches every call. */
START_TEST(test_clone_outlives_original)
{
    tracker_reset();
    ball_game *g = tracked_game(NULL), *c = NULL;
    tu_apply_all(g, "E11-F10");
    ck_assert_int_eq(ball_game_clone(&c, g), BALL_OK);
    ball_game_free(g);
    ck_assert_int_gt(tr.nblocks, 0);
    tu_apply_all(c, "end");
    check_usable(c);
    /* grow the clone's history through the allocator */
    ck_assert_int_eq(ball_history_reserve(c, 1000), BALL_OK);
    free_and_check(c);
    ck_assert_int_gt(tr.frees, 0);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("alloc_failure");
    TCase *tc = tcase_create("alloc_failure");
    tcase_add_test(tc, test_new_fails_at_each_allocation);
    tcase_add_test(tc, test_clone_fails_at_each_allocation);
    tcase_add_test(tc, test_history_reserve_fails_at_each_allocation);
    tcase_add_test(tc, test_history_reserve_too_large);
    tcase_add_test(tc, test_apply_fails_when_history_grows);
    tcase_add_test(tc, test_other_calls_do_not_allocate);
    tcase_add_test(tc, test_bad_allocator_is_refused);
    tcase_add_test(tc, test_clone_outlives_original);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
