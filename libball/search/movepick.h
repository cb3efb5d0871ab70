/* SPDX-License-Identifier: MIT */
/* Move ordering of the turn search (search.h), for negamax.c and the
 * root (root.c). Out of line, as when it was one file with both callers. */
#ifndef BALL_SEARCH_MOVEPICK_H
#define BALL_SEARCH_MOVEPICK_H

#include "search.h"
#include "compiler.h"

/* Ordering scores of the @p n decisions @p a of the node at @p ply. */
UNIT_LOCAL OUT_OF_LINE void order(struct worker *s, int ply, ball_action *a, int n, ball_action tt_move,
                                  int depth)
{
    pos *p = &s->g->p;
    int *sc = s->scores + (size_t)ply * BALL_MAX_ACTIONS, side = p->st.side;
    int use_prior = s->prior_fn != NULL && depth >= 1;
    if (use_prior)
        s->prior_fn(s->prior_ud, s->g, a, n, s->prior_buf);
    for (int i = 0; i < n; i++) {
        int k = act_kind(a[i]), v;
        if (a[i] == tt_move) {
            v = 1 << 30;
        } else if (use_prior) {
            float f = s->prior_buf[i];
            v = f > 1e6f ? 1000000000 : f < -1e6f ? -1000000000 : (int)(f * 1000.0f);
        } else {
            v = s->history[side][act_from(a[i]) & 127][act_to(a[i]) & 127];
            if (takes_ball(p, a[i]))
                v += 1 << 24;
            else if (act_flags(a[i]) & F_FUMBLE)
                v += 1 << 23;
            if (k == K_HANDOFF || (k == K_MOVE && act_from(a[i]) == p->st.ball))
                v += 1 << 16; /* the ball goes somewhere */
        }
        /* the seeded tie-break: a hash of the decision, in the low bits */
        sc[i] = (int)((unsigned)v & ~63u) | (int)(mix64(a[i] ^ s->cfg.seed) & 63);
    }
    /* insertion sort, best first */
    for (int i = 1; i < n; i++) {
        int v = sc[i], j = i;
        ball_action x = a[i];
        while (j > 0 && sc[j - 1] < v) {
            sc[j] = sc[j - 1];
            a[j] = a[j - 1];
            j--;
        }
        sc[j] = v;
        a[j] = x;
    }
}

#endif
