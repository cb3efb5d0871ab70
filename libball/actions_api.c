/* SPDX-License-Identifier: MIT */
/* Public actions: accessors, generation, apply/undo, release tasks,
 * perft. Thin checks over movegen.h, release.h and play.h. */
#define BALL_EXPERIMENTAL /* ball_apply_index(), ball_random_apply(), ball_random_playout() */

#include <string.h>

#include "action.h"
#include "compiler.h"
#include "game.h"
#include "hash.h"
#include "movegen.h"
#include "movegen_draw.h"
#include "notation.h"
#include "play.h"
#include "release.h"
#include "turn_bound.h"

/* Accessors: BALL_E_ARG for a value that is not an action; a square field
 * that holds no square reads as BALL_NO_SQUARE (the encoding's own). */
static int square_field(ball_action a, int shift)
{
    return act_well_formed(a) ? (int)((a >> shift) & A_SQ_MASK) : BALL_E_ARG;
}

int ball_action_kind(ball_action a) { return act_well_formed(a) ? act_kind(a) : BALL_E_ARG; }
int ball_action_from(ball_action a) { return square_field(a, A_FROM_SHIFT); }
int ball_action_to(ball_action a)
{
    return !act_well_formed(a) ? BALL_E_ARG : act_has_value(a) ? BALL_NO_SQUARE : square_field(a, A_TO_SHIFT);
}
int ball_action_value(ball_action a) { return act_well_formed(a) && act_has_value(a) ? act_value(a) : BALL_E_ARG; }
int ball_action_option(ball_action a) { return square_field(a, A_OPT_SHIFT); }
int ball_action_keeper(ball_action a) { return act_well_formed(a) ? act_keeper(a) : BALL_E_ARG; }
int ball_action_flags(ball_action a) { return act_well_formed(a) ? act_flags(a) : BALL_E_ARG; }
int ball_action_cost(ball_action a) { return act_well_formed(a) ? act_cost(a) : BALL_E_ARG; }


/* game_ok() for the hot calls: the message is cleared only when there is
 * one, which spares apply and undo a call and a store. */
static inline int succeed(ball_game *g)
{
    if (g->err[0])
        g->err[0] = '\0';
    return BALL_OK;
}

/* Copies n items (actions or tasks, `size` bytes each) to the caller's
 * buffer; with out NULL and cap 0 only returns n. */
static int deliver_items(ball_game *g, const void *items, size_t size, const char *what, int n,
                         void *out, size_t cap)
{
    if (!out && cap == 0)
        return n;
    if (!out)
        return game_error(g, BALL_E_ARG, "NULL buffer with capacity %zu", cap);
    if ((size_t)n > cap)
        return game_error(g, BALL_E_BUFFER, "buffer holds %zu %s, %d needed", cap, what, n);
    memcpy(out, items, (size_t)n * size);
    game_ok(g);
    return n;
}

/* Copies n generated actions to the caller's buffer. */
static int deliver(ball_game *g, const uint32_t *acts, int n, ball_action *out, size_t cap)
{
    return deliver_items(g, acts, sizeof *out, "actions", n, out, cap);
}

/* ball_legal_actions() into a buffer that may be too small: listed first
 * into one that is not. Out of line, so that the in-place call sets up
 * no 4 KiB frame. */
static OUT_OF_LINE int legal_actions_copied(ball_game *g, ball_action *out, size_t cap)
{
    uint32_t acts[MAX_ACTIONS];
    return deliver(g, acts, gen_actions(&g->p, acts), out, cap);
}

int ball_legal_actions(ball_game *g, ball_action *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    if ((out && cap >= MAX_ACTIONS) || (!out && cap == 0)) { /* in place, or only counted */
        succeed(g);
        return gen_actions(&g->p, out);
    }
    return legal_actions_copied(g, out, cap);
}

/* Why a position has no legal decision: the game is over, or it is
 * stopped at the turn bound (turn_bound.h, docs/rules-choices.md). */
static const char *why_none(const ball_game *g)
{
    return g->p.st.result != ONGOING ? "the game is over"
           : "every decision left would hand the turn over past 999999999, the last turn BPN can write";
}

/* A NULL game or output pointer. */
static int null_output(ball_game *g)
{
    return g ? game_error(g, BALL_E_ARG, "NULL output") : BALL_E_ARG;
}

/* An action index that names no legal action. */
static OUT_OF_LINE int index_out_of_range(ball_game *g, int index)
{
    int n = gen_actions(&g->p, NULL);
    if (n == 0)
        return game_error(g, BALL_E_RANGE, "action index %d: no legal action, %s", index, why_none(g));
    return game_error(g, BALL_E_RANGE, "action index %d out of range 0-%d", index, n - 1);
}

