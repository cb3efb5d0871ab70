/* SPDX-License-Identifier: MIT */
/*
 * engine_searcher — the searcher behind `ball engine` (docs/protocol.md):
 * one adapter (engine_searcher.c) over a backend per library searcher,
 * so that the engine does not depend on which one it serves:
 * engine_searcher_search.c (over ball_search_*, the default) and
 * engine_searcher_mcts.c (over ball_mcts_*), each only what differs.
 *
 * The engine exposes every option the backend lists, without knowing
 * them: engine_searcher_options() describes them,
 * engine_searcher_set_option() reads a value.
 */
#ifndef TOOLS_ENGINE_SEARCHER_H
#define TOOLS_ENGINE_SEARCHER_H

#include "ball.h"

#include <stddef.h>
#include <stdint.h>

/** The types of option of the protocol (`option ... type T`). */
enum engine_option_type {
    ENGINE_OPT_SPIN = 0,   /**< integer in [min, max] */
    ENGINE_OPT_REAL = 1,   /**< decimal number in [min, max] */
    ENGINE_OPT_CHECK = 2,  /**< true / false */
    ENGINE_OPT_COMBO = 3,  /**< one word of vars */
    ENGINE_OPT_STRING = 4  /**< any text */
};

/** One option, as the `option` line of `bep` shows it. */
typedef struct engine_option {
    const char *name;
    int type;             /**< an engine_option_type */
    const char *def;      /**< default value, as text */
    const char *min, *max; /**< spin/real bounds as text, else NULL */
    const char *vars;     /**< combo: the words, separated by spaces */
} engine_option;

/** The limits of one search (a `go`); 0 means "not given". */
typedef struct engine_limits {
    int64_t nodes;
    int64_t playouts;
    int64_t movetime_ms;
    int64_t depth;
    int infinite;
    int multipv; /**< 1-64 */
} engine_limits;

#define ENGINE_MAX_MULTIPV 64
#define ENGINE_MAX_PV 64
/** The most options a backend lists. */
#define ENGINE_MAX_OPTIONS 16

/** One line of a multi-PV report. */
typedef struct engine_line {
    double value;       /**< for the coach to act, 0-1 */
    uint64_t visits;    /**< visits of pv[0], or 0 when not known */
    int n_pv;
    ball_action pv[ENGINE_MAX_PV];
} engine_line;

/** What a search has found so far. */
typedef struct engine_info {
    int64_t depth;      /**< iterations done */
    uint64_t nodes;     /**< nodes (playouts) so far */
    double elapsed_ms;
    int n_lines;        /**< 1 to multipv */
    engine_line lines[ENGINE_MAX_MULTIPV];
} engine_info;

/** Called after each iteration; a nonzero return stops the search. Called
 *  with @p info NULL as a poll only (an infinite search that has nothing
 *  left to search waits for the stop this way). */
typedef int (*engine_info_fn)(void *ud, const engine_info *info);

/** The answer of a search. */
typedef struct engine_result {
    ball_action best;
    int n_turn;                     /**< decisions after best in the same turn */
    ball_action turn[ENGINE_MAX_PV];
    engine_info info;               /**< the last report */
} engine_result;

typedef struct engine_searcher engine_searcher;

/**
 * One library searcher behind the adapter (engine_searcher.c), as the few
 * things that differ between searchers: its options, its state and its
 * run. The adapter does the rest for every searcher alike: the option
 * values (read and range-checked, spin and real), the stop flag, the
 * checks before a run (a finished game, multipv), and the wait for `stop`
 * after a `go infinite` has nothing left to search.
 */
typedef struct engine_backend {
    /** The word of --searcher ("search", "mcts"). */
    const char *word;
    /** The engine's name for `id name` (e.g. "libball search 1.1.0"). */
    const char *name;
    /** The options, in the order of the `bep` answer. */
    const engine_option *options;
    size_t n_options;
    /** The size of its own state, zeroed at creation. */
    size_t state_size;
    /** A string option @p k set to @p value (NULL: it has none): 0, or -1
     *  with a message in @p err, the option unchanged. */
    int (*set_string)(engine_searcher *s, void *state, int k, const char *value, char *err,
                      size_t errlen);
    /** Forgets what was learnt of the previous game (NULL: nothing to do). */
    void (*new_game)(void *state);
    /** Frees what the state holds (not the state itself). */
    void (*free_state)(void *state);
    /**
     * Searches @p game (ongoing; left as it was) within @p lim, at most
     * @p multipv lines, calling @p info (may be NULL) as it goes, until a
     * limit is reached, engine_searcher_stopped() or @p info returns
     * nonzero. With lim->infinite set only the last two end it (or
     * nothing left to search). Writes the answer to @p out; 0, or -1 with
     * a message in @p err.
     */
    int (*run)(engine_searcher *s, void *state, ball_game *game, const engine_limits *lim,
               int multipv, engine_info_fn info, void *ud, engine_result *out, char *err,
               size_t errlen);
} engine_backend;

/** The turn search (engine_searcher_search.c), the default. */
extern const engine_backend engine_backend_search;
/** The Monte-Carlo tree search (engine_searcher_mcts.c). */
extern const engine_backend engine_backend_mcts;

/* ---- the adapter, what the engine sees. A searcher is used by one thread
 * at a time, except for engine_searcher_stop(), which any thread may call
 * during a run. */

/** Creates the searcher of --searcher @p word (NULL: the turn search) with
 *  the default options; 0, or with a message in @p err -2 when @p word
 *  names no searcher, -1 out of memory. */
int engine_searcher_new(engine_searcher **out, const char *word, char *err, size_t errlen);
/** Frees a searcher (NULL is ignored). */
void engine_searcher_free(engine_searcher *s);
/** The `id name` of the searcher. */
const char *engine_searcher_name(const engine_searcher *s);
/** The options, in the order of the `bep` answer; returns their number. */
size_t engine_searcher_options(const engine_searcher *s, const engine_option **out);
/** Sets option @p name to @p value; 0, or -1 with a message in @p err
 *  ("unknown option", "'x' is out of range 0 to 100", ...), the option
 *  unchanged. */
int engine_searcher_set_option(engine_searcher *s, const char *name, const char *value,
                               char *err, size_t errlen);
/** Forgets what was learnt of the previous game (a `newgame`). */
void engine_searcher_new_game(engine_searcher *s);
/** Searches @p game (left as it was) within @p lim (engine_backend's run);
 *  with lim->infinite set, returns only after a stop. 0, or -1 with a
 *  message in @p err when the game is over or on failure. */
int engine_searcher_run(engine_searcher *s, ball_game *game, const engine_limits *lim,
                        engine_info_fn info, void *ud, engine_result *out, char *err,
                        size_t errlen);
/** Asks a running search to stop soon; any thread, async-safe. */
void engine_searcher_stop(engine_searcher *s);

/* ---- for the backends during a run */

/** The value of the spin option @p k (its index in the backend's table);
 *  for a combo option, the position of its word among the vars, from 0. */
uint64_t engine_searcher_spin(const engine_searcher *s, int k);
/** The value of the real option @p k. */
double engine_searcher_real(const engine_searcher *s, int k);
/** 1 once engine_searcher_stop() has been called during this run. */
int engine_searcher_stopped(const engine_searcher *s);
/** A monotonic clock in milliseconds. */
double engine_now_ms(void);

#endif
