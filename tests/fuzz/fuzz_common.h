/* Checks shared by the fuzz targets in tests/fuzz/. Everything goes through
 * the public API of ball.h: the targets see the library as a frontend or a
 * binding would.
 *
 * Each target is one .c file that includes this header and defines
 * LLVMFuzzerTestOneInput(). Built with clang -fsanitize=fuzzer it is a
 * libFuzzer target (`make fuzz`); built with replay_main.c it is a plain
 * program that runs the files of corpus folders (`make fuzz-replay`).
 *
 * A failed check prints what failed, the position (BPN) and the last note
 * the target left with fuzz_note(), then aborts: libFuzzer saves the input
 * as a crash, the replay program dies with SIGABRT. */
#ifndef BALL_FUZZ_COMMON_H
#define BALL_FUZZ_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the target was doing, printed when a check fails: a text note
 * (fuzz_note(), formatted at once, for rare events) and the action being
 * checked (fuzz_note_action(), cheap enough for inner loops). */
static char fuzz_note_buf[512];
static struct {
    const char *what;
    int i, n;
    ball_action a;
} fuzz_act_note;

static inline void fuzz_note_action(const char *what, int i, int n, ball_action a)
{
    fuzz_act_note.what = what;
    fuzz_act_note.i = i;
    fuzz_act_note.n = n;
    fuzz_act_note.a = a;
}

static inline void fuzz_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static inline void fuzz_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fuzz_note_buf, sizeof fuzz_note_buf, fmt, ap);
    va_end(ap);
    fuzz_act_note.what = NULL;
}

static inline void fuzz_fail(ball_game *g, const char *file, int line, const char *what)
{
    char bpn[BALL_BPN_MAX] = "(no game)";
    if (g && ball_position_to_text(g, bpn, sizeof bpn) < 0)
        strcpy(bpn, "(BPN unavailable)");
    fprintf(stderr, "\n*** fuzz check failed at %s:%d: %s\n    position: %s\n    note: %s\n"
                    "    last error message: %s\n",
            file, line, what, bpn, fuzz_note_buf, g ? ball_errmsg(g) : "");
    if (fuzz_act_note.what) {
        char text[BALL_ACTION_TEXT_MAX] = "?";
        ball_action_to_text(fuzz_act_note.a, text, sizeof text);
        fprintf(stderr, "    action: %s, %d of %d: 0x%08x '%s'\n", fuzz_act_note.what, fuzz_act_note.i,
                fuzz_act_note.n, (unsigned)fuzz_act_note.a, text);
    }
    fflush(stderr);
    abort();
}

