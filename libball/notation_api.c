/* SPDX-License-Identifier: MIT */
/* Public notation calls: BPN in and out, action text in and out. */
#include <string.h>

#include "action.h"
#include "bpn.h"
#include "game.h"
#include "geometry.h"
#include "movegen.h"
#include "notation.h"

/* Copies text of length n into the caller's buffer, or reports why not. */
static int copy_out(const char *text, int n, char *buf, size_t len)
{
    if (!buf)
        return BALL_E_ARG;
    if ((size_t)n >= len)
        return BALL_E_BUFFER;
    memcpy(buf, text, (size_t)n + 1);
    return n;
}

int ball_position_to_text(ball_game *g, char *buf, size_t len)
{
    if (!g)
        return BALL_E_ARG;
    char text[BPN_MAX];
    int n = bpn_format(&g->p, text);
    int rc = copy_out(text, n, buf, len);
    if (rc == BALL_E_BUFFER)
        return game_error(g, rc, "BPN needs %d bytes, buffer has %zu", n + 1, len);
    if (rc < 0)
        return game_error(g, rc, "NULL buffer");
    game_ok(g);
    return rc;
}

int ball_position_from_text(ball_game *g, const char *bpn)
{
    if (!g)
        return BALL_E_ARG;
    if (!bpn)
        return game_error(g, BALL_E_ARG, "NULL BPN text");
    pos p;
    if (bpn_parse(bpn, &p, g->rules.rules.end_zone_depth, g->rules.rules.turn_limit, &g->p.cards, g->err, sizeof g->err) < 0)
        return BALL_E_BPN;
    g->p = p;
    g->nhist = 0;
    return game_ok(g);
}

int ball_action_to_text(ball_action a, char *buf, size_t len)
{
    if (!act_well_formed(a))
        return BALL_E_ARG;
    char text[ACTION_TEXT_MAX];
    return copy_out(text, action_format(a, text), buf, len);
}

/* At turn BALL_MAX_TURN: 1 when `text` names a decision legal one turn
 * earlier, which the bound leaves out because it would hand the turn
 * over (turn_bound.h; the turn number changes nothing else). */
static int listed_earlier(const pos *p, const char *text)
{
    pos earlier = *p;
    earlier.st.turn = BALL_MAX_TURN - 1;
    uint32_t acts[MAX_ACTIONS];
    char t[ACTION_TEXT_MAX];
    int n = gen_actions(&earlier, acts);
    for (int i = 0; i < n; i++) {
        action_format(acts[i], t);
        if (strcmp(t, text) == 0)
            return 1;
    }
    return 0;
}

/* Why a well-formed text names no legal action, in the rules' words. */
static int explain_illegal(ball_game *g, const char *text)
{
    const pos *p = &g->p;
    const char *side = p->st.side == ATK ? "ATK" : "DEF";
    if (p->st.result != ONGOING)
        return game_error(g, BALL_E_ILLEGAL, "%s: the game is over", text);
    if (p->st.turn >= BALL_MAX_TURN && listed_earlier(p, text)) /* left out by turn_bound.h */
        return game_error(g, BALL_E_LIMIT, "%s: would hand the turn over past %d, the last turn BPN can write",
                          text, BALL_MAX_TURN);
    if (strcmp(text, "end") == 0)
        return game_error(g, BALL_E_ILLEGAL, "end: not in the action phase");
    if (strncmp(text, "pe+", 3) == 0 || strncmp(text, "card", 4) == 0) {
        if (!p->cards.on)
            return game_error(g, BALL_E_ILLEGAL, "%s: needs card mode (R10)", text);
        return game_error(g, BALL_E_ILLEGAL, "%s: not playable now (%s phase, %d PA, %u PE; "
                          "conversions need that many PA, cards their cost in PE and a target)",
                          text, p->st.phase == PHASE_ACTION ? "action" : "release", p->st.pa,
                          (unsigned)p->st.pe[p->st.side]);
    }
    const char *s = text;
    int from = square_scan(&s);
    if (!p->top[from] || pc_team(p->top[from]) != p->st.side)
        return game_error(g, BALL_E_ILLEGAL, "%s: no piece of %s on %.*s", text, side, (int)(s - text), text);
    return game_error(g, BALL_E_ILLEGAL, "%s: not a legal %s decision in this position (%s phase, %d PA left)",
                      text, side, p->st.phase == PHASE_ACTION ? "action" : "release", p->st.pa);
}

int ball_action_from_text(ball_game *g, const char *text, ball_action *out)
{
    if (!g)
        return BALL_E_ARG;
    if (!text || !out)
        return game_error(g, BALL_E_ARG, "NULL %s", text ? "output pointer" : "action text");
    if (action_syntax(text, g->err, sizeof g->err) < 0)
        return BALL_E_NOTATION;
    uint32_t acts[MAX_ACTIONS];
    char t[ACTION_TEXT_MAX];
    int n = gen_actions(&g->p, acts);
    /* The text of a piece's decision starts with its square (N2), the
     * others' with a word (end, pe+, card): only the legal decisions that
     * can match are formatted and compared (formatting them all was half
     * the cost of reading a record). */
    const char *rest = text;
    int from = square_scan(&rest);
    for (int i = 0; i < n; i++) {
        int kind = act_kind(acts[i]);
        int worded = kind == K_END || kind == K_CONVERT || kind == K_CARD;
        if (from != NO_SQ ? worded || act_from(acts[i]) != from : !worded)
            continue;
        action_format(acts[i], t);
        if (strcmp(t, text) == 0) {
            *out = acts[i];
            return game_ok(g);
        }
    }
    return explain_illegal(g, text);
}
