/* SPDX-License-Identifier: MIT */
/* The text sink of record_sink.h. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "record_sink.h"

void sink_put(sink *s, const char *text, size_t n)
{
    if (s->buf && s->n < s->len) {
        size_t room = s->len - s->n;
        memcpy(s->buf + s->n, text, n < room ? n : room);
    }
    s->n += n;
}

void sink_puts(sink *s, const char *text) { sink_put(s, text, strlen(text)); }

void sink_printf(sink *s, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sink_put(s, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

int sink_open(ball_game *g, sink *s, char *buf, size_t len)
{
    s->buf = buf;
    s->len = len;
    s->n = 0;
    if (!buf && len > 0)
        return game_error(g, BALL_E_ARG, "NULL buffer with size %zu", len);
    return BALL_OK;
}

int sink_close(ball_game *g, sink *s, const char *what)
{
    if (s->n > (size_t)INT_MAX - 1)
        return game_error(g, BALL_E_RANGE, "%s of %zu bytes is too long", what, s->n);
    if (!s->buf) {
        game_ok(g);
        return (int)s->n;
    }
    if (s->n >= s->len) {
        s->buf[s->len - 1] = '\0';
        return game_error(g, BALL_E_BUFFER, "%s needs %zu bytes, buffer has %zu", what, s->n + 1, s->len);
    }
    s->buf[s->n] = '\0';
    game_ok(g);
    return (int)s->n;
}
