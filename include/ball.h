/* SPDX-License-Identifier: MIT */
/**
 * @file ball.h
 * @brief libball 1.x: the rules engine of the board game BALL.
 *
 * BALL is a deterministic two-player game (an abstraction of American
 * football): coaches ATK and DEF move seven pieces each on the playable
 * squares of a 13 x 17 board, dodge, block, hand off and pass a single ball,
 * and win by carrying it into the opponent's end zone. The rules are
 * specified in the repository's `docs/spec.md`; this header cites them by
 * id (R1 ... R12, N1 ... N3).
 *
 * Where to start reading:
 *  - *Game lifetime*: ball_game_new(), ball_position_from_text(),
 *    ball_game_free().
 *  - *Playing*: ball_legal_actions(), ball_apply(), ball_undo(). An action
 *    is a plain integer (::ball_action) that encodes a whole decision.
 *  - *Text*: every value that has a text form converts both ways with a
 *    `_to_text` / `_from_text` pair: ball_square_to_text(),
 *    ball_action_to_text(), ball_position_to_text() (BPN, N1),
 *    ball_rules_to_text().
 *
 * The header reads top to bottom, by audience: playing a game, its text
 * forms, whole-game records and pictures, search, learning, then the
 * advanced and experimental calls; each type is introduced before the
 * first function that uses it. Everything above the "Advanced API"
 * section is the stable, checked interface; the advanced section
 * (unchecked apply, access by index, memory hooks) trades checks for speed
 * or control and is as stable. The "Experimental API" section at the end
 * is seen only by programs that define `BALL_EXPERIMENTAL`, and is not
 * covered by the 1.x promise (docs/abi.md).
 *
 * Conventions, valid for every function below (docs/api-conventions.md
 * says more):
 *  - Functions that take a game take it first. Functions returning `int`
 *    return a non-negative value on success and a negative ::ball_error
 *    code on failure; #BALL_E_ARG means a NULL pointer (a NULL game
 *    included) or an argument outside its domain. No getter uses a
 *    negative value for anything but an error: "no square" is
 *    #BALL_NO_SQUARE.
 *  - On failure the game state is unchanged and ball_errmsg() describes
 *    what went wrong and where.
 *  - The library never allocates in ball_legal_actions(), ball_apply()
 *    (unless the undo history must grow, see ball_history_reserve()) or
 *    ball_undo(); it has no global mutable state, never prints and never
 *    exits.
 *  - Distinct handles may be used from distinct threads at the same time.
 *    One handle may be read by several threads at once through the
 *    functions that take a `const ball_game *`; any other call on a handle
 *    must not overlap with another call on the same handle.
 *
 * Compiler contract: the library itself needs C11 with `unsigned __int128`
 * (GCC or Clang); this header is plain C99/C++.
 */
