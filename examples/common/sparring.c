/* SPDX-License-Identifier: MIT */
/* The sparring players of the examples (yardsticks); see sparring.h. */
#include "sparring.h"

#include "args.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum sparring_kind { SPAR_ALPHABETA = 1, SPAR_TURN = 2 };

#define WIN 1000000L
#define WIN_NEAR (WIN - 1000) /* values beyond it are wins or losses */
#define MAX_PLY 64
#define AB_DEFAULT_NODES 8000L
#define TURN_DEFAULT_NODES 200000L
#define AB_TT_BITS 16

/* A transposition-table entry of the alpha-beta player. */
struct tt_entry {
    uint64_t key;
    uint32_t stamp; /* the search it belongs to; older ones are empty */
    int32_t value;
    ball_action best;
    int8_t depth;
    int8_t bound; /* BOUND_* */
};

enum { BOUND_EXACT = 1, BOUND_LOWER = 2, BOUND_UPPER = 3 };

/* A slot of the whole-turn player's hash set. */
struct seen_slot {
    uint64_t key;
    uint32_t stamp;
};

struct sparring {
    enum sparring_kind kind;
    int max_depth;
    long max_nodes;
    int threat; /* 1: leaves scored by sparring_evaluate_threat() */
    long nodes;
    int depth_done;
    int stopped;
    uint32_t stamp;
    ball_action (*acts)[BALL_MAX_ACTIONS]; /* one list per ply */
    long (*keys)[BALL_MAX_ACTIONS];        /* ordering scores per ply */
    /* alphabeta */
    struct tt_entry *tt;
    size_t tt_mask;
    /* turn */
    struct seen_slot *seen;
    size_t seen_mask;
    size_t seen_used, seen_cap;
    int root_side;
    long best_value;
    ball_action best_first;
    int have_best;
};

/* ------------------------------------------------------------------ */
/* The evaluation                                                      */

/* Distance (R1.3) from square numbers alone: squares go row by row, 13 to
 * a pair of rows (7 on the odd row, then 6 on the even one). */
static int sq_row(int sq) { return 2 * (sq / 13) + (sq % 13 >= 7 ? 2 : 1); }
static int sq_col(int sq) { return sq % 13 >= 7 ? 2 * (sq % 13 - 7) + 2 : 2 * (sq % 13) + 1; }
static int distance(int a, int b)
{
    int dc = sq_col(a) - sq_col(b), dr = sq_row(a) - sq_row(b);
    dc = dc < 0 ? -dc : dc;
    dr = dr < 0 ? -dr : dr;
    return dc > dr ? dc : dr;
}

/* Row of @p sq as seen by @p team: 17 is the row it scores in (R1.4). */
static int fwd_row(int sq, int team)
{
    int row = sq_row(sq);
    return team == BALL_ATK ? row : BALL_NUM_ROWS + 1 - row;
}

static int team_of(int piece) { return (piece & BALL_PIECE_DEF) ? BALL_DEF : BALL_ATK; }

static int is_active(int piece)
{
    return piece > 0 && !(piece & (BALL_PIECE_DOWN | BALL_PIECE_STACKED));
}

/* What the ball on @p sq is worth to @p holder for its place alone: the
 * ball, 60 a row forward, 90 more a row from row 12 on. */
static long ball_place_value(int holder, int sq)
{
    int row = fwd_row(sq, holder);
    return 700 + 60L * row + (row >= 12 ? 90L * (row - 11) : 0);
}

/* What holding the ball on @p sq is worth to @p holder before any threat:
 * its place, and 15 for each active piece of its own beside the carrier
 * (a shield, a hand-off partner). */
static long holder_base(const int *pieces, const int *squares, int np, int holder, int sq)
{
    long v = ball_place_value(holder, sq);
    for (int i = 0; i < np; i++)
        if (is_active(pieces[i]) && team_of(pieces[i]) == holder && distance(squares[i], sq) == 1)
            v += 15;
    return v;
}

/* How exposed a carrier of @p holder on @p sq is to the other side's
 * active pieces, which can block it from an adjacent square, dodge it
 * from two squares, or walk into reach first with their 2 PA: the worst
 * one whole (500 at distance 1, 350 at 2, 130 at 3, 50 at 4), the others
 * a quarter; @p extra_d2 more opponents at distance 2 (the threat-aware
 * evaluation's standing opponent under a stack about to be released:
 * R9.3 puts it on a square next to the stack, the carrier on another, two
 * squares apart). */
