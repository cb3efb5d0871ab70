/* The Monte-Carlo tree search player (ball.h, "Search"): its contract
 * (arguments, sizes, budgets), that it leaves the game as it was, plays
 * legal decisions, repeats itself for a seed, takes an immediate touchdown
 * (R11.1) and finds a two-decision one, plays whole games, and with
 * playout_turns 0 plays its playouts to the end of the game. Also the
 * experimental ball_mcts_root_decisions() (ball.h, "Experimental API"). */
#define BALL_EXPERIMENTAL
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ATK X* on G13, DEF x on A1, ATK to act with 2 PA: G13-E15 E15-C17 (or
 * another pair of 2-square diagonal moves) scores this turn (R5.1, R11.1). */
#define IN_ONE "7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2"

static ball_mcts *make(int playouts, int time_ms, uint64_t seed)
{
    ball_mcts_config cfg;
    ball_mcts *m = NULL;
    char err[128];
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = playouts;
    cfg.time_ms = time_ms;
    cfg.seed = seed;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_OK);
    ck_assert_ptr_nonnull(m);
    return m;
}

START_TEST(test_config_and_errors)
{
    ball_mcts_config cfg;
    ball_mcts *m = (ball_mcts *)&cfg;
    char err[128];

    ball_mcts_config_init(&cfg, sizeof cfg);
    ck_assert_uint_eq(cfg.size, sizeof cfg);
    ck_assert_int_eq(cfg.playouts, 1000);
    ck_assert_int_eq(cfg.time_ms, 0);
    ck_assert_int_eq(cfg.playout_turns, 1); /* the defaults docs/players.md measured */
    ck_assert(cfg.exploration == 0.3);
    ck_assert_uint_eq(cfg.seed, 1);
    ball_mcts_config_init(NULL, sizeof cfg); /* ignored */

    ck_assert_int_eq(ball_mcts_new(NULL, &cfg, err, sizeof err), BALL_E_ARG);
    cfg.size = 8;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_null(m);
    ck_assert(strstr(err, "size") != NULL);
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 0;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ck_assert(strstr(err, "budget") != NULL);
    cfg.playouts = -5;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, NULL, 0), BALL_E_RANGE);
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.exploration = -1;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);

    ck_assert_int_eq(ball_mcts_new(&m, NULL, NULL, 0), BALL_OK); /* defaults */
    ball_game *g = tu_game(NULL);
    ball_action a;
    ck_assert_int_eq(ball_mcts_choose(NULL, g, &a, NULL), BALL_E_ARG);
    ck_assert_str_eq(ball_errmsg(g), "mcts: NULL searcher");
    ck_assert_int_eq(ball_mcts_choose(m, NULL, &a, NULL), BALL_E_ARG);
    ck_assert_int_eq(ball_mcts_choose(m, g, NULL, NULL), BALL_E_ARG);
    ck_assert_str_eq(ball_errmsg(g), "mcts: NULL output pointer");
    ball_mcts_stats st;
    st.size = 3;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_E_ARG);
    ck_assert_msg(strstr(ball_errmsg(g), "stats size 3") != NULL, "message: %s", ball_errmsg(g));
    st.size = sizeof st;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
    ck_assert_str_eq(ball_errmsg(g), ""); /* a success clears the message */
    ck_assert_int_eq(ball_mcts_seed(NULL, 1), BALL_E_ARG);
    ck_assert_int_eq(ball_mcts_seed(m, 7), BALL_OK);
    ball_mcts_free(m);
    ball_mcts_free(NULL);
    ball_game_free(g);
}
END_TEST