/* FUZZ_CHECK(g, cond): g is the game to show (may be NULL). */
#define FUZZ_CHECK(g, cond) \
    do { \
        if (!(cond)) \
            fuzz_fail((g), __FILE__, __LINE__, #cond); \
    } while (0)

/* ------------------------------------------------------------ helpers */

/* The input as a C string (up to its first NUL, at most cap - 1 bytes) in
 * a heap block of exactly its length plus one, so that a parser reading
 * past the terminating NUL reads past the block and ASan reports it (an
 * oversized buffer would hide it). Free it with free(). */
static inline char *fuzz_text(const uint8_t *data, size_t size, size_t cap)
{
    size_t n = size < cap - 1 ? size : cap - 1;
    const void *nul = n ? memchr(data, 0, n) : NULL;
    if (nul)
        n = (size_t)((const uint8_t *)nul - data);
    char *text = malloc(n + 1);
    FUZZ_CHECK(NULL, text != NULL);
    if (n)
        memcpy(text, data, n);
    text[n] = '\0';
    return text;
}

/* A copy of s in a heap block of exactly strlen(s) + 1 bytes, for a line
 * split off in place (whose NUL is followed by the next line): what a
 * parser is given ends where the block ends. Free it with free(). */
static inline char *fuzz_exact(const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    FUZZ_CHECK(NULL, copy != NULL);
    memcpy(copy, s, n);
    return copy;
}

/* ball_position_from_text() on an exact copy of text (fuzz_exact()). */
static inline int fuzz_position_from_text(ball_game *g, const char *text)
{
    char *copy = fuzz_exact(text);
    int rc = ball_position_from_text(g, copy);
    free(copy);
    return rc;
}

/* Splits off the first line of text (in place): returns the rest after
 * the '\n', or NULL when there is none. */
static inline char *fuzz_split_line(char *text)
{
    char *nl = strchr(text, '\n');
    if (!nl)
        return NULL;
    *nl = '\0';
    return nl + 1;
}

/* The card ruleset (R10) the targets use when they play card mode: every
 * earning entry, both effects, a hand for each coach. */
#define FUZZ_CARD_RULES "cards earn.move=1 earn.pickup=2 earn.dodge=1 earn.fumble=3 earn.tactical=1 " \
    "earn.block=1 earn.protect=1 earn.handoff=1 earn.short=1 earn.long=2 earn.standup=1 " \
    "earn.unblock=1 earn.unprotect=1 atk=Sprint:1:pa+1,Again:2:again,Dash:3:pa+2 " \
    "def=Sprint:1:pa+1,Again:1:again"

/* A ruleset from a line of text (the form of ball_rules_from_text(); NULL is
 * the default ruleset) into r. In card mode *cards receives the card set
 * that r->cards names (NULL otherwise): it must outlive the creation of the
 * games and is then freed with ball_cardset_free(). Returns BALL_OK or the
 * parser's error (then *cards is NULL). */
static inline int fuzz_parse_rules(const char *line, ball_rules *r, ball_cardset **cards)
{
    ball_rules_init(r, sizeof *r);
    *cards = NULL;
    char *copy = fuzz_exact(line ? line : "");
    int rc = ball_rules_from_text(r, cards, copy, NULL, 0);
    free(copy);
    if (rc != BALL_OK)
        FUZZ_CHECK(NULL, *cards == NULL);
    else
        FUZZ_CHECK(NULL, (*cards != NULL) == (r->cards != NULL) && (const ball_cardset *)*cards == r->cards);
    return rc;
}

static inline void fuzz_bpn(ball_game *g, char out[BALL_BPN_MAX])
{
    int n = ball_position_to_text(g, out, BALL_BPN_MAX);
    FUZZ_CHECK(g, n > 0 && n < BALL_BPN_MAX && (size_t)n == strlen(out));
}

static inline int fuzz_team(int code) { return (code & BALL_PIECE_DEF) ? BALL_DEF : BALL_ATK; }

static inline int fuzz_card_mode(const ball_game *g)
{
    ball_rules r;
    ball_rules_init(&r, sizeof r);
    if (ball_game_rules(g, &r) != BALL_OK)
        return 0;
    return r.cards != NULL;
}

/* Everything the public API says about a position, for "same position"
 * comparisons that do not trust the BPN formatter. */
typedef struct fuzz_snap {
    int piece[BALL_NUM_SQUARES][2];
    int state[BALL_NUM_SQUARES];
    int side, phase, pa, handoff, result, ball, restricted, ntasks;
    int turn;
    uint64_t hash;
    int pe[2];
    int hand[2];
    int nlegal;
    ball_action legal[BALL_MAX_ACTIONS];
} fuzz_snap;

static inline void fuzz_snapshot(ball_game *g, fuzz_snap *s)
{
    memset(s, 0, sizeof *s);
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        s->piece[sq][0] = ball_piece(g, sq, BALL_UPPER);
        s->piece[sq][1] = ball_piece(g, sq, BALL_LOWER);
        s->state[sq] = ball_square_state(g, sq);
    }
    s->side = ball_side(g);
    s->phase = ball_phase(g);
    s->pa = ball_pa(g);
    s->handoff = ball_handoff_last(g);
    s->result = ball_result(g);
    s->ball = ball_square_of_ball(g);
    s->restricted = ball_restricted_square(g);
    s->ntasks = ball_release_tasks(g, NULL, 0);
    s->turn = ball_turn(g);
    s->hash = ball_hash(g);
    s->pe[0] = ball_pe(g, BALL_ATK);
    s->pe[1] = ball_pe(g, BALL_DEF);
    s->hand[0] = ball_hand(g, BALL_ATK);
    s->hand[1] = ball_hand(g, BALL_DEF);
    s->nlegal = ball_legal_actions(g, s->legal, BALL_MAX_ACTIONS);
}

