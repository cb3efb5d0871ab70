/* SPDX-License-Identifier: MIT */
/* Rulesets: the public ball_rules read into the game's own copy. */
#ifndef BALL_RULESET_H
#define BALL_RULESET_H

#include "ball.h"
#include "cards.h"

/* The game's ruleset: the caller's fields over the defaults, with card
 * mode as a copy of the caller's card set (rules.cards points into it). */
typedef struct ruleset {
    ball_rules rules;
    ball_cardset cards;
} ruleset;

/* Reads the caller's rules (NULL: the defaults) into *out, checking the
 * size and every value. Returns BALL_OK, or an error code with a message
 * in err (errlen bytes, may be NULL/0). */
int ruleset_read(ruleset *out, const ball_rules *src, char *err, size_t errlen);

/* Points out->rules.cards at out's own card set again (after a copy). */
void ruleset_rebind(ruleset *r);

/* Writes the game's rules into the caller's struct (ball_game_rules). */
int ruleset_write(const ruleset *r, ball_rules *out);

/* For the text form (ruleset_text.c): 1 when size is a published
 * sizeof(ball_rules) (docs/abi.md); the defaults, at this version's size. */
int rules_size_published(size_t size);
void rules_defaults(ball_rules *r);

/* R11.2: the drawn position after the last turn L shows turn L + 1, which
 * BPN must be able to write. */
#define RULES_MAX_TURN_LIMIT (BALL_MAX_TURN - 1)

#endif