START_TEST(test_legal_unchanged_reproducible)
{
    ball_game *g = tu_game(NULL);
    ball_mcts *m1 = make(300, 0, 42), *m2 = make(300, 0, 42);
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    ball_mcts_stats st;
    ball_action a1, a2, a3;

    tu_apply_all(g, "E11-F10");
    tu_bpn(g, before);
    uint64_t hash = ball_hash(g);
    int hist = ball_history_length(g);
    st.size = sizeof st;
    ck_assert_int_eq(ball_mcts_choose(m1, g, &a1, &st), BALL_OK);
    tu_bpn(g, after);
    ck_assert_str_eq(before, after);
    ck_assert_uint_eq(ball_hash(g), hash);
    ck_assert_int_eq(ball_history_length(g), hist);
    ck_assert_int_eq(ball_is_legal(g, a1), 1);
    ck_assert_uint_eq(st.playouts, 300);
    ck_assert(st.nodes >= 2 && st.nodes <= 301);
    ck_assert(st.visits >= 1 && st.visits <= 300);
    ck_assert(st.value >= 0.0 && st.value <= 1.0);
    ck_assert(st.elapsed_ms >= 0.0);

    ck_assert_int_eq(ball_mcts_choose(m2, g, &a2, NULL), BALL_OK);
    ck_assert_uint_eq(a1, a2); /* same seed, same position: same decision */
    ck_assert_int_eq(ball_mcts_seed(m1, 42), BALL_OK);
    ck_assert_int_eq(ball_mcts_choose(m1, g, &a3, NULL), BALL_OK);
    ck_assert_uint_eq(a1, a3); /* reseeded: the same again */
    ball_mcts_free(m1);
    ball_mcts_free(m2);
    ball_game_free(g);
}
END_TEST

START_TEST(test_touchdown)
{
    ball_game *g = tu_game(IN_ONE);
    ball_mcts *m = make(2000, 0, 3);
    ball_action a;
    ball_mcts_stats st;
    int decisions = 0;

    /* two decisions of ATK's turn, each chosen by the search */
    while (ball_result(g) == BALL_ONGOING && ball_side(g) == BALL_ATK && decisions < 4) {
        st.size = sizeof st;
        ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
        ck_assert_int_eq(ball_apply(g, a), BALL_OK);
        decisions++;
    }
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(decisions, 2);
    ck_assert(st.value == 1.0); /* the second was an immediate touchdown */
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, NULL), BALL_E_RANGE); /* over */
    ck_assert_str_eq(ball_errmsg(g), "mcts: the game is over (ATK won): there is no decision to choose");
    ball_mcts_free(m);
    ball_game_free(g);
}
END_TEST

START_TEST(test_time_budget_and_games)
{
    ball_game *g = tu_game_rules(NULL, 1, 30);
    ball_mcts *atk = make(0, 5, 1), *def = make(200, 0, 2);
    ball_mcts_stats st;
    int decisions = 0;

    st.size = sizeof st;
    ball_action a;
    ck_assert_int_eq(ball_mcts_choose(atk, g, &a, &st), BALL_OK); /* DEF to act */
    ck_assert(st.elapsed_ms >= 5.0 && st.elapsed_ms < 5000.0);
    ck_assert(st.playouts >= 1);
    /* a whole game, time budget against playout budget, within the limit */
    while (ball_result(g) == BALL_ONGOING) {
        ball_mcts *m = ball_side(g) == BALL_ATK ? atk : def;
        ck_assert_int_eq(ball_mcts_choose(m, g, &a, NULL), BALL_OK);
        ck_assert_int_eq(ball_apply(g, a), BALL_OK);
        ck_assert_int_lt(++decisions, 5000);
    }
    ck_assert_int_ne(ball_result(g), BALL_ONGOING);
    ball_mcts_free(atk);
    ball_mcts_free(def);
    ball_game_free(g);
}
END_TEST

/* Range checks of every config field, the node limit and the pool bounds,
 * and an error message cut to a short buffer. */
