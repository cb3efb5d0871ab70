/* make bench-records: the cost of reading game records, per game, for
 * texts of 10^4, 10^5 and 10^6 games (docs/records.md). Reading is
 * ball_record_read() game after game through one text, each game
 * replayed; the per-game cost should not grow with the text. Not a test:
 * the figures are times (and the CPU time beside them).
 * Usage: records [GAMES] (default 1000000; the text is cut at 10^4, 10^5
 * and GAMES games). With --write FILE, writes the GAMES-game text there
 * instead (for `ball replay FILE`). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime() */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"
#include "bench_util.h"

/* Random games of at most 8 turns: short records, so that 10^6 games fit
 * in about 200 MB. DISTINCT of them, repeated in turn. */
enum { DISTINCT = 256 };

static int one_game(char **text, uint64_t *seed)
{
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.turn_limit = 8;
    ball_game *g = NULL;
    if (ball_game_new(&g, &rules, NULL, 0) != BALL_OK)
        return -1;
    ball_game_set_tag(g, BALL_TAG_EVENT, "bench-records");
    while (ball_result(g) == BALL_ONGOING) {
        ball_action a;
        if (ball_random_action(g, next_random(seed), &a) != BALL_OK || ball_apply(g, a) != BALL_OK)
            break;
    }
    int n = ball_record_write(g, NULL, 0);
    *text = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (!*text || ball_record_write(g, *text, (size_t)n + 1) != n) {
        ball_game_free(g);
        return -1;
    }
    ball_game_free(g);
    return n;
}

int main(int argc, char **argv)
{
    const char *write_to = NULL;
    if (argc > 2 && strcmp(argv[1], "--write") == 0) {
        write_to = argv[2];
        argv += 2;
        argc -= 2;
    }
    long games = argc > 1 ? atol(argv[1]) : 1000000;
    if (games < 1) {
        fprintf(stderr, "usage: records [--write FILE] [GAMES]\n");
        return 2;
    }
    char *texts[DISTINCT];
    size_t lens[DISTINCT], total = 0;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < DISTINCT; i++) {
        int n = one_game(&texts[i], &seed);
        if (n < 0) {
            fprintf(stderr, "records: cannot make game %d\n", i);
            return 1;
        }
        lens[i] = (size_t)n + 1; /* and an empty line between games */
    }
    for (long k = 0; k < games; k++)
        total += lens[k % DISTINCT];
    char *all = malloc(total + 1);
    size_t *ends = malloc((size_t)games * sizeof *ends); /* where each game's text ends */
    if (!all || !ends) {
        fprintf(stderr, "records: out of memory for %zu bytes\n", total);
        return 1;
    }
    size_t at = 0;
    for (long k = 0; k < games; k++) {
        memcpy(all + at, texts[k % DISTINCT], lens[k % DISTINCT] - 1);
        at += lens[k % DISTINCT];
        all[at - 1] = '\n';
        ends[k] = at;
    }
    all[at] = '\0';
    if (write_to) {
        FILE *f = fopen(write_to, "wb");
        if (!f || fwrite(all, 1, total, f) != total || fclose(f) != 0) {
            fprintf(stderr, "records: cannot write %s\n", write_to);
            return 1;
        }
        printf("%ld games, %zu bytes: %s\n", games, total, write_to);
        return 0;
    }
    printf("reading records (ball_record_read, each game replayed), %ld games of %.1f bytes on average:\n",
           games, (double)total / (double)games);
    long sizes[3] = {10000, 100000, games};
    for (int s = 0; s < 3; s++) {
        long n = sizes[s] < games ? sizes[s] : games;
        if (s > 0 && n <= sizes[s - 1])
            continue;
        size_t len = ends[n - 1], offset = 0;
        char err[256];
        long read = 0, decisions = 0;
        double t0 = now(), c0 = cpu_now();
        for (;;) {
            ball_game *g = NULL;
            int rc = ball_record_read(&g, all, len, &offset, err, sizeof err);
            if (rc == 0)
                break;
            if (rc < 0) {
                fprintf(stderr, "records: game %ld: %s\n", read + 1, err);
                return 1;
            }
            decisions += ball_history_length(g);
            ball_game_free(g);
            read++;
        }
        double wall = now() - t0, cpu = cpu_now() - c0;
        printf("  %8ld games (%ld decisions): %.3f s, %.2f us per game (CPU %.2f us per game)\n", read,
               decisions, wall, wall / (double)read * 1e6, cpu / (double)read * 1e6);
        if (read != n) {
            fprintf(stderr, "records: read %ld games of %ld\n", read, n);
            return 1;
        }
    }
    for (int i = 0; i < DISTINCT; i++)
        free(texts[i]);
    free(all);
    free(ends);
    return 0;
}
