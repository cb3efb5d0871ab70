/* SPDX-License-Identifier: MIT */
/*
 * sparring — two players to measure searchers against (yardsticks, not
 * the product; docs/yardsticks.md). Both are written from the rules and
 * the public API only, with an evaluation of their own
 * (sparring_evaluate()), and both are deterministic: a node budget, no
 * clock, no random numbers, so a decision depends only on the position.
 *
 *  - `alphabeta[:depth=D][,nodes=N]`: a negamax alpha-beta search over
 *    decisions (a turn is several decisions of one coach: the sign flips
 *    only where the coach to act changes), iterative deepening to depth D
 *    (default 64) within N nodes (default 8000), a transposition table
 *    keyed by ball_hash() and move ordering by the table's move and a
 *    static score of each child.
 *  - `turn[:nodes=N]`: walks every decision sequence of the current turn
 *    to the hand-over (positions met twice in the turn are walked once, by
 *    a hash set), scores each turn end with sparring_evaluate() and plays
 *    the first decision of the best one; N (default 200000) bounds the
 *    positions walked.
 *
 * A sparring player allocates everything it needs in sparring_new() and
 * nothing when it chooses.
 */
#ifndef EXAMPLES_SPARRING_H
#define EXAMPLES_SPARRING_H

#include "ball.h"

/** A sparring player (opaque). */
typedef struct sparring sparring;

/** The names sparring_new() accepts, for help texts. */
#define SPARRING_NAMES_HELP "alphabeta[:depth=D][,nodes=N] or turn[:nodes=N]"

/**
 * Creates the sparring player named @p name in @p *out. Returns 0; 1 when
 * @p name is not a sparring player's name (@p *out is NULL: the caller may
 * try other kinds); -1 for a sparring name with a bad setting, or no
 * memory.
 */
int sparring_new(sparring **out, const char *name);

/** Frees a sparring player; NULL is ignored. */
void sparring_free(sparring *s);

/** "alphabeta" or "turn". */
const char *sparring_kind_name(const sparring *s);

/**
 * The decision of @p s for the side to act in @p g among the @p n > 0
 * legal decisions @p acts, in @p *out. The game is unchanged afterwards.
 * Returns #BALL_OK or the negative ball_error of a failed apply/undo.
 */
int sparring_choose(sparring *s, ball_game *g, const ball_action *acts, int n, ball_action *out);

/** Nodes the last sparring_choose() visited, and the depth it completed
 *  (alphabeta; 0 for turn). */
long sparring_last_nodes(const sparring *s, int *depth);

/**
 * The sparring players' evaluation of @p g for @p team, higher is better:
 * a touchdown, then who holds the ball and how far forward, how exposed
 * the carrier is to the opponents' pieces (a stacked carrier is safe), the
 * race to a loose ball, pieces down, pieces advanced.
 */
long sparring_evaluate(ball_game *g, int team);

#endif