START_TEST(test_config_ranges_and_pool)
{
    ball_mcts_config cfg;
    ball_mcts *m = NULL;
    char err[128], tiny[8];

    /* the message is cut to the buffer and stays terminated */
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 0;
    memset(tiny, 'z', sizeof tiny);
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, tiny, sizeof tiny), BALL_E_RANGE);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(strlen(tiny), sizeof tiny - 1);
    ck_assert_str_eq(tiny, "mcts: n");
    tiny[0] = 'z';
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, tiny, 1), BALL_E_RANGE);
    ck_assert_str_eq(tiny, "");

    /* each field out of range */
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.time_ms = -1;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ck_assert(strstr(err, "time_ms") != NULL);
    cfg.time_ms = 86400001;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.max_nodes = -1;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ck_assert(strstr(err, "max_nodes") != NULL);
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playout_turns = -1;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    cfg.playout_turns = 1001;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ck_assert(strstr(err, "playout_turns") != NULL);
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 1000000001;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.exploration = 100.5;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_E_RANGE);
    ck_assert(strstr(err, "exploration") != NULL);
    ck_assert_ptr_null(m);

    /* the limits themselves are accepted */
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playout_turns = 1000;
    cfg.exploration = 100.0;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_OK);
    ck_assert_str_eq(err, "");
    ball_mcts_free(m);
    m = NULL;

    /* a long time budget without a node limit: the pool is capped (and
     * not touched until a search) */
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.playouts = 0;
    cfg.time_ms = 86400000;
    int rc = ball_mcts_new(&m, &cfg, err, sizeof err);
    ck_assert_msg(rc == BALL_OK || rc == BALL_E_NOMEM, "rc %d", rc);
    ck_assert(rc == BALL_OK ? m != NULL : m == NULL);
    ball_mcts_free(m);
    m = NULL;

    /* a small node limit is raised to the minimum pool (1024 nodes); more
     * playouts than nodes play out from the full pool */
    ball_mcts_config_init(&cfg, sizeof cfg);
    cfg.max_nodes = 5;
    cfg.playouts = 3000;
    cfg.seed = 9;
    ck_assert_int_eq(ball_mcts_new(&m, &cfg, err, sizeof err), BALL_OK);
    ball_game *g = tu_game(NULL);
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    ball_mcts_stats st;
    ball_action a;
    tu_bpn(g, before);
    st.size = sizeof st;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
    tu_bpn(g, after);
    ck_assert_str_eq(before, after);
    ck_assert_int_eq(ball_is_legal(g, a), 1);
    ck_assert_uint_eq(st.playouts, 3000);
    ck_assert_uint_eq(st.nodes, 1024);
    ck_assert(st.visits >= 1 && st.visits <= 3000);
    ball_mcts_free(m);
    ball_game_free(g);
}
END_TEST

/* DEF to act with a single legal decision (0 PA: only `end`): played at
 * once, valued for DEF. */
START_TEST(test_only_decision_def)
{
    ball_game *g = tu_game("7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 DEF a 0 - 0/0 2");
    ball_game *ga = tu_game("7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 0 - 0/0 2");
    ball_mcts *m = make(500, 0, 5);
    ball_action legal[BALL_MAX_ACTIONS], a;
    ball_mcts_stats st, sa;

    ck_assert_int_eq(ball_side(g), BALL_DEF);
    ck_assert_int_eq(ball_legal_actions(g, legal, BALL_MAX_ACTIONS), 1);
    st.size = sizeof st;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
    ck_assert_uint_eq(a, legal[0]);
    ck_assert_uint_eq(st.playouts, 0);
    ck_assert_uint_eq(st.nodes, 1);
    ck_assert_int_eq(st.max_depth, 0);
    ck_assert_uint_eq(st.visits, 0);
    /* ATK holds the ball: the position is worse than even for DEF */
    ck_assert(st.value > 0.0 && st.value < 0.5);
    ck_assert(st.elapsed_ms >= 0.0);

    /* the same position with ATK to act and no PA is valued for ATK: the
     * two values add up to 1 */
    ck_assert_int_eq(ball_legal_actions(ga, legal, BALL_MAX_ACTIONS), 1);
    sa.size = sizeof sa;
    ck_assert_int_eq(ball_mcts_choose(m, ga, &a, &sa), BALL_OK);
    ck_assert_uint_eq(a, legal[0]);
    ck_assert(sa.value > 0.5 && sa.value < 1.0);
    ck_assert(st.value + sa.value > 1.0 - 1e-9 && st.value + sa.value < 1.0 + 1e-9);
    ball_mcts_free(m);
    ball_game_free(g);
    ball_game_free(ga);
}
END_TEST

