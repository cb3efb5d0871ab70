/* Fuzz target: the ruleset text form (ball_rules_from_text(),
 * ball_rules_to_text()).
 *
 * Input: the text of a ruleset (up to its first NUL), e.g.
 * "zone=2 turns=9 earn.dodge=1 atk=Sprint:2:pa+1,Rally:3:again".
 *
 * Properties:
 *  - ball_rules_from_text() never crashes and returns BALL_OK or
 *    BALL_E_RULES; a refused text says why in err (a NUL-terminated
 *    message that fits in any errlen, even 1), leaves the caller's
 *    ball_rules untouched and *cards NULL: nothing half-made;
 *  - an accepted ruleset passes ball_rules_check(); its card set (card
 *    mode only) is the one rules.cards names;
 *  - ball_rules_to_text() writes it in fewer than BALL_RULES_TEXT_MAX
 *    bytes, reports a buffer one byte short, and the text reads back
 *    (ball_rules_from_text()) into the same ruleset, field by field and
 *    card by card, which writes the same text again;
 *  - games can be created from it (and from the re-read ruleset), after
 *    which the card sets are freed: the games keep their own copies
 *    (ASan sees any use of the freed ones). ball_game_rules() gives the
 *    same text; the game starts with full hands and no PE, and has legal
 *    actions; a clone says the same.
 */
#include "fuzz_common.h"

/* Everything the public API says about a ruleset, compared field by
 * field (and card by card). */
static void same_rules(const ball_rules *a, const ball_rules *b)
{
    FUZZ_CHECK(NULL, a->end_zone_depth == b->end_zone_depth);
    FUZZ_CHECK(NULL, a->turn_limit == b->turn_limit);
    FUZZ_CHECK(NULL, a->flags == b->flags);
    FUZZ_CHECK(NULL, (a->cards == NULL) == (b->cards == NULL));
    if (!a->cards)
        return;
    for (int e = 0; e < BALL_EARN_COUNT; e++)
        FUZZ_CHECK(NULL, ball_cardset_earn(a->cards, e) == ball_cardset_earn(b->cards, e));
    FUZZ_CHECK(NULL, ball_cardset_earn(a->cards, BALL_EARN_COUNT) == BALL_E_ARG);
    for (int t = 0; t < 2; t++) {
        int n = ball_cardset_hand_size(a->cards, t);
        FUZZ_CHECK(NULL, n >= 0 && n <= BALL_MAX_HAND && n == ball_cardset_hand_size(b->cards, t));
        for (int i = 0; i < n; i++) {
            const char *na = ball_cardset_card_name(a->cards, t, i), *nb = ball_cardset_card_name(b->cards, t, i);
            FUZZ_CHECK(NULL, na && nb && strcmp(na, nb) == 0);
            FUZZ_CHECK(NULL, strlen(na) >= 1 && strlen(na) < BALL_CARD_NAME_MAX);
            for (int f = BALL_CARD_COST; f <= BALL_CARD_AMOUNT; f++)
                FUZZ_CHECK(NULL, ball_cardset_card_value(a->cards, t, i, f) == ball_cardset_card_value(b->cards, t, i, f));
            int cost = ball_cardset_card_value(a->cards, t, i, BALL_CARD_COST);
            int effect = ball_cardset_card_value(a->cards, t, i, BALL_CARD_EFFECT);
            int amount = ball_cardset_card_value(a->cards, t, i, BALL_CARD_AMOUNT);
            FUZZ_CHECK(NULL, cost >= 0 && cost <= BALL_MAX_CARD_PE);
            FUZZ_CHECK(NULL, (effect == BALL_EFFECT_GAIN_PA && amount >= 1 && amount <= 9)
                                 || (effect == BALL_EFFECT_UNRESTRICT && amount == 0));
        }
        FUZZ_CHECK(NULL, ball_cardset_card_name(a->cards, t, n) == NULL);
        FUZZ_CHECK(NULL, ball_cardset_card_value(a->cards, t, n, BALL_CARD_COST) == BALL_E_ARG);
    }
}

/* A game under the ruleset: its own ruleset writes the same text, it
 * starts with full hands and no PE, it has legal actions; a clone agrees. */
static void check_game(ball_game *g, const char *text)
{
    ball_rules r;
    char back[BALL_RULES_TEXT_MAX];
    ball_rules_init(&r, sizeof r);
    FUZZ_CHECK(g, ball_game_rules(g, &r) == BALL_OK);
    FUZZ_CHECK(g, ball_rules_to_text(&r, back, sizeof back) == (int)strlen(text));
    FUZZ_CHECK(g, strcmp(back, text) == 0);
    for (int t = 0; t < 2; t++) {
        FUZZ_CHECK(g, ball_pe(g, t) == 0);
        int n = r.cards ? ball_cardset_hand_size(r.cards, t) : 0;
        FUZZ_CHECK(g, ball_hand(g, t) == (1 << n) - 1);
    }
    fuzz_check_invariants(g, NULL);
    int n = ball_legal_actions(g, NULL, 0);
    FUZZ_CHECK(g, n > 0);
    ball_action a = BALL_ACTION_NONE;
    FUZZ_CHECK(g, ball_legal_action_at(g, n - 1, &a) == BALL_OK && ball_action_kind(a) == BALL_END);

    ball_game *c = NULL;
    FUZZ_CHECK(g, ball_game_clone(&c, g) == BALL_OK);
    ball_rules_init(&r, sizeof r);
    FUZZ_CHECK(c, ball_game_rules(c, &r) == BALL_OK);
    FUZZ_CHECK(c, ball_rules_to_text(&r, back, sizeof back) == (int)strlen(text));
    FUZZ_CHECK(c, strcmp(back, text) == 0);
    FUZZ_CHECK(c, ball_legal_actions(c, NULL, 0) == n && ball_hash(c) == ball_hash(g));
    ball_game_free(c);
}

