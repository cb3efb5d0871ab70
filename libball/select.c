/* SPDX-License-Identifier: MIT */
/* Step-by-step selection for frontends (R12): the legal actions filtered
 * by the choices made so far. Nothing here changes the game. */
#include <string.h>

#include "action.h"
#include "game.h"
#include "movegen.h"

static int verb_of(uint32_t a)
{
    switch (act_kind(a)) {
    case K_HANDOFF: return BALL_VERB_HANDOFF;
    case K_SHORT_PASS: return BALL_VERB_SHORT_PASS;
    case K_LONG_PASS: return BALL_VERB_LONG_PASS;
    case K_CARD: return BALL_VERB_CARD;
    default: return BALL_VERB_MOVE;
    }
}

/* The keeper's square as chosen in step 5 (-1 when there is no keeper). */
static int keeper_square(uint32_t a)
{
    switch (act_keeper(a)) {
    case KEEP_UPPER: return act_to(a);
    case KEEP_LOWER: return act_opt(a);
    default: return -1;
    }
}

/* Component i of an action as a selection step sees it. */
static int component(uint32_t a, size_t i)
{
    switch (i) {
    case 0: return act_from(a);
    case 1: return verb_of(a);
    case 2: return act_has_value(a) ? act_value(a) : act_to(a);
    case 3: return act_opt(a);
    default: return keeper_square(a);
    }
}

static int matches(uint32_t a, const int *chosen, size_t n)
{
    if (act_from(a) < 0)
        return 0; /* `end`, `pe+k` and untargeted cards have no piece */
    for (size_t i = 0; i < n; i++)
        if (component(a, i) != chosen[i])
            return 0;
    return 1;
}

int ball_select(ball_game *g, const int *chosen, size_t n_chosen, int *choices,
                size_t cap, ball_action *action)
{
    if (!g)
        return BALL_E_ARG;
    if (action)
        *action = BALL_ACTION_NONE;
    if ((n_chosen && !chosen) || n_chosen > 5 || (!choices && cap))
        return game_error(g, BALL_E_ARG, "bad selection arguments");
    uint32_t acts[MAX_ACTIONS];
    uint8_t seen[NSQ + 8] = {0}; /* choice values are squares or verbs */
    int n = gen_actions(&g->p, acts), count = 0, found = 0;
    for (int i = 0; i < n; i++) {
        if (!matches(acts[i], chosen, n_chosen))
            continue;
        found = 1;
        int next = n_chosen < 5 ? component(acts[i], n_chosen) : -1;
        if (next < 0) { /* nothing left to choose: the action is complete */
            if (action)
                *action = acts[i];
            continue;
        }
        seen[next] = 1;
    }
    if (!found && n_chosen > 0) /* no choice at all is a fine answer for step 1 */
        return game_error(g, BALL_E_ILLEGAL, "no legal action starts with these %zu choices", n_chosen);
    for (int v = 0; v < NSQ + 8; v++)
        if (seen[v]) {
            if ((size_t)count >= cap)
                return game_error(g, BALL_E_BUFFER, "choice buffer of %zu is too small", cap);
            choices[count++] = v;
        }
    game_ok(g);
    return count;
}
