/* SPDX-License-Identifier: MIT */
/* Batched stepping of the learning interface (ball.h, ::ball_batch;
 * docs/learning.md): B games under one ruleset, one decision each per
 * call, finished games reset to the start, outputs written into the
 * caller's buffers. Everything is allocated in ball_batch_new(); a step
 * works on the positions directly (no undo history, no allocation). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpn.h"
#include "err_text.h"
#include "game.h"
#include "learn.h"
#include "movegen.h"
#include "movegen_draw.h"
#include "play.h"

#define OBS_FLAGS (BALL_OBS_GRID | BALL_OBS_SCALAR_PLANES)

struct ball_batch {
    pos *games;         /* n positions */
    uint64_t *rng;      /* n splitmix64 states */
    uint32_t *pending;  /* n actions decoded by a step's check pass */
    ball_game *proto;   /* the ruleset (its position is scratch) */
    pos start;          /* where games start at each reset */
    pos standard;       /* the standard start under the ruleset */
    int n;
    int obs_flags;
    int obs_size;       /* values of one observation */
    void *out[BALL_OUT_COUNT];
    char err[256];
};

static int batch_error(ball_batch *b, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int batch_error(ball_batch *b, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    return code;
}

static int batch_ok(ball_batch *b)
{
    b->err[0] = '\0';
    return BALL_OK;
}

/* Bytes of output `o` for one game. */
static size_t output_size(const ball_batch *b, int o)
{
    switch (o) {
    case BALL_OUT_OBS: return (size_t)b->obs_size * sizeof(float);
    case BALL_OUT_OBS_BITS: return (size_t)(b->obs_size + 7) / 8;
    case BALL_OUT_MASK: return BALL_ACTION_SPACE;
    case BALL_OUT_MASK_BITS: return BALL_ACTION_MASK_BYTES;
    case BALL_OUT_REWARDS: return 2 * sizeof(float);
    case BALL_OUT_DONE: return 1;
    case BALL_OUT_ACTIONS: return sizeof(int32_t);
    default: return 1; /* BALL_OUT_SIDE */
    }
}

static const char *const OUTPUT_NAME[BALL_OUT_COUNT] = {
    "BALL_OUT_OBS", "BALL_OUT_OBS_BITS", "BALL_OUT_MASK", "BALL_OUT_MASK_BITS",
    "BALL_OUT_REWARDS", "BALL_OUT_DONE", "BALL_OUT_ACTIONS", "BALL_OUT_SIDE",
};

int ball_batch_new(ball_batch **out, int n_games, const ball_rules *rules, int obs_flags,
                   char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!out)
        return err_text(err, errlen, BALL_E_ARG, "NULL output pointer");
    *out = NULL;
    if (n_games < 1 || n_games > BALL_BATCH_MAX)
        return err_text(err, errlen, BALL_E_RANGE, "batch size %d out of range 1-%d", n_games, BALL_BATCH_MAX);
    if (obs_flags & ~OBS_FLAGS)
        return err_text(err, errlen, BALL_E_ARG, "unknown observation flags 0x%x", (unsigned)obs_flags);
    ball_game *proto;
    int rc = ball_game_new(&proto, rules, err, errlen);
    if (rc != BALL_OK)
        return rc;
    size_t n = (size_t)n_games;
    ball_batch *b = calloc(1, sizeof *b);
    if (b) {
        b->games = malloc(n * sizeof *b->games);
        b->rng = malloc(n * sizeof *b->rng);
        b->pending = malloc(n * sizeof *b->pending);
    }
    if (!b || !b->games || !b->rng || !b->pending) {
        if (b) {
            free(b->games);
            free(b->rng);
            free(b->pending);
            free(b);
        }
        ball_game_free(proto);
        return err_text(err, errlen, BALL_E_NOMEM, "out of memory for a batch of %d games", n_games);
    }
    b->proto = proto;
    b->standard = b->start = proto->p;
    b->n = n_games;
    b->obs_flags = obs_flags;
    b->obs_size = learn_obs_size(obs_flags);
    ball_batch_reset(b, 0); /* no output is bound yet: only the games and seeds */
    *out = b;
    return BALL_OK;
}

