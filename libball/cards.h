/* Card-mode rulesets (R10) between the public ball_cards and the engine's
 * compact card_rules. */
#ifndef BALL_CARDS_H
#define BALL_CARDS_H

#include <stddef.h>
#include "ball.h"
#include "position.h"

/* Checks src (NULL: card mode off) and fills out. Returns BALL_OK, or an
 * error code with a message in err. */
int cards_compile(const ball_cards *src, card_rules *out, char *err, size_t errlen);

#endif