static long exposure(const int *pieces, const int *squares, int np, int holder, int sq,
                     int extra_d2)
{
    long worst = extra_d2 ? 350 : 0, rest = extra_d2 > 1 ? 350L * (extra_d2 - 1) : 0;
    for (int i = 0; i < np; i++) {
        int d;
        long t;
        if (!is_active(pieces[i]) || team_of(pieces[i]) == holder)
            continue;
        d = distance(squares[i], sq);
        t = d == 1 ? 500 : d == 2 ? 350 : d == 3 ? 130 : d == 4 ? 50 : 0;
        if (t > worst) {
            rest += worst;
            worst = t;
        } else {
            rest += t;
        }
    }
    return worst + rest / 4;
}

/* How much the carrier of @p holder on @p sq is worth to @p holder (the
 * distance evaluation): holder_base() less its exposure(), halved when
 * the holder is still to act (it can step away or cover). */
static long holder_value(const int *pieces, const int *squares, int np, int holder, int sq,
                         int stacked, int to_act)
{
    long e;
    if (stacked)
        return ball_place_value(holder, sq) - 60; /* nothing reaches a stacked carrier (R3.5, R5.4), but it cannot move */
    e = exposure(pieces, squares, np, holder, sq, 0);
    return holder_base(pieces, squares, np, holder, sq) - (to_act == holder ? e / 2 : e);
}

/* The value for @p team of a finished game (a ball_result other than
 * BALL_ONGOING): a touchdown, or a draw. */
static long finished_value(int result, int team)
{
    if (result == BALL_DRAW)
        return 0;
    return (result == BALL_ATK_WON) == (team == BALL_ATK) ? WIN : -WIN;
}

/* The pieces of @p g into @p pieces / @p squares (*np of them), the
 * carrier's team in *carrier (-1 for a loose ball) and whether it is the
 * upper piece of a stack; returns the piece terms for @p team (pieces
 * down, pinned under a stack, advanced). */
static long scan_pieces(ball_game *g, int team, int *pieces, int *squares, int *np, int *carrier,
                        int *carrier_stacked)
{
    long score = 0;
    *np = 0;
    *carrier = -1;
    *carrier_stacked = 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int st = ball_square_state(g, sq);
        if (!(st & BALL_SQ_PIECE))
            continue;
        for (int level = 0; level < 2; level++) {
            int p = ball_piece(g, sq, level);
            if (p <= 0)
                continue;
            pieces[*np] = p;
            squares[(*np)++] = sq;
            if (p & BALL_PIECE_BALL) {
                *carrier = team_of(p);
                *carrier_stacked = (st & BALL_SQ_STACK) != 0;
            }
            {
                int sign = team_of(p) == team ? 1 : -1;
                if (p & BALL_PIECE_DOWN)
                    score -= 45L * sign;
                else if ((p & BALL_PIECE_STACKED) && level == BALL_LOWER)
                    score -= 20L * sign; /* pinned under a stack */
                score += 3L * sign * fwd_row(sq, team_of(p));
            }
        }
    }
    return score;
}

/* The nearest active piece of each team to @p sq, in @p min_d. */
static void nearest(const int *pieces, const int *squares, int np, int sq, int min_d[2])
{
    min_d[0] = min_d[1] = 99;
    for (int i = 0; i < np; i++) {
        int d;
        if (!is_active(pieces[i]))
            continue;
        d = distance(squares[i], sq);
        if (d < min_d[team_of(pieces[i])])
            min_d[team_of(pieces[i])] = d;
    }
}

long sparring_evaluate(ball_game *g, int team)
{
    int pieces[2 * 7 + 2 * 7], squares[2 * 7 + 2 * 7], np;
    int result = ball_result(g), to_act = ball_side(g);
    int ball_sq = ball_square_of_ball(g);
    int carrier, carrier_stacked, min_d[2];
    long score;

    if (result != BALL_ONGOING)
        return finished_value(result, team);
    score = scan_pieces(g, team, pieces, squares, &np, &carrier, &carrier_stacked);
    if (carrier >= 0) {
        long h = holder_value(pieces, squares, np, carrier, ball_sq, carrier_stacked, to_act);
        score += carrier == team ? h : -h;
    } else {
        /* the loose ball: who gets there first */
        nearest(pieces, squares, np, ball_sq, min_d);
        {
            int mine = min_d[team], theirs = min_d[1 - team];
            long race = 110L * (theirs - mine);
            if (race > 400)
                race = 400;
            if (race < -400)
                race = -400;
            score += race + (to_act == team ? 150 : -150) + 20L * fwd_row(ball_sq, team);
        }
    }
    return score;
}

