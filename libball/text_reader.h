/* SPDX-License-Identifier: MIT */
/* What the text readers share (text_reader.c): BPN (bpn.c), action text
 * (notation.c), the rules text (ruleset_text.c) and records (record.c).
 * Decimal numbers, the line and column of a byte, and UTF-8 validation. Works on bytes
 * only: below the rules, beside the position. */
#ifndef BALL_TEXT_READER_H
#define BALL_TEXT_READER_H

#include <stddef.h>
#include <stdint.h>

/* A decimal number of len characters at s, without sign or leading zero,
 * at most 9 digits (so below 10^9). Returns 0, or -1 if malformed. */
int decimal_read(const char *s, size_t len, uint32_t *out);

/* The line (from 1) and column (from 1, in bytes) of byte `at` of text:
 * the newlines before it, counted. O(at): for a message, once, never per
 * line read (a reader that goes line by line carries its line number). */
void text_where(const char *text, size_t at, unsigned long *line, size_t *column);

/* UTF-8 (RFC 3629): the offset of the first byte of s[0..n) that does
 * not start a well-formed sequence (a stray continuation byte, C0, C1,
 * F5-FF, an overlong form, a surrogate U+D800-U+DFFF, a code point above
 * U+10FFFF or a sequence cut short), or n when all is well formed. */
size_t utf8_invalid(const char *s, size_t n);

#endif
