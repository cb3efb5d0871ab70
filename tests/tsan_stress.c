/* Thread stress test for ThreadSanitizer (`make check-tsan`): the thread
 * contract of ball.h, exercised from several threads at once.
 *
 *  1. own games: every thread plays random games on its own handles
 *     (default rules, a turn limit, card mode; new, clone, apply, undo,
 *     BPN out and in, perft, selection) and must get exactly the results
 *     the same work gives on one thread;
 *  2. one shared game (card mode, with an undo history), only read
 *     through `const ball_game *`: several threads clone it over and over
 *     (ball_game_clone() "only reads game, so several threads may clone
 *     one game at once") and play on their clones, while others call every
 *     const getter on it (ball_side() ... ball_hash(), ball_game_rules()
 *     and the card set it names, ball_errmsg()); every answer must be the
 *     one the main thread read before the threads started;
 *  3. one shared card set and ruleset, read by several threads creating
 *     games from it at once.
 *
 *   tsan_stress [THREADS [ROUNDS]]     (default 4 threads, 40 rounds; make check-tsan: 4, 1500)
 *
 * Exits 0 when every check passed; ThreadSanitizer reports races itself
 * (TSAN_OPTIONS=halt_on_error=1 makes the first one fatal). */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"

#define MAX_THREADS 16

static void fail(const char *file, int line, const char *what)
{
    fprintf(stderr, "tsan_stress: %s:%d: check failed: %s\n", file, line, what);
    exit(1);
}
#define CHECK(c) \
    do { \
        if (!(c)) \
            fail(__FILE__, __LINE__, #c); \
    } while (0)

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static const char *const RULES_TEXT[3] = {
    "",
    "zone=2 turns=12",
    ("earn.move=1 earn.dodge=2 earn.block=1 earn.standup=1 earn.handoff=1 "
     "atk=Sprint:2:pa+1,Again:3:again def=Sprint:2:pa+2"),
};

/* ------------------------------------------------------------ 1. own games */

/* One random game of up to `plies` decisions under ruleset `kind` from
 * seed; returns a digest of everything it saw. */
static uint64_t own_game(int kind, uint64_t seed, int plies)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    ball_rules_init(&rules, sizeof rules);
    CHECK(ball_rules_from_text(&rules, &cards, RULES_TEXT[kind], NULL, 0) == BALL_OK);
    ball_game *g = NULL, *copy = NULL;
    char err[128];
    CHECK(ball_game_new(&g, &rules, err, sizeof err) == BALL_OK);
    ball_cardset_free(cards);
    uint64_t digest = seed, rng = seed;
    ball_action acts[BALL_MAX_ACTIONS];
    char bpn[BALL_BPN_MAX], start[BALL_BPN_MAX], text[BALL_ACTION_TEXT_MAX];
    CHECK(ball_position_to_text(g, start, sizeof start) > 0);
    for (int ply = 0; ply < plies; ply++) {
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        CHECK(n >= 0);
        if (n == 0)
            break;
        uint64_t r = splitmix(&rng);
        ball_action a;
        switch (r % 8) {
        case 0: /* by text */
            CHECK(ball_action_to_text(acts[r / 8 % (unsigned)n], text, sizeof text) > 0);
            CHECK(ball_action_from_text(g, text, &a) == BALL_OK);
            break;
        case 1: /* by index */
            CHECK(ball_legal_action_at(g, (int)(r / 8 % (unsigned)n), &a) == BALL_OK);
            break;
        default:
            CHECK(ball_random_action(g, r, &a) == BALL_OK);
        }
        CHECK(ball_is_legal(g, a) == 1);
        int rc = ball_apply(g, a);
        CHECK(rc == BALL_OK);
        if (r % 13 == 0) { /* take back and play again */
            CHECK(ball_undo(g) == BALL_OK);
            CHECK(ball_apply_unchecked(g, a) == BALL_OK);
        }
        if (r % 29 == 0) { /* through BPN into a clone */
            CHECK(ball_position_to_text(g, bpn, sizeof bpn) > 0);
            CHECK(ball_game_clone(&copy, g) == BALL_OK);
            CHECK(ball_position_from_text(copy, bpn) == BALL_OK);
            CHECK(ball_hash(copy) == ball_hash(g));
            uint64_t count = 0;
            CHECK(ball_perft(copy, 2, &count) == BALL_OK);
            digest = digest * 31 + count;
            int choices[BALL_NUM_SQUARES];
            int m = ball_select(copy, NULL, 0, choices, BALL_NUM_SQUARES, NULL);
            CHECK(m >= 0);
            digest = digest * 31 + (uint64_t)m;
            ball_game_free(copy);
            copy = NULL;
        }
        digest = digest * 1000003u ^ ball_hash(g);
    }
    digest = digest * 31 + (uint64_t)ball_result(g);
    while (ball_history_length(g) > 0)
        CHECK(ball_undo(g) == BALL_OK);
    CHECK(ball_position_to_text(g, bpn, sizeof bpn) > 0);
    CHECK(strcmp(bpn, start) == 0);
    ball_game_free(g);
    return digest;
}