/* ------------------------------------------------------------------ */
/* The threat-aware evaluation (threat=1)                              */

/* What a ball that the side to act takes at once is worth to it: what
 * holding it is worth after the take (taken_value()), less this (the
 * taking still has to be played). */
#define TAKE_DISCOUNT 50
/* No exact look was possible (a release phase comes first). */
#define NO_PROBE 2

/* 1 if @p a puts the ball in the mover's hand: a pickup (R8.1, also by a
 * dodge exit or a tactical-dodge landing), a forced fumble (R6.1) or a
 * block of the carrier, whose ball goes to the upper piece (R7.3). */
static int takes_ball(ball_action a, int ball_sq)
{
    return (ball_action_flags(a) & (BALL_FLAG_PICKUP | BALL_FLAG_FORCED_FUMBLE)) != 0 ||
           (ball_action_kind(a) == BALL_BLOCK && ball_action_to(a) == ball_sq);
}

/* 1 if the movement action @p a changes a square within @p radius of
 * @p sq: its start, its destination, its exit or push square, and for a
 * tactical dodge the square it passes over (the pushed piece leaves it).
 * A plain move or a dodge only passes over a square, which stays as it
 * was. */
static int changes_near(ball_action a, int sq, int radius)
{
    int from = ball_action_from(a), to = ball_action_to(a), opt = ball_action_option(a);
    if (distance(from, sq) <= radius || distance(to, sq) <= radius ||
        (opt >= 0 && opt < BALL_NUM_SQUARES && distance(opt, sq) <= radius))
        return 1;
    if (ball_action_kind(a) == BALL_TACTICAL_DODGE) {
        int mid = ball_square_at((ball_square_col(from) + ball_square_col(to)) / 2,
                                 (ball_square_row(from) + ball_square_row(to)) / 2);
        return mid >= 0 && distance(mid, sq) <= radius;
    }
    return 0;
}

/* What the ball is worth to the coach to act in @p g, which has just
 * taken it: holder_value() of its carrier (exposed to the other coach's
 * pieces, or safe in a stack after a block). */
static long taken_value(ball_game *g)
{
    int pieces[2 * 7 + 2 * 7], squares[2 * 7 + 2 * 7], np, carrier, stacked;
    int team = ball_side(g);
    if (ball_result(g) != BALL_ONGOING) /* it scored at once (R11.1) */
        return ball_result(g) == (team == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON) ? WIN_NEAR / 2 : 0;
    scan_pieces(g, team, pieces, squares, &np, &carrier, &stacked);
    return holder_value(pieces, squares, np, team, ball_square_of_ball(g), stacked, team);
}

/* The best taken_value() over the actions of @p acts[0..n) that take the
 * ball, into *best; 1 if there is one, 0 if not, a negative ball_error.
 * With @p best NULL, 1 at the first one. */