int ball_legal_action_at(ball_game *g, int index, ball_action *out)
{
    if (!g || !out)
        return null_output(g);
    uint32_t a;
    if (!gen_action_at(&g->p, index, &a))
        return index_out_of_range(g, index);
    *out = a;
    return game_ok(g);
}

/* ball_random_action() without a legal decision: out of line, so that
 * the draw keeps its registers. */
static OUT_OF_LINE int no_random_action(ball_game *g)
{
    return game_error(g, BALL_E_RANGE, "no legal action: %s", why_none(g));
}

int ball_random_action(ball_game *g, uint64_t random, ball_action *out)
{
    if (!g || !out)
        return null_output(g);
    uint32_t a;
    if (!gen_random_action(&g->p, random, &a))
        return no_random_action(g);
    *out = a;
    return succeed(g);
}

static int legal(const pos *p, uint32_t a)
{
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts);
    for (int i = 0; i < n; i++)
        if (acts[i] == a)
            return 1;
    return 0;
}

/* A decision legal by the rules that the turn bound leaves out: legal in
 * the same position one turn earlier (the turn number changes nothing
 * else: a game with a turn limit is drawn before the bound). */
static int refused_at_bound(const pos *p, uint32_t a)
{
    if (!at_turn_bound(p))
        return 0;
    pos earlier = *p;
    earlier.st.turn = BALL_MAX_TURN - 1;
    return legal(&earlier, a);
}

int ball_is_legal(ball_game *g, ball_action a)
{
    if (!g)
        return BALL_E_ARG;
    return act_well_formed(a) && legal(&g->p, a);
}

/* Room for one more undo record: amortised doubling. */
static int grow_history(ball_game *g)
{
    return ball_history_reserve(g, g->cap ? g->cap : 16);
}

/* After a decision: refused when it hands over a turn past the last one
 * BPN can write (N1 prints 9 digits). The generator lists no such
 * decision (turn_bound.h), so only ball_apply_unchecked() of a decision
 * that is not listed gets here. */
static int applied(ball_game *g)
{
    if (g->p.st.turn > BALL_MAX_TURN) {
        pos_undo(&g->p, &g->hist[--g->nhist]);
        return game_error(g, BALL_E_LIMIT, "the turn would pass %d, the last one BPN can write",
                          BALL_MAX_TURN);
    }
    return succeed(g);
}

/* ball_apply_unchecked() when the history is full, or in card mode. */
static OUT_OF_LINE int apply_slow(ball_game *g, ball_action a)
{
    int rc;
    if (g->nhist == g->cap && (rc = grow_history(g)) != BALL_OK)
        return rc;
    pos_do(&g->p, a, &g->hist[g->nhist]);
    g->acts[g->nhist++] = a; /* what was played, for ball_history_action() */
    return applied(g);
}

/* What the quick path of ball_apply_unchecked() declined, with room in
 * the history and the decision already stored there: `end` (a third of
 * the decisions of random games) through its own short path. */
static OUT_OF_LINE int apply_declined(ball_game *g, ball_action a)
{
    undo_rec *u = &g->hist[g->nhist++];
    if (act_kind(a) == K_END)
        do_end(&g->p, u);
    else
        pos_do_slow(&g->p, a, u);
    return applied(g);
}

/* The quick path (play.h) inline and without calls, so that it needs no
 * saved registers; it never hands the turn over. */
int ball_apply_unchecked(ball_game *g, ball_action a)
{
    if (!g)
        return BALL_E_ARG;
    if (g->nhist != g->cap && !g->p.cards.on) {
        /* stored first: after do_quick() the compiler would reload both
         * (its byte stores may alias them); harmless when it declines */
        g->acts[g->nhist] = a;
        if (do_quick(&g->p, a, &g->hist[g->nhist])) {
            g->nhist++;
            return succeed(g);
        }
        return apply_declined(g, a);
    }
    return apply_slow(g, a);
}

/* The three calls below play decisions the generator has just produced,
 * so they skip ball_apply()'s check: ball_apply_unchecked() is exact for
 * them (the generator lists no decision past the turn bound). */
int ball_apply_index(ball_game *g, int index)
{
    if (!g)
        return BALL_E_ARG;
    uint32_t a;
    if (!gen_action_at(&g->p, index, &a))
        return index_out_of_range(g, index);
    return ball_apply_unchecked(g, a);
}

int ball_random_apply(ball_game *g, uint64_t random, ball_action *out)
{
    if (!g)
        return BALL_E_ARG;
    uint32_t a;
    if (!gen_random_action(&g->p, random, &a))
        return no_random_action(g);
    int rc = ball_apply_unchecked(g, a);
    if (rc == BALL_OK && out)
        *out = a;
    return rc;
}

