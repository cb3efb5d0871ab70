/* Fuzz target: differential checks of the ways to get legal actions.
 *
 * Input: an optional first line (the input's bytes up to the first '\n',
 * if there is one among the first BALL_BPN_MAX bytes and no NUL before
 * it): a BPN to start from, used when it parses under the ruleset (the
 * standard start otherwise, as for an empty line); then bytes:
 *  - a rules byte r: end-zone depth 1 + r % 3; a turn limit
 *    (r >> 2) % 4 turns after the start when that is not 0; card mode
 *    when r & 0x80, with a card set read from the next bytes (see
 *    read_cardset(): earning entries, two hands of random cards);
 *  - then one byte per decision: index b % n (two bytes, little-endian,
 *    when n > 254) of the legal actions, 0xFF takes the last one back.
 *
 * At the last position (and every FUZZ_DIFF_EVERY decisions on the way)
 * all the ways of getting the legal actions must agree:
 *  - the list of ball_legal_actions(), its count with NULL/0, ball_perft()
 *    at depth 1, a buffer one short (BALL_E_BUFFER);
 *  - ball_legal_action_at(i) for every i (and BALL_E_RANGE outside);
 *  - ball_random_action() for n evenly spaced 64-bit values, the first
 *    and the last value of each of the n ranges floor(r * n / 2^64) = j:
 *    each range gives one action and the n ranges give each legal action
 *    exactly once;
 *  - ball_is_legal() is 1 for each, 0 for a changed bit pattern that is
 *    not in the list (and ball_apply() refuses it, changing nothing);
 *  - the whole ball_select() selection tree (R12), walked from every
 *    start square, reaches exactly the legal actions that have a piece
 *    square, each once; every offered choice leads on, the choices are
 *    increasing, a choice not offered is refused;
 *  - each legal action applied then undone restores BPN and hash, and the
 *    child's hash equals that of the child's BPN read into a fresh game;
 *  - the BPN round trip through ball_position_from_text() is stable (same
 *    text, hash and legal list).
 */
#include "fuzz_common.h"

#define FUZZ_DIFF_EVERY 16

/* The bytes of the input, consumed in order; 0 once they run out. */
typedef struct reader {
    const uint8_t *data;
    size_t size, pos;
} reader;

static unsigned next_byte(reader *r) { return r->pos < r->size ? r->data[r->pos++] : 0; }

/* A random card set from the input: for each earning entry a byte
 * (entry = byte % 4, 0 for most), then for each team a hand size
 * (byte % (BALL_MAX_HAND + 1)) and for each card a cost byte (% 6) and an
 * effect byte (even: pa+(1 + b / 2 % 9), odd: again). A few bytes give
 * a small set; an empty input gives an empty card set (card mode without
 * cards or earnings). */
static ball_cardset *read_cardset(reader *r)
{
    ball_cardset *cs = NULL;
    FUZZ_CHECK(NULL, ball_cardset_new(&cs) == BALL_OK && cs);
    for (int e = 0; e < BALL_EARN_COUNT; e++) {
        unsigned b = next_byte(r);
        FUZZ_CHECK(NULL, ball_cardset_set_earn(cs, e, (int)(b % 4)) == BALL_OK);
    }
    for (int t = 0; t < 2; t++) {
        int n = (int)(next_byte(r) % (BALL_MAX_HAND + 1));
        for (int i = 0; i < n; i++) {
            unsigned cost = next_byte(r) % 6, eff = next_byte(r);
            char name[16];
            snprintf(name, sizeof name, "C%d-%d", t, i);
            int rc = eff & 1 ? ball_cardset_add_card(cs, t, name, (int)cost, BALL_EFFECT_UNRESTRICT, 0)
                             : ball_cardset_add_card(cs, t, name, (int)cost, BALL_EFFECT_GAIN_PA, (int)(1 + eff / 2 % 9));
            FUZZ_CHECK(NULL, rc == i);
        }
    }
    return cs;
}

static int in_sorted(const ball_action *sorted, int n, ball_action a)
{
    return bsearch(&a, sorted, (size_t)n, sizeof *sorted, fuzz_cmp_action) != NULL;
}