/* ------------------------------------------------------------ R3, R11 */

/* The invariants of R3 (square contents, piece states), R4 (PA), R9 (the
 * release phase), R11 (game end) and N1, read through the public API. */
static inline void fuzz_check_invariants(ball_game *g, int team_count[2])
{
    const int cards = fuzz_card_mode(g);
    int side = ball_side(g), phase = ball_phase(g), pa = ball_pa(g);
    int handoff = ball_handoff_last(g), result = ball_result(g);
    int turn = ball_turn(g);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    FUZZ_CHECK(g, ball_game_rules(g, &rules) == BALL_OK);
    FUZZ_CHECK(g, side == BALL_ATK || side == BALL_DEF);
    FUZZ_CHECK(g, phase == BALL_PHASE_ACTION || phase == BALL_PHASE_RELEASE);
    FUZZ_CHECK(g, handoff == 0 || handoff == 1);
    FUZZ_CHECK(g, result >= BALL_ONGOING && result <= BALL_DRAW);
    FUZZ_CHECK(g, turn >= 1);
    FUZZ_CHECK(g, pa >= 0 && pa <= BALL_MAX_PA);
    if (!cards)
        FUZZ_CHECK(g, pa <= 2);
    if (phase == BALL_PHASE_RELEASE) /* R9.5, N1 */
        FUZZ_CHECK(g, pa == 0 && handoff == 0);

    int ball = ball_square_of_ball(g);
    FUZZ_CHECK(g, ball >= 0 && ball < BALL_NUM_SQUARES);
    int count[2] = {0, 0}, balls = 0, restricted = BALL_NO_SQUARE, nrestricted = 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int st = ball_square_state(g, sq);
        int up = ball_piece(g, sq, BALL_UPPER), low = ball_piece(g, sq, BALL_LOWER);
        FUZZ_CHECK(g, st >= 0 && up >= 0 && low >= 0);
        FUZZ_CHECK(g, (st & ~0x1f) == 0 && (up & ~0x7f) == 0 && (low & ~0x7f) == 0);
        FUZZ_CHECK(g, !!(st & BALL_SQ_PIECE) == (up != 0));
        FUZZ_CHECK(g, !!(st & BALL_SQ_STACK) == (low != 0));
        if (up) {
            FUZZ_CHECK(g, (up & BALL_PIECE_TYPE_MASK) != 0);
            count[fuzz_team(up)]++;
        }
        if (low) { /* R3.1, R7: a stack; its upper piece stands (N1) */
            FUZZ_CHECK(g, (low & BALL_PIECE_TYPE_MASK) != 0);
            count[fuzz_team(low)]++;
            FUZZ_CHECK(g, (up & BALL_PIECE_STACKED) && (low & BALL_PIECE_STACKED));
            FUZZ_CHECK(g, !(up & (BALL_PIECE_DOWN | BALL_PIECE_RESTRICTED)));
            FUZZ_CHECK(g, !(low & (BALL_PIECE_BALL | BALL_PIECE_RESTRICTED)));
        } else {
            FUZZ_CHECK(g, !(up & BALL_PIECE_STACKED));
        }
        if (st & BALL_SQ_FRESH) /* R7.4: made this turn by the coach to act */
            FUZZ_CHECK(g, (st & BALL_SQ_STACK) && fuzz_team(up) == side);
        if (st & BALL_SQ_LOOSE_BALL)
            FUZZ_CHECK(g, (st & BALL_SQ_BALL) && up == 0);
        if (st & BALL_SQ_BALL) { /* R3.3 */
            balls++;
            FUZZ_CHECK(g, ball == sq);
            if (up)
                FUZZ_CHECK(g, (up & BALL_PIECE_BALL) && !(up & BALL_PIECE_DOWN) && !(st & BALL_SQ_LOOSE_BALL));
            else
                FUZZ_CHECK(g, st & BALL_SQ_LOOSE_BALL);
        } else {
            FUZZ_CHECK(g, !(up & BALL_PIECE_BALL));
        }
        if (up & BALL_PIECE_RESTRICTED) { /* R4.4: an active carrier of the coach to act */
            nrestricted++;
            restricted = sq;
            FUZZ_CHECK(g, (up & BALL_PIECE_BALL) && !low && !(up & BALL_PIECE_DOWN));
            FUZZ_CHECK(g, fuzz_team(up) == side && phase == BALL_PHASE_ACTION);
        }
    }
    FUZZ_CHECK(g, balls == 1);
    FUZZ_CHECK(g, nrestricted <= 1);
    FUZZ_CHECK(g, ball_restricted_square(g) == restricted);
    FUZZ_CHECK(g, count[0] <= 7 && count[1] <= 7);
    if (team_count) { /* pieces never appear or vanish */
        FUZZ_CHECK(g, count[0] == team_count[0] && count[1] == team_count[1]);
    }

    /* R11: the result agrees with the holder of the ball and the turn. */
    int holder = ball_piece(g, ball, BALL_UPPER), row = ball_square_row(ball);
    int depth = rules.end_zone_depth;
    int touchdown = 0;
    if (holder)
        touchdown = fuzz_team(holder) == BALL_ATK ? (row > 17 - depth ? BALL_ATK_WON : 0)
                                                  : (row <= depth ? BALL_DEF_WON : 0);
    if (result == BALL_ATK_WON || result == BALL_DEF_WON)
        FUZZ_CHECK(g, touchdown == result);
    else
        FUZZ_CHECK(g, touchdown == 0);
    if (result == BALL_ONGOING && rules.turn_limit)
        FUZZ_CHECK(g, (unsigned)turn <= rules.turn_limit);
    if (result == BALL_DRAW)
        FUZZ_CHECK(g, rules.turn_limit && (unsigned)turn > rules.turn_limit);
    FUZZ_CHECK(g, turn <= BALL_MAX_TURN);

    /* R9.1: a release phase always has a task with a solution. */
    int tasks[16];
    int nt = ball_release_tasks(g, tasks, 16);
    FUZZ_CHECK(g, nt >= 0 && nt <= 14);
    if (result != BALL_ONGOING || phase == BALL_PHASE_ACTION) {
        FUZZ_CHECK(g, nt == 0);
    } else {
        int solvable = 0;
        for (int i = 0; i < nt; i++) {
            int sq = ball_task_square(tasks[i]), kind = ball_task_kind(tasks[i]);
            FUZZ_CHECK(g, sq >= 0 && sq < BALL_NUM_SQUARES);
            FUZZ_CHECK(g, i == 0 || sq > ball_task_square(tasks[i - 1]));
            int up = ball_piece(g, sq, BALL_UPPER), low = ball_piece(g, sq, BALL_LOWER);
            FUZZ_CHECK(g, up && fuzz_team(up) == side);
            if (kind == BALL_TASK_STAND_UP)
                FUZZ_CHECK(g, (up & BALL_PIECE_DOWN) && !low);
            else
                FUZZ_CHECK(g, kind == BALL_TASK_RELEASE && low && !(ball_square_state(g, sq) & BALL_SQ_FRESH));
            solvable += ball_task_solvable(tasks[i]);
        }
        FUZZ_CHECK(g, solvable > 0);
    }
    for (int t = 0; t < 2; t++) {
        FUZZ_CHECK(g, ball_pe(g, t) >= 0 && ball_pe(g, t) <= BALL_MAX_PE);
        FUZZ_CHECK(g, ball_hand(g, t) >= 0);
        if (!cards)
            FUZZ_CHECK(g, ball_pe(g, t) == 0 && ball_hand(g, t) == 0);
        else if (rules.cards)
            FUZZ_CHECK(g, ball_hand(g, t) < (1 << ball_cardset_hand_size(rules.cards, t)));
    }
}