struct own_job {
    int id, rounds;
    uint64_t digest;
};

static pthread_barrier_t start_line;

static void *own_thread(void *arg)
{
    struct own_job *j = arg;
    pthread_barrier_wait(&start_line);
    uint64_t d = 0;
    for (int r = 0; r < j->rounds; r++)
        d = d * 7 + own_game((j->id + r) % 3, (uint64_t)j->id * 1000 + (uint64_t)r, 150);
    j->digest = d;
    return NULL;
}

/* ------------------------------------------------------------ 2. shared game */

/* What the main thread read from the shared game before the threads. */
struct shared_view {
    const ball_game *game;
    char bpn[BALL_BPN_MAX];
    char start_bpn[BALL_BPN_MAX];
    uint64_t hash;
    int hist, side, phase, pa, handoff, turn, result, ball, restricted, pe[2], hand[2];
    int piece[BALL_NUM_SQUARES][2], state[BALL_NUM_SQUARES];
    char rules_text[BALL_RULES_TEXT_MAX];
    int rounds;
};

static void read_view(const ball_game *g, struct shared_view *v)
{
    v->hash = ball_hash(g);
    v->hist = ball_history_length(g);
    v->side = ball_side(g);
    v->phase = ball_phase(g);
    v->pa = ball_pa(g);
    v->handoff = ball_handoff_last(g);
    v->turn = ball_turn(g);
    v->result = ball_result(g);
    v->ball = ball_square_of_ball(g);
    v->restricted = ball_restricted_square(g);
    for (int t = 0; t < 2; t++) {
        v->pe[t] = ball_pe(g, t);
        v->hand[t] = ball_hand(g, t);
    }
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        v->piece[sq][0] = ball_piece(g, sq, BALL_UPPER);
        v->piece[sq][1] = ball_piece(g, sq, BALL_LOWER);
        v->state[sq] = ball_square_state(g, sq);
    }
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    CHECK(ball_game_rules(g, &r) == BALL_OK);
    CHECK(ball_rules_to_text(&r, v->rules_text, sizeof v->rules_text) >= 0);
}

static void *clone_thread(void *arg)
{
    const struct shared_view *v = arg;
    uint64_t rng = (uint64_t)(uintptr_t)&rng;
    char bpn[BALL_BPN_MAX];
    pthread_barrier_wait(&start_line);
    for (int r = 0; r < v->rounds * 4; r++) {
        ball_game *c = NULL;
        CHECK(ball_game_clone(&c, v->game) == BALL_OK);
        CHECK(ball_hash(c) == v->hash && ball_history_length(c) == v->hist);
        CHECK(ball_position_to_text(c, bpn, sizeof bpn) > 0 && strcmp(bpn, v->bpn) == 0);
        /* the clone is a game of its own: play on, then take all back */
        for (int k = 0; k < 20; k++) {
            ball_action a;
            if (ball_random_action(c, splitmix(&rng), &a) != BALL_OK)
                break;
            CHECK(ball_apply(c, a) == BALL_OK);
        }
        while (ball_history_length(c) > 0)
            CHECK(ball_undo(c) == BALL_OK);
        CHECK(ball_position_to_text(c, bpn, sizeof bpn) > 0 && strcmp(bpn, v->start_bpn) == 0);
        ball_game_free(c);
    }
    return NULL;
}

static void *reader_thread(void *arg)
{
    const struct shared_view *v = arg;
    const ball_game *g = v->game;
    struct shared_view now;
    pthread_barrier_wait(&start_line);
    for (int r = 0; r < v->rounds * 8; r++) {
        read_view(g, &now);
        CHECK(now.hash == v->hash && now.hist == v->hist && now.side == v->side);
        CHECK(now.phase == v->phase && now.pa == v->pa && now.handoff == v->handoff);
        CHECK(now.turn == v->turn && now.result == v->result && now.ball == v->ball);
        CHECK(now.restricted == v->restricted);
        CHECK(memcmp(now.pe, v->pe, sizeof now.pe) == 0 && memcmp(now.hand, v->hand, sizeof now.hand) == 0);
        CHECK(memcmp(now.piece, v->piece, sizeof now.piece) == 0);
        CHECK(memcmp(now.state, v->state, sizeof now.state) == 0);
        CHECK(strcmp(now.rules_text, v->rules_text) == 0);
        CHECK(ball_errmsg(g) != NULL);
        ball_rules rules;
        ball_rules_init(&rules, sizeof rules);
        CHECK(ball_game_rules(g, &rules) == BALL_OK && rules.cards != NULL);
        for (int t = 0; t < 2; t++) /* the game's own card set, read in place */
            for (int i = 0; i < ball_cardset_hand_size(rules.cards, t); i++)
                CHECK(ball_cardset_card_name(rules.cards, t, i) != NULL
                      && ball_cardset_card_value(rules.cards, t, i, BALL_CARD_COST) >= 0);
    }
    return NULL;
}

