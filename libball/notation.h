/* SPDX-License-Identifier: MIT */
/* Text notation of actions (N2; notation.c). */
#ifndef BALL_NOTATION_H
#define BALL_NOTATION_H

#include <stddef.h>
#include <stdint.h>
#include "ball.h"

/* Longest action text with its NUL (the public bound). */
#define ACTION_TEXT_MAX BALL_ACTION_TEXT_MAX

/* Writes the N2 text of a well-formed action into buf[ACTION_TEXT_MAX];
 * returns its length. */
int action_format(uint32_t a, char *buf);
/* Checks that text is well-formed N2 (syntax only). Returns 0, or -1 with
 * a message in err. */
int action_syntax(const char *text, char *err, size_t errlen);

#endif
