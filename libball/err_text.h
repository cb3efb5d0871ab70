/* SPDX-License-Identifier: MIT */
/* The one way the library builds an error message (err_text.c): into a
 * caller's buffer (the `err`, `errlen` of the calls that make or read
 * something) or into a handle's own (game_error(), a batch's), printf
 * style, truncated to fit, never more; nothing when there is no buffer.
 * Each returns the error code it is given, so that a check reads
 * `return err_text(err, errlen, BALL_E_ARG, "...", ...);`. */
#ifndef BALL_ERR_TEXT_H
#define BALL_ERR_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define ERR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ERR_PRINTF(f, a)
#endif

/* fmt and its arguments into err[errlen]; returns code. */
int err_text(char *err, size_t errlen, int code, const char *fmt, ...) ERR_PRINTF(4, 5);

/* @p prefix (may be "") then fmt into err[errlen]; returns code. */
int err_vtext(char *err, size_t errlen, int code, const char *prefix, const char *fmt, va_list ap)
    ERR_PRINTF(5, 0);

#endif
