/* SPDX-License-Identifier: MIT */
/* Card rulesets (R10): the opaque ball_cardset of the public API. It holds
 * the engine's compact card_rules (what generation and play read) and the
 * card names (what people read). */
#ifndef BALL_CARDS_H
#define BALL_CARDS_H

#include "ball.h"
#include "position.h"

struct ball_cardset {
    card_rules rules; /* rules.on is always 1 here */
    char names[2][HAND_MAX][BALL_CARD_NAME_MAX];
};

/* An empty set: zero earning table, empty hands. */
void cardset_clear(ball_cardset *cards);

/* Checks a card's fields; 0 when good, else -1 with the reason in err. */
int cardset_card_check(const char *name, int cost, int effect, int amount, char *err, size_t errlen);

/* The earning-table entry named `name` (len bytes), or -1. */
int cardset_earn_entry(const char *name, size_t len);
/* The text name of earning entry e ("dodge"). */
const char *cardset_earn_name(int e);

#endif
