/* Card mode (R10) rulesets: checking a ball_cards struct, turning it into
 * the compact card_rules the engine uses, and the one-line text form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cards.h"
#include "notation.h"

void ball_cards_init(ball_cards *cards, size_t size)
{
    if (!cards)
        return;
    ball_cards c;
    memset(&c, 0, sizeof c);
    c.size = size < sizeof c ? size : sizeof c;
    memcpy(cards, &c, c.size);
}

static int name_ok(const char *name)
{
    const char *nul = memchr(name, '\0', BALL_CARD_NAME_MAX);
    size_t len = nul ? (size_t)(nul - name) : 0;
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

static int card_ok(const ball_card *c)
{
    if (!name_ok(c->name) || c->cost < 0 || c->cost > 999)
        return 0;
    if (c->effect == BALL_EFFECT_GAIN_PA)
        return c->amount >= 1 && c->amount <= 9;
    return c->effect == BALL_EFFECT_UNRESTRICT && c->amount == 0;
}

int cards_compile(const ball_cards *src, card_rules *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!src)
        return BALL_OK;
    if (src->size != sizeof *src) {
        snprintf(err, errlen, "ball_cards size %zu, expected %zu", src->size, sizeof *src);
        return BALL_E_ARG;
    }
    for (int e = 0; e < BALL_EARN_COUNT; e++) {
        if (src->earn[e] < 0 || src->earn[e] > 999) {
            snprintf(err, errlen, "earning entry %d: %d out of range 0-999", e, src->earn[e]);
            return BALL_E_RANGE;
        }
        out->earn[e] = (uint16_t)src->earn[e];
    }
    for (int team = 0; team < 2; team++) {
        if (src->hand_size[team] < 0 || src->hand_size[team] > BALL_MAX_HAND) {
            snprintf(err, errlen, "%s hand size %d out of range 0-%d", team ? "DEF" : "ATK",
                     src->hand_size[team], BALL_MAX_HAND);
            return BALL_E_RANGE;
        }
        out->hand_size[team] = (uint8_t)src->hand_size[team];
        for (int i = 0; i < src->hand_size[team]; i++) {
            const ball_card *c = &src->hand[team][i];
            if (!card_ok(c)) {
                snprintf(err, errlen, "%s card %d: needs a name of 1-%d letters, digits, '_' or '-', "
                         "a cost 0-999 and a known effect with its amount", team ? "DEF" : "ATK", i + 1,
                         BALL_CARD_NAME_MAX - 1);
                return BALL_E_RANGE;
            }
            out->hand[team][i] = (card_def){(uint16_t)c->cost, (uint8_t)c->effect, (uint8_t)c->amount};
        }
    }
    out->on = 1;
    return BALL_OK;
}

/* ---- the text form ---------------------------------------------------- */

static const char *const EARN_NAMES[BALL_EARN_COUNT] = {
    "move", "pickup", "dodge", "fumble", "tactical", "block", "protect",
    "handoff", "short", "long", "standup", "unblock", "unprotect",
};

/* A whole decimal number in [lo, hi] taking the len characters at s. */
static int read_int(const char *s, size_t len, int lo, int hi, int *out)
{
    uint32_t v;
    if (decimal_read(s, len, &v) < 0 || v < (uint32_t)lo || v > (uint32_t)hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* NAME:COST:EFFECT */
static int read_card(const char *s, size_t len, ball_card *card)
{
    const char *c1 = memchr(s, ':', len);
    const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - s)) : NULL;
    if (!c2 || (size_t)(c1 - s) >= BALL_CARD_NAME_MAX)
        return -1;
    memset(card, 0, sizeof *card);
    memcpy(card->name, s, (size_t)(c1 - s));
    if (read_int(c1 + 1, (size_t)(c2 - c1 - 1), 0, 999, &card->cost) < 0)
        return -1;
    const char *eff = c2 + 1;
    size_t elen = len - (size_t)(eff - s);
    if (elen == 5 && memcmp(eff, "again", 5) == 0)
        card->effect = BALL_EFFECT_UNRESTRICT;
    else if (elen > 3 && memcmp(eff, "pa+", 3) == 0 && read_int(eff + 3, elen - 3, 1, 9, &card->amount) == 0)
        card->effect = BALL_EFFECT_GAIN_PA;
    else
        return -1;
    return card_ok(card) ? 0 : -1;
}

static int read_hand(const char *s, size_t len, ball_cards *cards, int team)
{
    int n = 0;
    while (len > 0) {
        const char *comma = memchr(s, ',', len);
        size_t item = comma ? (size_t)(comma - s) : len;
        if (n == BALL_MAX_HAND || read_card(s, item, &cards->hand[team][n]) < 0)
            return -1;
        n++;
        if (!comma)
            break;
        s = comma + 1;
        len -= item + 1;
        if (len == 0)
            return -1; /* trailing comma */
    }
    cards->hand_size[team] = n;
    return n > 0 ? 0 : -1;
}

static int read_word(const char *w, size_t len, ball_rules *rules, ball_cards *cards, int *card_mode)
{
    const char *eq = memchr(w, '=', len);
    if (!eq) {
        if (len != 5 || memcmp(w, "cards", 5) != 0)
            return -1;
        *card_mode = 1;
        return 0;
    }
    size_t klen = (size_t)(eq - w), vlen = len - klen - 1;
    const char *v = eq + 1;
    int n;
    if (klen == 4 && memcmp(w, "zone", 4) == 0)
        return read_int(v, vlen, 1, 3, &rules->end_zone_depth);
    if (klen == 5 && memcmp(w, "turns", 5) == 0) {
        if (read_int(v, vlen, 0, 999999999, &n) < 0)
            return -1;
        rules->turn_limit = (unsigned)n;
        return 0;
    }
    *card_mode = 1;
    if (klen == 3 && (memcmp(w, "atk", 3) == 0 || memcmp(w, "def", 3) == 0))
        return read_hand(v, vlen, cards, w[0] == 'd');
    if (klen > 5 && memcmp(w, "earn.", 5) == 0)
        for (int e = 0; e < BALL_EARN_COUNT; e++)
            if (strlen(EARN_NAMES[e]) == klen - 5 && memcmp(w + 5, EARN_NAMES[e], klen - 5) == 0)
                return read_int(v, vlen, 0, 999, &cards->earn[e]);
    return -1;
}

int ball_rules_parse(ball_rules *rules, ball_cards *cards, const char *text, char *err, size_t errlen)
{
    if (!rules || !cards || !text) {
        if (err && errlen)
            snprintf(err, errlen, "NULL argument");
        return BALL_E_ARG;
    }
    ball_rules r;
    ball_cards c;
    ball_rules_init(&r, sizeof r);
    ball_cards_init(&c, sizeof c);
    int card_mode = 0;
    const char *s = text;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        size_t len = strcspn(s, " ");
        if (read_word(s, len, &r, &c, &card_mode) < 0) {
            if (err && errlen)
                snprintf(err, errlen, "rules: bad word '%.*s' at character %zu", (int)len, s, (size_t)(s - text) + 1);
            return BALL_E_RANGE;
        }
        s += len;
    }
    *rules = r;
    *cards = c;
    rules->cards = card_mode ? cards : NULL;
    if (err && errlen)
        err[0] = '\0';
    return BALL_OK;
}
