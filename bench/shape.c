#define _POSIX_C_SOURCE 200809L
/* The shape of the work (make bench-shape): what kind of positions
 * perft 6 from the start and random playouts go through. Where the time
 * goes depends on it: a position with 0 PA left has a handful of
 * decisions, one with 2 PA dozens. Prints Markdown tables for
 * docs/performance.md. Uses the public API only.
 *
 *   shape [DEPTH [GAMES]]      defaults: perft 6, 200 games (turn limit 200) */
#include <stdio.h>
#include <stdlib.h>

#include "ball.h"
#include "bench_util.h"

/* Position classes: action phase by PA left, then the release phase. */
enum { PA0, PA1, PA2, RELEASE, CLASSES };
static const char *const CLASS_NAME[CLASSES] = {"action, 0 PA", "action, 1 PA", "action, 2 PA", "release"};

static int class_of(const ball_game *g)
{
    if (ball_phase(g) == BALL_PHASE_RELEASE)
        return RELEASE;
    int pa = ball_pa(g);
    return pa >= 2 ? PA2 : pa;
}

typedef struct tally {
    double positions[CLASSES];
    double children[CLASSES]; /* legal decisions summed over those positions */
    double forced;            /* positions with exactly one decision */
} tally;

#define MAX_DEPTH 8
static tally ply[MAX_DEPTH];

/* Walks the perft tree: every position at plies 0 .. depth-1 is tallied
 * with its number of decisions (its children; at the last ply, leaves). */
static void walk(ball_game *g, int depth, int at)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n <= 0)
        return; /* the game is over: not a position anyone plays from */
    tally *t = &ply[at];
    int c = class_of(g);
    t->positions[c]++;
    t->children[c] += n;
    t->forced += n == 1;
    if (at + 1 == depth)
        return;
    for (int i = 0; i < n; i++) {
        ball_apply_unchecked(g, acts[i]);
        walk(g, depth, at + 1);
        ball_undo(g);
    }
}

static double sum(const double *v)
{
    double s = 0;
    for (int c = 0; c < CLASSES; c++)
        s += v[c];
    return s;
}

/* One Markdown row: share of positions by class, forced share, decisions
 * per position. */
static void row(const char *label, const tally *t)
{
    double n = sum(t->positions), kids = sum(t->children);
    printf("| %s | %.0f |", label, n);
    for (int c = 0; c < CLASSES; c++)
        printf(" %.1f%% |", 100 * t->positions[c] / n);
    printf(" %.1f%% | %.2f |\n", 100 * t->forced / n, kids / n);
}

static void header(const char *first)
{
    printf("| %s | positions |", first);
    for (int c = 0; c < CLASSES; c++)
        printf(" %s |", CLASS_NAME[c]);
    printf(" one decision only | decisions per position |\n|---|---:|");
    for (int c = 0; c <= CLASSES; c++)
        printf("---:|");
    printf("---:|\n");
}

/* Per class: decisions per position and share of all decisions. */
static void by_class(const char *what, const char *unit, const tally *t)
{
    double kids = sum(t->children);
    printf("\n%s, by class:\n\n| class | share of positions | decisions per position | share of %s |\n"
           "|---|---:|---:|---:|\n", what, unit);
    for (int c = 0; c < CLASSES; c++)
        if (t->positions[c] > 0)
            printf("| %s | %.1f%% | %.2f | %.1f%% |\n", CLASS_NAME[c], 100 * t->positions[c] / sum(t->positions),
                   t->children[c] / t->positions[c], 100 * t->children[c] / kids);
}

/* Random playouts as make bench plays them: uniform decisions drawn with
 * ball_random_action(), turn limit 200, seed 777. */
static void playouts(int games, tally *t)
{
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = 200;
    ball_game *g;
    if (ball_game_new(&g, &rules, NULL, 0) != BALL_OK)
        exit(1);
    uint64_t seed = 777;
    ball_action a;
    for (int k = 0; k < games; k++) {
        for (;;) {
            int n = ball_legal_actions(g, NULL, 0);
            if (n <= 0 || ball_random_action(g, next_random(&seed), &a) != BALL_OK)
                break;
            int c = class_of(g);
            t->positions[c]++;
            t->children[c] += n;
            t->forced += n == 1;
            ball_apply_unchecked(g, a);
        }
        while (ball_undo(g) == BALL_OK)
            ;
    }
    ball_game_free(g);
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 6, games = argc > 2 ? atoi(argv[2]) : 200;
    if (depth < 1 || depth > MAX_DEPTH || games < 0) {
        fprintf(stderr, "usage: shape [DEPTH 1-%d [GAMES]]\n", MAX_DEPTH);
        return 2;
    }
    ball_game *g;
    if (ball_game_new(&g, NULL, NULL, 0) != BALL_OK || ball_history_reserve(g, 64) != BALL_OK)
        return 1;
    walk(g, depth, 0);
    printf("perft %d from the start: the positions of each ply (ply %d is the last-but-one: its\n"
           "decisions are the leaves)\n\n", depth, depth - 1);
    header("ply");
    char label[16];
    for (int d = 0; d < depth; d++) {
        snprintf(label, sizeof label, "%d", d);
        row(label, &ply[d]);
    }
    by_class("perft, last-but-one ply", "leaves", &ply[depth - 1]);
    if (games > 0) {
        tally t = {{0}, {0}, 0};
        playouts(games, &t);
        printf("\nrandom playouts, %d games (turn limit 200, seed 777), every position played from:\n\n", games);
        header("games");
        snprintf(label, sizeof label, "%d", games);
        row(label, &t);
        by_class("playouts", "legal decisions", &t);
    }
    ball_game_free(g);
    return 0;
}
