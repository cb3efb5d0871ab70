/* The game handle behind the public API: a position, its ruleset, the undo
 * history and the last error message. Only the API layer sees it. */
#ifndef BALL_GAME_H
#define BALL_GAME_H

#include "ball.h"
#include "rules.h"

struct ball_game {
    pos p;
    ball_rules rules;  /* rules.cards points to `cards` in card mode */
    ball_cards cards;
    undo_rec *hist;  /* one record per decision since creation / set_bpn */
    size_t nhist;
    size_t cap;
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
