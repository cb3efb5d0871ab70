/**
 * @file ball.h
 * @brief libball: the rules engine of the board game BALL.
 *
 * BALL is a deterministic two-player game (an abstraction of American
 * football): coaches ATK and DEF move seven pieces each on the playable
 * squares of a 13 x 17 board, dodge, block, hand off and pass a single ball,
 * and win by carrying it into the opponent's end zone. The rules are those
 * of the project's RULES.md; this header cites them by id (R1 ... R12,
 * N1 ... N3).
 *
 * Where to start reading:
 *  - *Game lifetime*: ball_game_new(), ball_set_bpn(), ball_game_free().
 *  - *Actions*: ball_legal_actions(), ball_apply(), ball_undo(). An action
 *    is a plain integer (::ball_action) that encodes a whole decision.
 *  - *Notation*: ball_get_bpn() / ball_set_bpn() for positions (N1),
 *    ball_action_text() / ball_action_parse() for actions (N2).
 *
 * Conventions, valid for every function below:
 *  - Every call takes the game handle first. Functions that can fail return
 *    a negative ::ball_error code; on failure the game state is unchanged
 *    and ball_errmsg() describes what went wrong and where.
 *  - The library never allocates in ball_legal_actions(), ball_apply()
 *    (unless the undo history must grow, see ball_history_reserve()) or
 *    ball_undo(); it has no global mutable state and never prints.
 *  - Distinct handles may be used from distinct threads at the same time;
 *    one handle must not be used by two threads at once.
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

/** Major version; the shared library's soname carries it (libball.so.0). */
#define BALL_VERSION_MAJOR 0
/** Minor version: grows with backward-compatible additions. */
#define BALL_VERSION_MINOR 1
/** Patch version: grows with fixes. */
#define BALL_VERSION_PATCH 0
/** The version as one number, major * 10000 + minor * 100 + patch. */
#define BALL_VERSION_NUMBER \
    (BALL_VERSION_MAJOR * 10000 + BALL_VERSION_MINOR * 100 + BALL_VERSION_PATCH)
/** The version as text, "major.minor.patch". */
#define BALL_VERSION_STRING "0.1.0"

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

