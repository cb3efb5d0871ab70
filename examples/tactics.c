/* SPDX-License-Identifier: MIT */
/*
 * tactics — scores a player on the tactics suite (docs/yardsticks.md):
 * for each position of the suite, the player's decision is right when it
 * is one of the position's proven answers.
 *
 *   tactics --player NAME [--suite FILE] [--seed S] [--verbose]
 *
 * NAME is any player player_parse() takes (greedy, mcts:playouts=N,
 * alphabeta, turn, ...). FILE defaults to tests/tactics/suite.txt (its
 * format is in its header and in docs/yardsticks.md). The player is
 * re-seeded from S + the line number before each position (default S 1),
 * so a run repeats (a time budget apart). Prints, by category and in all,
 * the positions solved, the share in percent, and the share a uniformly
 * random decision would solve on average; with --verbose also each
 * position the player gets wrong, with its decision. Exit status 0; 1 for
 * a malformed suite or a failing player; 2 for bad arguments.
 */
#include "args.h"
#include "ball.h"
#include "players.h"
#include "tactics_suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX 4096
#define NUM_CATS 3

static const char *const cat_names[NUM_CATS] = {"score", "take", "safe"};

/* 1 if the word @p word is one of the space-separated words of @p list. */
static int has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ' ');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && strncmp(p, word, n) == 0)
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

static int count_words(const char *list)
{
    int n = 0, in = 0;
    for (const char *p = list; *p; p++) {
        if (*p != ' ' && !in)
            n++;
        in = *p != ' ';
    }
    return n;
}

/* A well-mixed 32-bit seed from @p x (the finaliser of MurmurHash3): a
 * xorshift32 started from a small number gives small first numbers, which
 * would make the random player pick the first decisions of its order. */
static uint32_t mix(unsigned long x)
{
    uint32_t h = (uint32_t)x;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h ? h : 1u;
}

int main(int argc, char **argv)
{
    const char *name = NULL, *suite = "tests/tactics/suite.txt";
    unsigned long seed = 1;
    int verbose = 0;
    long solved[NUM_CATS] = {0}, total[NUM_CATS] = {0}, lineno = 0;
    double chance[NUM_CATS] = {0};
    static char line[LINE_MAX];
    player p;
    FILE *f;

    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--verbose") == 0) {
            verbose = 1;
            continue;
        }
        if (strcmp(opt, "--help") == 0) {
            printf("usage: tactics --player NAME [--suite FILE] [--seed S] [--verbose]\n"
                   "  NAME: %s\n", PLAYER_NAMES_HELP);
            return 0;
        }
        if (val == NULL) {
            fprintf(stderr, "tactics: %s needs a value\n", opt);
            return 2;
        }
        i++;
        if (strcmp(opt, "--player") == 0)
            name = val;
        else if (strcmp(opt, "--suite") == 0)
            suite = val;
        else if (strcmp(opt, "--seed") == 0 && parse_number(val, 0, 4294967295L) >= 0)
            seed = (unsigned long)parse_number(val, 0, 4294967295L);
        else {
            fprintf(stderr, "tactics: bad option '%s %s'\n", opt, val);
            return 2;
        }
    }
    if (name == NULL) {
        fprintf(stderr, "tactics: --player NAME is needed (%s)\n", PLAYER_NAMES_HELP);
        return 2;
    }
    if (player_parse(name, 0, (uint32_t)seed, &p) != 0) {
        fprintf(stderr, "tactics: unknown player '%s' (%s)\n", name, PLAYER_NAMES_HELP);
        return 2;
    }
    if ((f = fopen(suite, "r")) == NULL) {
        perror(suite);
        player_free(&p);
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        char *field[5], text[BALL_ACTION_TEXT_MAX], err[256];
        ball_action acts[BALL_MAX_ACTIONS], a;
        ball_rules rules;
        ball_cardset *cards = NULL;
        ball_game *g = NULL;
        int cat, n, rc;
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (suite_split(line, field) != 0) {
            fprintf(stderr, "%s:%ld: not five fields separated by '|'\n", suite, lineno);
            goto fail;
        }
        for (cat = 0; cat < NUM_CATS && strcmp(field[0], cat_names[cat]) != 0; cat++)
            ;
        if (cat == NUM_CATS) {
            fprintf(stderr, "%s:%ld: unknown category '%s'\n", suite, lineno, field[0]);
            goto fail;
        }
        ball_rules_init(&rules, sizeof rules);
        if (ball_rules_from_text(&rules, &cards, field[1], err, sizeof err) != BALL_OK
            || ball_game_new(&g, &rules, err, sizeof err) != BALL_OK) {
            fprintf(stderr, "%s:%ld: rules '%s': %s\n", suite, lineno, field[1], err);
            ball_cardset_free(cards);
            goto fail;
        }
        ball_cardset_free(cards);
        if (ball_position_from_text(g, field[2]) != BALL_OK) {
            fprintf(stderr, "%s:%ld: %s\n", suite, lineno, ball_errmsg(g));
            ball_game_free(g);
            goto fail;
        }
        n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        if (n <= 0) {
            fprintf(stderr, "%s:%ld: no legal decision\n", suite, lineno);
            ball_game_free(g);
            goto fail;
        }
        player_seed(&p, mix(seed + (unsigned long)lineno));
        rc = player_choose(&p, g, acts, n, &a);
        if (rc != BALL_OK || ball_action_to_text(a, text, sizeof text) < 0) {
            fprintf(stderr, "%s:%ld: the player failed: %s\n", suite, lineno, ball_strerror(rc));
            ball_game_free(g);
            goto fail;
        }
        total[cat]++;
        chance[cat] += (double)count_words(field[4]) / n;
        if (has_word(field[4], text))
            solved[cat]++;
        else if (verbose)
            printf("%s:%ld: %s: played %s, answers %s\n", suite, lineno, field[0], text, field[4]);
        ball_game_free(g);
    }
    fclose(f);
    player_free(&p);
    {
        long s = 0, t = 0;
        double c = 0;
        printf("tactics: %s on %s\n", name, suite);
        printf("  category    solved   total    share   random\n");
        for (int cat = 0; cat < NUM_CATS; cat++) {
            s += solved[cat];
            t += total[cat];
            c += chance[cat];
            printf("  %-8s %9ld %7ld %7.1f%% %7.1f%%\n", cat_names[cat], solved[cat], total[cat],
                   total[cat] ? 100.0 * (double)solved[cat] / (double)total[cat] : 0.0,
                   total[cat] ? 100.0 * chance[cat] / (double)total[cat] : 0.0);
        }
        printf("  %-8s %9ld %7ld %7.1f%% %7.1f%%\n", "total", s, t,
               t ? 100.0 * (double)s / (double)t : 0.0, t ? 100.0 * c / (double)t : 0.0);
        printf("solved %ld/%ld\n", s, t);
    }
    return fflush(stdout) == 0 ? 0 : 1;
fail:
    fclose(f);
    player_free(&p);
    return 1;
}
