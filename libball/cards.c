/* SPDX-License-Identifier: MIT */
/* The public card-ruleset calls (R10): an opaque set that grows by calls,
 * so that entries and effects can be added without a layout change. */
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "err_text.h"

static const char *const EARN_NAMES[EARN_COUNT] = {
    [BALL_EARN_MOVE] = "move", [BALL_EARN_PICKUP] = "pickup", [BALL_EARN_DODGE] = "dodge",
    [BALL_EARN_FORCED_FUMBLE] = "fumble", [BALL_EARN_TACTICAL_DODGE] = "tactical",
    [BALL_EARN_BLOCK] = "block", [BALL_EARN_PROTECT] = "protect", [BALL_EARN_HANDOFF] = "handoff",
    [BALL_EARN_SHORT_PASS] = "short", [BALL_EARN_LONG_PASS] = "long",
    [BALL_EARN_STAND_UP] = "standup", [BALL_EARN_UNBLOCK] = "unblock",
    [BALL_EARN_UNPROTECT] = "unprotect",
};

int cardset_earn_entry(const char *name, size_t len)
{
    for (int e = 0; e < EARN_COUNT; e++)
        if (strlen(EARN_NAMES[e]) == len && memcmp(name, EARN_NAMES[e], len) == 0)
            return e;
    return -1;
}

const char *cardset_earn_name(int e) { return EARN_NAMES[e]; }

void cardset_clear(ball_cardset *cards)
{
    memset(cards, 0, sizeof *cards);
    cards->rules.on = 1;
}

static int team_ok(int team) { return team == BALL_ATK || team == BALL_DEF; }

int ball_cardset_new(ball_cardset **out)
{
    if (!out)
        return BALL_E_ARG;
    *out = malloc(sizeof **out);
    if (!*out)
        return BALL_E_NOMEM;
    cardset_clear(*out);
    return BALL_OK;
}

void ball_cardset_free(ball_cardset *cards) { free(cards); }

int ball_cardset_set_earn(ball_cardset *cards, int entry, int pe)
{
    if (!cards || entry < 0 || entry >= EARN_COUNT)
        return BALL_E_ARG;
    if (pe < 0 || pe > BALL_MAX_CARD_PE)
        return BALL_E_RANGE;
    cards->rules.earn[entry] = (uint16_t)pe;
    return BALL_OK;
}

int ball_cardset_earn(const ball_cardset *cards, int entry)
{
    if (!cards || entry < 0 || entry >= EARN_COUNT)
        return BALL_E_ARG;
    return cards->rules.earn[entry];
}

static int name_ok(const char *name)
{
    size_t len = 0;
    for (; len < BALL_CARD_NAME_MAX && name[len]; len++) {
        char c = name[len];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return len > 0 && len < BALL_CARD_NAME_MAX;
}

int cardset_card_check(const char *name, int cost, int effect, int amount, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!name_ok(name))
        why = "a name of 1-23 letters, digits, '_' or '-'";
    else if (cost < 0 || cost > BALL_MAX_CARD_PE)
        why = "a cost 0-999";
    else if (effect == BALL_EFFECT_GAIN_PA && (amount < 1 || amount > 9))
        why = "an amount 1-9 for the effect pa+N";
    else if (effect == BALL_EFFECT_UNRESTRICT && amount != 0)
        why = "an amount 0 for the effect 'again'";
    else if (effect != BALL_EFFECT_GAIN_PA && effect != BALL_EFFECT_UNRESTRICT)
        why = "a known effect: pa+N (BALL_EFFECT_GAIN_PA) or again (BALL_EFFECT_UNRESTRICT)";
    return why ? err_text(err, errlen, -1, "a card needs %s", why) : 0;
}

int ball_cardset_add_card(ball_cardset *cards, int team, const char *name, int cost, int effect,
                          int amount)
{
    if (!cards || !name || !team_ok(team))
        return BALL_E_ARG;
    card_rules *r = &cards->rules;
    if (r->hand_size[team] == HAND_MAX || cardset_card_check(name, cost, effect, amount, NULL, 0) < 0)
        return BALL_E_RANGE;
    int i = r->hand_size[team]++;
    r->hand[team][i] = (card_def){(uint16_t)cost, (uint8_t)effect, (uint8_t)amount};
    strcpy(cards->names[team][i], name);
    return i;
}

int ball_cardset_hand_size(const ball_cardset *cards, int team)
{
    if (!cards || !team_ok(team))
        return BALL_E_ARG;
    return cards->rules.hand_size[team];
}

static int card_ok(const ball_cardset *cards, int team, int index)
{
    return cards && team_ok(team) && index >= 0 && index < cards->rules.hand_size[team];
}

const char *ball_cardset_card_name(const ball_cardset *cards, int team, int index)
{
    return card_ok(cards, team, index) ? cards->names[team][index] : NULL;
}

int ball_cardset_card_value(const ball_cardset *cards, int team, int index, int field)
{
    if (!card_ok(cards, team, index))
        return BALL_E_ARG;
    const card_def *c = &cards->rules.hand[team][index];
    switch (field) {
    case BALL_CARD_COST: return c->cost;
    case BALL_CARD_EFFECT: return c->effect;
    case BALL_CARD_AMOUNT: return c->amount;
    default: return BALL_E_ARG;
    }
}
