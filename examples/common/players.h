/*
 * players — the built-in players shared by the examples (demo, play,
 * selfplay): a uniformly random player with a small xorshift generator,
 * and a greedy player that looks one decision ahead with apply/undo.
 * Nothing here is global: each player carries its own state.
 */
#ifndef EXAMPLES_PLAYERS_H
#define EXAMPLES_PLAYERS_H

#include "ball.h"

#include <stdint.h>

/** Who makes the decisions of one team. */
enum player_kind {
    PLAYER_HUMAN = 0,  /**< Decisions typed by a person (play only). */
    PLAYER_RANDOM = 1, /**< Any legal decision, uniformly. */
    PLAYER_GREEDY = 2  /**< The best decision by player_evaluate(), one ply. */
};

/** A player: its kind and, for the random player, its generator state. */
typedef struct player {
    enum player_kind kind;
    uint32_t rng; /**< xorshift32 state; never 0. */
} player;

/** Fills @p out for the player named @p name ("random", "greedy", and
 *  "human" when @p allow_human). @p seed 0 is replaced by a fixed non-zero
 *  seed. Returns 0, or -1 for an unknown name. */
int player_parse(const char *name, int allow_human, uint32_t seed, player *out);

/** The name of the player's kind: "human", "random" or "greedy". */
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
 * Returns #BALL_OK, or the negative ball_error of a failed apply/undo.
 * A human player cannot choose here (#BALL_E_ARG).
 */
int player_choose(player *p, ball_game *g, const ball_action *acts, int n, ball_action *out);

#endif