static int best_of_takes(ball_game *g, const ball_action *acts, int n, long *best)
{
    int found = 0, ball_sq = ball_square_of_ball(g), rc;
    for (int i = 0; i < n; i++) {
        long v;
        if (!takes_ball(acts[i], ball_sq))
            continue;
        if (best == NULL)
            return 1;
        if ((rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
            return rc;
        v = taken_value(g);
        if ((rc = ball_undo(g)) != BALL_OK)
            return rc;
        if (!found || v > *best)
            *best = v;
        found = 1;
    }
    return found;
}

/* sparring_can_take(), and with @p value not NULL what the ball is worth
 * to the taker after the best take found (of the first movement action
 * after which there is one, when it takes two actions). */
static int find_take(ball_game *g, int every_first, long *value)
{
    ball_action first[BALL_MAX_ACTIONS], second[BALL_MAX_ACTIONS];
    int ball_sq = ball_square_of_ball(g), holder = ball_piece(g, ball_sq, BALL_UPPER);
    int loose = (ball_square_state(g, ball_sq) & BALL_SQ_LOOSE_BALL) != 0;
    int n, r, rc;
    if (ball_result(g) != BALL_ONGOING || ball_phase(g) != BALL_PHASE_ACTION)
        return 0;
    if (!loose && holder > 0 && team_of(holder) == ball_side(g))
        return 0; /* it is in hand already */
    if ((n = ball_legal_actions(g, first, BALL_MAX_ACTIONS)) < 0)
        return n;
    if ((r = best_of_takes(g, first, n, value)) != 0 || ball_pa(g) < 2)
        return r;
    /* a movement action (1 PA), then one that takes the ball with the PA
     * left. The second one's squares lie within 2 of a held ball (a block
     * from 1, a dodge from 2 over 1 with an exit at 1) or 3 of a loose one
     * (a dodge from 3 whose exit is the ball's square), so only a first
     * action that changes a square that near can make it legal; a fumble
     * (R6.2) moves the ball itself. */
    for (int i = 0; i < n; i++) {
        ball_action a = first[i];
        int kind = ball_action_kind(a), m;
        if (kind < BALL_MOVE || kind > BALL_PROTECT || ball_action_cost(a) != 1)
            continue;
        if (!every_first && !(ball_action_flags(a) & BALL_FLAG_FUMBLE) &&
            !changes_near(a, ball_sq, loose ? 3 : 2))
            continue;
        if ((rc = ball_apply_unchecked(g, a)) != BALL_OK)
            return rc;
        m = ball_legal_actions(g, second, BALL_MAX_ACTIONS);
        r = m < 0 ? m : best_of_takes(g, second, m, value);
        if ((rc = ball_undo(g)) != BALL_OK)
            return rc;
        if (r != 0)
            return r;
    }
    return 0;
}

int sparring_can_take(ball_game *g, int every_first) { return find_take(g, every_first, NULL); }

/* Plays `end` for the coach to act (in its action phase) and, when the
 * turn passes at once (no release task), tells whether the next coach can
 * take the ball with its 2 PA (find_take(), *value as there): 1 or 0; 0 too when
 * the game ends there (a turn limit); NO_PROBE when a release phase
 * follows; a negative ball_error. */
static int can_take_after_end(ball_game *g, long *value)
{
    ball_action end;
    int side = ball_side(g), r, rc;
    if (ball_action_from_text(g, "end", &end) != BALL_OK)
        return NO_PROBE; /* not legal: the game stops at BALL_MAX_TURN */
    if ((rc = ball_apply_unchecked(g, end)) != BALL_OK)
        return rc;
    if (ball_result(g) != BALL_ONGOING)
        r = 0;
    else if (ball_side(g) == side)
        r = NO_PROBE;
    else
        r = find_take(g, 0, value);
    if ((rc = ball_undo(g)) != BALL_OK)
        return rc;
    return r;
}

/* 1 if the stack on @p sq will be released before the other coach acts:
 * its upper piece is the side to act's, it is not fresh (R7.4), and two
 * of its neighbours are vacant (R9.3). */
static int released_this_turn(ball_game *g, int sq, int holder)
{
    int col = ball_square_col(sq), row = ball_square_row(sq), vacant = 0;
    if (ball_side(g) != holder || (ball_square_state(g, sq) & BALL_SQ_FRESH))
        return 0;
    for (int dc = -1; dc <= 1; dc += 2)
        for (int dr = -1; dr <= 1; dr += 2) {
            int n = ball_square_at(col + dc, row + dr);
            if (n >= 0 && ball_square_state(g, n) == 0)
                vacant++;
        }
    return vacant >= 2;
}

/* The ball term for @p holder's carrier on @p sq (team C below; S is the
 * other coach), from C's point of view; *rc gets a failed apply/undo. */
static long carrier_term(ball_game *g, const int *pieces, const int *squares, int np, int holder,
                         int sq, int stacked, int *rc)
{
    long mine = holder_base(pieces, squares, np, holder, sq), theirs = 0;
    int to_act = ball_side(g), action = ball_phase(g) == BALL_PHASE_ACTION, r;
    if (stacked) {
        /* nothing reaches a stacked carrier (R3.5, R5.4), but it cannot
         * move, and its own release (R9.3) may come before the other
         * coach acts and leave it on a square next to the stack */
        int lower = ball_piece(g, sq, BALL_LOWER);
        int foe_under = lower > 0 && team_of(lower) != holder && !(lower & BALL_PIECE_DOWN);
        long e = exposure(pieces, squares, np, holder, sq, foe_under);
        return mine - 60 - (released_this_turn(g, sq, holder) ? e : e / 4);
    }
    if (to_act != holder) {
        /* S acts next: in its action phase the look is exact */
        if (action) {
            if ((r = find_take(g, 0, &theirs)) < 0)
                return *rc = r, 0;
            if (r)
                return -(theirs - TAKE_DISCOUNT);
        }
        /* S cannot take it now: C has a whole turn before S's next one */
        return mine - exposure(pieces, squares, np, holder, sq, 0) / 4;
    }
    /* C acts: could S take the ball if C stopped now? C's PA left can
     * still move the carrier away or hand it off, so the threat weighs
     * less the more C has left */
    r = action ? can_take_after_end(g, &theirs) : NO_PROBE;
    if (r < 0)
        return *rc = r, 0;
    if (r == NO_PROBE)
        return mine - exposure(pieces, squares, np, holder, sq, 0) / 2;
    if (r) {
        int pa = ball_pa(g);
        long loss = mine + theirs - TAKE_DISCOUNT;
        return mine - (pa >= 2 ? loss / 4 : pa == 1 ? loss / 2 : 3 * loss / 4);
    }
    return mine - exposure(pieces, squares, np, holder, sq, 0) / 4;
}

/* The loose-ball term for @p team. */
static long loose_term(ball_game *g, const int *pieces, const int *squares, int np, int team,
                       int sq, int *rc)
{
    int to_act = ball_side(g), other = 1 - to_act, min_d[2], taker = -1;
    long race, v = 0;
    if (ball_phase(g) == BALL_PHASE_ACTION) {
        int r;
        if (ball_pa(g) > 0) {
            if ((r = find_take(g, 0, &v)) == 1)
                taker = to_act;
        } else if ((r = can_take_after_end(g, &v)) == 1) {
            taker = other; /* nothing but `end` is left to the side to act */
        }
        if (r < 0)
            return *rc = r, 0;
    }
    if (taker >= 0) {
        v -= TAKE_DISCOUNT;
        return taker == team ? v : -v;
    }
    /* nobody has it at once: who is nearer, and the coach who acts next
     * with its 2 PA */
    nearest(pieces, squares, np, sq, min_d);
    race = 110L * (min_d[1 - team] - min_d[team]);
    race = race > 400 ? 400 : race < -400 ? -400 : race;
    return race + (other == team ? 100 : -100) + 10L * (fwd_row(sq, team) - fwd_row(sq, 1 - team));
}

/* sparring_evaluate_threat() with a failed apply/undo in *rc. */
static long evaluate_threat(ball_game *g, int team, int *rc)
{
    int pieces[2 * 7 + 2 * 7], squares[2 * 7 + 2 * 7], np;
    int result = ball_result(g), ball_sq = ball_square_of_ball(g), carrier, carrier_stacked;
    long score;

    if (result != BALL_ONGOING)
        return finished_value(result, team);
    score = scan_pieces(g, team, pieces, squares, &np, &carrier, &carrier_stacked);
    if (carrier >= 0) {
        long h = carrier_term(g, pieces, squares, np, carrier, ball_sq, carrier_stacked, rc);
        return score + (carrier == team ? h : -h);
    }
    return score + loose_term(g, pieces, squares, np, team, ball_sq, rc);
}

long sparring_evaluate_threat(ball_game *g, int team)
{
    int rc = BALL_OK;
    long v = evaluate_threat(g, team, &rc);
    return rc == BALL_OK ? v : sparring_evaluate(g, team);
}

/* ------------------------------------------------------------------ */
/* Creation                                                            */

static int parse_settings(const char *spec, sparring *s)
{
    char key[16];
    double v;
    int r;
    while ((r = settings_next(&spec, key, sizeof key, &v)) == 1) {
        if (strcmp(key, "nodes") == 0 && settings_whole(v, 1, 1e9))
            s->max_nodes = (long)v;
        else if (strcmp(key, "depth") == 0 && s->kind == SPAR_ALPHABETA &&
                 settings_whole(v, 1, MAX_PLY - 1))
            s->max_depth = (int)v;
        else if (strcmp(key, "threat") == 0 && settings_whole(v, 0, 1))
            s->threat = (int)v;
        else
            return -1;
    }
    return r;
}

int sparring_new(sparring **out, const char *name)
{
    sparring *s;
    size_t len;
    enum sparring_kind kind;
    *out = NULL;
    if (strncmp(name, "alphabeta", 9) == 0 && (name[9] == '\0' || name[9] == ':')) {
        kind = SPAR_ALPHABETA;
        len = 9;
    } else if (strncmp(name, "turn", 4) == 0 && (name[4] == '\0' || name[4] == ':')) {
        kind = SPAR_TURN;
        len = 4;
    } else {
        return 1;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return -1;
    s->kind = kind;
    s->max_depth = MAX_PLY - 1;
    s->max_nodes = kind == SPAR_ALPHABETA ? AB_DEFAULT_NODES : TURN_DEFAULT_NODES;
    if ((name[len] == ':' && parse_settings(name + len + 1, s) != 0)) {
        free(s);
        return -1;
    }
    s->acts = malloc(sizeof *s->acts * (MAX_PLY + 1));
    s->keys = malloc(sizeof *s->keys * (MAX_PLY + 1));
    if (kind == SPAR_ALPHABETA) {
        s->tt_mask = ((size_t)1 << AB_TT_BITS) - 1;
        s->tt = calloc(s->tt_mask + 1, sizeof *s->tt);
    } else {
        /* a power of two at least twice the node budget, so that the set
         * never fills up before the budget runs out */
        size_t cap = 1024;
        while (cap < (size_t)s->max_nodes * 2 && cap < ((size_t)1 << 26))
            cap <<= 1;
        s->seen_mask = cap - 1;
        s->seen_cap = cap / 2;
        s->seen = calloc(cap, sizeof *s->seen);
    }
    if (s->acts == NULL || s->keys == NULL || (s->tt == NULL && s->seen == NULL)) {
        sparring_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void sparring_free(sparring *s)
{
    if (s == NULL)
        return;
    free(s->acts);
    free(s->keys);
    free(s->tt);
    free(s->seen);
    free(s);
}

const char *sparring_kind_name(const sparring *s)
{
    return s->kind == SPAR_ALPHABETA ? "alphabeta" : "turn";
}

long sparring_last_nodes(const sparring *s, int *depth)
{
    if (depth)
        *depth = s->depth_done;
    return s->nodes;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* The value of a position where the search stops, for @p team: the
 * evaluation the player was created with. */
static long leaf_value(const sparring *s, ball_game *g, int team, int *rc)
{
    return s->threat ? evaluate_threat(g, team, rc) : sparring_evaluate(g, team);
}

/* 1 if playing @p a from @p g wins at once for the coach to act. */
static int scores_at_once(ball_game *g, ball_action a, int *rc)
{
    int side = ball_side(g), won = side == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON, r;
    *rc = ball_apply_unchecked(g, a);
    if (*rc != BALL_OK)
        return 0;
    r = ball_result(g) == won;
    *rc = ball_undo(g);
    return r;
}

/* Sorts acts[0..n) by keys, highest first (insertion sort: stable, so
 * equal keys keep the library's order and the search stays the same on
 * every machine). */
static void sort_by_keys(ball_action *acts, long *keys, int n)
{
    for (int i = 1; i < n; i++) {
        ball_action a = acts[i];
        long k = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] < k) {
            acts[j + 1] = acts[j];
            keys[j + 1] = keys[j];
            j--;
        }
        acts[j + 1] = a;
        keys[j + 1] = k;
    }
}

/* ------------------------------------------------------------------ */
/* alphabeta                                                           */

static long to_tt(long v, int ply) { return v > WIN_NEAR ? v + ply : v < -WIN_NEAR ? v - ply : v; }
static long from_tt(long v, int ply) { return v > WIN_NEAR ? v - ply : v < -WIN_NEAR ? v + ply : v; }

/* The value of the position for the coach to act in it, searched
 * @p depth decisions deep. */
static long negamax(sparring *s, ball_game *g, int depth, long alpha, long beta, int ply, int *rc)
{
    int side = ball_side(g), result = ball_result(g), n;
    uint64_t key;
    struct tt_entry *e;
    ball_action *acts, tt_move = BALL_ACTION_NONE, best_move = BALL_ACTION_NONE;
    long *keys, best = -WIN - 1, alpha0 = alpha;

    if (++s->nodes > s->max_nodes) {
        s->stopped = 1;
        return 0;
    }
    if (result != BALL_ONGOING) {
        long v = sparring_evaluate(g, side);
        return v >= WIN ? v - ply : v <= -WIN ? v + ply : v;
    }
    if (depth <= 0 || ply >= MAX_PLY)
        return leaf_value(s, g, side, rc);
    key = ball_hash(g);
    e = &s->tt[key & s->tt_mask];
    if (e->stamp == s->stamp && e->key == key) {
        tt_move = e->best;
        if (e->depth >= depth) {
            long v = from_tt(e->value, ply);
            if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && v >= beta)
                || (e->bound == BOUND_UPPER && v <= alpha))
                return v;
        }
    }
    acts = s->acts[ply];
    keys = s->keys[ply];
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n <= 0) { /* stopped at the turn bound: nothing to play */
        return leaf_value(s, g, side, rc);
    }
    /* ordering: the table's move, then by a static look one decision ahead
     * (only where the subtree is deep enough to pay for it) */
    for (int i = 0; i < n; i++) {
        long k = 0;
        if (acts[i] == tt_move) {
            k = 4 * WIN;
        } else if (depth >= 3) {
            if ((*rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
                return 0;
            s->nodes++;
            k = sparring_evaluate(g, side);
            if ((*rc = ball_undo(g)) != BALL_OK)
                return 0;
        } else {
            int f = ball_action_flags(acts[i]);
            k = (f & (BALL_FLAG_FORCED_FUMBLE | BALL_FLAG_PICKUP)) ? 1 : 0;
        }
        keys[i] = k;
    }
    sort_by_keys(acts, keys, n);
    for (int i = 0; i < n; i++) {
        long v;
        if ((*rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
            return 0;
        if (ball_side(g) == side && ball_result(g) == BALL_ONGOING)
            v = negamax(s, g, depth - 1, alpha, beta, ply + 1, rc);
        else if (ball_result(g) != BALL_ONGOING)
            v = sparring_evaluate(g, side), v = v >= WIN ? v - ply - 1 : v <= -WIN ? v + ply + 1 : v;
        else
            v = -negamax(s, g, depth - 1, -beta, -alpha, ply + 1, rc);
        if (*rc != BALL_OK)
            return 0;
        if ((*rc = ball_undo(g)) != BALL_OK)
            return 0;
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            best_move = acts[i];
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    e->key = key;
    e->stamp = s->stamp;
    e->value = (int32_t)to_tt(best, ply);
    e->depth = (int8_t)depth;
    e->best = best_move;
    e->bound = best <= alpha0 ? BOUND_UPPER : best >= beta ? BOUND_LOWER : BOUND_EXACT;
    return best;
}

static int alphabeta_choose(sparring *s, ball_game *g, const ball_action *acts_in, int n,
                            ball_action *out)
{
    int side = ball_side(g), rc = BALL_OK;
    ball_action *root = s->acts[MAX_PLY];
    long *keys = s->keys[MAX_PLY];
    memcpy(root, acts_in, (size_t)n * sizeof *root);
    s->stamp++;
    s->nodes = 0;
    s->stopped = 0;
    s->depth_done = 0;
    *out = root[0];
    for (int i = 0; i < n; i++) {
        if (scores_at_once(g, root[i], &rc)) {
            *out = root[i];
            return BALL_OK;
        }
        if (rc != BALL_OK)
            return rc;
    }
    if (n == 1)
        return BALL_OK;
    /* the root's order: by the static value of each child */
    for (int i = 0; i < n; i++) {
        if ((rc = ball_apply_unchecked(g, root[i])) != BALL_OK)
            return rc;
        keys[i] = sparring_evaluate(g, side);
        if ((rc = ball_undo(g)) != BALL_OK)
            return rc;
    }
    sort_by_keys(root, keys, n);
    for (int depth = 1; depth <= s->max_depth; depth++) {
        long alpha = -WIN - 1, beta = WIN + 1, best = -WIN - 1;
        int best_i = -1;
        for (int i = 0; i < n; i++) {
            long v;
            if ((rc = ball_apply_unchecked(g, root[i])) != BALL_OK)
                return rc;
            if (ball_result(g) != BALL_ONGOING)
                v = sparring_evaluate(g, side);
            else if (ball_side(g) == side)
                v = negamax(s, g, depth - 1, alpha, beta, 1, &rc);
            else
                v = -negamax(s, g, depth - 1, -beta, -alpha, 1, &rc);
            if (rc != BALL_OK)
                return rc;
            if ((rc = ball_undo(g)) != BALL_OK)
                return rc;
            if (s->stopped)
                break;
            if (v > best) {
                best = v;
                best_i = i;
            }
            if (v > alpha)
                alpha = v;
        }
        if (best_i >= 0) {
            /* the best decision goes first in the next iteration; a
             * decision searched whole in a cut-off iteration beat the
             * previous best, which was searched first */
            ball_action a = root[best_i];
            memmove(root + 1, root, (size_t)best_i * sizeof *root);
            root[0] = a;
            *out = a;
        }
        if (s->stopped)
            break;
        s->depth_done = depth;
        if (best > WIN_NEAR || best < -WIN_NEAR)
            break; /* a forced result: deeper search finds nothing else */
    }
    return BALL_OK;
}

/* ------------------------------------------------------------------ */
/* turn                                                                */

/* Adds @p key to the set; 1 if it was new, 0 if there already, -1 full. */
static int seen_add(sparring *s, uint64_t key)
{
    size_t i = (size_t)(key ^ key >> 29) & s->seen_mask;
    for (;;) {
        struct seen_slot *slot = &s->seen[i];
        if (slot->stamp != s->stamp) {
            if (s->seen_used >= s->seen_cap)
                return -1;
            slot->stamp = s->stamp;
            slot->key = key;
            s->seen_used++;
            return 1;
        }
        if (slot->key == key)
            return 0;
        i = (i + 1) & s->seen_mask;
    }
}

/* Walks the rest of the turn from @p g; @p first is the root decision the
 * walk went through. */
static int turn_walk(sparring *s, ball_game *g, ball_action first, int ply)
{
    int n, rc = BALL_OK, added;
    ball_action *acts;
    if (ball_result(g) != BALL_ONGOING || ball_side(g) != s->root_side || ply >= MAX_PLY) {
        long v;
        /* a turn end met before was scored then, under an earlier first
         * decision, which keeps it */
        if ((added = seen_add(s, ball_hash(g))) <= 0) {
            s->stopped = added < 0;
            return BALL_OK;
        }
        v = leaf_value(s, g, s->root_side, &rc);
        if (rc != BALL_OK)
            return rc;
        if (!s->have_best || v > s->best_value) {
            s->best_value = v;
            s->best_first = first;
            s->have_best = 1;
        }
        return BALL_OK;
    }
    added = seen_add(s, ball_hash(g));
    if (added == 0)
        return BALL_OK;
    if (added < 0 || ++s->nodes > s->max_nodes) {
        s->stopped = 1;
        return BALL_OK;
    }
    acts = s->acts[ply];
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n <= 0) {
        long v = leaf_value(s, g, s->root_side, &rc);
        if (rc != BALL_OK)
            return rc;
        if (!s->have_best || v > s->best_value) {
            s->best_value = v;
            s->best_first = first;
            s->have_best = 1;
        }
        return BALL_OK;
    }
    for (int i = 0; i < n && !s->stopped; i++) {
        if ((rc = ball_apply_unchecked(g, acts[i])) != BALL_OK)
            return rc;
        rc = turn_walk(s, g, ply == 0 ? acts[i] : first, ply + 1);
        if (rc != BALL_OK)
            return rc;
        if ((rc = ball_undo(g)) != BALL_OK)
            return rc;
    }
    return BALL_OK;
}

static int turn_choose(sparring *s, ball_game *g, const ball_action *acts, int n, ball_action *out)
{
    int rc = BALL_OK;
    *out = acts[0];
    s->nodes = 0;
    s->stopped = 0;
    s->depth_done = 0;
    s->stamp++;
    s->seen_used = 0;
    s->have_best = 0;
    s->root_side = ball_side(g);
    for (int i = 0; i < n; i++) {
        if (scores_at_once(g, acts[i], &rc)) {
            *out = acts[i];
            return BALL_OK;
        }
        if (rc != BALL_OK)
            return rc;
    }
    if (n == 1)
        return BALL_OK;
    rc = turn_walk(s, g, BALL_ACTION_NONE, 0);
    if (rc == BALL_OK && s->have_best && s->best_first != BALL_ACTION_NONE)
        *out = s->best_first;
    return rc;
}

int sparring_choose(sparring *s, ball_game *g, const ball_action *acts, int n, ball_action *out)
{
    if (s == NULL || g == NULL || acts == NULL || n <= 0 || out == NULL)
        return BALL_E_ARG;
    return s->kind == SPAR_ALPHABETA ? alphabeta_choose(s, g, acts, n, out)
                                     : turn_choose(s, g, acts, n, out);
}
