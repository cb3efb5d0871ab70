/* SPDX-License-Identifier: MIT */
/* Public geometry and position queries: argument checks over geometry.h
 * and position.h. */
#include <string.h>

#include "game.h"

static int valid_sq(int sq) { return sq >= 0 && sq < NSQ; }

int ball_square_at(int col, int row)
{
    int sq = square_at(col, row);
    return sq == NO_SQ ? BALL_E_RANGE : sq;
}

int ball_square_col(int sq) { return valid_sq(sq) ? SQ_COL[sq] : BALL_E_RANGE; }
int ball_square_row(int sq) { return valid_sq(sq) ? SQ_ROW[sq] : BALL_E_RANGE; }

int ball_square_from_text(const char *name)
{
    if (!name)
        return BALL_E_ARG;
    const char *s = name;
    int sq = square_scan(&s);
    return sq == NO_SQ || *s ? BALL_E_NOTATION : sq;
}

int ball_square_to_text(int sq, char *buf, size_t len)
{
    if (!buf)
        return BALL_E_ARG;
    if (!valid_sq(sq))
        return BALL_E_RANGE;
    char name[4];
    int n = square_format(sq, name);
    if ((size_t)n >= len)
        return BALL_E_BUFFER;
    memcpy(buf, name, (size_t)n + 1);
    return n;
}

int ball_square_distance(int a, int b)
{
    return valid_sq(a) && valid_sq(b) ? square_distance(a, b) : BALL_E_RANGE;
}

/* Getters: BALL_E_ARG for a NULL game, never another negative value. */
int ball_side(const ball_game *g) { return g ? g->p.st.side : BALL_E_ARG; }
int ball_phase(const ball_game *g) { return g ? g->p.st.phase : BALL_E_ARG; }
int ball_pa(const ball_game *g) { return g ? g->p.st.pa : BALL_E_ARG; }
int ball_handoff_last(const ball_game *g) { return g ? g->p.st.handoff : BALL_E_ARG; }
int ball_turn(const ball_game *g) { return g ? (int)g->p.st.turn : BALL_E_ARG; }
int ball_result(const ball_game *g) { return g ? g->p.st.result : BALL_E_ARG; }
int ball_square_of_ball(const ball_game *g) { return g ? g->p.st.ball : BALL_E_ARG; }

int ball_restricted_square(const ball_game *g)
{
    if (!g)
        return BALL_E_ARG;
    return g->p.st.restricted ? g->p.st.ball : BALL_NO_SQUARE;
}

int ball_pe(const ball_game *g, int team)
{
    if (!g || (team != ATK && team != DEF))
        return BALL_E_ARG;
    return (int)g->p.st.pe[team];
}

int ball_hand(const ball_game *g, int team)
{
    if (!g || (team != ATK && team != DEF))
        return BALL_E_ARG;
    return g->p.st.hand[team];
}

int ball_piece(const ball_game *g, int sq, int level)
{
    if (!g || (level != BALL_UPPER && level != BALL_LOWER))
        return BALL_E_ARG;
    if (!valid_sq(sq))
        return BALL_E_RANGE;
    const pos *p = &g->p;
    int stacked = p->low[sq] != 0;
    int code = level == BALL_UPPER ? p->top[sq] : p->low[sq];
    if (!code)
        return 0;
    if (stacked)
        code |= BALL_PIECE_STACKED;
    if (level == BALL_UPPER && p->st.ball == sq) {
        code |= BALL_PIECE_BALL;
        if (p->st.restricted)
            code |= BALL_PIECE_RESTRICTED;
    }
    return code;
}

int ball_square_state(const ball_game *g, int sq)
{
    if (!g)
        return BALL_E_ARG;
    if (!valid_sq(sq))
        return BALL_E_RANGE;
    const pos *p = &g->p;
    int bits = 0;
    if (p->top[sq]) bits |= BALL_SQ_PIECE;
    if (p->low[sq]) bits |= BALL_SQ_STACK;
    if (p->low[sq] && is_fresh(p, sq)) bits |= BALL_SQ_FRESH;
    if (p->st.ball == sq) bits |= p->top[sq] ? BALL_SQ_BALL : BALL_SQ_BALL | BALL_SQ_LOOSE_BALL;
    return bits;
}
