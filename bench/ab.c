#define _POSIX_C_SOURCE 200809L
/* A/B comparison of two builds of libball on the same machine (make
 * bench-ab). On a shared virtual machine the speed of the whole machine
 * drifts by 30% and more within minutes, so two `make bench` runs made one
 * after the other compare the drift as much as the code. This program
 * loads both shared libraries into one process (dlopen, RTLD_LOCAL) and
 * alternates short runs of the same workload between them; the median of
 * the per-pair ratios B/A is what changed.
 *
 *   ab LIB_A LIB_B [playouts|draw|perft5|perft6|generation] [PAIRS]
 *
 * `draw` uses ball_random_action() where the library has it and lists
 * otherwise. Only the public API is used, so any two versions with the
 * same major version as this program's header can be compared (a library
 * of another major version is refused: its calls have other signatures).
 * Each rate is by wall time; the CPU time of each library's runs is
 * printed beside its wall time. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ball.h"
#include "bench_util.h"

#define MAX_PAIRS 101
#define SAMPLES 1024

typedef struct lib {
    void *handle;
    unsigned (*version_number)(void);
    void (*rules_init)(ball_rules *, size_t);
    int (*game_new)(ball_game **, const ball_rules *, char *, size_t);
    void (*game_free)(ball_game *);
    int (*history_reserve)(ball_game *, size_t);
    int (*legal_actions)(ball_game *, ball_action *, size_t);
    int (*apply_unchecked)(ball_game *, ball_action);
    int (*undo)(ball_game *);
    int (*perft)(ball_game *, int, uint64_t *);
    int (*set_bpn)(ball_game *, const char *);
    int (*get_bpn)(ball_game *, char *, size_t);
    int (*random_action)(ball_game *, uint64_t, ball_action *); /* may be NULL */
    ball_game *game;
    ball_game *samples[SAMPLES];
    double wall, cpu; /* seconds spent in run() */
} lib;

static void *need(void *handle, const char *name)
{
    void *f = dlsym(handle, name);
    if (!f) {
        fprintf(stderr, "ab: the library has no %s\n", name);
        exit(2);
    }
    return f;
}

static void load(lib *l, const char *path)
{
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!l->handle) {
        fprintf(stderr, "ab: %s\n", dlerror());
        exit(2);
    }
    /* POSIX: a function pointer converts from dlsym's void * */
    *(void **)&l->version_number = need(l->handle, "ball_version_number");
    if (l->version_number() / 10000 != BALL_VERSION_MAJOR) {
        fprintf(stderr, "ab: %s is libball %u.%u, not %d.x: compare builds of the same major version\n", path,
                l->version_number() / 10000, l->version_number() / 100 % 100, BALL_VERSION_MAJOR);
        exit(2);
    }
    *(void **)&l->rules_init = need(l->handle, "ball_rules_init");
    *(void **)&l->game_new = need(l->handle, "ball_game_new");
    *(void **)&l->game_free = need(l->handle, "ball_game_free");
    *(void **)&l->history_reserve = need(l->handle, "ball_history_reserve");
    *(void **)&l->legal_actions = need(l->handle, "ball_legal_actions");
    *(void **)&l->apply_unchecked = need(l->handle, "ball_apply_unchecked");
    *(void **)&l->undo = need(l->handle, "ball_undo");
    *(void **)&l->perft = need(l->handle, "ball_perft");
    *(void **)&l->set_bpn = need(l->handle, "ball_position_from_text");
    *(void **)&l->get_bpn = need(l->handle, "ball_position_to_text");
    *(void **)&l->random_action = dlsym(l->handle, "ball_random_action");
    ball_rules rules;
    l->rules_init(&rules, sizeof rules);
    rules.turn_limit = 200;
    if (l->game_new(&l->game, &rules, NULL, 0) != BALL_OK || l->history_reserve(l->game, 4096) != BALL_OK) {
        fprintf(stderr, "ab: cannot make a game\n");
        exit(2);
    }
}

/* The same positions for both libraries: every 7th decision of random
 * games played by A, set into games of both by their BPN. */
