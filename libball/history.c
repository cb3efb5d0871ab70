/* SPDX-License-Identifier: MIT */
/* The history of a game read back: the decisions played (apply stores
 * each next to its undo record, game.h) and the positions they were played
 * from (the undo records restore them on a copy). */
#include <string.h>

#include "bpn.h"
#include "game.h"
#include "history.h"
#include "play.h"

void history_position(const ball_game *g, size_t i, pos *out)
{
    *out = g->p;
    for (size_t k = g->nhist; k > i; k--)
        undo_decision(out, &g->hist[k - 1]);
}

int ball_history_action(ball_game *game, int i, ball_action *out)
{
    if (!game)
        return BALL_E_ARG;
    if (!out)
        return game_error(game, BALL_E_ARG, "NULL output pointer");
    if (i < 0 || (size_t)i >= game->nhist)
        return game_error(game, BALL_E_RANGE, "decision %d of a history of %zu", i, game->nhist);
    *out = game->acts[i];
    return game_ok(game);
}

int ball_history_position(ball_game *game, int i, char *buf, size_t len)
{
    if (!game)
        return BALL_E_ARG;
    if (!buf)
        return game_error(game, BALL_E_ARG, "NULL buffer");
    if (i < 0 || (size_t)i > game->nhist)
        return game_error(game, BALL_E_RANGE, "position %d of a history of %zu decisions", i, game->nhist);
    pos p;
    char text[BPN_MAX];
    history_position(game, (size_t)i, &p);
    int n = bpn_format(&p, text);
    if ((size_t)n >= len)
        return game_error(game, BALL_E_BUFFER, "BPN needs %d bytes, buffer has %zu", n + 1, len);
    memcpy(buf, text, (size_t)n + 1);
    game_ok(game);
    return n;
}
