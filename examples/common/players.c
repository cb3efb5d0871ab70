/* SPDX-License-Identifier: MIT */
/* The built-in players of the examples; see players.h. */
#include "players.h"

#include "args.h"

#include <stdlib.h>
#include <string.h>

/* A fixed non-zero seed, so that runs without --seed repeat. */
#define DEFAULT_SEED 2463534242u

/* Reads the MCTS settings "key=value,key=value" of @p spec into @p cfg. */
static int parse_mcts_settings(const char *spec, ball_mcts_config *cfg)
{
    char key[16];
    double v;
    int r;
    while ((r = settings_next(&spec, key, sizeof key, &v)) == 1) {
        if (strcmp(key, "c") == 0 && v <= 100)
            cfg->exploration = v;
        else if (!settings_whole(v, 0, 1e9))
            return -1;
        else if (strcmp(key, "playouts") == 0)
            cfg->playouts = (int)v;
        else if (strcmp(key, "ms") == 0)
            cfg->time_ms = (int)v;
        else if (strcmp(key, "turns") == 0)
            cfg->playout_turns = (int)v;
        else
            return -1;
    }
    return r;
}

/* "eval=network" or "eval=hand" at the start of @p *spec: the choice
 * into @p cfg (ball_search_config::eval), *spec past it and its comma;
 * 1, 0 when *spec does not start with "eval=", -1 for another word. */
static int eval_setting(const char **spec, ball_search_config *cfg)
{
    static const char *const WORDS[] = {"network", "hand"}; /* enum ball_search_evaluation */
    const char *w = *spec + 5;
    if (strncmp(*spec, "eval=", 5) != 0)
        return 0;
    for (int k = 0; k < 2; k++) {
        size_t n = strlen(WORDS[k]);
        if (strncmp(w, WORDS[k], n) == 0 && (w[n] == ',' || w[n] == '\0')) {
            cfg->eval = k == 0 ? BALL_EVAL_NETWORK : BALL_EVAL_HAND;
            *spec = w + n + (w[n] == ',');
            return 1;
        }
    }
    return -1;
}

/* Reads the turn-search settings "nodes=N,ms=T,depth=D,eval=W" of @p spec. */
static int parse_search_settings(const char *spec, ball_search_config *cfg)
{
    char key[16];
    double v;
    int r, e;
    for (;;) {
        if ((e = eval_setting(&spec, cfg)) != 0) {
            if (e < 0)
                return -1;
            continue;
        }
        if ((r = settings_next(&spec, key, sizeof key, &v)) != 1)
            return r;
        if (strcmp(key, "nodes") == 0 && settings_whole(v, 0, 1e12))
            cfg->nodes = (uint64_t)v;
        else if (strcmp(key, "ms") == 0 && settings_whole(v, 0, 86400000))
            cfg->time_ms = (int)v;
        else if (strcmp(key, "depth") == 0 && settings_whole(v, 0, 64))
            cfg->depth = (int)v;
        else
            return -1;
    }
}

int player_parse(const char *name, int allow_human, uint32_t seed, player *out)
{
    static const struct {
        const char *name;
        enum player_kind kind;
    } kinds[] = {
        {"human", PLAYER_HUMAN}, {"random", PLAYER_RANDOM}, {"greedy", PLAYER_GREEDY},
    };
    memset(out, 0, sizeof *out);
    switch (sparring_new(&out->sparring, name)) { /* alphabeta, turn */
    case 0:
        out->kind = PLAYER_SPARRING;
        out->rng = seed ? seed : DEFAULT_SEED;
        return 0;
    case 1: break;
    default: return -1;
    }
    if (strncmp(name, "mcts", 4) == 0 && (name[4] == '\0' || name[4] == ':')) {
        ball_mcts_config_init(&out->mcts_config, sizeof out->mcts_config);
        if (name[4] == ':') {
            /* "ms=T" alone means a time budget only */
            if (strstr(name, "ms=") != NULL && strstr(name, "playouts=") == NULL)
                out->mcts_config.playouts = 0;
            if (parse_mcts_settings(name + 5, &out->mcts_config) != 0)
                return -1;
        }
        out->kind = PLAYER_MCTS;
        out->rng = seed ? seed : DEFAULT_SEED;
        out->mcts_config.seed = out->rng;
        if (ball_mcts_new(&out->mcts, &out->mcts_config, NULL, 0) != BALL_OK)
            return -1;
        return 0;
    }
    if (strncmp(name, "search", 6) == 0 && (name[6] == '\0' || name[6] == ':')) {
        ball_search_config_init(&out->search_config, sizeof out->search_config);
        if (name[6] == ':') {
            /* a budget named alone is the only budget */
            if (strstr(name, "nodes=") == NULL && (strstr(name, "ms=") || strstr(name, "depth=")))
                out->search_config.nodes = 0;
            if (parse_search_settings(name + 7, &out->search_config) != 0)
                return -1;
        }
        out->kind = PLAYER_SEARCH;
        out->rng = seed ? seed : DEFAULT_SEED;
        out->search_config.seed = out->rng;
        if (ball_search_new(&out->search, &out->search_config, NULL, 0) != BALL_OK)
            return -1;
        return 0;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(name, kinds[i].name) != 0)
            continue;
        if (kinds[i].kind == PLAYER_HUMAN && !allow_human)
            return -1;
        out->kind = kinds[i].kind;
        out->rng = seed ? seed : DEFAULT_SEED;
        return 0;
    }
    return -1;
}

