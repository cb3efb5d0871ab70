/* Fuzz target: streams of decisions.
 *
 * Input: an optional first line with a BPN to start from (the standard
 * start otherwise; a BPN that the chosen ruleset refuses also means the
 * standard start), then bytes:
 *  - the first byte picks the ruleset: end-zone depth 1 + b % 3, card
 *    mode (R10, the cards of FUZZ_CARD_RULES) when b & 0x80, and, for
 *    k = (b & 0x7f) / 3 % 5 > 0, a turn limit k - 1 turns after the
 *    starting one;
 *  - each following byte picks one legal decision (index b % n; two bytes,
 *    little-endian, when there are more than 254), except
 *    0xFF: take back the last decision, and
 *    0xFE: ball_history_reserve() with the next allocation failing.
 *
 * After every decision: the invariants of R3/R4/R9/R11 hold (and pieces
 * never appear or vanish), the BPN round-trips into a second game with
 * the same hash and legal actions, undo restores the previous BPN and
 * hash, every legal action is consistent (kind, cost, squares, order, N2
 * text) and applies and undoes without error, and the selection steps of
 * the chosen action lead to it. At the end a clone must match, every
 * decision is taken back to the first position, and the game's allocator
 * must have no block left once the games are freed.
 */
#include "fuzz_common.h"

/* A counting allocator with a user pointer; it can fail on demand. */
typedef struct counting {
    unsigned magic;
    long live;      /* blocks allocated and not freed */
    long calls;     /* allocation calls */
    int fail_next;  /* the next allocation call fails */
} counting;

#define COUNTING_MAGIC 0xba11u

static void *c_malloc(void *user, size_t n)
{
    counting *c = user;
    FUZZ_CHECK(NULL, c && c->magic == COUNTING_MAGIC);
    c->calls++;
    if (c->fail_next) {
        c->fail_next = 0;
        return NULL;
    }
    void *p = malloc(n ? n : 1);
    if (p)
        c->live++;
    return p;
}

static void *c_realloc(void *user, void *ptr, size_t n)
{
    counting *c = user;
    FUZZ_CHECK(NULL, c && c->magic == COUNTING_MAGIC);
    c->calls++;
    if (c->fail_next) {
        c->fail_next = 0;
        return NULL;
    }
    void *p = realloc(ptr, n ? n : 1);
    if (p && !ptr)
        c->live++;
    return p;
}

static void c_free(void *user, void *ptr)
{
    counting *c = user;
    FUZZ_CHECK(NULL, c && c->magic == COUNTING_MAGIC);
    FUZZ_CHECK(NULL, ptr != NULL);
    c->live--;
    free(ptr);
}

static void count_pieces(ball_game *g, int count[2])
{
    count[0] = count[1] = 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        for (int level = 0; level < 2; level++) {
            int code = ball_piece(g, sq, level);
            if (code)
                count[fuzz_team(code)]++;
        }
}

/* A ruleset: end-zone depth 1 + b % 3, card mode (FUZZ_CARD_RULES) when
 * b & 0x80, no turn limit (set later). */
static void make_rules(uint8_t b, ball_rules *rules, ball_cards *cards)
{
    char text[1024];
    snprintf(text, sizeof text, "zone=%d%s%s", 1 + b % 3, b & 0x80 ? " " : "", b & 0x80 ? FUZZ_CARD_RULES : "");
    FUZZ_CHECK(NULL, ball_rules_parse(rules, cards, text, NULL, 0) == BALL_OK);
}

/* A game of ruleset b at bpn (NULL, or a BPN that does not parse under
 * this ruleset: the standard start), probed for its text and turn. */
static void probe_start(uint8_t b, const char *bpn, char start[BALL_BPN_MAX], unsigned *turn)
{
    ball_rules rules;
    ball_cards cards;
    make_rules(b, &rules, &cards);
    ball_game *probe = NULL;
    FUZZ_CHECK(NULL, ball_game_new(&probe, &rules) == BALL_OK);
    if (bpn)
        (void)ball_set_bpn(probe, bpn);
    fuzz_bpn(probe, start);
    *turn = ball_turn(probe);
    ball_game_free(probe);
}