/* An allocator that fails once *user is non-zero. */
static void *gate_malloc(void *user, size_t n)
{
    return *(int *)user ? NULL : malloc(n);
}
static void *gate_realloc(void *user, void *p, size_t n)
{
    return *(int *)user ? NULL : realloc(p, n);
}
static void gate_free(void *user, void *p)
{
    (void)user;
    free(p);
}

/* The undo history cannot grow: BALL_E_NOMEM, the game left as it was. */
START_TEST(test_history_cannot_grow)
{
    ball_allocator alloc;
    ball_game *g = NULL;
    ball_mcts *m = make(50, 0, 1);
    char err[128], before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    ball_action a = BALL_ACTION_NONE;
    ball_mcts_stats st;
    int fail = 0;

    ball_allocator_init(&alloc, sizeof alloc);
    alloc.malloc_fn = gate_malloc;
    alloc.realloc_fn = gate_realloc;
    alloc.free_fn = gate_free;
    alloc.user = &fail;
    ck_assert_msg(ball_game_new_with_allocator(&g, NULL, &alloc, err, sizeof err) == BALL_OK,
                  "%s", err);
    tu_bpn(g, before);
    fail = 1;
    st.size = sizeof st;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_E_NOMEM);
    ck_assert_uint_eq(a, BALL_ACTION_NONE);
    tu_bpn(g, after);
    ck_assert_str_eq(before, after);
    ck_assert_int_eq(ball_history_length(g), 0);
    /* with memory again the same searcher works on the same game */
    fail = 0;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
    ck_assert_int_eq(ball_is_legal(g, a), 1);
    ck_assert_uint_eq(st.playouts, 50);
    ball_mcts_free(m);
    ball_game_free(g);
}
END_TEST

/* At the last turn number a hand-over is refused with BALL_E_LIMIT and
 * not listed (the `end` decision, and any playout that reaches a
 * hand-over): the search still works, never picks `end` and leaves the
 * game as it was. */
START_TEST(test_last_turn_number)
{
    ball_game *g = tu_game("7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 DEF a 2 - 0/0 999999999");
    ball_mcts *m = make(300, 0, 11);
    ball_action legal[BALL_MAX_ACTIONS], a;
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    ball_mcts_stats st;
    int n = ball_legal_actions(g, legal, BALL_MAX_ACTIONS);
    ball_game *start = tu_game(NULL);
    ball_action end = tu_action(start, "end"); /* an action has no position in it */
    ball_game_free(start);

    ck_assert_int_eq(n, 2); /* the two moves; `end` would hand over */
    ck_assert_int_eq(ball_apply(g, end), BALL_E_LIMIT);
    tu_bpn(g, before);
    st.size = sizeof st;
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
    tu_bpn(g, after);
    ck_assert_str_eq(before, after);
    ck_assert_int_eq(ball_history_length(g), 0);
    ck_assert_int_eq(ball_is_legal(g, a), 1);
    ck_assert_uint_ne(a, end);
    ck_assert_uint_eq(st.playouts, 300);
    ck_assert(st.nodes >= 2 && st.nodes <= 301);
    ck_assert(st.value >= 0.0 && st.value <= 1.0);
    ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    ball_mcts_free(m);
    ball_game_free(g);
}
END_TEST

/* DEF to act, ATK's carrier on G9 within reach of three DEF pieces: a
 * block from F10 (R7.3) or a dodge from E11 (R6.1) takes the ball. The
 * search must see it, whatever its seed: at the hand-over DEF holds the
 * ball. (A wrong sign or a lost term in the evaluation fails this.) */
#define BALL_IN_REACH "6s/6/7/6/4x2/6/1x5/2o3/3X*3/6/2O1S2/6/7/6/7/6/X6 DEF a 2 - 0/0 5"

