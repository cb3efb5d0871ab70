/* SPDX-License-Identifier: MIT */
/* The game handle behind the public API: a position, its ruleset, the undo
 * history and the last error message. Only the API layer sees it. */
#ifndef BALL_GAME_H
#define BALL_GAME_H

#include "ball.h"
#include "play.h"
#include "ruleset.h"

struct ball_game {
    pos p;
    ruleset rules;
    undo_rec *hist; /* one record per decision since creation / last BPN set */
    ball_action *acts; /* the decision of each record, stored by apply (history.c) */
    size_t nhist;
    size_t cap;
    char tags[BALL_TAG_COUNT][BALL_TAG_TEXT_MAX]; /* record tags (record.c), "" unset */
    ball_allocator alloc;
    char err[256];
};

/* Records a message for ball_errmsg() and returns code. */
int game_error(ball_game *g, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Clears the message and returns BALL_OK. */
int game_ok(ball_game *g);

#endif
