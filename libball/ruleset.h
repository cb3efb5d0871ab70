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

#endif
