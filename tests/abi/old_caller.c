/* A program written for libball 1.0 and built against the 1.0 header
 * (tests/abi/1.0/ball.h, the include/ball.h of the 1.0.0 release) or a
 * later 1.x one, run against a library whose size-tagged structs
 * (ball_rules, ball_allocator, ball_mcts_config, ball_mcts_stats) have
 * each grown a field (see tests/packaging/abi_growth_test.sh): it must keep working,
 * and the library must never write past the caller's smaller structs.
 * Exits non-zero with a message on the first failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"

#define GUARD 0x5a

static int failures;
#define EXPECT(cond) do { if (!(cond)) { fprintf(stderr, "old_caller: line %d: %s\n", __LINE__, #cond); failures++; } } while (0)

/* The struct followed by guard bytes the library must not touch. */
typedef struct { ball_rules r; unsigned char guard[32]; } guarded_rules;
typedef struct { ball_allocator a; unsigned char guard[32]; } guarded_alloc;
typedef struct { ball_mcts_config c; unsigned char guard[32]; } guarded_config;
typedef struct { ball_mcts_stats s; unsigned char guard[32]; } guarded_stats;

static int guard_intact(const unsigned char *g)
{
    for (int i = 0; i < 32; i++)
        if (g[i] != GUARD)
            return 0;
    return 1;
}

static size_t allocs;
static void *count_malloc(void *user, size_t n) { (void)user; allocs++; return malloc(n); }
static void *count_realloc(void *user, void *p, size_t n) { (void)user; allocs++; return realloc(p, n); }
static void count_free(void *user, void *p) { (void)user; free(p); }

int main(void)
{
    guarded_rules gr;
    memset(&gr, GUARD, sizeof gr);
    ball_rules_init(&gr.r, sizeof gr.r);
    EXPECT(gr.r.size == sizeof gr.r);
    EXPECT(guard_intact(gr.guard));
    gr.r.end_zone_depth = 2;
    gr.r.turn_limit = 7;

    ball_cardset *cards = NULL;
    EXPECT(ball_cardset_new(&cards) == BALL_OK);
    EXPECT(ball_cardset_set_earn(cards, BALL_EARN_DODGE, 2) == BALL_OK);
    EXPECT(ball_cardset_add_card(cards, BALL_ATK, "Sprint", 1, BALL_EFFECT_GAIN_PA, 2) == 0);
    gr.r.cards = cards;
    char err[256] = "";
    EXPECT(ball_rules_check(&gr.r, err, sizeof err) == BALL_OK);

    guarded_alloc ga;
    memset(&ga, GUARD, sizeof ga);
    ball_allocator_init(&ga.a, sizeof ga.a);
    EXPECT(guard_intact(ga.guard));
    ga.a.malloc_fn = count_malloc;
    ga.a.realloc_fn = count_realloc;
    ga.a.free_fn = count_free;

    ball_game *g = NULL;
    EXPECT(ball_game_new_with_allocator(&g, &gr.r, &ga.a, err, sizeof err) == BALL_OK);
    if (!g) {
        fprintf(stderr, "old_caller: ball_game_new: %s\n", err);
        return 1;
    }
    EXPECT(allocs > 0);
    ball_cardset_free(cards);

    /* The game got the caller's values; fields the caller's header lacks
     * took their defaults. */
    guarded_rules back;
    memset(&back, GUARD, sizeof back);
    ball_rules_init(&back.r, sizeof back.r);
    EXPECT(ball_game_rules(g, &back.r) == BALL_OK);
    EXPECT(guard_intact(back.guard));
    EXPECT(back.r.size == sizeof back.r);
    EXPECT(back.r.end_zone_depth == 2 && back.r.turn_limit == 7 && back.r.cards != NULL);
    EXPECT(ball_cardset_earn(back.r.cards, BALL_EARN_DODGE) == 2);
    char text[BALL_RULES_TEXT_MAX];
    EXPECT(ball_rules_to_text(&back.r, text, sizeof text) > 0);
    EXPECT(strcmp(text, "zone=2 turns=7 earn.dodge=2 atk=Sprint:1:pa+2") == 0);

    uint64_t n = 0;
    EXPECT(ball_perft(g, 2, &n) == BALL_OK && n > 0);

    /* A searcher from the caller's config; the stats of the search are
     * written up to the caller's size and no further. (1.0 has no
     * ball_mcts_stats_init(): the size is set by hand, as 1.0 asked.) */
    guarded_config gc;
    memset(&gc, GUARD, sizeof gc);
    ball_mcts_config_init(&gc.c, sizeof gc.c);
    EXPECT(guard_intact(gc.guard));
    EXPECT(gc.c.size == sizeof gc.c);
    EXPECT(gc.c.playouts == 1000 && gc.c.playout_turns == 1 && gc.c.seed == 1);
    gc.c.playouts = 50;
    gc.c.seed = 3;
    ball_mcts *m = NULL;
    EXPECT(ball_mcts_new(&m, &gc.c, err, sizeof err) == BALL_OK);
    if (!m) {
        fprintf(stderr, "old_caller: ball_mcts_new: %s\n", err);
        return 1;
    }
    guarded_stats gs;
    memset(&gs, GUARD, sizeof gs);
    gs.s.size = sizeof gs.s;
    ball_action a = BALL_ACTION_NONE;
    EXPECT(ball_mcts_choose(m, g, &a, &gs.s) == BALL_OK);
    EXPECT(guard_intact(gs.guard));
    EXPECT(gs.s.size == sizeof gs.s);
    EXPECT(gs.s.playouts == 50 && gs.s.visits >= 1 && gs.s.value >= 0.0 && gs.s.value <= 1.0);
    EXPECT(ball_is_legal(g, a) == 1);
    ball_mcts_free(m);
    ball_game_free(g);
    if (failures == 0)
        printf("old_caller (header %s): structs of ball_rules %zu, ball_allocator %zu, "
               "ball_mcts_config %zu, ball_mcts_stats %zu bytes accepted by libball %s\n",
               BALL_VERSION_STRING, sizeof(ball_rules), sizeof(ball_allocator),
               sizeof(ball_mcts_config), sizeof(ball_mcts_stats), ball_version_string());
    return failures != 0;
}