void ball_batch_free(ball_batch *b)
{
    if (!b)
        return;
    ball_game_free(b->proto);
    free(b->games);
    free(b->rng);
    free(b->pending);
    free(b);
}

int ball_batch_size(const ball_batch *b) { return b ? b->n : BALL_E_ARG; }

const char *ball_batch_errmsg(const ball_batch *b) { return b ? b->err : ""; }

int ball_batch_set_output(ball_batch *b, int output, void *buf, size_t bytes)
{
    if (!b)
        return BALL_E_ARG;
    if (output < 0 || output >= BALL_OUT_COUNT)
        return batch_error(b, BALL_E_ARG, "unknown batch output %d (0-%d)", output, BALL_OUT_COUNT - 1);
    if (!buf) {
        b->out[output] = NULL;
        return batch_ok(b);
    }
    size_t need = output_size(b, output) * (size_t)b->n;
    if (bytes < need)
        return batch_error(b, BALL_E_BUFFER, "%s needs %zu bytes for %d games, buffer has %zu",
                           OUTPUT_NAME[output], need, b->n, bytes);
    int wide = output == BALL_OUT_OBS || output == BALL_OUT_REWARDS || output == BALL_OUT_ACTIONS;
    if (wide && (uintptr_t)buf % 4)
        return batch_error(b, BALL_E_ARG, "%s buffer %p is not aligned to 4 bytes",
                           OUTPUT_NAME[output], buf);
    b->out[output] = buf;
    return batch_ok(b);
}

/* Writes the bound outputs of game i: its current position, and what the
 * step did (the index played, -1 after a reset; how it ended). */
static void write_outputs(const ball_batch *b, int i, int32_t played, int ended,
                          const float returns[2])
{
    const pos *p = &b->games[i];
    size_t k = (size_t)i;
    if (b->out[BALL_OUT_OBS])
        learn_obs_write(p, b->obs_flags, (float *)b->out[BALL_OUT_OBS] + k * (size_t)b->obs_size, 0);
    if (b->out[BALL_OUT_OBS_BITS])
        learn_obs_write(p, b->obs_flags,
                        (uint8_t *)b->out[BALL_OUT_OBS_BITS] + k * output_size(b, BALL_OUT_OBS_BITS), 1);
    if (b->out[BALL_OUT_MASK])
        learn_mask(p, (uint8_t *)b->out[BALL_OUT_MASK] + k * BALL_ACTION_SPACE, 0);
    if (b->out[BALL_OUT_MASK_BITS])
        learn_mask(p, (uint8_t *)b->out[BALL_OUT_MASK_BITS] + k * BALL_ACTION_MASK_BYTES, 1);
    if (b->out[BALL_OUT_REWARDS]) {
        float *r = (float *)b->out[BALL_OUT_REWARDS] + 2 * k;
        r[0] = returns[0];
        r[1] = returns[1];
    }
    if (b->out[BALL_OUT_DONE])
        ((uint8_t *)b->out[BALL_OUT_DONE])[k] = (uint8_t)ended;
    if (b->out[BALL_OUT_ACTIONS])
        ((int32_t *)b->out[BALL_OUT_ACTIONS])[k] = played;
    if (b->out[BALL_OUT_SIDE])
        ((uint8_t *)b->out[BALL_OUT_SIDE])[k] = p->st.side;
}

int ball_batch_set_start(ball_batch *b, const char *bpn)
{
    if (!b)
        return BALL_E_ARG;
    if (!bpn) {
        b->start = b->standard;
        return batch_ok(b);
    }
    int rc = ball_position_from_text(b->proto, bpn);
    if (rc != BALL_OK)
        return batch_error(b, rc, "start position: %s", ball_errmsg(b->proto));
    if (b->proto->p.st.result != ONGOING)
        return batch_error(b, BALL_E_ILLEGAL, "start position: the game is already over (%s)",
                           b->proto->p.st.result == DRAWN ? "drawn" : "won");
    if (count_actions(&b->proto->p) == 0)
        return batch_error(b, BALL_E_LIMIT, "start position: no decision can be played (each would hand "
                           "the turn over past %d)", BALL_MAX_TURN);
    b->start = b->proto->p;
    return batch_ok(b);
}