void player_free(player *p)
{
    ball_mcts_free(p->mcts);
    p->mcts = NULL;
    ball_search_free(p->search);
    p->search = NULL;
    sparring_free(p->sparring);
    p->sparring = NULL;
}

void player_seed(player *p, uint32_t seed)
{
    p->rng = seed ? seed : 1u;
    if (p->mcts != NULL)
        ball_mcts_seed(p->mcts, p->rng);
    if (p->search != NULL) { /* a new searcher: the seed and an empty table */
        ball_search *s = NULL;
        p->search_config.seed = p->rng;
        if (ball_search_new(&s, &p->search_config, NULL, 0) == BALL_OK) {
            ball_search_free(p->search);
            p->search = s;
        }
    }
}

const char *player_name(const player *p)
{
    switch (p->kind) {
    case PLAYER_HUMAN: return "human";
    case PLAYER_RANDOM: return "random";
    case PLAYER_MCTS: return "mcts";
    case PLAYER_SEARCH: return "search";
    case PLAYER_SPARRING: return sparring_kind_name(p->sparring);
    default: return "greedy";
    }
}

uint32_t player_xorshift32(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* Row of a square as seen by @p team: 17 is always the row it scores in
 * (R1.4: ATK scores in row 17, DEF in row 1). */
static int forward_row(int sq, int team)
{
    int row = ball_square_row(sq);
    return team == BALL_ATK ? row : BALL_NUM_ROWS + 1 - row;
}

long player_evaluate(ball_game *g, int team)
{
    int result = ball_result(g);
    int won = team == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON;
    int lost = team == BALL_ATK ? BALL_DEF_WON : BALL_ATK_WON;
    int ball_sq = ball_square_of_ball(g);
    int carrier = ball_piece(g, ball_sq, BALL_UPPER);
    int ball_row = forward_row(ball_sq, team);
    int own_flag = team == BALL_ATK ? 0 : BALL_PIECE_DEF;
    long score = 0;

    if (result == won)
        return 1000000;
    if (result == lost)
        return -1000000;

    if (carrier > 0 && (carrier & BALL_PIECE_DEF) == own_flag)
        score += 1000 + 100 * ball_row;                      /* we hold it */
    else if (carrier > 0)
        score -= 1000 + 100 * (BALL_NUM_ROWS + 1 - ball_row); /* they do */
    else
        score += 50 * ball_row;                              /* loose ball */

    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int p = ball_piece(g, sq, BALL_UPPER);
        if (p <= 0)
            continue;
        if ((p & BALL_PIECE_DEF) != own_flag) {
            if (p & BALL_PIECE_DOWN)
                score += 20;                                 /* opponent down */
        } else {
            if (p & BALL_PIECE_DOWN)
                score -= 20;
            score += forward_row(sq, team);                  /* move up */
        }
    }
    return score;
}

/* One decision of lookahead: apply, score, undo. */
static int greedy_choice(ball_game *g, const ball_action *acts, int n, ball_action *out)
{
    int team = ball_side(g);
    long best_score = 0;
    *out = acts[0];
    for (int i = 0; i < n; i++) {
        int rc = ball_apply(g, acts[i]);
        if (rc != BALL_OK)
            return rc;
        long score = player_evaluate(g, team);
        rc = ball_undo(g);
        if (rc != BALL_OK)
            return rc;
        if (i == 0 || score > best_score) {
            *out = acts[i];
            best_score = score;
        }
    }
    return BALL_OK;
}

int player_choose(player *p, ball_game *g, const ball_action *acts, int n, ball_action *out)
{
    if (n <= 0 || out == NULL)
        return BALL_E_ARG;
    switch (p->kind) {
    case PLAYER_RANDOM: { /* uniform: the library draws from 64 random bits */
        uint64_t r = (uint64_t)player_xorshift32(&p->rng) << 32 | player_xorshift32(&p->rng);
        return ball_random_action(g, r, out);
    }
    case PLAYER_GREEDY:
        return greedy_choice(g, acts, n, out);
    case PLAYER_MCTS:
        return ball_mcts_choose(p->mcts, g, out, NULL);
    case PLAYER_SEARCH: {
        ball_search_result r;
        int rc;
        ball_search_result_init(&r, sizeof r);
        rc = ball_search_run(p->search, g, &r);
        if (rc == BALL_OK)
            *out = r.best;
        return rc;
    }
    case PLAYER_SPARRING:
        return sparring_choose(p->sparring, g, acts, n, out);
    default:
        return BALL_E_ARG;
    }
}