START_TEST(test_takes_the_ball_in_reach)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        ball_game *g = tu_game(BALL_IN_REACH);
        ball_mcts *m = make(2000, 0, seed);
        ball_action a;
        int holder;
        while (ball_result(g) == BALL_ONGOING && ball_side(g) == BALL_DEF) {
            ck_assert_int_eq(ball_mcts_choose(m, g, &a, NULL), BALL_OK);
            ck_assert_int_eq(ball_apply(g, a), BALL_OK);
        }
        holder = ball_piece(g, ball_square_of_ball(g), BALL_UPPER);
        ck_assert_msg(holder > 0 && (holder & BALL_PIECE_DEF),
                      "seed %d: DEF does not hold the ball after its turn", (int)seed);
        ball_mcts_free(m);
        ball_game_free(g);
    }
}
END_TEST

/* A search with ball_mcts_stats_init()'s struct (1.1), and the size it
 * keeps. */
START_TEST(test_stats_init)
{
    ball_mcts *m = make(100, 0, 4);
    ball_game *g = tu_game(NULL);
    ball_mcts_stats st;
    ball_action a;
    memset(&st, 0x5a, sizeof st);
    ball_mcts_stats_init(&st, sizeof st);
    ck_assert_uint_eq(st.size, sizeof st);
    ck_assert(st.playouts == 0 && st.nodes == 0 && st.max_depth == 0 && st.visits == 0);
    ck_assert(st.value == 0.0 && st.elapsed_ms == 0.0);
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
    ck_assert_uint_eq(st.size, sizeof st);
    ck_assert_uint_eq(st.playouts, 100);
    ck_assert(st.visits >= 1 && st.nodes >= 2);
    ball_mcts_free(m);
    ball_game_free(g);
}
END_TEST

/* ball.h: playout_turns 0 "plays to the end of the game (a touchdown is
 * worth 1, a draw 0.5, a loss 0)". Under a turn limit of 200 turns from
 * the start, random play to the end mostly ends in a touchdown (R11.1),
 * so the decisions of the root cannot all score exactly 0.5, whatever the
 * seed. (The playouts used to close every turn with `end`, their own
 * turn's and all the later ones, so that no action-phase decision was
 * played in a playout: each ended in the draw of R11.2 and every searched
 * decision scored exactly 0.500000.) */
START_TEST(test_playout_to_the_end)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        ball_game *g = tu_game_rules(NULL, 1, 200);
        ball_mcts_config cfg;
        ball_mcts *m = NULL;
        ball_mcts_stats st;
        ball_action a, acts[BALL_MAX_ACTIONS];
        double values[BALL_MAX_ACTIONS];
        uint32_t visits[BALL_MAX_ACTIONS];
        ball_mcts_config_init(&cfg, sizeof cfg);
        cfg.playouts = 200;
        cfg.playout_turns = 0;
        cfg.seed = seed;
        ck_assert_int_eq(ball_mcts_new(&m, &cfg, NULL, 0), BALL_OK);
        ball_mcts_stats_init(&st, sizeof st);
        ck_assert_int_eq(ball_mcts_choose(m, g, &a, &st), BALL_OK);
        int n = ball_mcts_root_decisions(m, acts, visits, values, BALL_MAX_ACTIONS);
        ck_assert_int_gt(n, 1);
        int decided = 0;
        for (int i = 0; i < n; i++) {
            ck_assert(values[i] >= 0.0 && values[i] <= 1.0);
            decided += values[i] != 0.5;
        }
        ck_assert_msg(decided > 0, "seed %d: all %d searched decisions score 0.5: the playouts never "
                      "reach the end of the game", (int)seed, n);
        ball_mcts_free(m);
        ball_game_free(g);
    }
}
END_TEST

/* playout_turns 0 still takes a touchdown in reach: IN_ONE's two
 * decisions (R5.1, R11.1), whatever the seed. */