/* ------------------------------------------------------------ 3. shared rules */

struct rules_job {
    const ball_rules *rules;
    uint64_t hash;
    int rounds;
};

static void *rules_thread(void *arg)
{
    struct rules_job *j = arg;
    pthread_barrier_wait(&start_line);
    for (int r = 0; r < j->rounds * 4; r++) {
        ball_game *g = NULL;
        CHECK(ball_game_new(&g, j->rules, NULL, 0) == BALL_OK);
        CHECK(ball_hash(g) == j->hash);
        ball_action a;
        CHECK(ball_random_action(g, (uint64_t)r * 0x9E3779B97F4A7C15ull, &a) == BALL_OK);
        CHECK(ball_apply(g, a) == BALL_OK);
        ball_game_free(g);
    }
    return NULL;
}

static void run(void *(*fn)(void *), void *args, size_t size, int n)
{
    pthread_t t[MAX_THREADS];
    CHECK(pthread_barrier_init(&start_line, NULL, (unsigned)n) == 0);
    for (int i = 0; i < n; i++)
        CHECK(pthread_create(&t[i], NULL, fn, (char *)args + (size_t)i * size) == 0);
    for (int i = 0; i < n; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    CHECK(pthread_barrier_destroy(&start_line) == 0);
}

/* Mixed start: clone and reader threads alternate. */
struct mixed {
    const struct shared_view *v;
    int reader;
};

static void *mixed_thread(void *arg)
{
    const struct mixed *m = arg;
    return m->reader ? reader_thread((void *)m->v) : clone_thread((void *)m->v);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4, rounds = argc > 2 ? atoi(argv[2]) : 40;
    if (threads < 2 || threads > MAX_THREADS || rounds < 1) {
        fprintf(stderr, "usage: %s [THREADS 2-%d [ROUNDS]]\n", argv[0], MAX_THREADS);
        return 2;
    }

    /* 1. own games, checked against the same work on one thread */
    struct own_job jobs[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        jobs[i] = (struct own_job){i, rounds / 4 + 1, 0};
    run(own_thread, jobs, sizeof *jobs, threads);
    for (int i = 0; i < threads; i++) {
        uint64_t d = 0;
        for (int r = 0; r < jobs[i].rounds; r++)
            d = d * 7 + own_game((i + r) % 3, (uint64_t)i * 1000 + (uint64_t)r, 150);
        CHECK(d == jobs[i].digest);
    }
    printf("tsan_stress: %d threads played %d own games each\n", threads, jobs[0].rounds);

    /* 2. one shared game in card mode, with a history */
    ball_rules rules;
    ball_cardset *cards = NULL;
    ball_rules_init(&rules, sizeof rules);
    CHECK(ball_rules_from_text(&rules, &cards, RULES_TEXT[2], NULL, 0) == BALL_OK && cards);
    ball_game *shared = NULL;
    CHECK(ball_game_new(&shared, &rules, NULL, 0) == BALL_OK);
    static struct shared_view view;
    CHECK(ball_position_to_text(shared, view.start_bpn, sizeof view.start_bpn) > 0);
    uint64_t rng = 42;
    for (int k = 0; k < 60; k++) {
        ball_action a;
        if (ball_random_action(shared, splitmix(&rng), &a) != BALL_OK)
            break;
        CHECK(ball_apply(shared, a) == BALL_OK);
    }
    CHECK(ball_position_to_text(shared, view.bpn, sizeof view.bpn) > 0);
    view.game = shared;
    view.rounds = rounds;
    read_view(shared, &view);
    struct mixed mixed[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        mixed[i] = (struct mixed){&view, i % 2};
    run(mixed_thread, mixed, sizeof *mixed, threads);
    printf("tsan_stress: %d threads cloned and read one shared game (%d decisions of history)\n",
           threads, view.hist);

    /* 3. one shared ruleset with its card set */
    ball_game *probe = NULL;
    CHECK(ball_game_new(&probe, &rules, NULL, 0) == BALL_OK);
    struct rules_job rj[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        rj[i] = (struct rules_job){&rules, ball_hash(probe), rounds};
    ball_game_free(probe);
    run(rules_thread, rj, sizeof *rj, threads);
    printf("tsan_stress: %d threads created games from one shared card set\n", threads);

    ball_cardset_free(cards);
    ball_game_free(shared);
    printf("tsan_stress: ok\n");
    return 0;
}
