/* SPDX-License-Identifier: MIT */
/*
 * auto_games — the one default of the programs that play automated games
 * (docs/rules-choices.md, "Turn limits of the programs and bindings").
 */
#ifndef EXAMPLES_AUTO_GAMES_H
#define EXAMPLES_AUTO_GAMES_H

/** The turn limit (R11.2) of automated games when none is given: the
 *  programs that play games without a person (selfplay, demo, the `ball`
 *  tool's commands that play games) and the bindings' learning
 *  environments (Python learn.Env and learn.Batch, Lua ball_learn.batch)
 *  use it, and the strength measurements of docs/players.md are made with
 *  it. Without a limit a random game lasts thousands of decisions. The
 *  library's own default (ball_rules_init()) stays no limit, as
 *  docs/spec.md says, and so does interactive play. */
#define AUTO_TURN_LIMIT 100

#endif