static void sample(lib *a, lib *b)
{
    uint64_t seed = 12345;
    int n = 0;
    char bpn[BALL_BPN_MAX];
    while (n < SAMPLES) {
        for (int d = 0; d < 400 && n < SAMPLES; d++) {
            ball_action acts[BALL_MAX_ACTIONS];
            int k = a->legal_actions(a->game, acts, BALL_MAX_ACTIONS);
            if (k <= 0)
                break;
            if (d % 7 == 0) {
                a->get_bpn(a->game, bpn, sizeof bpn);
                for (lib *l = a; l; l = l == a ? b : NULL)
                    if (l->game_new(&l->samples[n], NULL, NULL, 0) != BALL_OK
                        || l->set_bpn(l->samples[n], bpn) != BALL_OK) {
                        fprintf(stderr, "ab: cannot set %s\n", bpn);
                        exit(2);
                    }
                n++;
            }
            a->apply_unchecked(a->game, acts[next_random(&seed) % (uint64_t)k]);
        }
        while (a->undo(a->game) == BALL_OK)
            ;
    }
}

/* One short run of the workload; returns its rate (units per second). */
static double run(lib *l, const char *what, uint64_t seed)
{
    ball_action acts[BALL_MAX_ACTIONS], a;
    double t = now(), c = cpu_now(), units = 0;
    if (strcmp(what, "playouts") == 0 || strcmp(what, "draw") == 0) {
        int draw = what[0] == 'd' && l->random_action;
        for (int g = 0; g < 50; g++) {
            int n;
            if (draw)
                while (l->random_action(l->game, next_random(&seed), &a) == BALL_OK)
                    l->apply_unchecked(l->game, a);
            else
                while ((n = l->legal_actions(l->game, acts, BALL_MAX_ACTIONS)) > 0)
                    l->apply_unchecked(l->game, acts[next_random(&seed) % (uint64_t)n]);
            while (l->undo(l->game) == BALL_OK)
                ;
        }
        units = 50;
    } else if (strcmp(what, "generation") == 0) {
        for (int r = 0; r < 4; r++)
            for (int i = 0; i < SAMPLES; i++)
                l->legal_actions(l->samples[i], acts, BALL_MAX_ACTIONS);
        units = 4.0 * SAMPLES;
    } else {
        ball_game *g;
        uint64_t leaves = 0;
        l->game_new(&g, NULL, NULL, 0);
        l->perft(g, what[5] - '0', &leaves);
        l->game_free(g);
        units = (double)leaves;
    }
    double wall = now() - t;
    l->wall += wall;
    l->cpu += cpu_now() - c;
    return units / wall;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ab LIB_A LIB_B [playouts|draw|perft5|perft6|generation] [PAIRS]\n");
        return 2;
    }
    const char *what = argc > 3 ? argv[3] : "playouts";
    int pairs = argc > 4 ? atoi(argv[4]) : 21;
    if (pairs < 1 || pairs > MAX_PAIRS || (strcmp(what, "playouts") && strcmp(what, "draw")
                                           && strcmp(what, "perft5") && strcmp(what, "perft6")
                                           && strcmp(what, "generation"))) {
        fprintf(stderr, "ab: unknown workload or pairs out of 1-%d\n", MAX_PAIRS);
        return 2;
    }
    lib a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    load(&a, argv[1]);
    load(&b, argv[2]);
    if (strcmp(what, "generation") == 0)
        sample(&a, &b);
    double ra[MAX_PAIRS], rb[MAX_PAIRS], ratio[MAX_PAIRS];
    for (int i = 0; i < pairs; i++) { /* alternate which one goes first */
        uint64_t seed = 777 + (uint64_t)i;
        if (i % 2) {
            rb[i] = run(&b, what, seed);
            ra[i] = run(&a, what, seed);
        } else {
            ra[i] = run(&a, what, seed);
            rb[i] = run(&b, what, seed);
        }
        ratio[i] = rb[i] / ra[i];
    }
    qsort(ra, (size_t)pairs, sizeof *ra, cmp_double);
    qsort(rb, (size_t)pairs, sizeof *rb, cmp_double);
    qsort(ratio, (size_t)pairs, sizeof *ratio, cmp_double);
    printf("%s, %d pairs\n", what, pairs);
    printf("A %-40s median %12.1f /s  (wall %.3f s, cpu %.3f s)\n", argv[1], ra[pairs / 2], a.wall, a.cpu);
    printf("B %-40s median %12.1f /s  (wall %.3f s, cpu %.3f s)\n", argv[2], rb[pairs / 2], b.wall, b.cpu);
    printf("B/A median %.3f (quartiles %.3f - %.3f)\n", ratio[pairs / 2], ratio[pairs / 4], ratio[3 * pairs / 4]);
    return 0;
}