/* The selection tree below the choices in chosen[0 .. k-1]: every action
 * reached is marked in reached[] (indexes into sorted[]). */
static void walk_select(ball_game *g, int *chosen, int k, const ball_action *sorted, int n, uint8_t *reached)
{
    int choices[BALL_NUM_SQUARES + 8];
    ball_action done = 1;
    int m = ball_select(g, chosen, (size_t)k, choices, sizeof choices / sizeof *choices, &done);
    fuzz_note_action("selection tree (i = depth)", k, n, done);
    FUZZ_CHECK(g, m >= 0);
    if (done != BALL_ACTION_NONE) { /* a whole action */
        const ball_action *p = bsearch(&done, sorted, (size_t)n, sizeof *sorted, fuzz_cmp_action);
        FUZZ_CHECK(g, p != NULL);
        FUZZ_CHECK(g, ball_action_from(done) == chosen[0]);
        FUZZ_CHECK(g, reached[p - sorted] == 0); /* reached once */
        reached[p - sorted] = 1;
        FUZZ_CHECK(g, m == 0); /* ball.h: a complete selection has no further choice */
    } else {
        FUZZ_CHECK(g, k == 0 || m > 0); /* a prefix that is not an action leads on */
    }
    if (k == BALL_SELECT_STEPS)
        FUZZ_CHECK(g, m == 0);
    /* a value between the choices (or past them) is refused */
    if (k < BALL_SELECT_STEPS && k > 0) {
        int other = m > 0 ? choices[m - 1] + 1 : 0;
        chosen[k] = other;
        int c2[BALL_NUM_SQUARES + 8];
        FUZZ_CHECK(g, ball_select(g, chosen, (size_t)k + 1, c2, sizeof c2 / sizeof *c2, NULL) == BALL_E_ILLEGAL);
    }
    for (int i = 0; i < m; i++) {
        FUZZ_CHECK(g, i == 0 || choices[i] > choices[i - 1]);
        FUZZ_CHECK(g, choices[i] >= 0 && choices[i] < BALL_NUM_SQUARES + 8);
        chosen[k] = choices[i];
        walk_select(g, chosen, k + 1, sorted, n, reached);
    }
}