int ball_batch_reset(ball_batch *b, uint64_t seed)
{
    if (!b)
        return BALL_E_ARG;
    static const float none[2] = {0.0f, 0.0f};
    uint64_t seeder = seed;
    for (int i = 0; i < b->n; i++) {
        b->games[i] = b->start;
        b->rng[i] = learn_next(&seeder);
        write_outputs(b, i, -1, BALL_NOT_TERMINAL, none);
    }
    return batch_ok(b);
}

/* The check pass of a step with the caller's indices: every index legal
 * in its game, decoded into b->pending. */
static int check_indices(ball_batch *b, const int32_t *indices)
{
    for (int i = 0; i < b->n; i++) {
        int32_t index = indices[i];
        if (index < 0 || index >= BALL_ACTION_SPACE)
            return batch_error(b, BALL_E_RANGE, "game %d: action index %ld out of range 0-%d", i,
                               (long)index, BALL_ACTION_SPACE - 1);
        if (!learn_decode(&b->games[i], index, &b->pending[i])) {
            char what[96];
            learn_describe_index(index, b->games[i].st.side, what, sizeof what);
            return batch_error(b, BALL_E_ILLEGAL, "game %d: action index %ld (%s) is not legal "
                               "in its position", i, (long)index, what);
        }
    }
    return BALL_OK;
}

int ball_batch_step(ball_batch *b, const int32_t *indices, size_t n)
{
    if (!b)
        return BALL_E_ARG;
    if (indices) {
        if (n != (size_t)b->n)
            return batch_error(b, BALL_E_BUFFER, "%zu action indices for a batch of %d games", n, b->n);
        int rc = check_indices(b, indices);
        if (rc != BALL_OK)
            return rc;
    }
    else if (n != 0)
        return batch_error(b, BALL_E_ARG, "NULL action indices with n = %zu (pass n = 0 to draw "
                           "random decisions)", n);
    int want_index = b->out[BALL_OUT_ACTIONS] != NULL, ended = 0;
    for (int i = 0; i < b->n; i++) {
        pos *p = &b->games[i];
        uint32_t a;
        int32_t played = -1;
        if (indices) {
            a = b->pending[i];
            played = indices[i];
        }
        else {
            gen_random_action(p, learn_next(&b->rng[i]), &a); /* a game here never is over */
            if (want_index)
                played = learn_index_of(a, p->st.side);
        }
        undo_rec u;
        float returns[2] = {0.0f, 0.0f};
        int end = BALL_NOT_TERMINAL;
        pos_do(p, a, &u);
        if (p->st.result != ONGOING)
            end = learn_returns(p, returns);
        else if (p->st.turn == BALL_MAX_TURN && count_actions(p) == 0)
            end = BALL_TERMINAL_TRUNCATED; /* nothing left that the turn bound lets be played */
        if (end != BALL_NOT_TERMINAL) {
            *p = b->start;
            ended++;
        }
        write_outputs(b, i, played, end, returns);
    }
    batch_ok(b);
    return ended;
}

static int game_index_check(const ball_batch *b, int i)
{
    return i >= 0 && i < b->n;
}

int ball_batch_position_to_text(const ball_batch *b, int i, char *buf, size_t len)
{
    if (!b || !buf)
        return BALL_E_ARG;
    if (!game_index_check(b, i))
        return BALL_E_RANGE;
    char text[BPN_MAX];
    int n = bpn_format(&b->games[i], text);
    if ((size_t)n >= len)
        return BALL_E_BUFFER;
    memcpy(buf, text, (size_t)n + 1);
    return n;
}

int ball_batch_game_clone(const ball_batch *b, int i, ball_game **out)
{
    if (!out)
        return BALL_E_ARG;
    *out = NULL;
    if (!b)
        return BALL_E_ARG;
    if (!game_index_check(b, i))
        return BALL_E_RANGE;
    ball_game *g;
    int rc = ball_game_clone(&g, b->proto);
    if (rc != BALL_OK)
        return rc;
    g->p = b->games[i];
    g->nhist = 0;
    *out = g;
    return BALL_OK;
}