#ifndef BALL_H
#define BALL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/** @name Version and export macro
 *  @{ */

/** Major version; the shared library's soname carries it (libball.so.1). */
#define BALL_VERSION_MAJOR 1
/** Minor version: grows with backward-compatible additions. */
#define BALL_VERSION_MINOR 1
/** Patch version: grows with fixes. */
#define BALL_VERSION_PATCH 0
/** The version as one number, major * 10000 + minor * 100 + patch. */
#define BALL_VERSION_NUMBER \
    (BALL_VERSION_MAJOR * 10000 + BALL_VERSION_MINOR * 100 + BALL_VERSION_PATCH)
/** The version as text, "major.minor.patch". */
#define BALL_VERSION_STRING "1.1.0"

/**
 * @def BALL_API
 * Marks every exported symbol. The library is built with hidden visibility
 * by default, so only declarations carrying this macro are part of the ABI.
 */
#ifndef BALL_API
#  if defined(BALL_BUILDING_LIBRARY) && defined(__GNUC__) && __GNUC__ >= 4
#    define BALL_API __attribute__((visibility("default")))
#  else
#    define BALL_API
#  endif
#endif

/**
 * Version of the library actually loaded at run time, in the format of
 * #BALL_VERSION_NUMBER. Compare it with the macro to detect a mismatch
 * between the header you compiled against and the shared library.
 */
BALL_API unsigned ball_version_number(void);

/** Version of the loaded library as a static string, e.g. "1.1.0". */
BALL_API const char *ball_version_string(void);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Errors
 *  @{ */

/** Result codes. Success is 0 (or a non-negative value); errors are < 0. */
enum ball_error {
    BALL_OK = 0,             /**< Success. */
    BALL_E_ARG = -1,         /**< A NULL pointer or an invalid argument. */
    BALL_E_NOMEM = -2,       /**< Memory allocation failed. */
    BALL_E_BPN = -3,         /**< Malformed or invalid position text (N1). */
    BALL_E_NOTATION = -4,    /**< Malformed action or square text (N2). */
    BALL_E_ILLEGAL = -5,     /**< The action is not legal in this position. */
    BALL_E_BUFFER = -6,      /**< The caller's buffer is too small. */
    BALL_E_RANGE = -7,       /**< A numeric value is out of its range. */
    BALL_E_NO_HISTORY = -8,  /**< ball_undo() with nothing to take back. */
    BALL_E_RULES = -9,       /**< Malformed ruleset text. */
    BALL_E_LIMIT = -10,      /**< A counter would pass its bound (the turn). */
    BALL_E_RECORD = -11      /**< Malformed game record (docs/records.md). */
};

/**
 * A static English description of an error code ("illegal action", ...).
 * Never returns NULL; unknown codes give "unknown error".
 */
BALL_API const char *ball_strerror(int code);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Board geometry (R1)
 *
 * The 111 playable squares (column + row even) are numbered 0 ... 110 row by
 * row from row 1, and from column A to M within a row: A1 = 0, C1 = 1, ...,
 * M1 = 6, B2 = 7, ..., L2 = 12, A3 = 13, ..., G9 = 55, ..., M17 = 110.
 * These functions need no game.
 *  @{ */

/** Number of playable squares. */
#define BALL_NUM_SQUARES 111
/** Number of columns (A-M). */
#define BALL_NUM_COLS 13
/** Number of rows (1-17). */
#define BALL_NUM_ROWS 17
/** "No square": what a square getter returns when there is none (the
 *  `end` action's squares, no restricted piece). Never a valid square and
 *  never negative, so it cannot be mistaken for an error code. */
#define BALL_NO_SQUARE 127
/** Size of a square name including its NUL ("M17"). */
#define BALL_SQUARE_TEXT_MAX 4

/**
 * Index of the square at column @p col (1 = A ... 13 = M) and row @p row
 * (1 ... 17). Returns #BALL_E_RANGE when the square is off the board or not
 * playable.
 */
BALL_API int ball_square_at(int col, int row);

/** Column (1 = A ... 13 = M) of square @p sq, or #BALL_E_RANGE. */
BALL_API int ball_square_col(int sq);

/** Row (1 ... 17) of square @p sq, or #BALL_E_RANGE. */
BALL_API int ball_square_row(int sq);

/** Distance between two squares (R1.3), or #BALL_E_RANGE. */
BALL_API int ball_square_distance(int a, int b);

/**
 * Writes the name of square @p sq ("G5") with its terminating NUL into
 * @p buf of @p len bytes (#BALL_SQUARE_TEXT_MAX always suffices). Returns
 * the name's length, #BALL_E_RANGE for a bad square, #BALL_E_ARG for NULL,
 * #BALL_E_BUFFER when @p len is too small.
 */
BALL_API int ball_square_to_text(int sq, char *buf, size_t len);

/**
 * Index of the square named @p text ("G5", "M17"; upper-case column letter,
 * row without leading zero, nothing after it). Returns #BALL_E_ARG for
 * NULL, #BALL_E_NOTATION for a text that is not a playable square.
 */
BALL_API int ball_square_from_text(const char *text);

/** @} */

/* ------------------------------------------------------------------ */
/** @name The game's vocabulary: teams, phases, results, pieces
 *  @{ */

/** The two teams (R2.1). */
enum ball_team {
    BALL_ATK = 0, /**< The attacking team; own end zone row 1, scores in row 17. */
    BALL_DEF = 1  /**< The defending team; own end zone row 17, scores in row 1. */
};

/** The two phases of a turn (R4.1). */
enum ball_phase {
    BALL_PHASE_ACTION = 0, /**< The action phase: actions, then `end`. */
    BALL_PHASE_RELEASE = 1 /**< The release phase: stand-ups and releases. */
};

/** The state of the game (R11). */
enum ball_result {
    BALL_ONGOING = 0, /**< The game goes on. */
    BALL_ATK_WON = 1, /**< ATK scored a touchdown. */
    BALL_DEF_WON = 2, /**< DEF scored a touchdown. */
    BALL_DRAW = 3     /**< The turn limit ended the game without touchdown. */
};

/** Piece types (R2.1). */
enum ball_piece_type {
    BALL_X = 1,     /**< Moves 1 or 2 squares diagonally. */
    BALL_O = 2,     /**< 1 square diagonally or 2 orthogonally. */
    BALL_SQUARE = 3 /**< The square piece (written S): both patterns. */
};

/**
 * Bits of a piece code as returned by ball_piece(). A code is 0 when there
 * is no piece; otherwise `code & BALL_PIECE_TYPE_MASK` is a
 * ::ball_piece_type and the other bits are flags.
 */
enum ball_piece_bits {
    BALL_PIECE_TYPE_MASK = 0x03,  /**< Mask of the ::ball_piece_type. */
    BALL_PIECE_DEF = 0x04,        /**< Set for DEF pieces, clear for ATK. */
    BALL_PIECE_DOWN = 0x08,       /**< Knocked down (R3.2). */
    BALL_PIECE_RESTRICTED = 0x10, /**< Restricted this turn (R4.4). */
    BALL_PIECE_BALL = 0x20,       /**< Holds the ball. */
    BALL_PIECE_STACKED = 0x40     /**< Part of a stack (R7). */
};

/** Which piece of a square ball_piece() reads. */
enum ball_level {
    BALL_UPPER = 0, /**< The only piece, or the upper piece of a stack. */
    BALL_LOWER = 1  /**< The lower piece of a stack (0 if none). */
};

/** Bits of a square's state as returned by ball_square_state(). */
enum ball_square_bits {
    BALL_SQ_PIECE = 0x01,      /**< At least one piece stands or lies here. */
    BALL_SQ_STACK = 0x02,      /**< Two pieces: a stack (R7). */
    BALL_SQ_FRESH = 0x04,      /**< A stack made this turn (R7.4). */
    BALL_SQ_LOOSE_BALL = 0x08, /**< The loose ball lies here. */
    BALL_SQ_BALL = 0x10        /**< The ball is here, loose or held. */
};

/** Highest turn number a position can show (N1 gives the turn 9 digits).
 *  A decision that would hand the turn over past it is refused with
 *  #BALL_E_LIMIT. At this turn such a decision is also not legal: `end`
 *  with no release task to follow, or a release-phase decision that leaves
 *  no task with a solution and scores nothing. A game with nothing else
 *  left is stopped: ball_result() stays #BALL_ONGOING and no decision is
 *  legal (docs/rules-choices.md, "Turn bound"). */
#define BALL_MAX_TURN 999999999
/** Most PA a coach can have (card mode, R10); 2 outside card mode. */
#define BALL_MAX_PA 99
/** Most PE a coach can have (card mode, R10): earnings beyond it are lost. */
#define BALL_MAX_PE 999999999

/** @} */

/* ------------------------------------------------------------------ */
/** @name Actions (R5-R10, N2)
 *
 * An action is a 32-bit integer that encodes one whole decision: its kind,
 * its squares, its flags and, for a release, the keeper. Actions come from
 * ball_legal_actions() or ball_action_from_text(); the accessors below read
 * them without a game. Two equal integers are the same decision. 0 is never
 * an action (#BALL_ACTION_NONE). An "invalid" action below is an integer
 * that no position can have as a legal action.
 *  @{ */

/** A whole decision (see the section text). */
typedef uint32_t ball_action;

/** The value that is never an action. */
#define BALL_ACTION_NONE 0u

/**
 * Upper bound on the number of legal actions in any position; a buffer of
 * this many actions always suffices. Outside card mode no position has more
 * than 480: an action phase has at most 7 active pieces of the mover with at
 * most 36 movement actions each (a square piece: 4 one-square moves plus 8
 * two-square moves of at most 4 exit or 3 push choices), at most 6 hand-off
 * receivers, at most 110 short-pass and 110 long-pass ball squares and
 * `end`: 252 + 6 + 220 + 1 = 479. A release phase has at most 7 stacks with
 * 12 ordered square pairs and 2 keepers each plus 7 stand-ups with 4 squares
 * each: 196. Card mode adds at most 99 conversions `pe+k` (PA never
 * exceed 99) and 9 card plays: 587 in all.
 */
#define BALL_MAX_ACTIONS 1024

/** Longest action text (N2) including its NUL, e.g. "A17-A17/A17=A17".
 *  Card mode adds `pe+k` and `cardN` / `cardN@SQ` (hand number N from 1,
 *  target square SQ). */
#define BALL_ACTION_TEXT_MAX 32

/** Kinds of actions (R5-R10). */
enum ball_action_kind {
    BALL_MOVE = 1,           /**< Ordinary move (or pickup, see flags). */
    BALL_DODGE = 2,          /**< Dodge with exit square (R6.1). */
    BALL_TACTICAL_DODGE = 3, /**< Tactical dodge with push square (R6.2). */
    BALL_BLOCK = 4,          /**< 1-square move onto an opponent (R7). */
    BALL_PROTECT = 5,        /**< 1-square move onto an ally (R7). */
    BALL_HANDOFF = 6,        /**< Hand-off through the network (R8.2). */
    BALL_SHORT_PASS = 7,     /**< Short pass (R8.3). */
    BALL_LONG_PASS = 8,      /**< Long pass (R8.4). */
    BALL_END = 9,            /**< End of the action phase (R4.2). */
    BALL_STAND_UP = 10,      /**< Release-phase stand-up (R9.2). */
    BALL_UNBLOCK = 11,       /**< Release of a blocking stack (R9.3). */
    BALL_UNPROTECT = 12,     /**< Release of a protecting stack (R9.3). */
    BALL_CONVERT_PA = 13,    /**< Card mode: turn k PA into k PE (R10.2). */
    BALL_PLAY_CARD = 14      /**< Card mode: play a card (R10.4). */
};

/** Flags of an action, read with ball_action_flags(). */
enum ball_action_flags {
    /** The mover takes the loose ball (R8.1): a pickup, also after a dodge
     *  exit or a tactical-dodge landing. */
    BALL_FLAG_PICKUP = 0x1,
    /** The dodged piece held the ball (R6.1 forced fumble). */
    BALL_FLAG_FORCED_FUMBLE = 0x2,
    /** The pushed piece held the ball, which is knocked loose (R6.2). */
    BALL_FLAG_FUMBLE = 0x4
};

/** Keeper of a release (R9.3), read with ball_action_keeper(). */
enum ball_keeper {
    BALL_KEEPER_NONE = 0,  /**< The upper piece did not hold the ball. */
    BALL_KEEPER_UPPER = 1, /**< The upper piece keeps the ball. */
    BALL_KEEPER_LOWER = 2  /**< The lower piece takes the ball. */
};

/** The ::ball_action_kind of @p a, or #BALL_E_ARG for an invalid action. */
BALL_API int ball_action_kind(ball_action a);

/**
 * The first square of @p a: the moving piece's square, the carrier, the
 * knocked-down piece (stand-up), the stack (release) or a card's target.
 * #BALL_NO_SQUARE when the action has none (`end`, `pe+k`, a card without
 * target); #BALL_E_ARG for an invalid action.
 */
BALL_API int ball_action_from(ball_action a);

/**
 * The second square of @p a: destination of a move, block or protection;
 * the target of a dodge; the landing square of a tactical dodge; the
 * receiver of a hand-off; the ball square of a pass; the destination of a
 * stand-up; the upper piece's square U of a release. #BALL_NO_SQUARE for
 * other actions; #BALL_E_ARG for an invalid action.
 */
BALL_API int ball_action_to(ball_action a);

/**
 * The third square of @p a: the exit of a dodge, the push square of a
 * tactical dodge, the lower piece's square W of a release;
 * #BALL_NO_SQUARE for other actions; #BALL_E_ARG for an invalid action.
 */
BALL_API int ball_action_option(ball_action a);

/** The ::ball_keeper of a release, #BALL_KEEPER_NONE for other actions;
 *  #BALL_E_ARG for an invalid action. */
BALL_API int ball_action_keeper(ball_action a);

/** The ::ball_action_flags of @p a (0 for none); #BALL_E_ARG for an invalid
 *  action. */
BALL_API int ball_action_flags(ball_action a);

/** PA cost of @p a (R4.3): 0, 1 or 2, k for a conversion `pe+k`;
 *  #BALL_E_ARG for an invalid action. */
BALL_API int ball_action_cost(ball_action a);

/**
 * The number carried by a card-mode action: k of a PA conversion `pe+k`
 * (#BALL_CONVERT_PA), the hand index (0-based) of a card play
 * (#BALL_PLAY_CARD). #BALL_E_ARG for other actions, which carry no
 * number, and for invalid ones. A card play's target square, if it has
 * one, is ball_action_from().
 */
BALL_API int ball_action_value(ball_action a);

/**
 * Writes the N2 text of action @p a ("G5-F6", "E9-E7/D6", "end", ...) into
 * @p buf of @p len bytes and returns its length. The text depends only on
 * the action. #BALL_E_ARG for an invalid action or NULL buffer,
 * #BALL_E_BUFFER when @p len is too small (#BALL_ACTION_TEXT_MAX always
 * suffices).
 */
BALL_API int ball_action_to_text(ball_action a, char *buf, size_t len);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Release tasks (R9)
 *
 * After `end` the coach resolves the mandatory tasks one at a time: each own
 * knocked-down piece that is not stacked must stand up, each non-fresh stack
 * whose upper piece is the coach's must be released. A task is an integer
 * like an action; read it with the accessors below.
 *  @{ */

/** A release task: a square, a kind and whether it can be solved now. */
typedef int32_t ball_task;

/** Most tasks one release phase can have (7 pieces, 7 stacks); a buffer
 *  of this many tasks always suffices. */
#define BALL_MAX_TASKS 14

/** Kinds of release tasks. */
enum ball_task_kind {
    BALL_TASK_STAND_UP = 1, /**< A knocked-down own piece (R9.2). */
    BALL_TASK_RELEASE = 2   /**< A non-fresh stack with an own upper (R9.3). */
};

/** The square of @p task (the piece or the stack); #BALL_E_ARG if the
 *  value is not a task. */
BALL_API int ball_task_square(ball_task task);

/** The ::ball_task_kind of @p task; #BALL_E_ARG if it is not a task. */
BALL_API int ball_task_kind(ball_task task);

/** 1 if @p task had at least one solution when it was listed, 0 if not;
 *  #BALL_E_ARG if it is not a task. */
BALL_API int ball_task_solvable(ball_task task);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Card rulesets (R10)
 *
 * Card mode is off by default. A card ruleset (a PE earning table and a
 * hand of cards for each coach) is an opaque ::ball_cardset built with the
 * calls below and named in ball_rules::cards; the game copies it at
 * creation. Being opaque, it can gain earning entries and card effects in
 * later 1.x versions without any layout change.
 *  @{ */

/** Entries of the PE earning table (R10.3), set with
 *  ball_cardset_set_earn(). Later 1.x versions may add entries after the
 *  last one. */
enum ball_earn {
    BALL_EARN_MOVE = 0,           /**< Ordinary move (also a pickup move). */
    BALL_EARN_PICKUP = 1,         /**< Taking the loose ball (R8.1). */
    BALL_EARN_DODGE = 2,          /**< Dodge (R6.1). */
    BALL_EARN_FORCED_FUMBLE = 3,  /**< Dodge of the ball carrier (R6.1). */
    BALL_EARN_TACTICAL_DODGE = 4, /**< Tactical dodge (R6.2). */
    BALL_EARN_BLOCK = 5,          /**< Block (R7). */
    BALL_EARN_PROTECT = 6,        /**< Protection (R7). */
    BALL_EARN_HANDOFF = 7,        /**< Hand-off (R8.2). */
    BALL_EARN_SHORT_PASS = 8,     /**< Short pass (R8.3). */
    BALL_EARN_LONG_PASS = 9,      /**< Long pass (R8.4). */
    BALL_EARN_STAND_UP = 10,      /**< Stand-up (R9.2). */
    BALL_EARN_UNBLOCK = 11,       /**< Release of a blocking stack (R9.3). */
    BALL_EARN_UNPROTECT = 12,     /**< Release of a protecting stack (R9.3). */
    BALL_EARN_COUNT = 13          /**< Number of entries in this version. */
};

/** Card effect primitives (R10.5). */
enum ball_card_effect {
    /** Gain `amount` PA (1-9) in this action phase (PA never exceed
     *  #BALL_MAX_PA: a gain beyond that is lost). */
    BALL_EFFECT_GAIN_PA = 1,
    /** The restricted piece of the coach (R4.4) may act again this turn:
     *  its restriction is lifted. Needs a restricted piece; the card play
     *  names its square. `amount` must be 0. */
    BALL_EFFECT_UNRESTRICT = 2
};

/** Most cards in one coach's hand. */
#define BALL_MAX_HAND 9
/** Size of a card name including its NUL. */
#define BALL_CARD_NAME_MAX 24
/** Most PE an earning entry or a card cost can be. */
#define BALL_MAX_CARD_PE 999

/** An opaque card ruleset (R10): the earning table and both hands. */
typedef struct ball_cardset ball_cardset;

/** Creates an empty card ruleset (all earning entries 0, empty hands) in
 *  @p *out. Returns #BALL_OK, #BALL_E_ARG for NULL or #BALL_E_NOMEM (then
 *  @p *out is NULL). Free it with ball_cardset_free(). */
BALL_API int ball_cardset_new(ball_cardset **out);

/** Frees a card ruleset. NULL is accepted and ignored. Games created with
 *  it keep their own copy. */
BALL_API void ball_cardset_free(ball_cardset *cards);

/** Sets earning entry @p entry (a ::ball_earn) to @p pe PE (0 to
 *  #BALL_MAX_CARD_PE). Earning is additive (R10.3): a decision earns the
 *  entry of its kind, plus #BALL_EARN_PICKUP when it takes the loose ball
 *  and #BALL_EARN_FORCED_FUMBLE when a dodge takes the ball from the
 *  dodged piece; `end`, conversions and card plays earn nothing. Returns
 *  #BALL_OK, #BALL_E_ARG for NULL or an unknown entry, #BALL_E_RANGE for a
 *  bad amount (the set is then unchanged). */
BALL_API int ball_cardset_set_earn(ball_cardset *cards, int entry, int pe);

/** The PE of earning entry @p entry; #BALL_E_ARG for NULL or an unknown
 *  entry. */
BALL_API int ball_cardset_earn(const ball_cardset *cards, int entry);

/**
 * Appends a card to the hand of @p team (a ::ball_team): @p name of 1 to
 * #BALL_CARD_NAME_MAX - 1 letters, digits, '_' or '-'; a PE @p cost 0 to
 * #BALL_MAX_CARD_PE; an @p effect (::ball_card_effect) with its @p amount.
 * Returns the card's hand index (from 0); #BALL_E_ARG for NULL or a bad
 * team; #BALL_E_RANGE (set unchanged) for a full hand or a bad name, cost,
 * effect or amount.
 */
BALL_API int ball_cardset_add_card(ball_cardset *cards, int team, const char *name, int cost,
                                   int effect, int amount);

/** Number of cards in the hand of @p team (0-#BALL_MAX_HAND);
 *  #BALL_E_ARG for NULL or a bad team. */
BALL_API int ball_cardset_hand_size(const ball_cardset *cards, int team);

/** The name of card @p index of the hand of @p team, valid while the set
 *  lives; NULL for NULL or an index out of range. */
BALL_API const char *ball_cardset_card_name(const ball_cardset *cards, int team, int index);

/** What ball_cardset_card_value() reads of a card. */
enum ball_card_field {
    BALL_CARD_COST = 0,   /**< The PE paid to play it. */
    BALL_CARD_EFFECT = 1, /**< Its ::ball_card_effect. */
    BALL_CARD_AMOUNT = 2  /**< The effect's number (PA gained), or 0. */
};

/** Field @p field (a ::ball_card_field) of card @p index of the hand of
 *  @p team; #BALL_E_ARG for NULL, a bad team, index or field. */
BALL_API int ball_cardset_card_value(const ball_cardset *cards, int team, int index, int field);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Rulesets
 *  @{ */

/**
 * The rule options of a game, fixed at creation. Always initialise with
 * `ball_rules_init(&rules, sizeof rules)` before changing fields. The
 * struct carries its own size: later 1.x versions may append fields, and
 * the library accepts the size of every published layout (docs/abi.md),
 * giving fields beyond a caller's size their defaults.
 */
typedef struct ball_rules {
    /** sizeof(ball_rules) as known to the caller; set by ball_rules_init(). */
    size_t size;
    /** Rows in each end zone, 1-3 (R1.4). Default 1. */
    int end_zone_depth;
    /** Last turn that may be played, 0 to #BALL_MAX_TURN - 1 (the drawn
     *  position after it shows the next turn, R11.2); 0 means no limit.
     *  Default 0. */
    unsigned turn_limit;
    /** Reserved; must be 0. */
    unsigned flags;
    /** Card mode (R10): the card ruleset, or NULL (the default) for a game
     *  without PE and cards. It is copied at creation. */
    const ball_cardset *cards;
} ball_rules;

/**
 * Fills @p rules with the defaults (end zones 1 row deep, no turn limit,
 * card mode off) and sets its size field. @p size is the size of the
 * caller's struct, sizeof(ball_rules) as the caller's header knows it: at
 * most that many bytes are written. Does nothing for NULL.
 */
BALL_API void ball_rules_init(ball_rules *rules, size_t size);

/**
 * Checks a ruleset as ball_game_new() would, with a message saying what is
 * wrong in @p err (@p errlen bytes; may be NULL/0). Returns #BALL_OK,
 * #BALL_E_ARG (NULL, a size that is not a published one) or #BALL_E_RANGE
 * (a value out of range; the message gives the valid range).
 */
BALL_API int ball_rules_check(const ball_rules *rules, char *err, size_t errlen);

/** Longest rules text including its NUL. */
#define BALL_RULES_TEXT_MAX 1024

/**
 * Reads a whole ruleset from one line of text, for bindings and command
 * lines. Words are separated by spaces:
 *  - `zone=N` end-zone depth 1-3; `turns=N` turn limit 0-999999998 (0:
 *    none);
 *  - `cards` turns card mode on (any of the words below does too);
 *  - `earn.ENTRY=N` an earning-table entry, ENTRY one of move pickup dodge
 *    fumble tactical block protect handoff short long standup unblock
 *    unprotect;
 *  - `atk=CARD,CARD...` / `def=...` a hand, CARD being `NAME:COST:EFFECT`
 *    with EFFECT `pa+N` (#BALL_EFFECT_GAIN_PA) or `again`
 *    (#BALL_EFFECT_UNRESTRICT).
 *
 * Example: `zone=2 earn.dodge=1 earn.fumble=2 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:2:pa+1`.
 * An empty text is the default ruleset.
 *
 * @p rules must have been set up with ball_rules_init(); all its fields
 * are overwritten (at most @p rules->size bytes). In card mode a new card set is created, stored in @p *cards and named in
 * @p rules->cards: the caller frees it with ball_cardset_free() once the
 * games are created; otherwise @p *cards is NULL. Returns #BALL_OK;
 * #BALL_E_ARG for NULL pointers or a size that is not a published one;
 * #BALL_E_RULES for a bad text, with a
 * message in @p err (@p errlen bytes, may be NULL/0) that says which word
 * is wrong, where, and the valid values; #BALL_E_NOMEM.
 */
BALL_API int ball_rules_from_text(ball_rules *rules, ball_cardset **cards, const char *text,
                                  char *err, size_t errlen);

/**
 * Writes the text form of @p rules (as read by ball_rules_from_text(); the
 * default ruleset is the empty text) with its NUL into @p buf of @p len
 * bytes and returns its length. Only non-default values are written, in a
 * fixed order. #BALL_E_ARG for NULL or an invalid ruleset (see
 * ball_rules_check()), #BALL_E_BUFFER when @p len is too small
 * (#BALL_RULES_TEXT_MAX always suffices).
 */
BALL_API int ball_rules_to_text(const ball_rules *rules, char *buf, size_t len);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Game lifetime
 *  @{ */

/** An opaque game: a position, its ruleset, and the undo history. */
typedef struct ball_game ball_game;

/**
 * Creates a game at the standard start (R2.2, N1) under @p rules (NULL for
 * the defaults) and stores it in @p *out. Returns #BALL_OK; #BALL_E_ARG
 * when @p out is NULL or @p rules has a size that is not a published one;
 * #BALL_E_RANGE when a rule value is out of range; #BALL_E_NOMEM. On
 * failure @p *out is set to NULL and, when @p err is not NULL, a message
 * saying what is wrong is written there (@p errlen bytes).
 */
BALL_API int ball_game_new(ball_game **out, const ball_rules *rules, char *err, size_t errlen);

/**
 * Creates an independent copy of @p game (position, ruleset and undo
 * history) in @p *out. Returns #BALL_OK, #BALL_E_ARG or #BALL_E_NOMEM; on
 * failure @p *out is set to NULL. Only reads @p game, so several threads
 * may clone one game at once.
 */
BALL_API int ball_game_clone(ball_game **out, const ball_game *game);

/** Frees a game. NULL is accepted and ignored. */
BALL_API void ball_game_free(ball_game *game);

/** Copies the game's ruleset into @p *out, which the caller has set up
 *  with ball_rules_init() first: at most @p out->size bytes are written. In
 *  card mode @p out->cards points to the game's own copy of the card
 *  ruleset, valid while the game lives (do not free it). Returns #BALL_OK,
 *  or #BALL_E_ARG for NULL or a size that is not a published one. */
BALL_API int ball_game_rules(const ball_game *game, ball_rules *out);

/**
 * The message of the last error reported on @p game: what went wrong and
 * where (e.g. "BPN: row 9, column C: two balls"). Empty when the last call
 * succeeded or no call failed yet. The string belongs to the game and stays
 * valid until the next call on it. Returns "" for NULL.
 */
BALL_API const char *ball_errmsg(const ball_game *game);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Reading the position
 *
 * Every getter here returns #BALL_E_ARG for a NULL game (and for a bad
 * team, level or square where it takes one: #BALL_E_RANGE for a square
 * number outside 0-110).
 *  @{ */

/** The coach to act: #BALL_ATK or #BALL_DEF. Once the game is over: after a
 *  touchdown, the coach who made the last decision (R11.1: no hand-over);
 *  after a turn-limit draw, the coach whose turn would have come next (the
 *  hand-over happened, R11.2). */
BALL_API int ball_side(const ball_game *game);

/** The phase: #BALL_PHASE_ACTION or #BALL_PHASE_RELEASE. */
BALL_API int ball_phase(const ball_game *game);

/** PA left in this action phase: 0-2, up to #BALL_MAX_PA in card mode
 *  (always 0 in the release phase). */
BALL_API int ball_pa(const ball_game *game);

/** 1 if the last action of this action phase was a hand-off (R8.2, the `h`
 *  of N1), else 0. */
BALL_API int ball_handoff_last(const ball_game *game);

/** The turn number, 1 to #BALL_MAX_TURN (R2.3). */
BALL_API int ball_turn(const ball_game *game);

/** The result, a ::ball_result. */
BALL_API int ball_result(const ball_game *game);

/**
 * The piece code (::ball_piece_bits) of the piece on square @p sq at
 * @p level (a ::ball_level), 0 when there is none.
 */
BALL_API int ball_piece(const ball_game *game, int sq, int level);

/** The state of square @p sq as ::ball_square_bits (0 = vacant). */
BALL_API int ball_square_state(const ball_game *game, int sq);

/** The square of the ball (loose or held). */
BALL_API int ball_square_of_ball(const ball_game *game);

/**
 * The square of the restricted piece of the coach to act, or
 * #BALL_NO_SQUARE when no piece is restricted. Only the ball carrier can be
 * restricted (it took the ball this turn by a pickup or a forced fumble,
 * R4.4), so there is at most one.
 */
BALL_API int ball_restricted_square(const ball_game *game);

/** Card mode: the PE of @p team (R10.1), 0-#BALL_MAX_PE; 0 outside card
 *  mode. */
BALL_API int ball_pe(const ball_game *game, int team);

/**
 * Card mode: the cards still in the hand of @p team as a bit mask (bit i
 * set: hand index i can still be played; cards leave the hand for good when
 * played, R10.4). 0 outside card mode. The cards themselves are in the
 * game's ruleset (ball_game_rules()).
 */
BALL_API int ball_hand(const ball_game *game, int team);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Playing
 *  @{ */

/**
 * Writes the legal actions of the position into @p out (capacity @p cap)
 * and returns their number, in a fixed order that depends only on the
 * position: in the action phase the actions of each piece (pieces in
 * square order; docs/rules-choices.md gives the details), then the
 * carrier's hand-offs, short passes and long passes, then card-mode
 * actions, `end` last; in the release phase the solutions task by task in
 * square order. Returns 0 when the game is over or stopped at
 * #BALL_MAX_TURN. With @p out NULL and @p cap 0 it only counts (faster than listing).
 * Returns #BALL_E_BUFFER (and leaves @p out unspecified) when @p cap is
 * smaller than the count; a buffer of #BALL_MAX_ACTIONS never is. With
 * @p cap >= #BALL_MAX_ACTIONS the actions are written in place and the
 * entries after the count may be overwritten too. Does not allocate.
 */
BALL_API int ball_legal_actions(ball_game *game, ball_action *out, size_t cap);

/**
 * A legal action chosen by the 64-bit number @p random, for random
 * playouts: with n legal actions, the one numbered
 * floor(@p random * n / 2^64) in an order of the generator's own (not the
 * order of ball_legal_actions(), which costs more to walk). Each legal
 * action is chosen by floor(2^64 / n) or ceil(2^64 / n) of the values, so
 * a uniformly random @p random gives a uniformly random legal action. The
 * library has no random number generator: pass one from yours. The same
 * position and @p random always give the same action.
 * Writes it to @p out and returns #BALL_OK; #BALL_E_RANGE (@p out
 * untouched) when there is no legal action (the game is over, or stopped
 * at #BALL_MAX_TURN; the message says which);
 * #BALL_E_ARG for NULL. Does not allocate. About as fast as counting the
 * legal actions twice, and faster than listing them.
 *
 * @code
 * ball_action a;
 * while (ball_random_action(game, my_random64(), &a) == BALL_OK)
 *     ball_apply(game, a);
 * @endcode
 */
BALL_API int ball_random_action(ball_game *game, uint64_t random, ball_action *out);

/** 1 if @p a is legal in the position, 0 if not, #BALL_E_ARG for NULL. */
BALL_API int ball_is_legal(ball_game *game, ball_action a);

/**
 * Plays the decision @p a: an action, `end`, or the resolution of a release
 * task. Afterwards it checks for a touchdown (R11.1) and, when the release
 * phase has no task left with a solution, hands the turn over (R9.1, R9.5,
 * R11.2). Returns #BALL_OK; #BALL_E_ILLEGAL (state unchanged, message in
 * ball_errmsg()) if @p a is not legal; #BALL_E_LIMIT (state unchanged) for
 * a decision legal by the rules that would hand the turn over past
 * #BALL_MAX_TURN, which ball_legal_actions() does not list; #BALL_E_NOMEM if the undo
 * history could not grow.
 */
BALL_API int ball_apply(ball_game *game, ball_action a);

/**
 * Takes back the last decision, restoring the previous state bit for bit
 * (same BPN). May be repeated back to the position the game was created or
 * last set with. Returns #BALL_OK, or #BALL_E_NO_HISTORY when there is
 * nothing to take back.
 */
BALL_API int ball_undo(ball_game *game);

/** Number of decisions ball_undo() can take back. */
BALL_API int ball_history_length(const ball_game *game);

/**
 * Writes the tasks of the release phase, in square order, into @p out
 * (capacity @p cap) and returns their number: 0 outside the release phase
 * or when the game is over. Tasks without a solution are listed too. With
 * @p out NULL and @p cap 0 it only counts; #BALL_E_BUFFER when @p cap is too
 * small (#BALL_MAX_TASKS always suffices).
 */
BALL_API int ball_release_tasks(ball_game *game, ball_task *out, size_t cap);

/**
 * Writes the solutions of the task on square @p sq (the legal actions
 * starting there) into @p out and returns their number, like
 * ball_legal_actions(). Returns 0 for a task without a solution,
 * #BALL_E_ILLEGAL when there is no task on @p sq (or it is not the release
 * phase), #BALL_E_RANGE for a bad square.
 */
BALL_API int ball_task_solutions(ball_game *game, int sq, ball_action *out, size_t cap);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Step-by-step selection for frontends (R12)
 *
 * A frontend builds an action one choice at a time: the piece's square,
 * then a verb, then the destination, then a sub-choice (the exit of a
 * dodge, the push square of a tactical dodge, the lower piece's square of a
 * release), then the keeper's square. Nothing changes in the game until the
 * completed action is given to ball_apply(); cancelling a selection is just
 * forgetting it.
 *  @{ */

/** Most choices of one selection (square, verb, square, square, keeper). */
#define BALL_SELECT_STEPS 5

/** The verbs of step 2: they match the separators of N2. */
enum ball_verb {
    BALL_VERB_MOVE = 1,       /**< "-": move, pickup, dodge, tactical dodge,
                                   block, protection, stand-up, release. */
    BALL_VERB_HANDOFF = 2,    /**< "=": hand-off. */
    BALL_VERB_SHORT_PASS = 3, /**< "^": short pass. */
    BALL_VERB_LONG_PASS = 4,  /**< "^^": long pass. */
    BALL_VERB_CARD = 5        /**< "card...@": a card that targets the
                                   piece; the next step is the hand index. */
};

/**
 * Lists the choices of the next selection step. @p chosen holds the
 * @p n_chosen choices made so far, in order: [0] a square, [1] a
 * ::ball_verb, [2] a square (the destination, dodge target, landing
 * square, receiver, ball square or the upper piece's square U; for
 * #BALL_VERB_CARD the card's 0-based hand index), [3] a square (the exit of
 * a dodge, the push square of a tactical dodge, the lower piece's square W
 * of a release), [4] the keeper's square. Actions without a piece (`end`,
 * `pe+k`, cards without a target) are not selected this way. The
 * choices of step @p n_chosen are written in increasing order to
 * @p choices (capacity @p cap) and their number is returned. When the
 * choices made so far already form a whole legal action, 0 is returned and
 * @p *action (if not NULL) receives it; otherwise @p *action is set to
 * #BALL_ACTION_NONE (so with no choice made, 0 choices and no action mean
 * that no piece can act: only `end` or card-mode actions remain). Returns
 * #BALL_E_ILLEGAL when the choices so far lead to no legal action,
 * #BALL_E_BUFFER when @p cap is too small (#BALL_NUM_SQUARES always
 * suffices), #BALL_E_ARG for bad pointers or @p n_chosen >
 * #BALL_SELECT_STEPS.
 */
BALL_API int ball_select(ball_game *game, const int *chosen, size_t n_chosen,
                         int *choices, size_t cap, ball_action *action);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Position and action text (N1, N2)
 *  @{ */

/** Longest BPN text (N1) including its NUL. */
#define BALL_BPN_MAX 1024

/** The BPN of the standard start (N1). */
#define BALL_START_BPN \
    "7/6/3s3/6/3x3/6/1oxsxo1/6/7/6/1OXSXO1/6/3X*3/6/3S3/6/7 DEF a 2 - 0/0 1"

/**
 * Writes the position as BPN text (N1) with its NUL into @p buf of @p len
 * bytes and returns its length. #BALL_E_BUFFER when @p len is too small
 * (#BALL_BPN_MAX always suffices), #BALL_E_ARG for NULL.
 */
BALL_API int ball_position_to_text(ball_game *game, char *buf, size_t len);

/**
 * Replaces the position by the one in @p bpn (strict N1, under the game's
 * ruleset; in card mode an eighth field lists the cards still in each hand,
 * see docs/cards.md) and clears the undo history: the new position becomes
 * the one ball_undo() returns to. Returns #BALL_OK, #BALL_E_ARG for NULL or
 * #BALL_E_BPN (position unchanged; ball_errmsg() says what is wrong and
 * where).
 */
BALL_API int ball_position_from_text(ball_game *game, const char *bpn);

/**
 * Reads the N2 text @p text as an action of the current position and
 * stores it in @p *out. Returns #BALL_OK; #BALL_E_NOTATION when the text is
 * malformed; #BALL_E_ILLEGAL when it is well formed but names no legal
 * action here (ball_errmsg() says why); #BALL_E_LIMIT when it names a
 * decision refused at #BALL_MAX_TURN. The text of an action without a
 * game is ball_action_to_text().
 */
BALL_API int ball_action_from_text(ball_game *game, const char *text, ball_action *out);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Analysis (N3)
 *  @{ */

/** Deepest perft ball_perft() accepts. */
#define BALL_MAX_PERFT_DEPTH 64

/**
 * Counts the decision sequences of exactly @p depth decisions from the
 * position (perft, N3) into @p *count. The game is left unchanged. Returns
 * #BALL_OK, #BALL_E_ARG, or #BALL_E_RANGE for a negative depth or one above
 * #BALL_MAX_PERFT_DEPTH.
 */
BALL_API int ball_perft(ball_game *game, int depth, uint64_t *count);

/**
 * A 64-bit hash of the position (Zobrist style), kept up to date by
 * ball_apply() and ball_undo() at almost no cost. Equal positions have
 * equal hashes whatever the way they were reached; the turn number is not
 * part of it (so positions repeated at different turns match in a
 * transposition table), everything else that BPN records is. Different
 * positions collide with probability about 2^-64. Returns 0 for a NULL
 * game (a NULL game is a caller's bug; 0 is also a possible hash).
 */
BALL_API uint64_t ball_hash(const ball_game *game);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Whole games
 *
 * A game remembers the decisions played since it was created or last set
 * with ball_position_from_text() (its *history*), and five tags of text
 * (event, site, date and the two coaches). Together with its ruleset this
 * is a whole game, which has a text form: the *game record*
 * (docs/records.md), the BALL counterpart of chess's PGN. A record is
 * line-oriented: tag lines such as `[Event "Club night"]`, the ruleset
 * (`[Rules "zone=2"]`, the text of ball_rules_to_text()), an optional start
 * BPN, the decisions in N2 text one turn per line (`3. DEF: E11-F10 end`)
 * and a result token; a text may hold several records one after the
 * other.
 *
 * The section also draws positions: as the text diagram of the `ball`
 * tool and the examples (ball_position_to_board_text()) and as an SVG
 * picture (ball_position_to_svg()).
 *
 * Texts of unbounded length are written like the others (with their NUL,
 * the length returned without it), and with @p buf NULL and @p len 0 a call
 * only returns the length, so a caller can size its buffer first:
 * @code
 * int n = ball_record_write(game, NULL, 0);
 * char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
 * if (text)
 *     ball_record_write(game, text, (size_t)n + 1);
 * @endcode
 *  @{ */

/**
 * The decision number @p i (from 0, the oldest) of the history: the one
 * that ball_undo() would take back after ball_history_length() - 1 - @p i
 * undos. Writes it to @p out and returns #BALL_OK; #BALL_E_RANGE unless
 * 0 <= @p i < ball_history_length(); #BALL_E_ARG for NULL. Takes
 * constant time (the decision is read from the history; the position is
 * not touched) and does not allocate.
 */
BALL_API int ball_history_action(ball_game *game, int i, ball_action *out);

/**
 * Writes the BPN of the position that decision @p i of the history was
 * played from into @p buf of @p len bytes, like ball_position_to_text():
 * @p i = 0 is the position the game was created or last set with, and
 * @p i = ball_history_length() the current position. Returns the text's
 * length; #BALL_E_RANGE unless 0 <= @p i <= ball_history_length();
 * #BALL_E_BUFFER when @p len is too small (#BALL_BPN_MAX always
 * suffices); #BALL_E_ARG for NULL. The game is not changed. Does not
 * allocate.
 */
BALL_API int ball_history_position(ball_game *game, int i, char *buf, size_t len);

/** The tags of text a game keeps for its record (docs/records.md). Later
 *  1.x versions may add tags before #BALL_TAG_COUNT. */
enum ball_tag {
    BALL_TAG_EVENT = 0, /**< `Event`: the event or match. */
    BALL_TAG_SITE = 1,  /**< `Site`: where it was played. */
    BALL_TAG_DATE = 2,  /**< `Date`: when, preferably YYYY-MM-DD. */
    BALL_TAG_ATK = 3,   /**< `ATK`: who coached ATK. */
    BALL_TAG_DEF = 4,   /**< `DEF`: who coached DEF. */
    BALL_TAG_COUNT = 5  /**< Number of tags in this version. */
};

/** Size of a tag's value including its NUL. */
#define BALL_TAG_TEXT_MAX 128

/**
 * Sets tag @p tag (a ::ball_tag) of the game to @p value: 0 to
 * #BALL_TAG_TEXT_MAX - 1 bytes of well-formed UTF-8 text without control
 * characters (bytes below 0x20 and 0x7f); "" or NULL clears it. Tags
 * survive ball_position_from_text() and are copied by ball_game_clone().
 * Returns #BALL_OK; #BALL_E_ARG for a NULL game or an unknown tag;
 * #BALL_E_RANGE for a value too long, not well-formed UTF-8 (an invalid
 * byte, an overlong form, a surrogate, a code point above U+10FFFF or a
 * truncated sequence) or with a control character (the tag is then
 * unchanged, ball_errmsg() says why).
 */
BALL_API int ball_game_set_tag(ball_game *game, int tag, const char *value);

/**
 * Writes the value of tag @p tag ("" when unset) with its NUL into @p buf
 * of @p len bytes and returns its length. #BALL_E_ARG for NULL or an
 * unknown tag; #BALL_E_BUFFER when @p len is too small
 * (#BALL_TAG_TEXT_MAX always suffices).
 */
BALL_API int ball_game_tag(const ball_game *game, int tag, char *buf, size_t len);

/**
 * Writes the game record of @p game (docs/records.md: its tags, its
 * ruleset, the start position when it is not the standard start, the
 * decisions of its history, its result) into @p buf of @p len bytes, with
 * its NUL, and returns its length. With @p buf NULL and @p len 0 only the
 * length is returned. The record ends with a newline; records written one
 * after the other with a blank line between them make a file of several
 * games. ball_record_read() reads it back into a game whose record is the
 * same text. Returns #BALL_E_BUFFER when @p len is too small (the length
 * needed is in ball_errmsg()); #BALL_E_ARG for a NULL game, or a NULL
 * @p buf with @p len > 0. Does not allocate.
 */
BALL_API int ball_record_write(ball_game *game, char *buf, size_t len);

/**
 * Reads the game record that starts at byte @p *offset of @p text
 * (@p len bytes, need not end with a NUL; blank lines before the record are
 * skipped) into a new game stored in @p *out (free it with
 * ball_game_free()): the ruleset of its `Rules` tag, the position of its
 * `Start` tag or the standard start, then each decision played in turn, so
 * that its history holds them. The reader is strict (docs/records.md): tags
 * in their order and each at most once, every turn on one line starting
 * with its turn number and side, a result token that agrees with the
 * `Result` tag and with the replayed game. On success @p *offset moves past
 * the record and the blank lines after it, and 1 is returned; 0 (with
 * @p *out NULL) means no record is left, only blank lines. On failure
 * @p *out is NULL, @p *offset unchanged, nothing stays allocated, and
 * @p err (@p errlen bytes, may be NULL/0) says what is wrong and where:
 * `line 7, column 12: decision 9 (turn 3, DEF) 'E9-E7': ...` with line
 * and column counted from the start of @p text (from 1). A call reads the
 * text from @p *offset on only, so reading every record of a text takes
 * time linear in its length. Returns #BALL_E_RECORD for a malformed record
 * (a tag value that is not well-formed UTF-8 among them), a missing or wrong result or a
 * text that ends before its result line; #BALL_E_RULES for a bad `Rules`
 * value; #BALL_E_BPN for a bad `Start`; #BALL_E_NOTATION for a malformed
 * decision; #BALL_E_ILLEGAL for a decision that is not legal where the
 * record plays it (the message gives its number, from 1); #BALL_E_LIMIT;
 * #BALL_E_ARG for NULL pointers or @p *offset > @p len; #BALL_E_NOMEM.
 *
 * @code
 * size_t at = 0;
 * ball_game *g;
 * char err[256];
 * int rc;
 * while ((rc = ball_record_read(&g, text, len, &at, err, sizeof err)) == 1) {
 *     ... use g ...
 *     ball_game_free(g);
 * }
 * if (rc < 0)
 *     fprintf(stderr, "%s\n", err);
 * @endcode
 */
BALL_API int ball_record_read(ball_game **out, const char *text, size_t len, size_t *offset,
                              char *err, size_t errlen);

/** Flags of ball_position_to_board_text() and ball_position_to_svg(). */
enum ball_draw_flags {
    /** Board text: append the two lines of the legend of the letters. */
    BALL_DRAW_LEGEND = 1,
    /** SVG: leave out the column letters and row numbers around the board. */
    BALL_DRAW_NO_COORDS = 2
};

/**
 * Writes the text diagram of the position (the one of the `ball` tool and
 * the examples) into @p buf of @p len bytes and returns its length: the
 * line of ATK's end zone ("   end zone: ATK scores in row 17", or
 * "rows 16-17" with a deeper zone), the column letters, then rows 17 to 1,
 * one line each, with every playable square as "." (vacant), "@" (the
 * loose ball) or its pieces (upper case ATK, lower case DEF: X, O, S;
 * marks "*" ball, "_" knocked down, "!" restricted; a stack is its upper
 * then its lower piece, "+" when fresh), the column letters again and the
 * line of DEF's end zone ("   end zone: DEF scores in row 1"). The @p n
 * squares of @p highlight (may be NULL when @p n is 0) get a ">" before
 * them. With #BALL_DRAW_LEGEND two lines of legend follow. Every line ends
 * with a newline, has no trailing blanks and is at most 80 columns wide
 * (the board fits an 80-column terminal). With @p buf NULL and @p len 0
 * only the length is returned. #BALL_E_RANGE for a highlighted square outside
 * 0-110; #BALL_E_BUFFER; #BALL_E_ARG for NULL or unknown flags.
 */
BALL_API int ball_position_to_board_text(ball_game *game, const int *highlight, size_t n,
                                         int flags, char *buf, size_t len);

/**
 * Writes an SVG 1.1 picture of the position into @p buf of @p len bytes
 * and returns its length: the 13 x 17 board to scale with its playable
 * squares, the end zones of the game's ruleset shaded, every mark of N1
 * (pieces by team and type, knocked-down pieces turned on their side,
 * stacks as two pieces, fresh stacks, the ball held or loose, the
 * restricted piece), the column letters and row numbers (unless
 * #BALL_DRAW_NO_COORDS), the @p n squares of @p highlight outlined, and,
 * unless @p arrow is #BALL_ACTION_NONE, an arrow for the action @p arrow
 * from its first square to its second, and a dashed one to its third
 * square: on from the target of a dodge to its exit, from the crossed
 * square of a tactical dodge to its push square, from the stack of a
 * release to the lower piece's square (actions without squares, such as
 * `end`, draw no arrow). Each
 * piece is a `g` element of class `piece` with classes for its team
 * (`atk`, `def`), type (`x`, `o`, `s`) and marks (`ball`, `down`,
 * `restricted`, `upper`, `lower`) and a `data-square` attribute, so that
 * programs can read the picture too. With @p buf NULL and @p len 0 only
 * the length is returned. #BALL_E_RANGE for a highlighted square outside
 * 0-110; #BALL_E_ARG for NULL, unknown flags or an invalid @p arrow;
 * #BALL_E_BUFFER. Does not allocate.
 */
BALL_API int ball_position_to_svg(ball_game *game, const int *highlight, size_t n,
                                  ball_action arrow, int flags, char *buf, size_t len);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Search
 *
 * A Monte-Carlo tree search player (UCT) for frontends, self-play and
 * analysis: ball_mcts_new() allocates a searcher (its node pool sized from
 * the budget), ball_mcts_choose() picks a decision for the coach to act.
 * Each iteration walks down the tree by UCB1, adds one untried decision,
 * plays out from there and backs the result up. A playout first closes
 * the turn in progress (`end` at once, then the release tasks drawn with
 * ball_random_action()), then plays random decisions until the game ends
 * or, with ball_mcts_config::playout_turns N > 0, until N hand-overs have
 * happened; a position where it stops unfinished is scored by a built-in
 * evaluation (the ball held and brought forward, pieces down, pieces
 * advanced). docs/players.md gives its strength.
 *
 * A searcher has no global state and allocates only in ball_mcts_new();
 * its random generator is its own (ball_mcts_seed()), so with a budget in
 * playouts the same seed and the same positions give the same decisions.
 * One searcher must not be used by two threads at once; distinct
 * searchers on distinct games may run in parallel.
 *  @{ */

/** A Monte-Carlo tree searcher (opaque). */
typedef struct ball_mcts ball_mcts;

/**
 * The settings of a searcher. Always initialise with
 * `ball_mcts_config_init(&cfg, sizeof cfg)` before changing fields: the
 * struct carries its own size, like ::ball_rules.
 */
typedef struct ball_mcts_config {
    /** sizeof(ball_mcts_config) as known to the caller; set by
     *  ball_mcts_config_init(). */
    size_t size;
    /** Seed of the searcher's random generator (splitmix64). Default 1. */
    uint64_t seed;
    /** Iterations (one playout each) per decision, 0 for no limit.
     *  Default 1000. */
    int playouts;
    /** Wall-clock time per decision in milliseconds, 0 for no limit;
     *  with both limits the first reached stops the search. A time budget
     *  makes the decisions depend on the machine's speed. Default 0. */
    int time_ms;
    /** Size of the node pool, allocated by ball_mcts_new(); 0 (the
     *  default) sizes it from the budget (playouts + 1, or 400 nodes per
     *  millisecond, at least 1024). When the pool is full the search goes
     *  on without growing the tree. */
    int max_nodes;
    /** The UCB1 exploration constant c (rewards lie in [0, 1]), 0-100.
     *  Default 0.3. */
    double exploration;
    /** Playout length: 0 plays to the end of the game (a touchdown is
     *  worth 1, a draw 0.5, a loss 0), or for at most 2000 decisions,
     *  after which the position is scored with the built-in evaluation (a
     *  game without a turn limit need not end); N > 0 stops after N
     *  hand-overs of the turn and scores the position with the built-in
     *  evaluation, 0-1000. Either way the turn in progress is closed at
     *  once. Default 1: the turn in progress is closed and the position
     *  scored, which docs/players.md found the strongest. */
    int playout_turns;
} ball_mcts_config;

/**
 * What a search did, written by ball_mcts_choose() when asked. Initialise
 * with `ball_mcts_stats_init(&st, sizeof st)` (or set `size` to
 * sizeof(ball_mcts_stats), as 1.0 asked) before the call: the struct
 * carries its own size, and the library writes no byte beyond it.
 */
typedef struct ball_mcts_stats {
    /** sizeof(ball_mcts_stats) as known to the caller; set by
     *  ball_mcts_stats_init(). */
    size_t size;
    /** Iterations (playouts) made. */
    uint64_t playouts;
    /** Tree nodes used. */
    uint64_t nodes;
    /** Deepest tree path walked, in decisions. */
    int max_depth;
    /** Visits of the chosen decision. */
    uint32_t visits;
    /** Mean reward of the chosen decision for the coach to act, 0-1 (1 for
     *  an immediate touchdown). */
    double value;
    /** Time the search took, in milliseconds. */
    double elapsed_ms;
} ball_mcts_stats;

/** Fills @p cfg (of @p size bytes: pass sizeof(ball_mcts_config)) with
 *  the defaults and sets its size; writes at most @p size bytes. Does
 *  nothing for NULL. */
BALL_API void ball_mcts_config_init(ball_mcts_config *cfg, size_t size);

/** Zeroes @p stats (of @p size bytes: pass sizeof(ball_mcts_stats)) and
 *  sets its size; writes at most @p size bytes. Does nothing for NULL.
 *  @since 1.1 */
BALL_API void ball_mcts_stats_init(ball_mcts_stats *stats, size_t size);

/**
 * Creates a searcher with the settings @p cfg (NULL: the defaults) in
 * @p *out; this is the only call that allocates. Returns #BALL_OK;
 * #BALL_E_ARG for a NULL @p out or a config whose size is not a published
 * one; #BALL_E_RANGE for a value out of range or no budget at all
 * (playouts and time_ms both 0); #BALL_E_NOMEM. On failure @p *out is
 * NULL and @p err (@p errlen bytes, may be NULL/0) says why.
 */
BALL_API int ball_mcts_new(ball_mcts **out, const ball_mcts_config *cfg, char *err,
                           size_t errlen);

/** Frees a searcher (NULL is ignored). */
BALL_API void ball_mcts_free(ball_mcts *mcts);

/** Restarts the searcher's random generator from @p seed (e.g. once per
 *  game, for games that repeat one by one). Returns #BALL_OK or
 *  #BALL_E_ARG for NULL. */
BALL_API int ball_mcts_seed(ball_mcts *mcts, uint64_t seed);

/**
 * Searches the position of @p game within the budget and stores the
 * chosen decision, legal for the coach to act, in @p *out. An immediate
 * touchdown is played at once, and so is the only legal decision. The
 * game is used with apply/undo and left as it was (same position and
 * history); the call may grow its undo history once
 * (ball_history_reserve()), nothing else allocates. @p stats (may be NULL;
 * see ball_mcts_stats_init()) receives what the search did, up to its
 * size. Returns #BALL_OK; #BALL_E_RANGE when the game is over or stopped
 * at #BALL_MAX_TURN;
 * #BALL_E_ARG for NULL or a stats size that is not a published one;
 * #BALL_E_NOMEM when the undo history cannot grow. Except
 * for a NULL @p game, ball_errmsg(@p game) then says why ("" after a
 * success).
 */
BALL_API int ball_mcts_choose(ball_mcts *mcts, ball_game *game, ball_action *out,
                              ball_mcts_stats *stats);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Turn search
 *
 * The library's strongest player (docs/players.md gives its measured
 * strength): an alpha-beta search whose depth counts whole turns. Inside a
 * turn every decision of the coach to act is tried (the actions, `end`,
 * then the release tasks, which the same coach resolves, R4.1, R9.1) with
 * apply and undo, and positions reached in several ways are merged by
 * ball_hash() in a transposition table, so that the turn ends are searched
 * once each; the depth goes down by one at each hand-over. Iterative
 * deepening orders each turn by the one before (the table's decision
 * first, then captures of the ball and touchdowns, then a history of the
 * decisions that were best); decisions late in that order are searched one
 * turn less deep unless they prove better. At the last turn the position
 * is scored by an evaluation: by default a learned network (a correction
 * to the hand-written evaluation, #BALL_EVAL_NETWORK); with
 * ball_search_config::eval = #BALL_EVAL_HAND, the hand-written evaluation
 * alone, which counts the ball, its advance, the
 * carrier's cover and exposure, pieces down, a race to a loose ball, and
 * an exact one-turn probe for the coach to act: can it take the ball this
 * turn. A touchdown in the turns being searched is always found.
 *
 * Values are from the view of the coach to act at the root, in [-1, 1]:
 * +1 a proven win (a touchdown the opponent cannot prevent, within the
 * searched depth), -1 a proven loss, in between the evaluation squashed
 * (0 about even, +-0.5 about the worth of holding the ball). A proven
 * value also gives the number of decisions to the touchdown.
 *
 * A searcher allocates its table and buffers in ball_search_new() and
 * nothing during a search (a run may grow the game's undo history once,
 * as ball_history_reserve() does). It keeps its table between runs, so a
 * turn's later decisions reuse what its first search found; with a budget
 * in nodes (and no time budget) the same sequence of runs on a fresh
 * searcher gives the same results (with one thread). One searcher must
 * not run two searches at once; ball_search_stop() is the only call
 * another thread may make while a run is in progress.
 *  @{ */

/** A turn searcher (opaque). */
typedef struct ball_search ball_search;

/** Longest principal variation a ::ball_search_line holds, in decisions. */
#define BALL_SEARCH_PV_MAX 64

/** What an info callback receives during a search (see
 *  ball_search_config::info). Valid only during the call. */
typedef struct ball_search_info {
    /** sizeof(ball_search_info) as the library knows it: fields may be
     *  appended in later 1.x versions. */
    size_t size;
    /** Nodes (decisions played) so far. */
    uint64_t nodes;
    /** The deepest search completed, in turns (0 before the first). */
    int depth;
    /** The value of the best decision so far, as ball_search_result::value. */
    double value;
    /** +1 proven win, -1 proven loss, 0 not proven. */
    int proven;
    /** Milliseconds since the run began. */
    double elapsed_ms;
    /** The principal variation so far, from the root: the best decision,
     *  the rest of the turn and the opponent's reply. */
    const ball_action *pv;
    /** Its length. */
    int pv_len;
} ball_search_info;

/**
 * The settings of a turn searcher. Always initialise with
 * `ball_search_config_init(&cfg, sizeof cfg)`: the struct carries its own
 * size, like ::ball_rules. The defaults are the configuration
 * docs/players.md measured as the strongest, with a budget of 200,000
 * nodes. With several budgets the first one reached stops the search;
 * one of nodes, time_ms and depth must be set.
 */
typedef struct ball_search_config {
    /** sizeof(ball_search_config) as known to the caller. */
    size_t size;
    /** Nodes (decisions played, probes included) per run, 0 for no limit,
     *  at most 10^12. Default 200000. */
    uint64_t nodes;
    /** Wall-clock milliseconds per run, 0 for no limit, at most 86400000.
     *  A time budget makes the results depend on the machine. Default 0. */
    int time_ms;
    /** Deepest search in turns, 0 for no limit (the search stops at 64),
     *  at most 64. Default 0. */
    int depth;
    /** Search threads, 1-64, started by ball_search_new() (lazy SMP:
     *  each helper searches the same root in its own copy of the game,
     *  all share the table; the result is the calling thread's, which the
     *  helpers' entries make deeper sooner). With more than one thread the
     *  results are not repeatable, and the node budget counts the calling
     *  thread's nodes only. A WebAssembly build without threads searches
     *  with one. Default 1. */
    int threads;
    /** Breaks ties between equal evaluations (by a few thousandths of the
     *  value scale), so that games between the same players differ from
     *  one seed to the next. Default 1. */
    uint64_t seed;
    /** Root decisions whose value is searched exactly (multi-PV), 1-256;
     *  the others only until they are shown to be worse. Default 1. */
    int multipv;
    /** Size of the transposition table in MiB, 1-65536. Default 16. */
    int hash_mb;
    /** Called during a run with the progress, at the end of each depth
     *  and, with info_every_ms > 0, about every info_every_ms ms; a
     *  nonzero return stops the search as ball_search_stop() does. NULL
     *  (the default) for none. */
    int (*info)(void *ud, const ball_search_info *info);
    /** Passed unchanged to @c info. */
    void *info_ud;
    /** See @c info; 0-86400000. Default 0 (only at the end of a depth). */
    int info_every_ms;
    /** How the leaves are evaluated (::ball_search_evaluation):
     *  #BALL_EVAL_NETWORK (the default), the learned network the library
     *  carries, or #BALL_EVAL_HAND, the hand-written evaluation alone.
     *  ball_search_set_eval() replaces either with a caller's evaluation.
     *  @since 1.1 */
    int eval;
} ball_search_config;

/**
 * The evaluations a turn searcher is made with (ball_search_config::eval).
 * @since 1.1
 */
enum ball_search_evaluation {
    /** The learned network the library carries in its read-only data
     *  (the bytes of `share/net/nnue.net`; docs/training.md says how it
     *  was made): a correction to the hand-written evaluation from the
     *  pieces near the ball, summed incrementally as the search goes.
     *  About 1.15x the instructions a node, and stronger at equal time
     *  (docs/players.md). ball_search_new() loads it for the searcher, a
     *  copy of about 1 MB; its values are the same in every build. */
    BALL_EVAL_NETWORK = 0,
    /** The hand-written evaluation alone (the section text lists what it
     *  counts): the evaluation of 1.0, cheaper a node, and what the
     *  network corrects. */
    BALL_EVAL_HAND = 1
};

/** What a run found. Initialise with `ball_search_result_init(&r, sizeof
 *  r)` before ball_search_run(): the library writes no byte beyond its
 *  size. */
typedef struct ball_search_result {
    /** sizeof(ball_search_result) as known to the caller. */
    size_t size;
    /** The decision to play. */
    ball_action best;
    /** Its value for the coach to act, in [-1, 1] (see the section text). */
    double value;
    /** +1 proven win, -1 proven loss, 0 not proven. */
    int proven;
    /** For a proven value: decisions (both coaches') to the touchdown,
     *  counting the best one; else 0. */
    int decisions_to_end;
    /** The deepest search completed, in turns. */
    int depth;
    /** Nodes searched, by all threads. */
    uint64_t nodes;
    /** Time the run took, in milliseconds. */
    double elapsed_ms;
    /** 1 when ball_search_stop() or the info callback stopped the run. */
    int stopped;
} ball_search_result;

/** One root decision after a run: its value and principal variation, as
 *  written by ball_search_lines(). Initialise with
 *  `ball_search_line_init(&line, sizeof line)`. */
typedef struct ball_search_line {
    /** sizeof(ball_search_line) as known to the caller. */
    size_t size;
    /** The root decision. */
    ball_action action;
    /** Its value for the coach to act at the root, in [-1, 1]. */
    double value;
    /** 0: the value is exact at @c depth; 1: it is an upper bound (the
     *  decision was shown to be no better than the best, not by how
     *  much). */
    int bound;
    /** +1 proven win, -1 proven loss, 0 not proven. */
    int proven;
    /** The depth in turns of the search that gave @c value. */
    int depth;
    /** Nodes spent on this decision in that search. */
    uint64_t nodes;
    /** Decisions in @c pv. */
    int pv_len;
    /** The principal variation: @c action, the rest of its turn and the
     *  opponent's reply turn, each decision legal when replayed. */
    ball_action pv[BALL_SEARCH_PV_MAX];
} ball_search_line;

/** Fills @p cfg (of @p size bytes: pass sizeof(ball_search_config)) with
 *  the defaults and sets its size; writes at most @p size bytes. Does
 *  nothing for NULL. */
BALL_API void ball_search_config_init(ball_search_config *cfg, size_t size);

/** Zeroes @p result (of @p size bytes: pass sizeof(ball_search_result))
 *  and sets its size. Does nothing for NULL. */
BALL_API void ball_search_result_init(ball_search_result *result, size_t size);

/** Zeroes @p line (of @p size bytes: pass sizeof(ball_search_line)) and
 *  sets its size. Does nothing for NULL. */
BALL_API void ball_search_line_init(ball_search_line *line, size_t size);

/**
 * Creates a turn searcher with the settings @p cfg (NULL: the defaults) in
 * @p *out, allocating its transposition table (ball_search_config::hash_mb)
 * and buffers. Returns #BALL_OK; #BALL_E_ARG for a NULL @p out, a size
 * that is not a published one, a value out of its range or no budget at
 * all (@p err, @p errlen bytes, may be NULL/0, says which); #BALL_E_NOMEM.
 * On failure @p *out is NULL.
 */
BALL_API int ball_search_new(ball_search **out, const ball_search_config *cfg, char *err,
                             size_t errlen);

/** Frees a searcher (NULL is ignored). */
BALL_API void ball_search_free(ball_search *search);

/** Forgets what earlier runs stored in the table, so that the next run
 *  searches as a new searcher would. Returns #BALL_OK or #BALL_E_ARG. */
BALL_API int ball_search_clear(ball_search *search);

/**
 * Searches the position of @p game for the coach to act within the
 * searcher's budgets and writes what it found to @p result (NULL: not
 * written; ball_search_best_turn() and ball_search_lines() read it too).
 * The game is left exactly as it was (position, hash and history). A
 * position with one legal decision is answered at once. Returns #BALL_OK;
 * #BALL_E_ARG for NULL @p search or @p game, or a @p result whose size
 * is not a published one; #BALL_E_RANGE when the game has no legal
 * decision (it is over, or stopped at #BALL_MAX_TURN); #BALL_E_NOMEM when
 * the game's undo history could not grow. Messages go to ball_errmsg().
 */
BALL_API int ball_search_run(ball_search *search, ball_game *game, ball_search_result *result);

/**
 * Asks the run in progress on @p search to stop: it returns promptly with
 * the best decision found so far. The only call that may be made from
 * another thread during ball_search_run(); a run clears the request when
 * it starts. Does nothing for NULL.
 */
BALL_API void ball_search_stop(ball_search *search);

/**
 * After a run, the root decisions it searched, best first: writes up to
 * @p max lines to @p lines, an array whose elements all carry the size of
 * lines[0] (set each with ball_search_line_init()). The first
 * ball_search_config::multipv lines have exact values; the others may be
 * bounds (ball_search_line::bound). Returns the number of root decisions
 * searched (which may exceed @p max), 0 before any run; #BALL_E_ARG for
 * NULL or a size that is not a published one.
 */
BALL_API int ball_search_lines(const ball_search *search, ball_search_line *lines, size_t max);

/**
 * After a run, the best turn as far as the run knows it, written to
 * @p actions (capacity @p cap): the best decision, then the rest of its
 * turn, each decision the one the searcher's table keeps for the position
 * the one before leads to, up to the hand-over (or the touchdown). It
 * ends earlier, after the last decision the table knows, so that the
 * coach to act may still be to act after the last one, when:
 *  - the position had a single legal decision: it is answered at once,
 *    without a search (ball_search_result::depth 0), and the turn is that
 *    decision followed by what earlier runs left in the table (on a new or
 *    cleared searcher, that decision alone);
 *  - the budget (nodes, time) or a stop ended the run before depth 1 was
 *    completed (ball_search_result::depth 0): the turn is the best
 *    decision and what the table holds after it, the best decision alone
 *    when the run stored nothing there;
 *  - a position of the turn lost its table entry to another position's
 *    (rare; a small table, ball_search_config::hash_mb, makes it likelier).
 *
 * A caller that plays the turn checks ball_side() after the last decision
 * and searches again when the turn goes on. Returns the number of
 * decisions (at least 1 after a run that returned #BALL_OK, at most
 * #BALL_SEARCH_PV_MAX), 0 before any run; #BALL_E_BUFFER when @p cap is too small; #BALL_E_ARG
 * for NULL.
 */
BALL_API int ball_search_best_turn(const ball_search *search, ball_action *actions, size_t cap);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Learning interface
 *
 * What search and learning code (self-play, policy networks, RL
 * environments) expects of a game, in the style of OpenSpiel
 * (docs/learning.md gives the tables, a worked example and pictures):
 *  - a *fixed action space* of #BALL_ACTION_SPACE distinct indices, with
 *    a bijection between the legal decisions of a position and some of
 *    them: ball_action_to_index(), ball_action_from_index(),
 *    ball_legal_mask(), ball_legal_indices();
 *  - an *observation* tensor of documented shape: ball_observation()
 *    (float32) and ball_observation_bits() (packed bits);
 *  - the left-right *mirror* symmetry on indices and observations, for
 *    data augmentation: ball_index_mirror(), ball_observation_mirror(),
 *    ball_observation_bits_mirror();
 *  - *returns* and terminal information: ball_returns();
 *  - a *batch* of games stepped by one call (::ball_batch), for bindings
 *    that pay one foreign call per batch instead of one per game.
 *
 * **The side to act's frame.** Indices and observations describe the
 * position as the coach to act sees it, so that one network can play both
 * sides: for ATK the board is unchanged; for DEF the rows are flipped
 * (row r is read as row 18 - r, the column is kept). In this frame the
 * coach to act always scores in row 17 and defends row 1; "forward" means
 * towards row 17. The same decision of DEF and of ATK in mirrored-by-rows
 * positions has the same index.
 *
 * **Action space layout.** An index below #BALL_INDEX_END is
 * `plane * 111 + square`, the square (0-110, numbered as in the Board
 * geometry section) taken in the side to act's frame; the plane says what
 * the decision does from or to that square (::ball_index_plane). Then come
 * `end`, the conversions `pe+k` and the card plays. Directions, in the
 * side to act's frame as (columns, rows): 0 = (+1, +1), 1 = (-1, +1),
 * 2 = (+1, -1), 3 = (-1, -1) (the diagonal steps d); the two-square
 * vectors v are 0-3 = twice the diagonal d, 4 = (0, +2), 5 = (0, -2),
 * 6 = (+2, 0), 7 = (-2, 0).
 *
 * These functions never allocate; only ball_batch_new() and
 * ball_batch_game_clone() do.
 *  @{ */

/** Number of distinct action indices, for every ruleset (end-zone depth
 *  1-3, card mode with up to #BALL_MAX_HAND cards and `pe+k` up to
 *  #BALL_MAX_PA): 71 planes of 111 squares, `end`, 99 conversions and 9
 *  card plays. */
#define BALL_ACTION_SPACE 7990
/** Bytes of a legal mask in bits (#BALL_MASK_BITS): ceil(7990 / 8). */
#define BALL_ACTION_MASK_BYTES 999

/** The planes of the action space: the index of a decision of plane `p`
 *  from (or, for the last three, to) square `s` of the side to act's
 *  frame is `p * 111 + s`. */
enum ball_index_plane {
    /** 4 planes, + d: a one-square diagonal step in direction d from the
     *  square: move, pickup, block or protection in the action phase, a
     *  stand-up of the knocked-down piece there in the release phase. */
    BALL_PLANE_STEP = 0,
    /** 8 planes, + v: a plain two-square move (or pickup) by vector v. */
    BALL_PLANE_JUMP = 4,
    /** 32 planes, + 4 v + d: a two-square move by vector v with a
     *  sub-choice in diagonal direction d: a dodge (the target is
     *  from + v, the exit target + d) or a tactical dodge (the landing
     *  square is from + v, the push square the crossed square + d). */
    BALL_PLANE_DODGE = 12,
    /** 24 planes, + 2 pair + lower: the release of the stack on the
     *  square, the upper piece to U = stack + dU, the lower one to
     *  W = stack + dW (dU != dW); pair = 3 dU + (dW < dU ? dW : dW - 1);
     *  lower = 1 when the keeper is the lower piece (on W), else 0. */
    BALL_PLANE_RELEASE = 44,
    /** 1 plane: a hand-off to the receiver on the square. */
    BALL_PLANE_HANDOFF = 68,
    /** 1 plane: a short pass that puts the ball on the square. */
    BALL_PLANE_SHORT_PASS = 69,
    /** 1 plane: a long pass that puts the ball on the square. */
    BALL_PLANE_LONG_PASS = 70,
    /** Number of planes. */
    BALL_INDEX_PLANES = 71
};

/** Index of `end` (71 * 111); the conversion `pe+k` (k = 1 to
 *  #BALL_MAX_PA) is #BALL_INDEX_END + k. */
#define BALL_INDEX_END 7881
/** Index of the play of the card of hand index i (0 to
 *  #BALL_MAX_HAND - 1) of the coach to act is #BALL_INDEX_CARD + i. */
#define BALL_INDEX_CARD 7981

/**
 * The index (0 to #BALL_ACTION_SPACE - 1) of the legal action @p a in the
 * position of @p game. The legal actions of one position have distinct
 * indices. Returns the index; #BALL_E_ILLEGAL (message in ball_errmsg())
 * when @p a is not legal here, the game being over included; #BALL_E_ARG
 * for a NULL game.
 */
BALL_API int ball_action_to_index(ball_game *game, ball_action a);

/**
 * The legal action whose index is @p index in the position of @p game,
 * into @p *out: the inverse of ball_action_to_index(). Returns #BALL_OK;
 * #BALL_E_RANGE unless 0 <= @p index < #BALL_ACTION_SPACE;
 * #BALL_E_ILLEGAL when no legal action has this index here (the game
 * being over included; ball_errmsg() names the index's plane and square);
 * #BALL_E_ARG for NULL. @p *out is untouched on failure.
 */
BALL_API int ball_action_from_index(ball_game *game, int index, ball_action *out);

/** Flag of ball_legal_mask(): one bit per index instead of one byte. */
#define BALL_MASK_BITS 1

/**
 * Fills the legal mask of the position: with @p flags 0, @p mask[i] is 1
 * when index i is legal and 0 otherwise, for the #BALL_ACTION_SPACE bytes
 * (@p len must be at least that); with #BALL_MASK_BITS, bit i % 8 of byte
 * i / 8 (least significant bit first, numpy's `bitorder="little"`) over
 * #BALL_ACTION_MASK_BYTES bytes, the unused high bits of the last byte 0.
 * Only those bytes are written. Returns the number of legal actions (0
 * when the game is over); #BALL_E_BUFFER when @p len is too small;
 * #BALL_E_ARG for NULL or unknown flags.
 */
BALL_API int ball_legal_mask(ball_game *game, uint8_t *mask, size_t len, int flags);

/**
 * Writes the indices of the legal actions, in increasing order, into
 * @p out (capacity @p cap) and returns their number. With @p out NULL and
 * @p cap 0 it only counts. #BALL_E_BUFFER when @p cap is smaller than the
 * count (#BALL_MAX_ACTIONS always suffices); #BALL_E_ARG for NULL.
 */
BALL_API int ball_legal_indices(ball_game *game, int32_t *out, size_t cap);

/**
 * The index of the left-right mirror image of the decision of index
 * @p index: the decision that the mirrored position (column c read as
 * column 14 - c) has at the mirrored squares. `end`, conversions and card
 * plays are their own images. Applying it twice gives @p index back.
 * Returns #BALL_E_RANGE for an index outside 0 to #BALL_ACTION_SPACE - 1.
 */
BALL_API int ball_index_mirror(int index);

/** Flags of the observation functions (they may be combined). */
enum ball_obs_flags {
    /** Spatial planes over the whole 17 x 13 grid (row-major from row 1 of
     *  the side to act's frame, column A first; the 110 unplayable cells
     *  are 0) instead of the 111 playable squares. */
    BALL_OBS_GRID = 1,
    /** Each scalar feature is written as a constant plane of the spatial
     *  layout (AlphaZero style) instead of as one value after the planes. */
    BALL_OBS_SCALAR_PLANES = 2
};

/** The spatial planes of an observation, each over the squares (or
 *  cells) of the side to act's frame. "Own" is the coach to act. Every
 *  value of an observation is 0 or 1. */
enum ball_obs_plane {
    /** 24 planes, + 12 level + 6 owner + 2 (type - 1) + down: a piece of
     *  ::ball_piece_type `type`, of the coach to act (owner 0) or the
     *  other (owner 1), standing (down 0) or knocked down (down 1), alone
     *  or the upper piece of a stack (level 0) or the lower piece of a
     *  stack (level 1). */
    BALL_OBS_PIECES = 0,
    BALL_OBS_BALL = 24,       /**< The ball, loose or held. */
    BALL_OBS_LOOSE_BALL = 25, /**< The loose ball. */
    BALL_OBS_RESTRICTED = 26, /**< The restricted piece (R4.4). */
    BALL_OBS_FRESH = 27,      /**< A fresh stack (R7.4). */
    BALL_OBS_PLANES = 28      /**< Number of spatial planes. */
};

/** The scalar features of an observation, each 0 or 1, in this order
 *  after the planes (or as constant planes with #BALL_OBS_SCALAR_PLANES). */
enum ball_obs_scalar {
    BALL_SCALAR_DEF = 0,          /**< DEF is to act (the board is flipped). */
    BALL_SCALAR_RELEASE = 1,      /**< The release phase. */
    BALL_SCALAR_HANDOFF = 2,      /**< The last action was a hand-off (R8.2). */
    /** 4 features, + i: PA >= i + 1. */
    BALL_SCALAR_PA_AT_LEAST = 3,
    /** 7 features, + i: bit i of the PA (0-99). */
    BALL_SCALAR_PA_BITS = 7,
    BALL_SCALAR_TURN_LIMIT = 14,  /**< The ruleset has a turn limit. */
    /** 7 features, + i: with a turn limit L, the turns left including the
     *  current one, L - turn + 1, are at most 2^i (feature + 0: this is
     *  the last turn); all 0 without a limit. */
    BALL_SCALAR_TURNS_LEFT = 15,
    /** 2 features, + i: the end zones are at least i + 2 rows deep. */
    BALL_SCALAR_ZONE = 22,
    BALL_SCALAR_CARDS = 24,       /**< Card mode is on (R10). */
    /** 10 features, + i: bit i of the own PE, capped at 1023. */
    BALL_SCALAR_PE_OWN = 25,
    /** 10 features, + i: bit i of the other coach's PE, capped at 1023. */
    BALL_SCALAR_PE_OTHER = 35,
    /** 9 features, + i: the own card of hand index i is still held. */
    BALL_SCALAR_HAND_OWN = 45,
    /** 9 features, + i: the other coach's card i is still held. */
    BALL_SCALAR_HAND_OTHER = 54,
    BALL_OBS_SCALARS = 63         /**< Number of scalar features. */
};

/** Cells of a spatial plane with #BALL_OBS_GRID (17 rows x 13 columns). */
#define BALL_OBS_GRID_CELLS 221

/**
 * Number of values of an observation written with @p flags (a
 * combination of ::ball_obs_flags): P * C + S, with C = 111 squares (or
 * #BALL_OBS_GRID_CELLS with #BALL_OBS_GRID), P = #BALL_OBS_PLANES and
 * S = #BALL_OBS_SCALARS, or (P + S) * C with #BALL_OBS_SCALAR_PLANES
 * (3171, 6251, 10101, 20111). Returns #BALL_E_ARG for unknown flags.
 */
BALL_API int ball_observation_size(int flags);

/**
 * Writes the observation of the position, from the coach to act's point
 * of view (see the section text), as ball_observation_size(@p flags)
 * floats 0.0f or 1.0f into @p out: plane after plane, square by square
 * (or cell by cell), then the scalar features. @p len is the capacity in
 * floats. Returns #BALL_OK; #BALL_E_BUFFER when @p len is too small;
 * #BALL_E_ARG for NULL or unknown flags.
 */
BALL_API int ball_observation(const ball_game *game, int flags, float *out, size_t len);

/**
 * ball_observation() packed 8 values a byte: value i is bit i % 8 of
 * byte i / 8, least significant bit first (numpy's
 * `unpackbits(..., bitorder="little")` gives the floats back), over
 * (ball_observation_size(@p flags) + 7) / 8 bytes, the unused bits of the
 * last byte 0. @p len is the capacity in bytes. Same returns.
 */
BALL_API int ball_observation_bits(const ball_game *game, int flags, uint8_t *out, size_t len);

/**
 * Writes into @p out the left-right mirror image (column c to column
 * 14 - c) of the observation @p in written with @p flags: the observation
 * of the mirrored position. Scalar features do not change. @p in and
 * @p out may be the same buffer. @p len is the capacity of each in
 * floats. Returns #BALL_OK, #BALL_E_BUFFER or #BALL_E_ARG.
 */
BALL_API int ball_observation_mirror(int flags, const float *in, float *out, size_t len);

/** ball_observation_mirror() on an observation from
 *  ball_observation_bits(); @p len in bytes. */
BALL_API int ball_observation_bits_mirror(int flags, const uint8_t *in, uint8_t *out,
                                          size_t len);

/** How a game ended, as returned by ball_returns(). */
enum ball_terminal {
    BALL_NOT_TERMINAL = 0,       /**< The game goes on. */
    BALL_TERMINAL_TOUCHDOWN = 1, /**< A touchdown (R11.1). */
    BALL_TERMINAL_TURN_LIMIT = 2,/**< The turn limit: a draw (R11.2). */
    /** Batch only: the game is stopped at turn #BALL_MAX_TURN, every
     *  decision left would hand the turn over past it (none is legal); no
     *  winner. */
    BALL_TERMINAL_TRUNCATED = 3
};

/**
 * The returns of the game: @p returns[#BALL_ATK] and
 * @p returns[#BALL_DEF] receive +1 for the winner and -1 for the loser of
 * a touchdown, 0 and 0 for a draw or a game that goes on (@p returns may
 * be NULL). Returns the ::ball_terminal of the game (#BALL_NOT_TERMINAL,
 * #BALL_TERMINAL_TOUCHDOWN or #BALL_TERMINAL_TURN_LIMIT); #BALL_E_ARG for
 * a NULL game.
 */
BALL_API int ball_returns(const ball_game *game, float *returns);

/**
 * A batch of games stepped together under one ruleset, each replayed
 * from a start position (the standard start unless ball_batch_set_start()
 * names another) with an automatic reset whenever it ends. Create it with
 * ball_batch_new(), bind output buffers with ball_batch_set_output(),
 * start with ball_batch_reset() and call ball_batch_step() once per
 * decision of every game. A batch allocates only in ball_batch_new();
 * stepping never allocates. One batch must not be used by two threads at
 * once.
 */
typedef struct ball_batch ball_batch;

/** Most games in one batch. */
#define BALL_BATCH_MAX 1048576

/**
 * Creates a batch of @p n_games games (1 to #BALL_BATCH_MAX) under
 * @p rules (NULL: the defaults), whose observations are written with
 * @p obs_flags (::ball_obs_flags), all at the standard start and seeded
 * as by ball_batch_reset(batch, 0). Returns #BALL_OK; #BALL_E_RANGE for a
 * bad @p n_games; #BALL_E_ARG for a NULL @p out or unknown flags; what
 * ball_game_new() returns for bad rules; #BALL_E_NOMEM. On failure
 * @p *out is NULL and @p err (@p errlen bytes, may be NULL/0) says why.
 */
BALL_API int ball_batch_new(ball_batch **out, int n_games, const ball_rules *rules,
                            int obs_flags, char *err, size_t errlen);

/** Frees a batch (NULL is ignored). Bound buffers stay the caller's. */
BALL_API void ball_batch_free(ball_batch *batch);

/** The number of games of the batch; #BALL_E_ARG for NULL. */
BALL_API int ball_batch_size(const ball_batch *batch);

/** The outputs of a batch, bound with ball_batch_set_output(). Each is an
 *  array over the games, game i's part at offset i times its size. */
enum ball_batch_output {
    /** float[n][ball_observation_size(obs_flags)]: the observation of
     *  each game's current position (after an automatic reset: of the
     *  new game's start). */
    BALL_OUT_OBS = 0,
    /** uint8_t[n][(ball_observation_size(obs_flags) + 7) / 8]: the same
     *  packed as by ball_observation_bits(). */
    BALL_OUT_OBS_BITS = 1,
    /** uint8_t[n][#BALL_ACTION_SPACE]: the legal mask of the current
     *  position, as by ball_legal_mask() with flags 0. */
    BALL_OUT_MASK = 2,
    /** uint8_t[n][#BALL_ACTION_MASK_BYTES]: the same in bits. */
    BALL_OUT_MASK_BITS = 3,
    /** float[n][2]: the returns (ATK, DEF) of a game that ended in this
     *  step, as by ball_returns(); 0 otherwise. */
    BALL_OUT_REWARDS = 4,
    /** uint8_t[n]: the ::ball_terminal of a game that ended in this step
     *  (and was reset), 0 for the others. */
    BALL_OUT_DONE = 5,
    /** int32_t[n]: the index of the decision played in this step (the one
     *  given or the one drawn); -1 after ball_batch_reset(). */
    BALL_OUT_ACTIONS = 6,
    /** uint8_t[n]: the coach to act (#BALL_ATK or #BALL_DEF) of the
     *  current position, whose frame the observation uses. */
    BALL_OUT_SIDE = 7,
    /** Number of outputs. */
    BALL_OUT_COUNT = 8
};

/**
 * Binds the caller's buffer @p buf of @p bytes bytes to output @p output
 * (a ::ball_batch_output); a NULL @p buf unbinds it (the output is then
 * not computed, which saves time). Later calls of ball_batch_reset() and
 * ball_batch_step() write into the buffer, which must stay valid while it
 * is bound. Returns #BALL_OK; #BALL_E_BUFFER when @p bytes is smaller than
 * the output needs for the whole batch; #BALL_E_ARG for a NULL batch, an
 * unknown output or a buffer not aligned for its element type (4 bytes
 * for float and int32_t). ball_batch_errmsg() says what is wrong.
 */
BALL_API int ball_batch_set_output(ball_batch *batch, int output, void *buf, size_t bytes);

/**
 * Sets the position every game of the batch starts from at each reset,
 * ball_batch_reset() or automatic: the BPN @p bpn (read under the batch's
 * ruleset), or the standard start for NULL (the default). Games already
 * under way go on; call ball_batch_reset() to restart them all from it.
 * Returns #BALL_OK; #BALL_E_BPN for a text that is not a valid position,
 * #BALL_E_ILLEGAL for a position whose game is over (message in
 * ball_batch_errmsg()); #BALL_E_LIMIT for a start with no legal decision
 * (stopped at #BALL_MAX_TURN); #BALL_E_ARG for a NULL batch. On failure the
 * start is unchanged.
 */
BALL_API int ball_batch_set_start(ball_batch *batch, const char *bpn);

/**
 * Puts every game back at its start position and seeds the random
 * choices: game i draws its numbers from the splitmix64 generator whose
 * state starts at splitmix64 output i + 1 of @p seed (docs/learning.md
 * gives the code), and keeps drawing from it across automatic resets.
 * Writes the bound outputs for the start positions (rewards 0, done 0,
 * actions -1). Returns #BALL_OK or #BALL_E_ARG for NULL.
 */
BALL_API int ball_batch_reset(ball_batch *batch, uint64_t seed);

/**
 * Plays one decision in every game, then puts the games that ended back
 * at the start position and writes the bound outputs. With @p indices
 * NULL (and @p n 0) each game plays a uniformly random legal decision:
 * ball_random_action() with the next number of its generator. Otherwise
 * @p indices holds @p n = ball_batch_size() action indices, one per game,
 * each legal in its game's current position. All indices are checked
 * before any game changes: on failure no game has changed and no output
 * is written. A game left with no legal decision at turn #BALL_MAX_TURN
 * ends with #BALL_TERMINAL_TRUNCATED after the decision that led there. Does not allocate. Returns the number of
 * games that ended in this step;
 * #BALL_E_BUFFER when @p n is not the batch size; #BALL_E_RANGE for an
 * index outside 0 to #BALL_ACTION_SPACE - 1; #BALL_E_ILLEGAL for an index
 * not legal in its game; #BALL_E_ARG for NULL. ball_batch_errmsg() names
 * the game and the index.
 */
BALL_API int ball_batch_step(ball_batch *batch, const int32_t *indices, size_t n);

/**
 * Writes the BPN of game @p i of the batch into @p buf of @p len bytes,
 * like ball_position_to_text(). Returns its length; #BALL_E_RANGE for a
 * bad @p i; #BALL_E_BUFFER; #BALL_E_ARG for NULL.
 */
BALL_API int ball_batch_position_to_text(const ball_batch *batch, int i, char *buf,
                                         size_t len);

/**
 * Creates in @p *out an independent game (free it with ball_game_free())
 * under the batch's ruleset at the current position of game @p i, with
 * an empty undo history: for search from a batch position, or to read it
 * with the other calls. Returns #BALL_OK; #BALL_E_RANGE for a bad @p i;
 * #BALL_E_ARG for NULL; #BALL_E_NOMEM. On failure @p *out is NULL.
 */
BALL_API int ball_batch_game_clone(const ball_batch *batch, int i, ball_game **out);

/** The message of the last error reported on @p batch (empty after a
 *  success); "" for NULL. Valid until the next call on the batch. */
BALL_API const char *ball_batch_errmsg(const ball_batch *batch);

/** @} */

/* ================================================================== */
/** @name Advanced API
 *
 * Calls for search code and embedders that want control over memory.
 * They are as stable as the rest of the 1.x ABI, but trade checks for
 * speed: read each contract before use.
 *  @{ */

/**
 * ball_apply() without the legality check, for search code that only plays
 * actions from ball_legal_actions() of the same position. Playing anything
 * else is undefined behaviour. Returns #BALL_OK, #BALL_E_LIMIT (only for a
 * decision that is not listed) or #BALL_E_NOMEM.
 */
BALL_API int ball_apply_unchecked(ball_game *game, ball_action a);

/**
 * The legal action at position @p index (from 0) of the list that
 * ball_legal_actions() writes, found without listing the others. Writes it
 * to @p out and returns #BALL_OK; returns #BALL_E_RANGE (@p out untouched)
 * unless 0 <= @p index < the number of legal actions (none when the game
 * is over), #BALL_E_ARG for NULL. Does not allocate.
 *
 * @code
 * int n = ball_legal_actions(game, NULL, 0);
 * ball_action a;
 * if (n > 0 && ball_legal_action_at(game, rand() % n, &a) == BALL_OK)
 *     ball_apply_unchecked(game, a);
 * @endcode
 */
BALL_API int ball_legal_action_at(ball_game *game, int index, ball_action *out);

/**
 * Makes room for @p n more decisions in the undo history so that the next
 * @p n applies never allocate. Returns #BALL_OK, #BALL_E_ARG or
 * #BALL_E_NOMEM (also when the history would pass INT_MAX decisions).
 */
BALL_API int ball_history_reserve(ball_game *game, size_t n);

/**
 * Memory functions for one game, with a user pointer passed back to each.
 * Initialise with `ball_allocator_init(&alloc, sizeof alloc)` (the C
 * library's malloc, realloc and free) before replacing fields: the struct
 * carries its own size. A hook that returns NULL makes the call that
 * needed memory fail with #BALL_E_NOMEM and leave the game as it was.
 */
typedef struct ball_allocator {
    /** sizeof(ball_allocator) as known to the caller. */
    size_t size;
    /** Returns @p n bytes of memory, or NULL. */
    void *(*malloc_fn)(void *user, size_t n);
    /** Resizes @p ptr (NULL: allocate) to @p n bytes, or returns NULL and
     *  leaves @p ptr alone. */
    void *(*realloc_fn)(void *user, void *ptr, size_t n);
    /** Frees memory from the two functions above; never given NULL. */
    void (*free_fn)(void *user, void *ptr);
    /** Passed unchanged to each function. */
    void *user;
} ball_allocator;

/** Fills @p alloc (of @p size bytes: pass sizeof(ball_allocator)) with the
 *  C library's functions and sets its size; writes at most @p size bytes.
 *  Does nothing for NULL. */
BALL_API void ball_allocator_init(ball_allocator *alloc, size_t size);

/**
 * ball_game_new() with the memory functions of @p alloc (NULL: the C
 * library's). The game, its clones and its undo history use them for
 * their whole life. Returns what ball_game_new() returns; #BALL_E_ARG also
 * for an allocator whose size is not a published one or with a NULL
 * function.
 */
BALL_API int ball_game_new_with_allocator(ball_game **out, const ball_rules *rules,
                                          const ball_allocator *alloc, char *err,
                                          size_t errlen);

/** @} */

/* ================================================================== */
/** @name Experimental API
 *
 * Calls that are still being tried out, declared only when the program
 * defines `BALL_EXPERIMENTAL` before it includes this header (as zstd's
 * `ZSTD_STATIC_LINKING_ONLY`):
 * @code
 * #define BALL_EXPERIMENTAL
 * #include <ball.h>
 * @endcode
 * They are not covered by the 1.x promise: any minor release may change
 * or remove them (docs/abi.md, "The experimental tier"). Their symbols
 * carry the version node `LIBBALL_EXPERIMENTAL`, so a binary that uses
 * one says so, and meets a loader error, not a misbehaving call, on a
 * library that no longer has it; they are never part of the ABI
 * baseline. A call that proves itself moves to a stable section in a
 * later minor release, under that release's version node.
 *  @{ */

#ifdef BALL_EXPERIMENTAL

/**
 * What the last ball_mcts_choose() of @p mcts found out about each
 * decision of the root it searched (experimental): writes, for up to
 * @p cap of them, the decision to @p actions, its visits to @p visits and
 * its mean reward for the coach who was to act (0-1, as
 * ball_mcts_stats::value) to @p values, most visited first (ties to the
 * better mean), so that entry 0 is the decision the search chose. Any of
 * the three arrays may be NULL. Returns the number of decisions searched
 * (which may exceed @p cap): 0 before the first search, and after a
 * search that needed none (an immediate touchdown, a single legal
 * decision); #BALL_E_ARG for a NULL @p mcts. The results stay until the
 * next ball_mcts_choose(). Does not allocate.
 *
 * @code
 * ball_action acts[8];
 * uint32_t visits[8];
 * double values[8];
 * int n = ball_mcts_root_decisions(mcts, acts, visits, values, 8);
 * for (int i = 0; i < n && i < 8; i++)
 *     ... acts[i] was visited visits[i] times, value values[i] ...
 * @endcode
 */
BALL_API int ball_mcts_root_decisions(const ball_mcts *mcts, ball_action *actions,
                                      uint32_t *visits, double *values, size_t cap);

/**
 * A caller's evaluation for ball_search_set_eval() (experimental): the
 * value of the position of @p game (an action phase about to start, game
 * not over) for the coach to act, in (-1, 1), which replaces the built-in
 * evaluation's score. Called once at each leaf of the search (thousands of
 * times a run: a few per node of budget), each call counted as one node.
 * It must not change @p game.
 */
typedef double (*ball_search_eval_fn)(void *ud, const ball_game *game);

/**
 * A caller's prior for ball_search_set_prior() (experimental): writes a
 * score to @p scores[i] for each of the @p n legal decisions @p actions of
 * @p game, higher for the decisions to try first. Called once at every
 * node where the search orders decisions with at least one turn left to
 * search (about one call per 5-20 nodes); the table's decision still goes
 * first. It must not change @p game.
 */
typedef void (*ball_search_prior_fn)(void *ud, const ball_game *game, const ball_action *actions,
                                     int n, float *scores);

/**
 * Replaces the evaluation of @p search by @p eval (NULL: back to the
 * one ball_search_config::eval chose) with the user pointer @p ud
 * (experimental). Proven values
 * (a touchdown found by the search) still come from the search. Returns #BALL_OK or #BALL_E_ARG for NULL @p search.
 */
BALL_API int ball_search_set_eval(ball_search *search, ball_search_eval_fn eval, void *ud);

/**
 * Orders the decisions of @p search by @p prior (NULL: the built-in
 * order) with the user pointer @p ud (experimental). Returns #BALL_OK or
 * #BALL_E_ARG for NULL @p search.
 */
BALL_API int ball_search_set_prior(ball_search *search, ball_search_prior_fn prior, void *ud);

/**
 * Plays the legal action at position @p index (from 0) of the list that
 * ball_legal_actions() writes, without the legality check of ball_apply()
 * (experimental): ball_legal_action_at() and ball_apply_unchecked() in
 * one call, for a caller that chose an index from the list (a policy over
 * the legal decisions, a binding that keeps the list). Undone by
 * ball_undo() like any apply; ball_history_action() gives the action
 * played. Returns #BALL_OK; #BALL_E_RANGE unless 0 <= @p index < the
 * number of legal actions (none when the game is over or stopped at
 * #BALL_MAX_TURN; the message says which); #BALL_E_ARG for NULL;
 * #BALL_E_NOMEM when the undo history cannot grow. On failure the game is
 * unchanged. Allocates only as ball_apply() does (ball_history_reserve()).
 */
BALL_API int ball_apply_index(ball_game *game, int index);

/**
 * Plays the legal action that ball_random_action() draws with @p random,
 * without the legality check of ball_apply() (experimental): the draw and
 * the apply of a random playout in one call. Writes the action played to
 * @p out unless @p out is NULL (untouched on failure). Undone by
 * ball_undo() like any apply. Returns #BALL_OK; #BALL_E_RANGE when there
 * is no legal action (the game is over, or stopped at #BALL_MAX_TURN);
 * #BALL_E_ARG for a NULL @p game; #BALL_E_NOMEM when the undo history
 * cannot grow. On failure the game is unchanged. Allocates only as
 * ball_apply() does (ball_history_reserve()).
 *
 * @code
 * while (ball_random_apply(game, my_random64(), NULL) == BALL_OK)
 *     ;
 * @endcode
 */
BALL_API int ball_random_apply(ball_game *game, uint64_t random, ball_action *out);

/**
 * Plays random decisions from the current position until the game ends,
 * no legal decision is left (#BALL_MAX_TURN), or @p max_decisions have
 * been played (experimental): a whole random playout in one call.
 * Decision k (from 1) is the one ball_random_action() draws with output k
 * of a splitmix64 generator started at @p seed, so the same position and
 * @p seed always give the same playout, and this loop plays the same one:
 * @code
 * uint64_t state = seed;   // splitmix64, as docs/learning.md gives it
 * int played = 0;
 * while (played < max_decisions
 *        && ball_random_apply(game, splitmix64(&state), NULL) == BALL_OK)
 *     played++;
 * @endcode
 * Each decision is one entry of the undo history, as if applied one by
 * one: ball_undo() takes them back one at a time (as many calls as the
 * count returned take back the whole playout). Returns the number of decisions
 * played (0 when the game is already over or @p max_decisions is 0);
 * #BALL_E_RANGE for a negative @p max_decisions; #BALL_E_ARG for NULL;
 * #BALL_E_NOMEM when the undo history cannot grow, after taking back the
 * decisions this call played. On failure the game is unchanged. The
 * history grows as ball_apply() would grow it (reserve
 * @p max_decisions with ball_history_reserve() for no allocation at all);
 * nothing else allocates. Without a turn limit (R11.2's default) a random
 * game need not end before #BALL_MAX_TURN: from the start position 2 of
 * the seeds 1 to 2000 (465 and 792) were still going after 100,000
 * decisions, each carrier stuck in a stack in a corner, and the history
 * grows with every decision; so give @p max_decisions a real bound, or the
 * rules a turn limit, rather than INT_MAX.
 */
BALL_API int ball_random_playout(ball_game *game, uint64_t seed, int max_decisions);

/**
 * A learned evaluation (experimental): a small neural network read from
 * the file format of docs/network-format.md: format 2 (sparse features
 * seen from each coach's side, ball_net_features(), an int16 first layer
 * the turn search updates incrementally, then quantized layers: the
 * format of the shipped network), or format 1 (the observation bits of
 * ball_observation_bits(), a dense hidden layer or two with clipped
 * ReLU, one tanh output). Made by ball_net_load(), freed
 * by ball_net_free(); read-only once loaded, so one net may be used by
 * several threads at once (ball_net_evaluate() keeps its scratch on the
 * caller's stack, bounded by the largest hidden layer, 512 units).
 * Opaque.
 */
typedef struct ball_net ball_net;

/**
 * Reads a network from the @p len bytes at @p data (a whole file of the
 * format of docs/network-format.md, which the caller has read; the net
 * keeps its own copy of the weights). Checks, in this order, the size of
 * the header, the magic, the format version, the checksum, the
 * architecture, the observation flags and input size (which must equal
 * ball_observation_size() of the flags), the hidden sizes
 * (1-512 units; the second may be 0), the quantization, the
 * file's exact length, that every weight is finite and that the first
 * layer's weights and biases lie strictly between -128 and 128 (the
 * library sums that layer in fixed point, multiples of 2^-24, so that
 * its sums are exact and the same in every build). Returns #BALL_OK
 * with the net in @p *out; #BALL_E_ARG for NULL @p out or @p data, or a
 * file refused, with a message in @p err that says what and at which
 * byte offset ("net: byte 8: format version 7, this library reads 1");
 * #BALL_E_NOMEM. On failure @p *out is NULL. Allocates one block.
 */
BALL_API int ball_net_load(ball_net **out, const void *data, size_t len, char *err,
                           size_t errlen);

/** Frees @p net (NULL is ignored). */
BALL_API void ball_net_free(ball_net *net);

/**
 * The value of the position of @p game for the coach to act, in [-1, 1]
 * (the tanh of the network's output), into @p *value: the network of
 * @p net on ball_observation_bits() of @p game with the net's
 * observation flags. The first layer is summed over the set bits only,
 * in fixed point (docs/network-format.md). Returns #BALL_OK, #BALL_E_ARG
 * for a NULL argument. Does not allocate
 * and changes nothing: safe to call from several threads on one net.
 */
BALL_API int ball_net_evaluate(const ball_net *net, const ball_game *game, double *value);

/**
 * ball_net_evaluate() as a ::ball_search_eval_fn, @p net being the
 * ball_net: `ball_search_set_eval(search, ball_net_search_eval, net)`
 * makes the turn search evaluate its leaves with the network (the net
 * must outlive the search's runs; its lazy-SMP threads share it). The
 * search recognises this function: each of its threads then updates the
 * first layer from its previous leaf, adding and subtracting only the
 * columns of the observation bits that changed, with the same values as
 * a call of this function (integer sums). Returns 0.0 for a NULL
 * argument.
 */
BALL_API double ball_net_search_eval(void *net, const ball_game *game);

/**
 * The value the turn search @p search gives the position of @p game as
 * one of its leaves, for the coach to act, in [-1, 1] as
 * ball_search_result::value (its evaluation squashed the same way, without
 * the seeded tie-break): the evaluation set by ball_search_set_eval(), or
 * the one ball_search_config::eval chose. What a trainer compares a learned evaluation with on
 * the same targets (docs/training.md). For a finished game, +1, -1 or 0.
 * The search evaluates positions at the start of a turn; others are
 * evaluated as they are. Not during a run of @p search. Returns #BALL_OK;
 * #BALL_E_ARG for a NULL argument; #BALL_E_NOMEM when the game's history
 * cannot grow by the two decisions the built-in take probe plays (the
 * game is left as it was in every case).
 */
BALL_API int ball_search_evaluate(ball_search *search, ball_game *game, double *value);

/** The number of features of format-2 networks (feature set 1,
 * docs/network-format.md): indices 0 to BALL_NET_FEATURES - 1. */
#define BALL_NET_FEATURES 4783
/** The most features of feature set 1 active in one position
 * (ball_net_features()). */
#define BALL_NET_MAX_ACTIVE 32

/**
 * The features of format-2 networks (docs/network-format.md, "Feature
 * set 1") that are active in the position of @p game seen from the coach
 * @p perspective (#BALL_ATK or #BALL_DEF), into @p out: what a trainer
 * feeds a network's first layer (the library computes the same features
 * when it evaluates, so a trainer need not reimplement them). Written in
 * increasing square order, then the loose ball, end zone and turns
 * features; at most #BALL_NET_MAX_ACTIVE. Feature set 1 only: a network
 * of feature set 2 also reads the pieces near the ball by their offset
 * from it, which follow from this list (each piece's owner, type, state
 * and square, the ball's square) and the squares' columns and rows
 * (ball_square_col(), ball_square_row()), as docs/network-format.md,
 * "Feature set 2", says. Returns their number;
 * #BALL_E_ARG for a NULL argument or another @p perspective,
 * #BALL_E_BUFFER when @p cap is below the number. Changes nothing.
 */
BALL_API int ball_net_features(const ball_game *game, int perspective, uint16_t *out,
                               size_t cap);

#endif /* BALL_EXPERIMENTAL */

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* BALL_H */
