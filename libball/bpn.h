/* SPDX-License-Identifier: MIT */
/* Text notation of positions (N1, BPN; bpn.c). */
#ifndef BALL_BPN_H
#define BALL_BPN_H

#include <stddef.h>
#include <stdint.h>
#include "position.h"

/* Longest BPN text with its NUL (the public bound). */
#define BPN_MAX BALL_BPN_MAX

/* Parses strict N1 into *out (zone depth and turn limit from the ruleset).
 * Returns 0, or -1 with a message "what and where" in err. */
int bpn_parse(const char *text, pos *out, int zone_depth, uint32_t turn_limit,
              const card_rules *cards, char *err, size_t errlen);
/* Writes the canonical N1 text of p into buf[BPN_MAX]; returns its length. */
int bpn_format(const pos *p, char *buf);

#endif
