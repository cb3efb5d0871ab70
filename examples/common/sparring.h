/* SPDX-License-Identifier: MIT */
/*
 * sparring — two players to measure searchers against (yardsticks, not
 * the product; docs/yardsticks.md). Both are written from the rules and
 * the public API only, with an evaluation of their own
 * (sparring_evaluate()), and both are deterministic: a node budget, no
 * clock, no random numbers, so a decision depends only on the position.
 *
 *  - `alphabeta[:depth=D][,nodes=N][,threat=1]`: a negamax alpha-beta search over
 *    decisions (a turn is several decisions of one coach: the sign flips
 *    only where the coach to act changes), iterative deepening to depth D
 *    (default 64) within N nodes (default 8000), a transposition table
 *    keyed by ball_hash() and move ordering by the table's move and a
 *    static score of each child. `threat=1` scores the leaves with
 *    sparring_evaluate_threat() instead of sparring_evaluate().
 *  - `turn[:nodes=N][,threat=1]`: walks every decision sequence of the current turn
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
#define SPARRING_NAMES_HELP \
    "alphabeta[:depth=D][,nodes=N][,threat=1] or turn[:nodes=N][,threat=1]"

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

/**
 * The threat-aware evaluation of @p g for @p team (the `threat=1`
 * players), on the scale of sparring_evaluate(): the same piece terms,
 * but the ball is scored by exact looks at what the coach who acts next
 * can do (sparring_can_take()) instead of distances alone:
 *  - a carrier the side to act can take within its PA is worth to it what
 *    holding the ball there is worth, less 100; one it cannot take keeps
 *    most of its value (its coach gets a whole turn first);
 *  - with the carrier's coach to act in its action phase, the look is
 *    made as if it played `end` now, and the loss weighs 1/4, 1/2 or 3/4
 *    of the ball's swing with 2, 1 or 0 PA left (it can still move away);
 *  - a stacked carrier is out of reach (R3.5) unless its coach's release
 *    (R9.3) comes before the other coach acts;
 *  - a loose ball the side to act can pick up within its PA is nearly
 *    its own; otherwise who is nearer counts.
 * The game is unchanged afterwards (apply/undo). Uses a few kilobytes of
 * stack, allocates nothing. Outside card mode.
 */
long sparring_evaluate_threat(ball_game *g, int team);

/**
 * 1 if the coach to act in @p g, in its action phase and not holding the
 * ball, can have it in hand before its PA run out: one legal action that
 * takes it (a pickup R8.1, a forced fumble R6.1, a block of the carrier
 * R7.3), or with 2 PA a movement action and then one that takes it; else
 * 0 (also in a release phase or a finished game); a negative ball_error
 * when an apply/undo fails. The second action is looked for after only
 * those first actions that change a square near enough to the ball to
 * matter; @p every_first non-zero tries every first action (the
 * reference the tests compare with). The game is unchanged afterwards.
 */
int sparring_can_take(ball_game *g, int every_first);

#endif