/* ------------------------------------------------------------ actions */

static inline int fuzz_is_movement(int kind)
{
    return kind >= BALL_MOVE && kind <= BALL_PROTECT;
}

static inline int fuzz_verb(int kind)
{
    switch (kind) {
    case BALL_HANDOFF: return BALL_VERB_HANDOFF;
    case BALL_SHORT_PASS: return BALL_VERB_SHORT_PASS;
    case BALL_LONG_PASS: return BALL_VERB_LONG_PASS;
    default: return BALL_VERB_MOVE;
    }
}

static inline int fuzz_cmp_action(const void *a, const void *b)
{
    ball_action x = *(const ball_action *)a, y = *(const ball_action *)b;
    return x < y ? -1 : x > y;
}

/* Whether action i is in the sample of every-th actions starting at from
 * (every <= 1: all of them). */
static inline int fuzz_sampled(int i, int every, int from)
{
    return every <= 1 || i % every == from % every;
}

/* Reads the legal actions and checks each against the position: kind,
 * cost, squares, order, no duplicates, and for the sampled ones (see
 * fuzz_sampled(); each costs a generation) ball_is_legal() and that the N2
 * text parses back to the same action. Returns the count. */
static inline int fuzz_check_actions(ball_game *g, ball_action *acts, int every, int first)
{
    static ball_action sorted[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    FUZZ_CHECK(g, n >= 0 && n <= BALL_MAX_ACTIONS);
    FUZZ_CHECK(g, ball_legal_actions(g, NULL, 0) == n);
    if (n > 0)
        FUZZ_CHECK(g, ball_legal_actions(g, sorted, (size_t)n - 1) == BALL_E_BUFFER);
    uint64_t perft = 0;
    FUZZ_CHECK(g, ball_perft(g, 1, &perft) == BALL_OK && perft == (uint64_t)n);

    int result = ball_result(g), phase = ball_phase(g), side = ball_side(g), pa = ball_pa(g);
    int ball = ball_square_of_ball(g), cards = fuzz_card_mode(g);
    if (result != BALL_ONGOING) {
        FUZZ_CHECK(g, n == 0);
        return 0;
    }
    FUZZ_CHECK(g, n >= 1);
    if (phase == BALL_PHASE_ACTION) /* R4.2: `end` is always there, last */
        FUZZ_CHECK(g, ball_action_kind(acts[n - 1]) == BALL_END);

    int last_from = -1;
    for (int i = 0; i < n; i++) {
        ball_action a = acts[i];
        int kind = ball_action_kind(a), from = ball_action_from(a), to = ball_action_to(a);
        int opt = ball_action_option(a), keeper = ball_action_keeper(a), cost = ball_action_cost(a);
        fuzz_note_action("legal action", i, n, a);
        FUZZ_CHECK(g, a != BALL_ACTION_NONE && kind > 0);
        if (fuzz_sampled(i, every, first))
            FUZZ_CHECK(g, ball_is_legal(g, a) == 1);
        FUZZ_CHECK(g, cost >= 0 && (phase == BALL_PHASE_RELEASE ? cost == 0 : cost <= pa));
        FUZZ_CHECK(g, kind != BALL_END || i == n - 1);
        if (phase == BALL_PHASE_RELEASE)
            FUZZ_CHECK(g, kind == BALL_STAND_UP || kind == BALL_UNBLOCK || kind == BALL_UNPROTECT);
        else
            FUZZ_CHECK(g, kind <= BALL_END || cards);
        /* The 1.0 contracts: no negative value but errors, BALL_NO_SQUARE
         * for a square the action does not have, a number only for the
         * card-mode actions. */
        FUZZ_CHECK(g, ball_action_flags(a) >= 0 && ball_action_flags(a) <= 7);
        FUZZ_CHECK(g, keeper >= BALL_KEEPER_NONE && keeper <= BALL_KEEPER_LOWER);
        if (kind == BALL_END || kind == BALL_CONVERT_PA || kind == BALL_PLAY_CARD)
            FUZZ_CHECK(g, to == BALL_NO_SQUARE && opt == BALL_NO_SQUARE);
        if (kind == BALL_END || kind == BALL_CONVERT_PA)
            FUZZ_CHECK(g, from == BALL_NO_SQUARE);
        if (kind == BALL_CONVERT_PA)
            FUZZ_CHECK(g, ball_action_value(a) >= 1 && ball_action_value(a) == cost);
        else if (kind == BALL_PLAY_CARD)
            FUZZ_CHECK(g, ball_action_value(a) >= 0 && ball_action_value(a) < BALL_MAX_HAND
                              && (ball_hand(g, side) >> ball_action_value(a) & 1)
                              && (from == BALL_NO_SQUARE || (from >= 0 && from < BALL_NUM_SQUARES)));
        else
            FUZZ_CHECK(g, ball_action_value(a) == BALL_E_ARG);
        if (kind <= BALL_UNPROTECT && kind != BALL_END) {
            FUZZ_CHECK(g, from >= 0 && from < BALL_NUM_SQUARES && to >= 0 && to < BALL_NUM_SQUARES);
            if (phase == BALL_PHASE_RELEASE) /* task by task, in square order */
                FUZZ_CHECK(g, from >= last_from);
            last_from = from;
            int up = ball_piece(g, from, BALL_UPPER), low = ball_piece(g, from, BALL_LOWER);
            FUZZ_CHECK(g, up && fuzz_team(up) == side);
            FUZZ_CHECK(g, ball_action_cost(a) == (fuzz_is_movement(kind) || kind == BALL_SHORT_PASS ? 1
                                                  : kind == BALL_LONG_PASS ? 2 : 0)); /* R4.3 */
            if (phase == BALL_PHASE_ACTION) { /* R4.4: only an active, unrestricted piece acts */
                FUZZ_CHECK(g, !low && !(up & BALL_PIECE_DOWN) && !(up & BALL_PIECE_RESTRICTED));
                if (kind >= BALL_HANDOFF)
                    FUZZ_CHECK(g, from == ball); /* R8.5 */
                if (kind == BALL_HANDOFF)
                    FUZZ_CHECK(g, !ball_handoff_last(g)); /* R8.2 */
                if (fuzz_is_movement(kind)) { /* R5.4: open destination or a piece */
                    int target = ball_piece(g, to, BALL_UPPER);
                    FUZZ_CHECK(g, (target == 0) == (kind == BALL_MOVE || kind == BALL_TACTICAL_DODGE));
                    int dist = ball_square_distance(from, to);
                    if (kind == BALL_BLOCK || kind == BALL_PROTECT)
                        FUZZ_CHECK(g, dist == 1);
                    else
                        FUZZ_CHECK(g, dist == 2 || (kind == BALL_MOVE && dist == 1));
                }
            } else if (kind == BALL_STAND_UP) {
                FUZZ_CHECK(g, (up & BALL_PIECE_DOWN) && !low && ball_square_distance(from, to) == 1);
                FUZZ_CHECK(g, ball_square_state(g, to) == 0); /* vacant */
            } else {
                FUZZ_CHECK(g, low && !(ball_square_state(g, from) & BALL_SQ_FRESH));
                FUZZ_CHECK(g, (kind == BALL_UNPROTECT) == (fuzz_team(low) == side));
                FUZZ_CHECK(g, opt >= 0 && opt < BALL_NUM_SQUARES && opt != to);
                FUZZ_CHECK(g, ball_square_state(g, to) == 0 && ball_square_state(g, opt) == 0);
                FUZZ_CHECK(g, (keeper != BALL_KEEPER_NONE) == (ball == from));
                if (keeper == BALL_KEEPER_LOWER)
                    FUZZ_CHECK(g, !(low & BALL_PIECE_DOWN));
            }
            if (kind != BALL_UNBLOCK && kind != BALL_UNPROTECT)
                FUZZ_CHECK(g, keeper == BALL_KEEPER_NONE);
        }
        char text[BALL_ACTION_TEXT_MAX], small[BALL_ACTION_TEXT_MAX];
        int len = ball_action_to_text(a, text, sizeof text);
        FUZZ_CHECK(g, len > 0 && (size_t)len == strlen(text));
        FUZZ_CHECK(g, ball_action_to_text(a, small, (size_t)len) == BALL_E_BUFFER);
        if (fuzz_sampled(i, every, first)) {
            ball_action back = BALL_ACTION_NONE;
            FUZZ_CHECK(g, ball_action_from_text(g, text, &back) == BALL_OK);
            FUZZ_CHECK(g, back == a);
        }
        sorted[i] = a;
    }
    qsort(sorted, (size_t)n, sizeof *sorted, fuzz_cmp_action);
    for (int i = 1; i < n; i++)
        FUZZ_CHECK(g, sorted[i] != sorted[i - 1]);

    /* R9: the legal decisions of a release phase are the task solutions,
     * task by task in square order. */
    if (phase == BALL_PHASE_RELEASE) {
        int tasks[16], nt = ball_release_tasks(g, tasks, 16), k = 0;
        FUZZ_CHECK(g, nt > 0);
        FUZZ_CHECK(g, ball_release_tasks(g, tasks, (size_t)nt - 1) == BALL_E_BUFFER);
        for (int t = 0; t < nt; t++) {
            int sq = ball_task_square(tasks[t]);
            int m = ball_task_solutions(g, sq, sorted, BALL_MAX_ACTIONS);
            FUZZ_CHECK(g, m >= 0 && (m > 0) == ball_task_solvable(tasks[t]));
            FUZZ_CHECK(g, ball_task_solutions(g, sq, NULL, 0) == m);
            for (int j = 0; j < m; j++, k++)
                FUZZ_CHECK(g, k < n && sorted[j] == acts[k]);
        }
        FUZZ_CHECK(g, k == n);
    } else {
        FUZZ_CHECK(g, ball_release_tasks(g, NULL, 0) == 0);
    }
    return n;
}

/* ball_apply() (or its unchecked form) of a legal action: BALL_OK, or
 * BALL_E_LIMIT when it would hand the turn over past BALL_MAX_TURN, which
 * then changes nothing. Returns 1 when the action was played. */
static inline int fuzz_apply(ball_game *g, ball_action a, int checked)
{
    int turn = ball_turn(g);
    uint64_t hash = ball_hash(g);
    int hist = ball_history_length(g);
    int rc = checked ? ball_apply(g, a) : ball_apply_unchecked(g, a);
    if (rc == BALL_E_LIMIT) {
        FUZZ_CHECK(g, turn == BALL_MAX_TURN);
        FUZZ_CHECK(g, ball_turn(g) == turn && ball_hash(g) == hash && ball_history_length(g) == hist);
        FUZZ_CHECK(g, ball_errmsg(g)[0] != '\0');
        return 0;
    }
    FUZZ_CHECK(g, rc == BALL_OK);
    FUZZ_CHECK(g, ball_history_length(g) == hist + 1);
    return 1;
}

/* Plays each action, checks the child position, and takes it back: the
 * state must come back bit for bit. The sampled actions (fuzz_sampled())
 * go through ball_apply() and are compared by BPN, the others through
 * ball_apply_unchecked() (they come from the generator) and are compared by
 * hash and turn. With deep set, each child also gets the invariant checks. */
static inline void fuzz_check_children(ball_game *g, const ball_action *acts, int n, int deep,
                                       int team_count[2], int every, int first)
{
    char before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    fuzz_bpn(g, before);
    uint64_t hash = ball_hash(g);
    int turn = ball_turn(g);
    int hist = ball_history_length(g);
    for (int i = 0; i < n; i++) {
        int full = fuzz_sampled(i, every, first);
        fuzz_note_action("apply+undo of legal action", i, n, acts[i]);
        if (!fuzz_apply(g, acts[i], full))
            continue;
        if (deep)
            fuzz_check_invariants(g, team_count);
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        FUZZ_CHECK(g, ball_hash(g) == hash && ball_turn(g) == turn);
        FUZZ_CHECK(g, ball_history_length(g) == hist);
        if (full) {
            fuzz_bpn(g, after);
            FUZZ_CHECK(g, strcmp(after, before) == 0);
        }
    }
}

/* R12: the choices that select action a step by step (ball_select()), in
 * comp[0 .. BALL_SELECT_STEPS - 1]; returns their number, 0 for an action
 * without a piece square (`end`, `pe+k`, a card without target), which is
 * not selected this way. */
static inline int fuzz_select_path(ball_action a, int comp[BALL_SELECT_STEPS])
{
    int kind = ball_action_kind(a), from = ball_action_from(a);
    if (kind <= 0 || from == BALL_NO_SQUARE)
        return 0;
    comp[0] = from;
    comp[1] = kind == BALL_PLAY_CARD ? BALL_VERB_CARD : fuzz_verb(kind);
    comp[2] = kind == BALL_PLAY_CARD ? ball_action_value(a) : ball_action_to(a);
    if (kind == BALL_PLAY_CARD || ball_action_option(a) == BALL_NO_SQUARE)
        return 3;
    comp[3] = ball_action_option(a);
    int keeper = ball_action_keeper(a);
    if (keeper == BALL_KEEPER_NONE)
        return 4;
    comp[4] = keeper == BALL_KEEPER_UPPER ? ball_action_to(a) : ball_action_option(a);
    return 5;
}

/* R12: the selection steps of a piece action lead to it, each step
 * offering the next component among its choices. */
static inline void fuzz_check_select(ball_game *g, ball_action a)
{
    int comp[BALL_SELECT_STEPS];
    int len = fuzz_select_path(a, comp);
    if (len == 0)
        return;
    int choices[BALL_NUM_SQUARES + 8];
    for (int k = 0; k <= len; k++) {
        ball_action done = 1;
        int m = ball_select(g, comp, (size_t)k, choices, sizeof choices / sizeof *choices, &done);
        fuzz_note_action("selection steps (i = choices made)", k, len, a);
        FUZZ_CHECK(g, m >= 0);
        if (k == len) { /* complete */
            FUZZ_CHECK(g, m == 0 && done == a);
            return;
        }
        FUZZ_CHECK(g, done == BALL_ACTION_NONE);
        int found = 0;
        for (int i = 0; i < m; i++) {
            FUZZ_CHECK(g, i == 0 || choices[i] > choices[i - 1]);
            found |= choices[i] == comp[k];
        }
        FUZZ_CHECK(g, found);
    }
}

/* The position behind a BPN text round-trips: a second game set to it
 * formats the same text, has the same hash and the same legal actions. */
static inline void fuzz_check_round_trip(ball_game *g, ball_game *scratch)
{
    static fuzz_snap a, b;
    char text[BALL_BPN_MAX], again[BALL_BPN_MAX];
    fuzz_bpn(g, text);
    fuzz_note("BPN round trip of %s", text);
    FUZZ_CHECK(scratch, fuzz_position_from_text(scratch, text) == BALL_OK);
    fuzz_bpn(scratch, again);
    FUZZ_CHECK(g, strcmp(text, again) == 0);
    fuzz_snapshot(g, &a);
    fuzz_snapshot(scratch, &b);
    FUZZ_CHECK(g, memcmp(&a, &b, sizeof a) == 0);
}

#endif
