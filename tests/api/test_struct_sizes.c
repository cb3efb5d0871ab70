/* The size-tagged public structs (ball_rules, ball_allocator,
 * ball_mcts_config, ball_mcts_stats): the library accepts only the
 * published sizes (today exactly sizeof of the 1.0 struct, which 1.1 has
 * not grown) and refuses every other one with BALL_E_ARG, before reading
 * a byte past the size field and without writing anything (issue item:
 * ball_rules / ball_allocator sizes; issue 23: one rule for every sized
 * struct). A caller compiled with the struct under `#pragma pack(push, 4)`
 * has another sizeof and is refused too. tests/packaging/abi_growth_test.sh checks
 * the other half: a caller of an older, smaller layout is accepted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Room for every size tried: the struct and 8 bytes more, with a margin
 * that must never be written. */
typedef struct rules_room {
    ball_rules r;
    unsigned char tail[32];
} rules_room;

typedef struct alloc_room {
    ball_allocator a;
    unsigned char tail[32];
} alloc_room;

#define FILL 0xA5

/* 1 when the n bytes at p all hold FILL. */
static int all_fill(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != FILL)
            return 0;
    return 1;
}

/* For every size from 0 to sizeof(ball_rules) + 8, with a card set in
 * the struct: ball_game_new(), ball_game_new_with_allocator(),
 * ball_rules_check(), ball_game_rules(), ball_rules_from_text() and
 * ball_rules_to_text() accept only sizeof(ball_rules) and return
 * BALL_E_ARG otherwise (the game pointer set to NULL, the caller's struct
 * not written, a message saying which size to use). ball_rules_init()
 * writes at most the size it is given. */
START_TEST(api_rules_every_size)
{
    ball_cardset *cards = tu_deck();
    ball_game *ref = tu_game_text(TU_DECK, NULL); /* for ball_game_rules() */
    for (size_t size = 0; size <= sizeof(ball_rules) + 8; size++) {
        int ok = size == sizeof(ball_rules);
        int want = ok ? BALL_OK : BALL_E_ARG;
        rules_room room;

        /* ball_rules_init writes at most `size` bytes */
        memset(&room, FILL, sizeof room);
        ball_rules_init(&room.r, size);
        tu_require(all_fill((unsigned char *)&room + size, sizeof room - size));

        /* a full, valid struct with a card set, only its size field wrong */
        memset(&room, FILL, sizeof room);
        ball_rules_init(&room.r, sizeof room.r);
        room.r.end_zone_depth = 2;
        room.r.cards = cards;
        room.r.size = size;
        rules_room before = room;

        ball_game *g = (ball_game *)&room; /* must be overwritten */
        char err[256] = "";
        int rc = ball_game_new(&g, &room.r, err, sizeof err);
        ck_assert_msg(rc == want, "ball_game_new with size %zu: %d", size, rc);
        if (ok) {
            ck_assert_ptr_nonnull(g);
            ck_assert_int_eq(ball_hand(g, BALL_ATK), 7); /* the card set was read */
            ball_game_free(g);
        } else {
            ck_assert_ptr_null(g);
            ck_assert_ptr_nonnull(strstr(err, "size"));
        }
        g = (ball_game *)&room;
        rc = ball_game_new_with_allocator(&g, &room.r, NULL, NULL, 0);
        ck_assert_msg(rc == want, "ball_game_new_with_allocator with size %zu: %d", size, rc);
        if (ok)
            ball_game_free(g);
        else
            ck_assert_ptr_null(g);
        ck_assert_msg(ball_rules_check(&room.r, err, sizeof err) == want, "ball_rules_check with size %zu",
                      size);
        if (!ok)
            ck_assert_ptr_nonnull(strstr(err, "size"));
        char text[BALL_RULES_TEXT_MAX];
        rc = ball_rules_to_text(&room.r, text, sizeof text);
        ck_assert_msg(ok ? rc > 0 : rc == BALL_E_ARG, "ball_rules_to_text with size %zu: %d", size, rc);
        ck_assert(memcmp(&room, &before, sizeof room) == 0); /* none of them writes */

        /* ball_game_rules() into a struct of that size */
        memset(&room, FILL, sizeof room);
        room.r.size = size;
        rc = ball_game_rules(ref, &room.r);
        ck_assert_msg(rc == want, "ball_game_rules with size %zu: %d", size, rc);
        if (ok) {
            ck_assert_int_eq(room.r.end_zone_depth, 1);
            ck_assert_ptr_nonnull(room.r.cards);
            ck_assert_int_eq(ball_cardset_hand_size(room.r.cards, BALL_ATK), 3);
            ck_assert(all_fill(room.tail, sizeof room.tail));
        } else {
            ck_assert_uint_eq(room.r.size, size);
            ck_assert(all_fill((unsigned char *)&room + sizeof room.r.size, sizeof room - sizeof room.r.size));
        }

        /* ball_rules_from_text() into a struct of that size */
        memset(&room, FILL, sizeof room);
        room.r.size = size;
        ball_cardset *made = NULL;
        rc = ball_rules_from_text(&room.r, &made, "zone=2 " TU_DECK, err, sizeof err);
        ck_assert_msg(rc == want, "ball_rules_from_text with size %zu: %d", size, rc);
        if (ok) {
            ck_assert_ptr_nonnull(made);
            ck_assert_ptr_eq(room.r.cards, made);
            ck_assert(tu_cardset_equal(made, cards));
            ck_assert(all_fill(room.tail, sizeof room.tail));
            ball_cardset_free(made);
        } else {
            ck_assert_ptr_null(made);
            ck_assert_uint_eq(room.r.size, size);
            ck_assert(all_fill((unsigned char *)&room + sizeof room.r.size, sizeof room - sizeof room.r.size));
        }
    }
    ball_game_free(ref);
    ball_cardset_free(cards);
}
END_TEST