static void diff_check(ball_game *g, ball_game *scratch)
{
    static ball_action list[BALL_MAX_ACTIONS], sorted[BALL_MAX_ACTIONS], drawn[BALL_MAX_ACTIONS],
        other[BALL_MAX_ACTIONS];
    static uint8_t reached[BALL_MAX_ACTIONS];
    char bpn[BALL_BPN_MAX], text[BALL_BPN_MAX];

    /* the list, counted, by perft, into a short buffer */
    int n = ball_legal_actions(g, list, BALL_MAX_ACTIONS);
    FUZZ_CHECK(g, n >= 0 && n <= BALL_MAX_ACTIONS);
    FUZZ_CHECK(g, ball_legal_actions(g, NULL, 0) == n);
    uint64_t perft = 0;
    FUZZ_CHECK(g, ball_perft(g, 1, &perft) == BALL_OK && perft == (uint64_t)n);
    if (n > 0) {
        FUZZ_CHECK(g, ball_legal_actions(g, other, (size_t)n - 1) == BALL_E_BUFFER);
        FUZZ_CHECK(g, ball_legal_actions(g, other, (size_t)n) == n);
        FUZZ_CHECK(g, memcmp(other, list, (size_t)n * sizeof *list) == 0);
    }
    FUZZ_CHECK(g, (n == 0) == (ball_result(g) != BALL_ONGOING));
    memcpy(sorted, list, (size_t)n * sizeof *list);
    qsort(sorted, (size_t)n, sizeof *sorted, fuzz_cmp_action);
    for (int i = 1; i < n; i++)
        FUZZ_CHECK(g, sorted[i] != sorted[i - 1]);

    /* by index */
    ball_action a = 7;
    FUZZ_CHECK(g, ball_legal_action_at(g, -1, &a) == BALL_E_RANGE && a == 7);
    FUZZ_CHECK(g, ball_legal_action_at(g, n, &a) == BALL_E_RANGE && a == 7);
    for (int i = 0; i < n; i++) {
        fuzz_note_action("ball_legal_action_at", i, n, list[i]);
        FUZZ_CHECK(g, ball_legal_action_at(g, i, &a) == BALL_OK && a == list[i]);
    }

    /* drawn: range j is [ceil(j 2^64 / n), ceil((j+1) 2^64 / n) - 1] */
    a = 7;
    if (n == 0) {
        FUZZ_CHECK(g, ball_random_action(g, 0, &a) == BALL_E_RANGE && a == 7);
        FUZZ_CHECK(g, ball_random_action(g, UINT64_MAX, &a) == BALL_E_RANGE && a == 7);
    }
    for (int j = 0; j < n; j++) {
        unsigned __int128 lo = (((unsigned __int128)j << 64) + (unsigned)n - 1) / (unsigned)n;
        unsigned __int128 hi = ((((unsigned __int128)(j + 1) << 64) + (unsigned)n - 1) / (unsigned)n) - 1;
        ball_action x = BALL_ACTION_NONE, y = BALL_ACTION_NONE;
        FUZZ_CHECK(g, ball_random_action(g, (uint64_t)lo, &x) == BALL_OK);
        FUZZ_CHECK(g, ball_random_action(g, (uint64_t)hi, &y) == BALL_OK);
        fuzz_note_action("ball_random_action, range j", j, n, x);
        FUZZ_CHECK(g, x == y);
        FUZZ_CHECK(g, in_sorted(sorted, n, x));
        drawn[j] = x;
    }
    qsort(drawn, (size_t)n, sizeof *drawn, fuzz_cmp_action);
    FUZZ_CHECK(g, memcmp(drawn, sorted, (size_t)n * sizeof *drawn) == 0);

    /* legality: each listed action, and changed bit patterns */
    FUZZ_CHECK(g, ball_is_legal(g, BALL_ACTION_NONE) == 0);
    FUZZ_CHECK(g, ball_is_legal(NULL, n ? list[0] : 1) == BALL_E_ARG);
    fuzz_bpn(g, bpn);
    uint64_t hash = ball_hash(g);
    int hist = ball_history_length(g), turn = ball_turn(g);
    for (int i = 0; i < n; i++) {
        fuzz_note_action("ball_is_legal", i, n, list[i]);
        FUZZ_CHECK(g, ball_is_legal(g, list[i]) == 1);
        ball_action x = list[i] ^ (1u << (i % 30));
        if (!in_sorted(sorted, n, x)) {
            fuzz_note_action("ball_is_legal of a changed action", i, n, x);
            FUZZ_CHECK(g, ball_is_legal(g, x) == 0);
            FUZZ_CHECK(g, ball_apply(g, x) == BALL_E_ILLEGAL);
            FUZZ_CHECK(g, ball_hash(g) == hash && ball_history_length(g) == hist);
        }
    }

    /* the selection tree from every start square */
    memset(reached, 0, (size_t)n);
    int chosen[BALL_SELECT_STEPS + 1];
    int first[BALL_NUM_SQUARES + 8];
    ball_action none = 1;
    int m = ball_select(g, chosen, 0, first, sizeof first / sizeof *first, &none);
    FUZZ_CHECK(g, m >= 0 && none == BALL_ACTION_NONE);
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int offered = 0;
        for (int i = 0; i < m; i++)
            offered |= first[i] == sq;
        chosen[0] = sq;
        if (offered) {
            walk_select(g, chosen, 1, sorted, n, reached);
        } else {
            int c2[BALL_NUM_SQUARES + 8];
            FUZZ_CHECK(g, ball_select(g, chosen, 1, c2, sizeof c2 / sizeof *c2, NULL) == BALL_E_ILLEGAL);
        }
    }
    for (int i = 0; i < n; i++) {
        fuzz_note_action("selection tree: reached iff it has a piece square", i, n, sorted[i]);
        FUZZ_CHECK(g, reached[i] == (ball_action_from(sorted[i]) != BALL_NO_SQUARE));
    }

    /* apply and undo; the child's hash is its position's */
    for (int i = 0; i < n; i++) {
        fuzz_note_action("apply+undo", i, n, list[i]);
        if (!fuzz_apply(g, list[i], 1))
            continue;
        fuzz_bpn(g, text);
        uint64_t child = ball_hash(g);
        FUZZ_CHECK(scratch, fuzz_position_from_text(scratch, text) == BALL_OK);
        FUZZ_CHECK(scratch, ball_hash(scratch) == child);
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        fuzz_bpn(g, text);
        FUZZ_CHECK(g, strcmp(text, bpn) == 0);
        FUZZ_CHECK(g, ball_hash(g) == hash && ball_turn(g) == turn && ball_history_length(g) == hist);
    }

    /* BPN round trip */
    FUZZ_CHECK(scratch, fuzz_position_from_text(scratch, bpn) == BALL_OK);
    fuzz_bpn(scratch, text);
    FUZZ_CHECK(scratch, strcmp(text, bpn) == 0);
    FUZZ_CHECK(scratch, ball_hash(scratch) == hash && ball_turn(scratch) == turn);
    FUZZ_CHECK(scratch, ball_legal_actions(scratch, other, BALL_MAX_ACTIONS) == n);
    FUZZ_CHECK(scratch, memcmp(other, list, (size_t)n * sizeof *list) == 0);
}

