/* SPDX-License-Identifier: MIT */
/* The text sink (record_sink.c), shared by the writers of whole-game
 * texts (record.c, svg.c, text_board.c): a sink that writes into the
 * caller's buffer while there is room and counts every byte, so that one
 * pass both writes and sizes. */
#ifndef BALL_RECORD_SINK_H
#define BALL_RECORD_SINK_H

#include <stddef.h>

#include "ball.h"

typedef struct sink {
    char *buf;  /* the caller's buffer, or NULL to only count */
    size_t len; /* its size */
    size_t n;   /* bytes produced so far (may pass len) */
} sink;

/* Appends n bytes of text. */
void sink_put(sink *s, const char *text, size_t n);
/* Appends a NUL-terminated text. */
void sink_puts(sink *s, const char *text);
/* Appends printf-formatted text. */
void sink_printf(sink *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Checks the caller's buffer (NULL with len 0: a size query; NULL with
 * len > 0: BALL_E_ARG) before writing. */
int sink_open(ball_game *g, sink *s, char *buf, size_t len);
/* Ends the text with its NUL: its length, or BALL_E_BUFFER (message on g
 * naming `what`) when it did not fit. */
int sink_close(ball_game *g, sink *s, const char *what);

#endif