/* A caller whose compiler packs the struct (`#pragma pack(push, 4)`: the
 * pointer after three 4-byte fields is no longer padded to 8) has a
 * struct of another size and layout: refused with BALL_E_ARG, card set or
 * not, by every call that takes a ball_rules. */
#pragma pack(push, 4)
typedef struct packed_rules {
    size_t size;
    int end_zone_depth;
    unsigned turn_limit;
    unsigned flags;
    const ball_cardset *cards;
} packed_rules;
#pragma pack(pop)

START_TEST(api_rules_packed_caller)
{
    ck_assert_uint_ne(sizeof(packed_rules), sizeof(ball_rules)); /* else this test proves nothing */
    ball_cardset *cards = tu_deck();
    packed_rules p;
    memset(&p, 0, sizeof p);
    p.size = sizeof p;
    p.end_zone_depth = 2;
    p.turn_limit = 50;
    p.cards = cards;
    const ball_rules *as_rules = (const ball_rules *)(const void *)&p;
    ball_game *g = (ball_game *)&p;
    char err[256] = "";
    ck_assert_int_eq(ball_game_new(&g, as_rules, err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_null(g);
    ck_assert_ptr_nonnull(strstr(err, "size"));
    ck_assert_int_eq(ball_game_new_with_allocator(&g, as_rules, NULL, err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_rules_check(as_rules, err, sizeof err), BALL_E_ARG);
    char text[BALL_RULES_TEXT_MAX];
    ck_assert_int_eq(ball_rules_to_text(as_rules, text, sizeof text), BALL_E_ARG);
    /* the calls that write the struct refuse it too, and write nothing */
    packed_rules copy = p;
    ball_game *ref = tu_game_text(TU_DECK, NULL);
    ck_assert_int_eq(ball_game_rules(ref, (ball_rules *)(void *)&p), BALL_E_ARG);
    ck_assert(memcmp(&p, &copy, sizeof p) == 0);
    ball_cardset *made = NULL;
    ck_assert_int_eq(ball_rules_from_text((ball_rules *)(void *)&p, &made, "zone=3", err, sizeof err),
                     BALL_E_ARG);
    ck_assert_ptr_null(made);
    ck_assert(memcmp(&p, &copy, sizeof p) == 0);
    /* without a card set as well */
    p.cards = NULL;
    ck_assert_int_eq(ball_game_new(&g, as_rules, NULL, 0), BALL_E_ARG);
    ck_assert_ptr_null(g);
    ball_game_free(ref);
    ball_cardset_free(cards);
}
END_TEST

/* For every size from 0 to sizeof(ball_allocator) + 8 of a full, valid
 * allocator: ball_game_new_with_allocator() accepts only
 * sizeof(ball_allocator) and returns BALL_E_ARG otherwise, without
 * calling a hook and with a message; ball_allocator_init() writes at most
 * the size it is given. */
START_TEST(api_allocator_every_size)
{
    long calls = 0;
    for (size_t size = 0; size <= sizeof(ball_allocator) + 8; size++) {
        int ok = size == sizeof(ball_allocator);
        alloc_room room;
        memset(&room, FILL, sizeof room);
        ball_allocator_init(&room.a, size);
        tu_require(all_fill((unsigned char *)&room + size, sizeof room - size));

        memset(&room, FILL, sizeof room);
        tu_counting_allocator(&room.a, &calls);
        room.a.size = size;
        calls = 0;
        ball_game *g = (ball_game *)&room;
        char err[256] = "";
        int rc = ball_game_new_with_allocator(&g, NULL, &room.a, err, sizeof err);
        if (ok) {
            ck_assert_int_eq(rc, BALL_OK);
            ck_assert_int_gt(calls, 0); /* the hooks are used */
            ball_game_free(g);
        } else {
            ck_assert_msg(rc == BALL_E_ARG, "allocator size %zu: %d", size, rc);
            ck_assert_ptr_null(g);
            ck_assert_int_eq(calls, 0);
            ck_assert_ptr_nonnull(strstr(err, "size"));
        }
    }
}
END_TEST

/* The allocator under `#pragma pack(push, 4)`. All its members are 8
 * bytes wide on LP64, so the packed layout is the same as the normal one
 * (same size, same offsets) and is rightly accepted there; where packing
 * changes the size (ILP32 with 8-byte size_t alignment), it is refused.
 * Either way the library reads it correctly or not at all. */
#pragma pack(push, 4)
typedef struct packed_allocator {
    size_t size;
    void *(*malloc_fn)(void *user, size_t n);
    void *(*realloc_fn)(void *user, void *ptr, size_t n);
    void (*free_fn)(void *user, void *ptr);
    void *user;
} packed_allocator;
#pragma pack(pop)

START_TEST(api_allocator_packed_caller)
{
    long calls = 0;
    ball_allocator counting;
    tu_counting_allocator(&counting, &calls);
    packed_allocator p = {sizeof p, counting.malloc_fn, counting.realloc_fn, counting.free_fn, &calls};
    ball_game *g = (ball_game *)&p;
    int rc = ball_game_new_with_allocator(&g, NULL, (const ball_allocator *)(const void *)&p, NULL, 0);
    int same_layout = sizeof p == sizeof(ball_allocator)
                      && offsetof(packed_allocator, user) == offsetof(ball_allocator, user)
                      && offsetof(packed_allocator, free_fn) == offsetof(ball_allocator, free_fn);
    if (same_layout) {
        ck_assert_int_eq(rc, BALL_OK);
        ck_assert_int_gt(calls, 0);
        ball_game_free(g);
    } else {
        ck_assert_int_eq(rc, BALL_E_ARG);
        ck_assert_ptr_null(g);
        ck_assert_int_eq(calls, 0);
    }
    /* a packed ruleset with a good allocator is still refused */
    packed_rules pr;
    memset(&pr, 0, sizeof pr);
    pr.size = sizeof pr;
    pr.end_zone_depth = 1;
    calls = 0;
    ck_assert_int_eq(ball_game_new_with_allocator(&g, (const ball_rules *)(const void *)&pr,
                                                  (const ball_allocator *)(const void *)&p, NULL, 0),
                     BALL_E_ARG);
    ck_assert_int_eq(calls, 0);
}
END_TEST

/* For every size from 0 to sizeof(ball_mcts_config) + 8:
 * ball_mcts_config_init() writes at most that many bytes, and
 * ball_mcts_new() accepts only the published size (BALL_E_ARG otherwise,
 * *out NULL, a message naming the size and ball_mcts_config_init()). */
typedef struct mcfg_room {
    ball_mcts_config c;
    unsigned char tail[32];
} mcfg_room;

START_TEST(api_mcts_config_every_size)
{
    for (size_t size = 0; size <= sizeof(ball_mcts_config) + 8; size++) {
        int ok = size == sizeof(ball_mcts_config);
        mcfg_room room;
        memset(&room, FILL, sizeof room);
        ball_mcts_config_init(&room.c, size);
        tu_require(all_fill((unsigned char *)&room + size, sizeof room - size));
        if (size >= sizeof room.c.size)
            ck_assert_uint_eq(room.c.size, size < sizeof room.c ? size : sizeof room.c);

        memset(&room, FILL, sizeof room);
        ball_mcts_config_init(&room.c, sizeof room.c);
        room.c.playouts = 10;
        room.c.size = size;
        mcfg_room before = room;
        ball_mcts *m = (ball_mcts *)&room;
        char err[256] = "";
        int rc = ball_mcts_new(&m, &room.c, err, sizeof err);
        ck_assert_msg(rc == (ok ? BALL_OK : BALL_E_ARG), "ball_mcts_new with config size %zu: %d", size, rc);
        if (ok) {
            ck_assert_ptr_nonnull(m);
            ball_mcts_free(m);
        } else {
            ck_assert_ptr_null(m);
            ck_assert_msg(strstr(err, "size") && strstr(err, "ball_mcts_config_init"), "%s", err);
        }
        ck_assert(memcmp(&room, &before, sizeof room) == 0); /* read, never written */
    }
}
END_TEST

/* For every size from 0 to sizeof(ball_mcts_stats) + 8:
 * ball_mcts_stats_init() writes at most that many bytes (zeroes and the
 * size), and ball_mcts_choose() accepts only the published size, writes
 * no byte past it, and leaves a refused struct untouched (BALL_E_ARG, a
 * message naming the size and ball_mcts_stats_init()). */
typedef struct mstats_room {
    ball_mcts_stats s;
    unsigned char tail[32];
} mstats_room;

START_TEST(api_mcts_stats_every_size)
{
    ball_mcts_config cfg;
    ball_mcts *m = NULL;
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 20;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, NULL, 0), BALL_OK);
    ball_game *g = tu_game(NULL);
    for (size_t size = 0; size <= sizeof(ball_mcts_stats) + 8; size++) {
        int ok = size == sizeof(ball_mcts_stats);
        mstats_room room;
        memset(&room, FILL, sizeof room);
        ball_mcts_stats_init(&room.s, size);
        tu_require(all_fill((unsigned char *)&room + size, sizeof room - size));
        if (size >= sizeof room.s.size)
            ck_assert_uint_eq(room.s.size, size < sizeof room.s ? size : sizeof room.s);
        if (ok)
            ck_assert(room.s.playouts == 0 && room.s.nodes == 0 && room.s.visits == 0 &&
                      room.s.max_depth == 0 && room.s.value == 0.0 && room.s.elapsed_ms == 0.0);

        memset(&room, FILL, sizeof room);
        room.s.size = size;
        mstats_room before = room;
        ball_action a = BALL_ACTION_NONE;
        int rc = ball_mcts_choose(m, g, &a, &room.s);
        ck_assert_msg(rc == (ok ? BALL_OK : BALL_E_ARG), "ball_mcts_choose with stats size %zu: %d", size, rc);
        if (ok) {
            ck_assert_uint_eq(room.s.size, size);
            ck_assert_uint_eq(room.s.playouts, 20);
            ck_assert(all_fill(room.tail, sizeof room.tail));
        } else {
            ck_assert_uint_eq(a, BALL_ACTION_NONE);
            ck_assert(memcmp(&room, &before, sizeof room) == 0);
            ck_assert_msg(strstr(ball_errmsg(g), "size") && strstr(ball_errmsg(g), "ball_mcts_stats_init"),
                          "%s", ball_errmsg(g));
        }
    }
    ball_mcts_stats_init(NULL, sizeof(ball_mcts_stats)); /* ignored */
    ball_mcts_free(m);
    ball_game_free(g);
}
END_TEST

/* The 1.0 layouts, field by field (LP64): a field moved, resized or
 * removed changes an offset here; a field appended changes only sizeof,
 * which needs a new published size (docs/abi.md, "Cutting a release"). */
START_TEST(api_layouts_1_0)
{
    if (sizeof(void *) != 8 || sizeof(size_t) != 8)
        return; /* the numbers below are LP64's */
    ck_assert_uint_eq(offsetof(ball_rules, end_zone_depth), 8);
    ck_assert_uint_eq(offsetof(ball_rules, turn_limit), 12);
    ck_assert_uint_eq(offsetof(ball_rules, flags), 16);
    ck_assert_uint_eq(offsetof(ball_rules, cards), 24);
    ck_assert_uint_eq(sizeof(ball_rules), 32);
    ck_assert_uint_eq(offsetof(ball_allocator, user), 32);
    ck_assert_uint_eq(sizeof(ball_allocator), 40);
    ck_assert_uint_eq(offsetof(ball_mcts_config, seed), 8);
    ck_assert_uint_eq(offsetof(ball_mcts_config, playouts), 16);
    ck_assert_uint_eq(offsetof(ball_mcts_config, time_ms), 20);
    ck_assert_uint_eq(offsetof(ball_mcts_config, max_nodes), 24);
    ck_assert_uint_eq(offsetof(ball_mcts_config, exploration), 32);
    ck_assert_uint_eq(offsetof(ball_mcts_config, playout_turns), 40);
    ck_assert_uint_eq(sizeof(ball_mcts_config), 48);
    ck_assert_uint_eq(offsetof(ball_mcts_stats, playouts), 8);
    ck_assert_uint_eq(offsetof(ball_mcts_stats, nodes), 16);
    ck_assert_uint_eq(offsetof(ball_mcts_stats, max_depth), 24);
    ck_assert_uint_eq(offsetof(ball_mcts_stats, visits), 28);
    ck_assert_uint_eq(offsetof(ball_mcts_stats, value), 32);
    ck_assert_uint_eq(offsetof(ball_mcts_stats, elapsed_ms), 40);
    ck_assert_uint_eq(sizeof(ball_mcts_stats), 48);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("struct sizes");
    TCase *tc = tcase_create("sizes");
    tcase_add_test(tc, api_rules_every_size);
    tcase_add_test(tc, api_rules_packed_caller);
    tcase_add_test(tc, api_allocator_every_size);
    tcase_add_test(tc, api_allocator_packed_caller);
    tcase_add_test(tc, api_mcts_config_every_size);
    tcase_add_test(tc, api_mcts_stats_every_size);
    tcase_add_test(tc, api_layouts_1_0);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
