/* SPDX-License-Identifier: MIT */
/*
 * players — the built-in players shared by the examples (demo, play,
 * selfplay): a uniformly random player with a small xorshift generator,
 * a greedy player that looks one decision ahead with apply/undo, and the
 * library's Monte-Carlo tree search (ball_mcts_choose(), docs/players.md).
 * Nothing here is global: each player carries its own state.
 */
#ifndef EXAMPLES_PLAYERS_H
#define EXAMPLES_PLAYERS_H

#include "ball.h"
#include "sparring.h"

#include <stdint.h>

/** Who makes the decisions of one team. */
enum player_kind {
    PLAYER_HUMAN = 0,  /**< Decisions typed by a person (play only). */
    PLAYER_RANDOM = 1, /**< Any legal decision, uniformly. */
    PLAYER_GREEDY = 2, /**< The best decision by player_evaluate(), one ply. */
    PLAYER_MCTS = 3,   /**< Monte-Carlo tree search (ball_mcts_choose()). */
    PLAYER_SEARCH = 4,  /**< Turn search (ball_search_run()). */
    PLAYER_SPARRING = 5 /**< A yardstick of sparring.h: alphabeta or turn. */
};

/** A player: its kind, its generator state and, for MCTS, its searcher. */
typedef struct player {
    enum player_kind kind;
    uint32_t rng;     /**< xorshift32 state; never 0. */
    ball_mcts *mcts;  /**< The searcher of an MCTS player, else NULL. */
    ball_mcts_config mcts_config; /**< Its settings (valid for PLAYER_MCTS). */
    ball_search *search; /**< The searcher of a turn-search player, else NULL. */
    ball_search_config search_config; /**< Its settings (valid for PLAYER_SEARCH). */
    struct sparring *sparring; /**< A sparring player (sparring.h), else NULL. */
} player;

/** The player names player_parse() accepts, for help texts. */
#define PLAYER_NAMES_HELP \
    "random, greedy, mcts[:playouts=N][,ms=T][,turns=K][,c=X], search[:nodes=N][,ms=T][,depth=D][,eval=network|hand], " \
    SPARRING_NAMES_HELP

/**
 * Fills @p out for the player named @p name: "random", "greedy", "human"
 * when @p allow_human, or "mcts" with optional settings after a colon,
 * separated by commas: `playouts=N` (iterations per decision, default
 * 1000; 0 = no limit), `ms=T` (milliseconds per decision, default 0 = no
 * limit; `ms=` without `playouts=` means a time budget only), `turns=K`
 * (playout length in hand-overs, 0 = to the end; default 1), `c=X`
 * (exploration, default 0.3) — e.g. "mcts:ms=100". The defaults are
 * ball_mcts_config_init()'s (docs/players.md). "search" is the turn
 * search (ball_search_run()) with optional `nodes=N`, `ms=T`, `depth=D`
 * (turns); a budget named without `nodes=` replaces the default node
 * budget, e.g. "search:ms=100". The sparring players
 * "alphabeta[:depth=D][,nodes=N][,threat=1]" and "turn[:nodes=N][,threat=1]" (sparring.h,
 * docs/yardsticks.md) are accepted too.
 * @p seed 0 is replaced by a fixed non-zero seed. Returns 0, or -1 for an
 * unknown name or a bad setting (or no memory for the searcher). Release
 * the player with player_free().
 */
int player_parse(const char *name, int allow_human, uint32_t seed, player *out);

/** Frees what player_parse() allocated (a searcher or a sparring player). */
void player_free(player *p);

/** Restarts the player's random choices from @p seed (0 is replaced by 1). */
void player_seed(player *p, uint32_t seed);

/** The name of the player's kind: "human", "random", "greedy", "mcts",
 *  "search", "alphabeta" or "turn". */
const char *player_name(const player *p);

/** xorshift32: the next pseudo-random number; *state must not be 0. */
uint32_t player_xorshift32(uint32_t *state);

/** How good the position is for @p team (higher is better): a touchdown,
 *  then holding the ball, bringing it towards the target end zone,
 *  knocking opponents down, advancing one's own pieces. */
long player_evaluate(ball_game *g, int team);

/**
 * The decision that player @p p makes for the side to act in @p g, among
 * the @p n > 0 legal decisions @p acts, stored in @p *out. The random
 * player lets ball_random_action() draw one from 64 random bits (it needs
 * no list; a playout loop would not build one). The greedy player plays
 * each decision, scores it and takes it back (the game is unchanged
 * afterwards); ties go to the first decision in the library's order.
 * The MCTS player searches within its budget (the game is unchanged
 * afterwards too).
 * Returns #BALL_OK, or the negative ball_error of a failed apply/undo.
 * A human player cannot choose here (#BALL_E_ARG).
 */
int player_choose(player *p, ball_game *g, const ball_action *acts, int n, ball_action *out);

#endif
