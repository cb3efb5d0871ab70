/* SPDX-License-Identifier: MIT */
/*
 * player_engine — serves one of the examples' players over BEP
 * (docs/protocol.md), so that `ball match` can play the sparring
 * yardsticks (docs/yardsticks.md) against `ball engine`:
 *
 *   ball match --engine cmd="build/examples/player_engine alphabeta:nodes=16000" \
 *              --engine cmd="build/bin/ball engine" nodes=112000 ...
 *
 *   player_engine PLAYER [SEED]
 *
 * PLAYER is any name player_parse() takes (players.h). Its budget is the
 * one in its name: the limits of `go` are ignored (a sparring player is
 * deterministic, so the same position always gets the same decision).
 * The player is seeded with SEED (default 1) at each `newgame`. The
 * commands are the minimum a client needs: bep, isready, newgame [rules
 * T], position startpos|bpn BPN [decisions ...], go, stop (ignored: the
 * answer comes when the search ends), quit. Errors are `info string
 * error: ...` lines, as in `ball engine`.
 */
#include "ball.h"
#include "players.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 8192

struct engine {
    player p;
    uint32_t seed;
    ball_rules rules;
    ball_game *game;
};

/* A new game under e->rules at the standard start; 0 or -1. */
static int engine_reset(struct engine *e)
{
    ball_game *g = NULL;
    if (ball_game_new(&g, &e->rules, NULL, 0) != BALL_OK)
        return -1;
    ball_game_free(e->game);
    e->game = g;
    return 0;
}

/* `position startpos|bpn BPN [decisions D...]`, @p rest after "position ". */
static void cmd_position(struct engine *e, char *rest)
{
    char *dec = strstr(rest, " decisions");
    ball_game *g = NULL;
    if (dec != NULL)
        *dec = '\0', dec += strlen(" decisions");
    if (ball_game_new(&g, &e->rules, NULL, 0) != BALL_OK) {
        puts("info string error: position: no memory");
        return;
    }
    if (strncmp(rest, "bpn ", 4) == 0 && ball_position_from_text(g, rest + 4) != BALL_OK) {
        printf("info string error: position: %s\n", ball_errmsg(g));
        ball_game_free(g);
        return;
    }
    for (char *w = dec ? strtok(dec, " \t") : NULL; w != NULL; w = strtok(NULL, " \t")) {
        ball_action a;
        if (ball_action_from_text(g, w, &a) != BALL_OK || ball_apply(g, a) != BALL_OK) {
            printf("info string error: position: decision '%s': %s\n", w, ball_errmsg(g));
            ball_game_free(g);
            return;
        }
    }
    ball_game_free(e->game);
    e->game = g;
}

static void cmd_go(struct engine *e)
{
    static ball_action acts[BALL_MAX_ACTIONS];
    char text[BALL_ACTION_TEXT_MAX];
    ball_action best;
    int n = ball_legal_actions(e->game, acts, BALL_MAX_ACTIONS);
    if (n <= 0) {
        puts("info string error: go: no legal decision");
        puts("bestdecision none");
        return;
    }
    if (player_choose(&e->p, e->game, acts, n, &best) != BALL_OK) {
        printf("info string error: go: %s\n", ball_errmsg(e->game));
        best = acts[0];
    }
    if (e->p.sparring != NULL) {
        int depth;
        long nodes = sparring_last_nodes(e->p.sparring, &depth);
        printf("info depth %d nodes %ld\n", depth, nodes);
    }
    ball_action_to_text(best, text, sizeof text);
    printf("bestdecision %s\n", text);
}

int main(int argc, char **argv)
{
    static char line[LINE_MAX_BYTES];
    struct engine e = {0};
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: player_engine PLAYER [SEED]\nPLAYER: %s\n", PLAYER_NAMES_HELP);
        return 2;
    }
    e.seed = argc == 3 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1u;
    if (player_parse(argv[1], 0, e.seed, &e.p) != 0) {
        fprintf(stderr, "player_engine: unknown player '%s'\n", argv[1]);
        return 2;
    }
    ball_rules_init(&e.rules, sizeof e.rules);
    if (engine_reset(&e) != 0)
        return 1;
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *cmd = line + strspn(line, " \t");
        cmd[strcspn(cmd, "\r\n")] = '\0';
        if (strcmp(cmd, "bep") == 0) {
            printf("id name example player %s\nid author the libball authors\nbepok\n", argv[1]);
        } else if (strcmp(cmd, "isready") == 0) {
            puts("readyok");
        } else if (strncmp(cmd, "newgame", 7) == 0) {
            ball_rules r;
            ball_cardset *cards = NULL;
            ball_rules_init(&r, sizeof r);
            if (strncmp(cmd + 7, " rules ", 7) == 0 &&
                ball_rules_from_text(&r, &cards, cmd + 14, NULL, 0) != BALL_OK) {
                puts("info string error: newgame: bad rules");
            } else if (cards != NULL) { /* its games would need the card set kept */
                ball_cardset_free(cards);
                puts("info string error: newgame: card mode is not served");
            } else {
                e.rules = r;
                player_seed(&e.p, e.seed);
                if (engine_reset(&e) != 0)
                    puts("info string error: newgame: no memory");
            }
        } else if (strncmp(cmd, "position ", 9) == 0) {
            cmd_position(&e, cmd + 9);
        } else if (strncmp(cmd, "go", 2) == 0 && (cmd[2] == '\0' || cmd[2] == ' ')) {
            cmd_go(&e);
        } else if (strcmp(cmd, "quit") == 0) {
            break;
        } else if (*cmd != '\0' && strcmp(cmd, "stop") != 0) {
            printf("info string error: unknown command '%.40s'\n", cmd);
        }
        fflush(stdout);
    }
    ball_game_free(e.game);
    player_free(&e.p);
    return 0;
}
