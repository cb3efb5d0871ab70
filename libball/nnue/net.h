/* SPDX-License-Identifier: MIT */
/* The learned evaluation's incremental form, for the turn search
 * (search.c): one accumulator per searching thread keeps the first
 * layer's sums of the last position it evaluated and its observation
 * bits, and the next evaluation adds and subtracts only the columns of the
 * bits that changed. The first layer is summed in fixed point (net.c), so
 * the incremental sums equal the full ones exactly: net_acc_evaluate()
 * gives the bits of ball_net_evaluate(), whatever the positions
 * evaluated before. */
#ifndef BALL_NET_H
#define BALL_NET_H

#define BALL_EXPERIMENTAL
#include "ball.h"

#include <stdint.h>

#include "nnue.h"

/* The largest hidden layer (ball.h, ball_net_load()). */
#define NET_MAX_HIDDEN 512
/* The largest observation: ball_observation_size() with every flag. */
#define NET_MAX_INPUT 20111
#define NET_MAX_WORDS ((NET_MAX_INPUT + 63) / 64)

struct net_acc {
    const ball_net *net;          /* the net of acc and bits; NULL: none yet */
    uint64_t bits[NET_MAX_WORDS]; /* the observation bits, word w bit k = input 64 w + k */
    int64_t acc[NET_MAX_HIDDEN];  /* the first layer's sums before the clip */
    struct nnue_acc nn;           /* a format-2 net's accumulators (nnue.h) */
};

/* Forgets the last position (the next evaluation sums from the bias). */
static inline void net_acc_reset(struct net_acc *a)
{
    a->net = NULL;
    nnue_acc_reset(&a->nn);
}

/* ball_net_evaluate() of @p net on @p game through @p a: the same value
 * and return code; @p a then holds @p game's sums. No argument may be
 * NULL (the search's leaves call it). */
int net_acc_evaluate(struct net_acc *a, const ball_net *net, const ball_game *game, double *value);

/* The format-2 network of @p net (nnue.h), or NULL for a format-1 one,
 * which net_acc_evaluate() serves. */
const struct nnue *net_nnue(const ball_net *net);

#endif