/** Version of the loaded library as a static string, e.g. "0.1.0". */
BALL_API const char *ball_version_string(void);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Errors
 *  @{ */

/** Result codes. Success is 0 (or a non-negative count); errors are < 0. */
enum ball_error {
    BALL_OK = 0,             /**< Success. */
    BALL_E_ARG = -1,         /**< A NULL pointer or an invalid argument. */
    BALL_E_NOMEM = -2,       /**< Memory allocation failed. */
    BALL_E_BPN = -3,         /**< Malformed or invalid position text (N1). */
    BALL_E_NOTATION = -4,    /**< Malformed action text (N2). */
    BALL_E_ILLEGAL = -5,     /**< The action is not legal in this position. */
    BALL_E_BUFFER = -6,      /**< The caller's buffer is too small. */
    BALL_E_RANGE = -7,       /**< A numeric value is out of its range. */
    BALL_E_NO_HISTORY = -8   /**< ball_undo() with nothing to take back. */
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

/**
 * Index of the square named @p name ("G5", "M17"; upper-case column letter,
 * row without leading zero, nothing after it). Returns #BALL_E_ARG for NULL,
 * #BALL_E_NOTATION for a name that is not a playable square.
 */
BALL_API int ball_square_from_name(const char *name);

/**
 * Writes the name of square @p sq ("G5") with its terminating NUL into
 * @p buf of @p len bytes (4 bytes always suffice). Returns the name's length,
 * #BALL_E_RANGE for a bad square, #BALL_E_ARG for NULL, #BALL_E_BUFFER when
 * @p len is too small.
 */
BALL_API int ball_square_name(int sq, char *buf, size_t len);

/** Distance between two squares (R1.3), or #BALL_E_RANGE. */
BALL_API int ball_square_distance(int a, int b);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Rulesets
 *  @{ */

/** Entries of the PE earning table (R10.3), indices of ball_cards::earn.
 *  One decision can earn several entries: see ball_cards::earn. */
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
    BALL_EARN_COUNT = 13          /**< Number of entries. */
};

/** Card effect primitives (R10.5). */
enum ball_card_effect {
    /** Gain ball_card::amount PA (1-9) in this action phase (PA never
     *  exceed 99: a gain beyond that is lost). */
    BALL_EFFECT_GAIN_PA = 1,
    /** The restricted piece of the coach (R4.4) may act again this turn:
     *  its restriction is lifted. Needs a restricted piece; the card play
     *  names its square. ball_card::amount must be 0. */
    BALL_EFFECT_UNRESTRICT = 2
};

/** Most cards in one coach's hand. */
#define BALL_MAX_HAND 9
/** Size of a card name including its NUL. */
#define BALL_CARD_NAME_MAX 24

/** One card (R10.4): a name, a PE cost and an effect. */
typedef struct ball_card {
    /** Name for people: letters, digits, '_' or '-', NUL-terminated. */
    char name[BALL_CARD_NAME_MAX];
    /** PE paid to play it, 0-999. */
    int cost;
    /** A ::ball_card_effect. */
    int effect;
    /** The effect's number (PA gained), or 0 when it takes none. */
    int amount;
} ball_card;

/**
 * The card ruleset (R10): the PE earning table and both hands. Initialise
 * with ball_cards_init() (all entries 0, empty hands): the struct carries
 * its own size.
 *
 * Earning: a decision earns the entry of its kind, plus
 * #BALL_EARN_PICKUP when it takes the loose ball (a move, a dodge exit or a
 * tactical-dodge landing onto it) and #BALL_EARN_FORCED_FUMBLE when a dodge
 * takes the ball from the dodged piece. A move onto the loose ball thus
 * earns #BALL_EARN_MOVE + #BALL_EARN_PICKUP. `end`, PA conversions and card
 * plays earn nothing. PE go to the coach who made the decision and can be
 * spent in the same turn.
 */
typedef struct ball_cards {
    /** sizeof(ball_cards) as known to the caller; set by ball_cards_init(). */
    size_t size;
    /** PE earned per entry, indexed by ::ball_earn, each 0-999. */
    int earn[BALL_EARN_COUNT];
    /** Cards in each hand (0-#BALL_MAX_HAND), indexed by ::ball_team. */
    int hand_size[2];
    /** The hands, indexed by ::ball_team then hand index. */
    ball_card hand[2][BALL_MAX_HAND];
} ball_cards;

/** Fills @p cards (of @p size bytes: pass sizeof(ball_cards)) with an
 *  all-zero earning table and empty hands, and sets its size field. Writes
 *  at most @p size bytes. Does nothing for NULL. */
BALL_API void ball_cards_init(ball_cards *cards, size_t size);

/**
 * The rule options of a game, fixed at creation. Always initialise with
 * `ball_rules_init(&rules, sizeof rules)` before changing fields: the
 * struct carries its own size
 * so that later versions can add fields without breaking compiled callers.
 */
typedef struct ball_rules {
    /** sizeof(ball_rules) as known to the caller; set by ball_rules_init(). */
    size_t size;
    /** Rows in each end zone, 1-3 (R1.4). Default 1. */
    int end_zone_depth;
    /** Last turn that may be played; 0 means no limit (R11.2). Default 0. */
    unsigned turn_limit;
    /** Reserved; must be 0. */
    unsigned flags;
    /** Card mode (R10): the card ruleset, or NULL (the default) for a game
     *  without PE and cards. It is copied at creation. */
    const ball_cards *cards;
} ball_rules;

/**
 * Reads a whole ruleset from one line of text, for bindings and command
 * lines, into @p rules and @p cards (both are initialised first; when card
 * mode is on, @p rules->cards points to @p cards). Words are separated by
 * spaces:
 *  - `zone=N` end-zone depth 1-3; `turns=N` turn limit (0: none);
 *  - `cards` turns card mode on (any of the words below does too);
 *  - `earn.ENTRY=N` an earning-table entry, ENTRY one of move pickup dodge
 *    fumble tactical block protect handoff short long standup unblock
 *    unprotect;
 *  - `atk=CARD,CARD...` / `def=...` a hand, CARD being `NAME:COST:EFFECT`
 *    with EFFECT `pa+N` (#BALL_EFFECT_GAIN_PA) or `again`
 *    (#BALL_EFFECT_UNRESTRICT).
 *
 * Example: `zone=2 earn.dodge=1 earn.fumble=2 atk=Sprint:2:pa+1,Rally:3:again def=Sprint:2:pa+1`.
 * An empty text is the default ruleset. Returns #BALL_OK, or #BALL_E_ARG
 * for NULL pointers and #BALL_E_RANGE for a bad text, with a message in
 * @p err (@p errlen bytes, may be NULL/0) that says which word is wrong.
 */
BALL_API int ball_rules_parse(ball_rules *rules, ball_cards *cards, const char *text,
                              char *err, size_t errlen);

/**
 * Checks a ruleset as ball_game_new() would, with a message saying what is
 * wrong in @p err (@p errlen bytes; may be NULL/0). Returns #BALL_OK,
 * #BALL_E_ARG (NULL, bad struct size) or #BALL_E_RANGE (a value out of
 * range, a bad card).
 */
BALL_API int ball_rules_check(const ball_rules *rules, char *err, size_t errlen);

/**
 * Fills @p rules with the defaults (end zones 1 row deep, no turn limit,
 * card mode off) and sets its size field. @p size is the size of the
 * caller's struct, sizeof(ball_rules) as the caller's header knows it: at
 * most that many bytes are written, so a program built against an older,
 * smaller ball_rules stays safe with a newer library. Does nothing for NULL.
 */
BALL_API void ball_rules_init(ball_rules *rules, size_t size);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Game lifetime
 *  @{ */

/** An opaque game: a position, its ruleset, and the undo history. */
typedef struct ball_game ball_game;

/**
 * Creates a game at the standard start (R2.2, N1) under @p rules (NULL for
 * the defaults) and stores it in @p *out. Returns #BALL_OK, #BALL_E_ARG when
 * @p out is NULL or @p rules has a bad size, #BALL_E_RANGE when a rule value
 * is out of range, #BALL_E_NOMEM. On failure @p *out is set to NULL.
 */
BALL_API int ball_game_new(ball_game **out, const ball_rules *rules);

/**
 * Creates an independent copy of @p game (position, ruleset and undo
 * history) in @p *out. Returns #BALL_OK, #BALL_E_ARG or #BALL_E_NOMEM; on
 * failure @p *out is set to NULL.
 */
BALL_API int ball_game_clone(ball_game **out, const ball_game *game);

/**
 * Memory functions for one game, with a user pointer passed back to each.
 * Initialise with `ball_allocator_init(&alloc, sizeof alloc)` (the C
 * library's malloc, realloc and
 * free) before replacing fields: the struct carries its own size. A hook
 * that returns NULL makes the call that needed memory fail with
 * #BALL_E_NOMEM and leave the game as it was.
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
 * for an allocator with a bad size or a NULL function.
 */
BALL_API int ball_game_new_with_allocator(ball_game **out, const ball_rules *rules,
                                          const ball_allocator *alloc);

/** Frees a game. NULL is accepted and ignored. */
BALL_API void ball_game_free(ball_game *game);

/** Copies the game's ruleset into @p *out, which the caller has set up
 *  with ball_rules_init() first: at most @p out->size bytes are written. In
 *  card mode @p out->cards points to the game's own copy of the card
 *  ruleset, valid while the game lives. Returns #BALL_OK, or #BALL_E_ARG
 *  for NULL or a size too small for the first version of the struct. */
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

/** The coach to act: #BALL_ATK or #BALL_DEF. Once the game is over: after a
 *  touchdown, the coach who made the last decision (R11.1: no hand-over);
 *  after a turn-limit draw, the coach whose turn would have come next (the
 *  hand-over happened, R11.2). -1 for NULL. */
BALL_API int ball_side(const ball_game *game);

/** The phase: #BALL_PHASE_ACTION or #BALL_PHASE_RELEASE; -1 for NULL. */
BALL_API int ball_phase(const ball_game *game);

/** PA left in this action phase: 0-2, up to 99 in card mode (always 0 in
 *  the release phase); -1 for NULL. */
BALL_API int ball_pa(const ball_game *game);

/** 1 if the last action of this action phase was a hand-off (R8.2, the `h`
 *  of N1), else 0; -1 for NULL. */
BALL_API int ball_handoff_last(const ball_game *game);

/** The turn number, from 1 (R2.3); 0 for NULL. */
BALL_API unsigned ball_turn(const ball_game *game);

/** The result, a ::ball_result; -1 for NULL. */
BALL_API int ball_result(const ball_game *game);

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

/**
 * The piece code (::ball_piece_bits) of the piece on square @p sq at
 * @p level, 0 when there is none. Returns #BALL_E_ARG for a NULL game or a
 * bad level, #BALL_E_RANGE for a bad square.
 */
BALL_API int ball_piece(const ball_game *game, int sq, int level);

/** Bits of a square's state as returned by ball_square_state(). */
enum ball_square_bits {
    BALL_SQ_PIECE = 0x01,      /**< At least one piece stands or lies here. */
    BALL_SQ_STACK = 0x02,      /**< Two pieces: a stack (R7). */
    BALL_SQ_FRESH = 0x04,      /**< A stack made this turn (R7.4). */
    BALL_SQ_LOOSE_BALL = 0x08, /**< The loose ball lies here. */
    BALL_SQ_BALL = 0x10        /**< The ball is here, loose or held. */
};

/**
 * The state of square @p sq as ::ball_square_bits (0 = vacant). Returns
 * #BALL_E_ARG for a NULL game, #BALL_E_RANGE for a bad square.
 */
BALL_API int ball_square_state(const ball_game *game, int sq);

/** The square of the ball (loose or held); #BALL_E_ARG for NULL. */
BALL_API int ball_ball_square(const ball_game *game);

/**
 * The square of the restricted piece of the coach to act, or -1 when no
 * piece is restricted (or @p game is NULL). Only the ball carrier can be restricted (it took the
 * ball this turn by a pickup or a forced fumble, R4.4), so there is at most
 * one.
 */
BALL_API int ball_restricted_square(const ball_game *game);

/** Card mode: the PE of @p team (R10.1); 0 outside card mode, -1 for a NULL
 *  game or a bad team. */
BALL_API long ball_pe(const ball_game *game, int team);

/**
 * Card mode: the cards still in the hand of @p team as a bit mask (bit i
 * set: hand index i can still be played; cards leave the hand for good when
 * played, R10.4). 0 outside card mode, -1 for a NULL game or a bad team.
 * The cards themselves are in the game's ruleset (ball_game_rules()).
 */
BALL_API int ball_hand(const ball_game *game, int team);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Actions
 *
 * An action is a 32-bit integer that encodes one whole decision: its kind,
 * its squares, its flags and, for a release, the keeper. Actions come from
 * ball_legal_actions() or ball_action_parse(); the accessors below read
 * them without a game. Two equal integers are the same decision. 0 is never
 * an action (#BALL_ACTION_NONE).
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

/** Kinds of actions (R5-R9). */
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

/** The ::ball_action_kind of @p a, or 0 for an invalid value. */
BALL_API int ball_action_kind(ball_action a);

/**
 * The first square of @p a: the moving piece's square, the carrier, the
 * knocked-down piece (stand-up) or the stack (release). -1 for `end` and
 * for invalid values.
 */
BALL_API int ball_action_from(ball_action a);

/**
 * The second square of @p a: destination of a move, block or protection;
 * the target of a dodge; the landing square of a tactical dodge; the
 * receiver of a hand-off; the ball square of a pass; the destination of a
 * stand-up; the upper piece's square U of a release. -1 for `end` and for
 * invalid values.
 */
BALL_API int ball_action_to(ball_action a);

/**
 * The third square of @p a: the exit of a dodge, the push square of a
 * tactical dodge, the lower piece's square W of a release; -1 otherwise.
 */
BALL_API int ball_action_option(ball_action a);

/** The ::ball_keeper of a release; #BALL_KEEPER_NONE otherwise. */
BALL_API int ball_action_keeper(ball_action a);

/** The ::ball_action_flags of @p a (0 for none or an invalid value). */
BALL_API int ball_action_flags(ball_action a);

/** PA cost of @p a (R4.3): 0, 1 or 2, k for a conversion `pe+k`; -1 for an
 *  invalid value. */
BALL_API int ball_action_cost(ball_action a);

/**
 * The number carried by a card-mode action: k of a PA conversion `pe+k`
 * (#BALL_CONVERT_PA), the hand index (0-based) of a card play
 * (#BALL_PLAY_CARD); -1 for other actions. A card play's target square, if
 * it has one, is ball_action_from().
 */
BALL_API int ball_action_value(ball_action a);

/**
 * Writes the legal actions of the position into @p out (capacity @p cap)
 * and returns their number, in a fixed order that depends only on the
 * position: in the action phase the actions of each piece (pieces in
 * square order; docs/rules-choices.md gives the details), then the
 * carrier's hand-offs, short passes and long passes, then card-mode
 * actions, `end` last; in the release phase the solutions task by task in
 * square order. Returns 0 when the game is over.
 * With @p out NULL and @p cap 0 it only counts (faster than listing).
 * Returns #BALL_E_BUFFER (and leaves @p out unspecified) when @p cap is
 * smaller than the count; a buffer of #BALL_MAX_ACTIONS never is. With
 * @p cap >= #BALL_MAX_ACTIONS the actions are written in place and the
 * entries after the count may be overwritten too. Does not allocate.
 */
BALL_API int ball_legal_actions(ball_game *game, ball_action *out, size_t cap);

/**
 * The legal action at position @p index (from 0) of the list that
 * ball_legal_actions() writes, found without listing the others: for
 * random playouts, where counting the actions (ball_legal_actions() with
 * @p out NULL and @p cap 0) and fetching one is cheaper than listing them
 * all. Writes it to @p out and returns #BALL_OK; returns #BALL_E_RANGE
 * (@p out untouched) unless 0 <= @p index < the number of legal actions
 * (none when the game is over), #BALL_E_ARG for NULL. Does not allocate.
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
 * A legal action chosen by the 64-bit number @p random, for random
 * playouts: with n legal actions, the one numbered
 * floor(@p random * n / 2^64) in an order of the generator's own (not the
 * order of ball_legal_actions(), which costs more to walk). Each legal
 * action is chosen by floor(2^64 / n) or ceil(2^64 / n) of the values, so
 * a uniformly random @p random gives a uniformly random legal action. The
 * library has no random number generator: pass one from yours. The same
 * position and @p random always give the same action.
 * Writes it to @p out and returns #BALL_OK; #BALL_E_RANGE (@p out
 * untouched) when there is no legal action (the game is over);
 * #BALL_E_ARG for NULL. Does not allocate. About as fast as counting the
 * legal actions twice, and faster than listing them.
 *
 * @code
 * ball_action a;
 * while (ball_random_action(game, my_random64(), &a) == BALL_OK)
 *     ball_apply_unchecked(game, a);
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
 * ball_errmsg()) if @p a is not legal; #BALL_E_NOMEM if the undo history
 * could not grow.
 */
BALL_API int ball_apply(ball_game *game, ball_action a);

/**
 * ball_apply() without the legality check, for search code that only plays
 * actions from ball_legal_actions() of the same position. Playing anything
 * else is undefined behaviour. Returns #BALL_OK or #BALL_E_NOMEM.
 */
BALL_API int ball_apply_unchecked(ball_game *game, ball_action a);

/**
 * Takes back the last decision, restoring the previous state bit for bit
 * (same BPN). May be repeated back to the position the game was created or
 * last set with. Returns #BALL_OK, or #BALL_E_NO_HISTORY when there is
 * nothing to take back.
 */
BALL_API int ball_undo(ball_game *game);

/** Number of decisions ball_undo() can take back; 0 for NULL. */
BALL_API size_t ball_history_length(const ball_game *game);

/**
 * Makes room for @p n more decisions in the undo history so that the next
 * @p n applies never allocate. Returns #BALL_OK, #BALL_E_ARG or
 * #BALL_E_NOMEM.
 */
BALL_API int ball_history_reserve(ball_game *game, size_t n);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Release phase (R9)
 *
 * After `end` the coach resolves the mandatory tasks one at a time: each own
 * knocked-down piece that is not stacked must stand up, each non-fresh stack
 * whose upper piece is the coach's must be released. ball_legal_actions()
 * lists the solutions of all tasks; the functions here show them task by
 * task. The turn passes automatically inside ball_apply() as soon as no
 * remaining task has a solution.
 *
 * A task is an int like an action: read it with ball_task_square(),
 * ball_task_kind() and ball_task_solvable().
 *  @{ */

/** Kinds of release tasks. */
enum ball_task_kind {
    BALL_TASK_STAND_UP = 1, /**< A knocked-down own piece (R9.2). */
    BALL_TASK_RELEASE = 2   /**< A non-fresh stack with an own upper (R9.3). */
};

/**
 * Writes the tasks of the release phase, in square order, into @p out
 * (capacity @p cap) and returns their number: 0 outside the release phase
 * or when the game is over. Tasks without a solution are listed too. With
 * @p out NULL and @p cap 0 it only counts; #BALL_E_BUFFER when @p cap is too
 * small (14 always suffices).
 */
BALL_API int ball_release_tasks(ball_game *game, int *out, size_t cap);

/** The square of task @p task (the piece or the stack); -1 if invalid. */
BALL_API int ball_task_square(int task);

/** The ::ball_task_kind of @p task; 0 if invalid. */
BALL_API int ball_task_kind(int task);

/** 1 if @p task has at least one solution now, else 0. */
BALL_API int ball_task_solvable(int task);

/**
 * Writes the solutions of the task on square @p sq (the legal actions
 * starting there) into @p out and returns their number, like
 * ball_legal_actions(). Returns 0 for a task without a solution,
 * #BALL_E_ILLEGAL when there is no task on @p sq (or it is not the release
 * phase), #BALL_E_RANGE for a bad square.
 */
BALL_API int ball_task_solutions(ball_game *game, int sq, ball_action *out,
                                 size_t cap);

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
 * #BALL_E_ILLEGAL when the choices so far lead to no legal action, #BALL_E_BUFFER when @p cap is too small
 * (#BALL_NUM_SQUARES always suffices), #BALL_E_ARG for bad pointers or
 * @p n_chosen > 5.
 */
BALL_API int ball_select(ball_game *game, const int *chosen, size_t n_chosen,
                         int *choices, size_t cap, ball_action *action);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Notation (N1, N2)
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
BALL_API int ball_get_bpn(ball_game *game, char *buf, size_t len);

/**
 * Replaces the position by the one in @p bpn (strict N1, under the game's
 * ruleset; in card mode an eighth field lists the cards still in each hand,
 * see docs/cards.md) and clears the undo history: the new position becomes the one
 * ball_undo() returns to. Returns #BALL_OK or #BALL_E_BPN (position
 * unchanged; ball_errmsg() says what is wrong and where).
 */
BALL_API int ball_set_bpn(ball_game *game, const char *bpn);

/**
 * Writes the N2 text of action @p a ("G5-F6", "E9-E7/D6", "end", ...) into
 * @p buf of @p len bytes and returns its length. The text depends only on
 * the action. #BALL_E_ARG for an invalid action or NULL buffer,
 * #BALL_E_BUFFER when @p len is too small (#BALL_ACTION_TEXT_MAX always
 * suffices).
 */
BALL_API int ball_action_text(ball_action a, char *buf, size_t len);

/**
 * Reads the N2 text @p text as an action of the current position and
 * stores it in @p *out. Returns #BALL_OK; #BALL_E_NOTATION when the text is
 * malformed; #BALL_E_ILLEGAL when it is well formed but names no legal
 * action here (ball_errmsg() says why).
 */
BALL_API int ball_action_parse(ball_game *game, const char *text,
                               ball_action *out);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Analysis (N3)
 *  @{ */

/**
 * Counts the decision sequences of exactly @p depth decisions from the
 * position (perft, N3) into @p *count. The game is left unchanged. Returns
 * #BALL_OK, #BALL_E_ARG, or #BALL_E_RANGE for a negative depth or one above
 * 64.
 */
BALL_API int ball_perft(ball_game *game, int depth, uint64_t *count);

/**
 * A 64-bit hash of the position (Zobrist style), kept up to date by
 * ball_apply() and ball_undo() at almost no cost. Equal positions have
 * equal hashes whatever the way they were reached; the turn number is not
 * part of it (so positions repeated at different turns match in a
 * transposition table), everything else that BPN records is. Different
 * positions collide with probability about 2^-64. 0 for NULL.
 */
BALL_API uint64_t ball_hash(const ball_game *game);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* BALL_H */
