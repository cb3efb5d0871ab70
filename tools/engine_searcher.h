/* SPDX-License-Identifier: MIT */
/*
 * engine_searcher — the searcher behind `ball engine` (docs/protocol.md),
 * seen through a small interface so that the engine does not depend on
 * which library searcher it serves. One file per searcher provides it:
 * engine_searcher_search.c (over ball_search_*, the default) and
 * engine_searcher_mcts.c (over ball_mcts_*).
 *
 * The engine exposes every option the searcher lists here, without knowing
 * them: options() describes them, set_option() parses a value.
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
 * One searcher the engine can serve, as a table of its functions; `ball
 * engine --searcher WORD` picks one of engine_searchers[] (the first, the
 * library's turn search, by default). A searcher is used by one thread at
 * a time, except for stop(), which any thread may call during a run.
 */
typedef struct engine_searcher_kind {
    /** The word of --searcher ("search", "mcts"). */
    const char *word;
    /** The engine's name for `id name` (e.g. "libball search 1.1.0"). */
    const char *(*name)(void);
    /** The options, in the order of the `bep` answer; returns their number. */
    size_t (*options)(const engine_option **out);
    /** Creates a searcher with the default options; 0 or -1 (message in err). */
    int (*create)(engine_searcher **out, char *err, size_t errlen);
    /** Frees a searcher (NULL is ignored). */
    void (*destroy)(engine_searcher *s);
    /** Sets option @p name to @p value; 0, or -1 with a message in @p err
     *  ("unknown option", "'x' is out of range 0 to 100", ...), the option
     *  unchanged. */
    int (*set_option)(engine_searcher *s, const char *name, const char *value, char *err,
                      size_t errlen);
    /** Forgets what was learnt of the previous game (a `newgame`). */
    void (*new_game)(engine_searcher *s);
    /**
     * Searches @p game (left as it was) within @p lim, calling @p info (may
     * be NULL) as it goes, until a limit is reached, stop() is called or
     * @p info returns nonzero. With lim->infinite set only the last two end
     * it. Writes the answer to @p out and returns 0; -1 with a message in
     * @p err when there is nothing to search (the game is over) or on
     * failure.
     */
    int (*run)(engine_searcher *s, ball_game *game, const engine_limits *lim,
               engine_info_fn info, void *ud, engine_result *out, char *err, size_t errlen);
    /** Asks a running search to stop soon; any thread, async-safe. */
    void (*stop)(engine_searcher *s);
} engine_searcher_kind;

/** The turn search (engine_searcher_search.c), the default. */
extern const engine_searcher_kind engine_searcher_search;
/** The Monte-Carlo tree search (engine_searcher_mcts.c). */
extern const engine_searcher_kind engine_searcher_mcts;

#endif