/* A playout whose apply failed (the history could not grow): the
 * decisions it played are taken back, the apply's message kept. */
static OUT_OF_LINE int playout_failed(ball_game *g, int rc, int played)
{
    char why[sizeof g->err];
    memcpy(why, g->err, sizeof why);
    for (int i = 0; i < played; i++)
        ball_undo(g);
    return game_error(g, rc, "random playout, decision %d: %s (the %d before it taken back)", played + 1,
                      why, played);
}

int ball_random_playout(ball_game *g, uint64_t seed, int max_decisions)
{
    if (!g)
        return BALL_E_ARG;
    if (max_decisions < 0)
        return game_error(g, BALL_E_RANGE, "max_decisions %d is negative", max_decisions);
    uint64_t state = seed;
    int played = 0;
    uint32_t a;
    while (played < max_decisions && gen_random_action(&g->p, splitmix64_next(&state), &a)) {
        int rc = ball_apply_unchecked(g, a);
        if (rc != BALL_OK)
            return playout_failed(g, rc, played);
        played++;
    }
    succeed(g);
    return played;
}

int ball_apply(ball_game *g, ball_action a)
{
    int refused = game_action_refused(g, a, "the game is over");
    if (refused != BALL_OK)
        return refused;
    if (!legal(&g->p, a)) {
        char text[ACTION_TEXT_MAX];
        action_format(a, text);
        if (refused_at_bound(&g->p, a))
            return game_error(g, BALL_E_LIMIT, "%s would hand the turn over past %d, the last turn BPN can write",
                              text, BALL_MAX_TURN);
        return game_error(g, BALL_E_ILLEGAL, "%s is not legal in this position", text);
    }
    int rc = ball_apply_unchecked(g, a);
    return rc == BALL_OK ? game_ok(g) : rc;
}

static OUT_OF_LINE int undo_slow(ball_game *g, const undo_rec *u)
{
    if (u->n == 0 && u->moved_to == NO_MOVE) /* `end`, a conversion, a card: no square changed */
        g->p.st = u->st;
    else
        pos_undo_slow(&g->p, u);
    return succeed(g);
}

int ball_undo(ball_game *g)
{
    if (!g)
        return BALL_E_ARG;
    if (g->nhist == 0)
        return game_error(g, BALL_E_NO_HISTORY, "no decision to take back");
    const undo_rec *u = &g->hist[--g->nhist];
    if (u->whole)
        return undo_slow(g, u); /* a tail call: the quick path saves no register */
    undo_quick(&g->p, u);
    return succeed(g);
}

int ball_release_tasks(ball_game *g, ball_task *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    ball_task tasks[MAX_TASKS];
    return deliver_items(g, tasks, sizeof *out, "tasks", release_tasks(&g->p, tasks), out, cap);
}

int ball_task_square(ball_task task)
{
    int sq = task_square(task), kind = task_kind(task);
    if (task < 0 || task >> TASK_BITS || sq >= NSQ || (kind != TASK_STAND_UP && kind != TASK_RELEASE))
        return BALL_E_ARG;
    return sq;
}

int ball_task_kind(ball_task task) { return ball_task_square(task) < 0 ? BALL_E_ARG : task_kind(task); }
int ball_task_solvable(ball_task task) { return ball_task_square(task) < 0 ? BALL_E_ARG : task_solvable(task); }

int ball_task_solutions(ball_game *g, int sq, ball_action *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    if (sq < 0 || sq >= NSQ)
        return game_error(g, BALL_E_RANGE, "square %d out of range 0-%d", sq, NSQ - 1);
    int32_t tasks[MAX_TASKS];
    int n = release_tasks(&g->p, tasks), found = 0;
    for (int i = 0; i < n; i++)
        found |= task_square(tasks[i]) == sq;
    if (!found) {
        char name[4];
        square_format(sq, name);
        return game_error(g, BALL_E_ILLEGAL, "no release task on %s", name);
    }
    uint32_t acts[MAX_ACTIONS];
    n = gen_task_solutions(&g->p, sq, acts);
    return deliver(g, acts, at_turn_bound(&g->p) ? bound_keep(&g->p, acts, n) : n, out, cap);
}

uint64_t ball_hash(const ball_game *g) { return g ? pos_hash(&g->p) : 0; }

int ball_perft(ball_game *g, int depth, uint64_t *count)
{
    if (!g || !count)
        return BALL_E_ARG;
    if (depth < 0 || depth > BALL_MAX_PERFT_DEPTH)
        return game_error(g, BALL_E_RANGE, "perft depth %d out of range 0-%d", depth, BALL_MAX_PERFT_DEPTH);
    pos copy = g->p; /* the game itself stays untouched */
    *count = pos_perft(&copy, depth);
    return game_ok(g);
}