static int fuzz_one(const char *text)
{
    fuzz_note("rules text '%.400s'", text);

    /* The caller's struct, filled with a pattern: a refused text must not
     * touch it. */
    ball_rules rules, pattern;
    memset(&pattern, 0x5a, sizeof pattern);
    pattern.size = sizeof pattern;
    rules = pattern;
    ball_cardset *cards = (ball_cardset *)&pattern; /* must become NULL or a new set */
    char err[256];
    memset(err, 'x', sizeof err);
    int rc = ball_rules_from_text(&rules, &cards, text, err, sizeof err);
    FUZZ_CHECK(NULL, memchr(err, '\0', sizeof err) != NULL);
    if (rc != BALL_OK) {
        FUZZ_CHECK(NULL, rc == BALL_E_RULES);
        FUZZ_CHECK(NULL, cards == NULL || cards == (ball_cardset *)&pattern);
        FUZZ_CHECK(NULL, strncmp(err, "rules: ", 7) == 0 && strlen(err) > 7);
        FUZZ_CHECK(NULL, memcmp(&rules, &pattern, sizeof rules) == 0);
        /* the message fits in any buffer, truncated and terminated */
        for (size_t len = 1; len <= 8; len++) {
            char *small = malloc(len); /* exact size: ASan sees an overflow */
            FUZZ_CHECK(NULL, small != NULL);
            memset(small, 'x', len);
            ball_cardset *none = NULL;
            ball_rules_init(&rules, sizeof rules);
            FUZZ_CHECK(NULL, ball_rules_from_text(&rules, &none, text, small, len) == BALL_E_RULES);
            FUZZ_CHECK(NULL, none == NULL && small[len - 1] == '\0');
            FUZZ_CHECK(NULL, strncmp(small, err, len - 1) == 0);
            free(small);
        }
        return 0;
    }
    FUZZ_CHECK(NULL, err[0] == '\0');
    FUZZ_CHECK(NULL, rules.size == sizeof rules);
    FUZZ_CHECK(NULL, (const ball_cardset *)cards == rules.cards);
    FUZZ_CHECK(NULL, ball_rules_check(&rules, NULL, 0) == BALL_OK);

    /* to text and back */
    char out[BALL_RULES_TEXT_MAX], again[BALL_RULES_TEXT_MAX];
    int len = ball_rules_to_text(&rules, out, sizeof out);
    FUZZ_CHECK(NULL, len >= 0 && len < BALL_RULES_TEXT_MAX && (size_t)len == strlen(out));
    fuzz_note("rules text '%.300s' written as '%.300s'", text, out);
    FUZZ_CHECK(NULL, ball_rules_to_text(&rules, again, (size_t)len) == BALL_E_BUFFER);
    FUZZ_CHECK(NULL, ball_rules_to_text(&rules, NULL, sizeof again) == BALL_E_ARG);
    FUZZ_CHECK(NULL, (len == 0) == (rules.end_zone_depth == 1 && rules.turn_limit == 0 && !rules.cards));
    ball_rules reread;
    ball_cardset *cards2 = NULL;
    ball_rules_init(&reread, sizeof reread);
    FUZZ_CHECK(NULL, ball_rules_from_text(&reread, &cards2, out, err, sizeof err) == BALL_OK);
    FUZZ_CHECK(NULL, (const ball_cardset *)cards2 == reread.cards);
    same_rules(&rules, &reread);
    FUZZ_CHECK(NULL, ball_rules_to_text(&reread, again, sizeof again) == len);
    FUZZ_CHECK(NULL, strcmp(again, out) == 0);
    if (strcmp(text, out) == 0) /* a canonical text reads into a new set */
        FUZZ_CHECK(NULL, !cards || cards2 != cards);

    /* games from both, which outlive the card sets */
    ball_game *g = NULL, *g2 = NULL;
    char gerr[256] = "unset";
    FUZZ_CHECK(NULL, ball_game_new(&g, &rules, gerr, sizeof gerr) == BALL_OK);
    FUZZ_CHECK(NULL, ball_game_new(&g2, &reread, NULL, 0) == BALL_OK);
    ball_cardset_free(cards);
    ball_cardset_free(cards2);
    check_game(g, out);
    check_game(g2, out);
    FUZZ_CHECK(g, ball_hash(g) == ball_hash(g2));
    ball_game_free(g2);
    ball_game_free(g);
    return 0;
}

/* The input in a heap block of its exact length plus one (fuzz_text()). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size, 4 * BALL_RULES_TEXT_MAX);
    int rc = fuzz_one(text);
    free(text);
    return rc;
}
