/* SPDX-License-Identifier: MIT */
/* The learned evaluation of network format version 2 (docs/network-format.md,
 * "Architecture 2"): sparse features seen from each coach's side, a
 * first layer kept per side in int16 (the accumulators), then small
 * quantized layers. Everything is integer arithmetic, so every build
 * (AVX2 or the baseline) and every order of updates gives the same value.
 *
 * The feature set (nnue_feature_*() below, and ball_net_features() in
 * ball.h): seen from coach P, squares are mirrored across row 9 for DEF
 * (row r -> 18 - r), so that P always scores upwards, and a piece is "own"
 * or "the opponent's":
 *
 *   piece   ((owner * 3 + type - 1) * 7 + state) * 111 + square   0 .. 4661
 *   ball    4662 + square of the loose ball                       .. 4772
 *   zone    4773 + end zone depth - 1                             .. 4775
 *   turns   4776 + turns-left bucket (1, 2, 3, 4, 5-8, 9-16, more) .. 4782
 *
 * with state 0 active, 1 active with the ball, 2 knocked down, 3 upper
 * piece of a stack, 4 upper with the ball, 5 lower standing, 6 lower
 * knocked down. Restriction marks, PA, the phase and card mode are not
 * features: the turn search evaluates positions at the start of a turn.
 *
 * Feature set 2 is set 1 plus, for every piece within 4 columns and 3
 * rows of the ball, a feature of its kind and its offset from the ball
 * (relative.h): 4783 + kind * 63 + (dr + 3) * 9 + (dc + 4) .. 7428. */
#ifndef BALL_NNUE_H
#define BALL_NNUE_H

#include "ball.h"
#include "../err_text.h" /* relative: the tests include nnue.h without -Ilibball */

#include <stddef.h>
#include <stdint.h>

#define NNUE_FEATURES 4783 /* feature set 1 */
#define NNUE_F_BALL 4662
#define NNUE_F_ZONE 4773
#define NNUE_F_TURNS 4776
/* Features active at once, at most: 14 pieces, the ball, zone, turns. */
#define NNUE_MAX_ACTIVE 32
/* Feature set 2: set 1's, then 63 offsets from the ball for each of set
 * 1's 42 piece kinds (owner, type, state); at most one more feature a
 * piece feature, so at most twice set 1's active. */
#define NNUE_F_REL NNUE_FEATURES
#define NNUE_REL_OFFSETS 63
#define NNUE_FEATURES_2 (NNUE_F_REL + 42 * NNUE_REL_OFFSETS)
#define NNUE_MAX_ACTIVE_2 (2 * NNUE_MAX_ACTIVE)
/* The first layer's width a side (a multiple of 64) and the hidden layer's. */
#define NNUE_MAX_H 512
#define NNUE_MAX_H2 64
/* Quantization: the first layer's outputs and the hidden layer's are
 * 0..127 for 0..1; hidden weights are int8 in 1/64; output weights int16
 * in 1/1024. A raw output r is the float r / (127 * 1024). */
#define NNUE_QA 127
#define NNUE_QB_SHIFT 6
#define NNUE_QO 1024

struct nnue;


/* The network of a format-2 file @p p of @p len bytes (its magic and
 * version already read): BALL_OK, or BALL_E_ARG with a message "net: ..."
 * naming the byte, or BALL_E_NOMEM. */
int nnue_load(struct nnue **out, const unsigned char *p, size_t len, char *err, size_t errlen);
void nnue_free(struct nnue *nn);

/* The accumulators of one searching thread: the first layer's sums of the
 * last position evaluated (one row a side, ATK's view then DEF's) and what
 * they were made of, so that the next evaluation updates only the squares
 * that changed. */
struct nnue_acc {
    const struct nnue *nn; /* NULL: none yet */
    uint8_t top[BALL_NUM_SQUARES], low[BALL_NUM_SQUARES];
    int ball, zone, turns; /* the ball's square (loose or held); the zone and turns features */
    int16_t acc[2][NNUE_MAX_H];
};

static inline void nnue_acc_reset(struct nnue_acc *a)
{
    a->nn = NULL;
}

/* The raw output of @p nn for @p game's coach to act, from scratch: r of
 * docs/network-format.md, in 64 bits (with bo and the b2 at the ends of
 * int32 it passes them). */
int64_t nnue_evaluate(const struct nnue *nn, const ball_game *game);
/* The same, through @p a: the squares that changed since @p a's last
 * position, or from scratch for a new net; the same value bit for bit. */
int64_t nnue_acc_evaluate(struct nnue_acc *a, const struct nnue *nn, const ball_game *game);

/* 1 when @p nn's output is a correction added to the turn search's
 * built-in evaluation (file field "base" 1), 0 when it is the whole
 * evaluation. */
int nnue_residual(const struct nnue *nn);

/* For tests: @p on 0 makes @p nn use the baseline loops, 1 the AVX2 ones
 * where the CPU has them (the loader's choice); returns 1 when AVX2 is in
 * use. The values are the same either way. */
int nnue_set_simd(struct nnue *nn, int on);

/* A raw output as a value in (-1, 1): o / (1 + |o|), o = r / (127 * 1024). */
double nnue_squash(int64_t raw);
/* A raw output on the turn search's scale (o * 1500), rounded toward 0. */
int nnue_search_value(int64_t raw);

/* The active features of feature set 1 of @p game seen from @p persp (0
 * ATK, 1 DEF), in increasing square order then ball, zone, turns; their
 * number. @p out has room for NNUE_MAX_ACTIVE. (Set 2 adds those of
 * nnue_rel_features().) */
int nnue_features(const ball_game *game, int persp, uint16_t *out);
/* Feature set 2's relative features of @p game seen from @p persp, into
 * @p out (room for NNUE_MAX_ACTIVE); their number, in square order (a
 * stack's upper piece first). relative.c. */
int nnue_rel_features(const ball_game *game, int persp, uint16_t *out);

#endif
