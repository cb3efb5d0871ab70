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

/* The refusals that every call taking an action of @p g shares: a NULL
 * game, a finished one (with the message @p over) and a code that is no
 * action (action.h); BALL_OK when none applies. Inline: ball_apply()
 * checks every decision with it. */
static inline int game_action_refused(ball_game *g, ball_action a, const char *over)
{
    if (!g)
        return BALL_E_ARG;
    if (g->p.st.result != ONGOING)
        return game_error(g, BALL_E_ILLEGAL, "%s", over);
    if (!act_well_formed(a))
        return game_error(g, BALL_E_ILLEGAL, "0x%08x is not an action", (unsigned)a);
    return BALL_OK;
}

#endif