START_TEST(test_touchdown_playout_turns_0)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ball_game *g = tu_game_rules(IN_ONE, 1, 20);
        ball_mcts_config cfg;
        ball_mcts *m = NULL;
        ball_action a;
        int decisions = 0;
        ball_mcts_config_init(&cfg, sizeof cfg);
        cfg.playouts = 2000; /* about 110 first decisions, long passes included */
        cfg.playout_turns = 0;
        cfg.seed = seed;
        ck_assert_int_eq(ball_mcts_new(&m, &cfg, NULL, 0), BALL_OK);
        while (ball_result(g) == BALL_ONGOING && ball_side(g) == BALL_ATK && decisions < 4) {
            ck_assert_int_eq(ball_mcts_choose(m, g, &a, NULL), BALL_OK);
            ck_assert_int_eq(ball_apply(g, a), BALL_OK);
            decisions++;
        }
        ck_assert_msg(ball_result(g) == BALL_ATK_WON, "seed %d: no touchdown", (int)seed);
        ball_mcts_free(m);
        ball_game_free(g);
    }
}
END_TEST

/* ball_mcts_root_decisions() (experimental): nothing before a search;
 * after one, every root decision searched, each legal and once, most
 * visited first with the chosen decision in entry 0, the visits adding up
 * to the playouts, values in [0, 1]; a short buffer gets the first ones
 * and the count; NULL arrays are allowed; a search that needed none
 * leaves no decision. */
START_TEST(test_root_decisions)
{
    ball_mcts *m = make(300, 0, 8);
    ball_game *g = tu_game(NULL);
    ball_action acts[BALL_MAX_ACTIONS], legal[BALL_MAX_ACTIONS], a, first[3];
    uint32_t visits[BALL_MAX_ACTIONS];
    double values[BALL_MAX_ACTIONS];

    ck_assert_int_eq(ball_mcts_root_decisions(NULL, acts, visits, values, BALL_MAX_ACTIONS), BALL_E_ARG);
    ck_assert_int_eq(ball_mcts_root_decisions(m, acts, visits, values, BALL_MAX_ACTIONS), 0);
    ck_assert_int_eq(ball_mcts_choose(m, g, &a, NULL), BALL_OK);
    int n_legal = ball_legal_actions(g, legal, BALL_MAX_ACTIONS);
    int n = ball_mcts_root_decisions(m, acts, visits, values, BALL_MAX_ACTIONS);
    ck_assert(n >= 2 && n <= n_legal);
    ck_assert_uint_eq(acts[0], a);
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(ball_is_legal(g, acts[i]), 1);
        for (int j = 0; j < i; j++)
            ck_assert_uint_ne(acts[i], acts[j]);
        if (i > 0)
            ck_assert_uint_le(visits[i], visits[i - 1]);
        ck_assert(values[i] >= 0.0 && values[i] <= 1.0);
        ck_assert_uint_ge(visits[i], 1);
        sum += visits[i];
    }
    ck_assert_uint_eq(sum, 300);
    ck_assert_int_eq(ball_mcts_root_decisions(m, first, NULL, NULL, 3), n);
    ck_assert(first[0] == acts[0] && first[1] == acts[1] && first[2] == acts[2]);
    ck_assert_int_eq(ball_mcts_root_decisions(m, NULL, NULL, NULL, 0), n);

    /* the only legal decision: no search, no decision */
    ball_game *one = tu_game("7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 DEF a 0 - 0/0 2");
    ck_assert_int_eq(ball_mcts_choose(m, one, &a, NULL), BALL_OK);
    ck_assert_int_eq(ball_mcts_root_decisions(m, acts, visits, values, BALL_MAX_ACTIONS), 0);
    ball_mcts_free(m);
    ball_game_free(g);
    ball_game_free(one);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("mcts");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_config_and_errors);
    tcase_add_test(tc, test_legal_unchanged_reproducible);
    tcase_add_test(tc, test_touchdown);
    tcase_add_test(tc, test_time_budget_and_games);
    tcase_add_test(tc, test_config_ranges_and_pool);
    tcase_add_test(tc, test_only_decision_def);
    tcase_add_test(tc, test_history_cannot_grow);
    tcase_add_test(tc, test_last_turn_number);
    tcase_add_test(tc, test_takes_the_ball_in_reach);
    tcase_add_test(tc, test_stats_init);
    tcase_add_test(tc, test_playout_to_the_end);
    tcase_add_test(tc, test_touchdown_playout_turns_0);
    tcase_add_test(tc, test_root_decisions);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