/* Whether the input opens with a line (a BPN candidate); returns the bytes
 * it takes with its '\n', 0 for none. */
static size_t read_line(const uint8_t *data, size_t size, char line[BALL_BPN_MAX])
{
    const uint8_t *nl = memchr(data, '\n', size < BALL_BPN_MAX ? size : BALL_BPN_MAX);
    if (!nl || memchr(data, 0, (size_t)(nl - data)))
        return 0;
    memcpy(line, data, (size_t)(nl - data));
    line[nl - data] = '\0';
    return (size_t)(nl - data) + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char line[BALL_BPN_MAX];
    size_t used = read_line(data, size, line);
    reader rd = {data, size, used};
    unsigned r = next_byte(&rd);
    ball_rules rules;
    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = 1 + (int)(r % 3);
    ball_cardset *cards = r & 0x80 ? read_cardset(&rd) : NULL;
    rules.cards = cards;

    ball_game *g = NULL, *scratch = NULL;
    FUZZ_CHECK(NULL, ball_game_new(&g, &rules, NULL, 0) == BALL_OK);
    int from_bpn = used > 1 && fuzz_position_from_text(g, line) == BALL_OK;
    unsigned limit = (r >> 2) % 4;
    if (limit) { /* a turn limit a few turns after the start */
        unsigned turn = (unsigned)ball_turn(g);
        rules.turn_limit = turn + limit <= BALL_MAX_TURN - 1 ? turn + limit : BALL_MAX_TURN - 1;
        char start[BALL_BPN_MAX];
        fuzz_bpn(g, start);
        ball_game_free(g);
        g = NULL;
        FUZZ_CHECK(NULL, ball_game_new(&g, &rules, NULL, 0) == BALL_OK);
        if (from_bpn)
            (void)fuzz_position_from_text(g, start); /* may be past the limit now */
    }
    FUZZ_CHECK(NULL, ball_game_new(&scratch, &rules, NULL, 0) == BALL_OK);
    ball_cardset_free(cards);
    fuzz_note("start rules byte 0x%02x, BPN %s", r, from_bpn ? line : "(none)");

    int decision = 0;
    while (rd.pos < rd.size) {
        unsigned b = next_byte(&rd);
        if (b == 0xFF) {
            (void)ball_undo(g);
            continue;
        }
        int n = ball_legal_actions(g, NULL, 0);
        if (n == 0) { /* game over: take the last decision back, if any */
            (void)ball_undo(g);
            continue;
        }
        if (n > 254)
            b |= next_byte(&rd) << 8;
        ball_action a = BALL_ACTION_NONE;
        FUZZ_CHECK(g, ball_legal_action_at(g, (int)(b % (unsigned)n), &a) == BALL_OK);
        (void)fuzz_apply(g, a, 0);
        if (++decision % FUZZ_DIFF_EVERY == 0)
            diff_check(g, scratch);
    }
    diff_check(g, scratch);
    ball_game_free(scratch);
    ball_game_free(g);
    return 0;
}