/* Whether the input opens with a line that is a BPN under the default or
 * the card ruleset; returns the bytes it takes (0: none). */
static size_t read_bpn_line(const uint8_t *data, size_t size, char bpn[BALL_BPN_MAX])
{
    const uint8_t *nl = memchr(data, '\n', size < BALL_BPN_MAX ? size : BALL_BPN_MAX);
    if (!nl || memchr(data, 0, (size_t)(nl - data)))
        return 0;
    memcpy(bpn, data, (size_t)(nl - data));
    bpn[nl - data] = '\0';
    for (int card = 0; card <= 1; card++) {
        ball_rules rules;
        ball_cards cards;
        make_rules(card ? 0x80 : 0, &rules, &cards);
        ball_game *probe = NULL;
        FUZZ_CHECK(NULL, ball_game_new(&probe, &rules) == BALL_OK);
        int rc = ball_set_bpn(probe, bpn);
        ball_game_free(probe);
        if (rc == BALL_OK)
            return (size_t)(nl - data) + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ball_action acts[BALL_MAX_ACTIONS];
    char line[BALL_BPN_MAX], start[BALL_BPN_MAX], before[BALL_BPN_MAX], after[BALL_BPN_MAX],
        again[BALL_BPN_MAX];
    unsigned turn0;
    size_t used = read_bpn_line(data, size, line), pos = used;
    uint8_t rules_byte = pos < size ? data[pos++] : 0;
    probe_start(rules_byte, used ? line : NULL, start, &turn0);

    ball_rules rules;
    ball_cards cards;
    make_rules(rules_byte, &rules, &cards);
    unsigned k = (unsigned)((rules_byte & 0x7f) / 3 % 5);
    rules.turn_limit = k ? turn0 + k - 1 : 0;
    counting mem = {COUNTING_MAGIC, 0, 0, 0};
    ball_allocator alloc;
    ball_allocator_init(&alloc, sizeof alloc);
    alloc.malloc_fn = c_malloc;
    alloc.realloc_fn = c_realloc;
    alloc.free_fn = c_free;
    alloc.user = &mem;
    ball_game *g = NULL, *scratch = NULL;
    FUZZ_CHECK(NULL, ball_game_new_with_allocator(&g, &rules, &alloc) == BALL_OK);
    FUZZ_CHECK(g, mem.live > 0);
    FUZZ_CHECK(NULL, ball_game_new(&scratch, &rules) == BALL_OK);
    fuzz_note("start %s", start);
    FUZZ_CHECK(g, ball_set_bpn(g, start) == BALL_OK);
    fuzz_bpn(g, start);
    int count[2];
    count_pieces(g, count);
    fuzz_check_invariants(g, count);

    for (int decision = 0; pos < size; decision++) {
        uint8_t b = data[pos++];
        if (b == 0xFF) { /* take back */
            size_t hist = ball_history_length(g);
            fuzz_note("undo at decision %d", decision);
            FUZZ_CHECK(g, ball_undo(g) == (hist ? BALL_OK : BALL_E_NO_HISTORY));
            FUZZ_CHECK(g, ball_history_length(g) == (hist ? hist - 1 : 0));
            fuzz_check_invariants(g, count);
            continue;
        }
        if (b == 0xFE) { /* the undo history cannot grow */
            fuzz_bpn(g, before);
            size_t hist = ball_history_length(g);
            uint64_t hash = ball_hash(g);
            fuzz_note("failing history_reserve at decision %d", decision);
            mem.fail_next = 1;
            FUZZ_CHECK(g, ball_history_reserve(g, 100000) == BALL_E_NOMEM);
            FUZZ_CHECK(g, mem.fail_next == 0);
            FUZZ_CHECK(g, ball_errmsg(g)[0] != '\0');
            fuzz_bpn(g, after);
            FUZZ_CHECK(g, strcmp(after, before) == 0 && ball_hash(g) == hash);
            FUZZ_CHECK(g, ball_history_length(g) == hist);
            continue;
        }

        fuzz_bpn(g, before);
        uint64_t hash = ball_hash(g);
        size_t hist = ball_history_length(g);
        /* The checks that cost a generation each (legality, text parsed
         * back, checked apply) run on every action when there are few of
         * them, on a rotating sample of about 8 otherwise. */
        int n = ball_legal_actions(g, NULL, 0);
        int every = n > 16 ? n / 8 : 1;
        n = fuzz_check_actions(g, acts, every, decision);
        if (n == 0) { /* game over: go back one decision */
            FUZZ_CHECK(g, ball_result(g) != BALL_ONGOING);
            FUZZ_CHECK(g, ball_apply(g, BALL_ACTION_NONE) == BALL_E_ILLEGAL);
            if (hist == 0)
                break;
            FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
            continue;
        }
        unsigned idx = b;
        if (n > 254 && pos < size)
            idx |= (unsigned)data[pos++] << 8;
        ball_action a = acts[idx % (unsigned)n], one = BALL_ACTION_NONE;
        /* the other two ways to get an action: by index, and drawn */
        FUZZ_CHECK(g, ball_legal_action_at(g, (int)(idx % (unsigned)n), &one) == BALL_OK && one == a);
        FUZZ_CHECK(g, ball_random_action(g, hash * 0x9E3779B97F4A7C15ull + idx, &one) == BALL_OK);
        FUZZ_CHECK(g, ball_is_legal(g, one) == 1);
        char text[BALL_ACTION_TEXT_MAX];
        FUZZ_CHECK(g, ball_action_text(a, text, sizeof text) > 0);

        fuzz_check_children(g, acts, n, 0, NULL, every, decision);
        fuzz_check_select(g, a);

        fuzz_note("decision %d: '%s' from %s", decision, text, before);
        FUZZ_CHECK(g, ball_apply(g, a) == BALL_OK);
        FUZZ_CHECK(g, ball_history_length(g) == hist + 1);
        fuzz_bpn(g, after);
        uint64_t hash_after = ball_hash(g);
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        fuzz_bpn(g, again);
        FUZZ_CHECK(g, strcmp(again, before) == 0 && ball_hash(g) == hash);
        FUZZ_CHECK(g, ball_apply(g, a) == BALL_OK);
        fuzz_bpn(g, again);
        FUZZ_CHECK(g, strcmp(again, after) == 0 && ball_hash(g) == hash_after);
        fuzz_check_invariants(g, count);
        fuzz_check_round_trip(g, scratch);
    }

    /* A clone has the same position and history, and its own life. */
    ball_game *clone = NULL;
    long live = mem.live;
    FUZZ_CHECK(g, ball_game_clone(&clone, g) == BALL_OK);
    FUZZ_CHECK(g, mem.live > live);
    FUZZ_CHECK(g, ball_history_length(clone) == ball_history_length(g));
    fuzz_bpn(g, before);
    fuzz_bpn(clone, after);
    FUZZ_CHECK(g, strcmp(before, after) == 0 && ball_hash(g) == ball_hash(clone));
    if (ball_history_length(clone) > 0) {
        FUZZ_CHECK(clone, ball_undo(clone) == BALL_OK);
        fuzz_bpn(g, again);
        FUZZ_CHECK(g, strcmp(again, before) == 0);
    }
    ball_game_free(clone);
    FUZZ_CHECK(g, mem.live == live);

    while (ball_history_length(g) > 0)
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
    FUZZ_CHECK(g, ball_undo(g) == BALL_E_NO_HISTORY);
    fuzz_bpn(g, after);
    FUZZ_CHECK(g, strcmp(after, start) == 0);
    ball_game_free(g);
    ball_game_free(scratch);
    FUZZ_CHECK(NULL, mem.live == 0);
    return 0;
}
