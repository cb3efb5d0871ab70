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
 * After every decision (cheap checks, no text): the decision picked by
 * index is the one ball_legal_actions() lists there, a drawn one is legal,
 * the checked apply succeeds (or is refused with BALL_E_LIMIT at the last
 * turn, changing nothing), undo restores the hash and turn and the redo
 * gives the same hash again; every take-back restores the hash and turn
 * that position had. Every FUZZ_INVARIANTS_EVERY decisions: the
 * invariants of R3/R4/R9/R11 hold and pieces never appear or vanish.
 *
 * At a checkpoint, every FUZZ_FULL_EVERY decisions and at the end of the
 * input (so every position the fuzzer reaches is fully checked as the end
 * of some input): every legal action is consistent (kind, cost, squares,
 * order, N2 text, ball_is_legal, ball_legal_action_at) and applies and
 * undoes restoring the BPN, its selection steps lead to it, the invariants
 * hold, the BPN round-trips into a second game with the same hash and
 * legal actions. Only the last position gets all of this for every legal
 * action (and the invariants in each child); the other checkpoints check
 * a rotating sample of about 8 actions where a check costs a generation
 * or a BPN text (see full_check()).
 *
 * At the end a clone must match, every decision is taken back to the first
 * position (each step restoring its hash), replayed forward to the same
 * final hash, and the game's allocator must have no block left once the
 * games are freed.
 *
 * Speed: the checks that cost a BPN text or a generation per legal action
 * used to run after every decision (about 15-25 inputs/s under ASan); they
 * now run at the checkpoints only.
 */
#include "fuzz_common.h"

/* Decisions between two full checks, and between two invariant checks. */
#define FUZZ_FULL_EVERY 32
#define FUZZ_INVARIANTS_EVERY 4

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
 * b & 0x80, no turn limit (set later). The card set (NULL unless card
 * mode) goes to *cards, freed by the caller once its games exist. */
static void make_rules(uint8_t b, ball_rules *rules, ball_cardset **cards)
{
    char text[1024];
    snprintf(text, sizeof text, "zone=%d%s%s", 1 + b % 3, b & 0x80 ? " " : "", b & 0x80 ? FUZZ_CARD_RULES : "");
    FUZZ_CHECK(NULL, fuzz_parse_rules(text, rules, cards) == BALL_OK);
}

/* A game of ruleset b at bpn (NULL, or a BPN that does not parse under
 * this ruleset: the standard start), probed for its text and turn. */
static void probe_start(uint8_t b, const char *bpn, char start[BALL_BPN_MAX], int *turn)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    make_rules(b, &rules, &cards);
    ball_game *probe = NULL;
    FUZZ_CHECK(NULL, ball_game_new(&probe, &rules, NULL, 0) == BALL_OK);
    ball_cardset_free(cards);
    if (bpn)
        (void)fuzz_position_from_text(probe, bpn);
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
        ball_cardset *cards = NULL;
        make_rules(card ? 0x80 : 0, &rules, &cards);
        ball_game *probe = NULL;
        FUZZ_CHECK(NULL, ball_game_new(&probe, &rules, NULL, 0) == BALL_OK);
        ball_cardset_free(cards);
        int rc = fuzz_position_from_text(probe, bpn);
        ball_game_free(probe);
        if (rc == BALL_OK)
            return (size_t)(nl - data) + 1;
    }
    return 0;
}

/* The expensive checks of a position (see the top comment). At the last
 * position (deep) all of them on every legal action, with the invariant
 * checks in each child. At the other checkpoints the checks that cost a
 * generation or a BPN text per action (ball_is_legal, the N2 text parsed
 * back, ball_legal_action_at, the checked apply compared by BPN, the
 * selection steps) run on a rotating sample of about 8 actions; the
 * others are still played with ball_apply_unchecked() and undone. */
static void full_check(ball_game *g, ball_game *scratch, ball_action *acts, int count[2], int deep)
{
    int n = ball_legal_actions(g, NULL, 0);
    int every = deep || n <= 16 ? 1 : n / 8;
    int first = (int)(ball_hash(g) % (unsigned)every);
    n = fuzz_check_actions(g, acts, every, first);
    for (int i = 0; i < n; i++) {
        if (!fuzz_sampled(i, every, first))
            continue;
        ball_action a = BALL_ACTION_NONE;
        FUZZ_CHECK(g, ball_legal_action_at(g, i, &a) == BALL_OK && a == acts[i]);
        fuzz_check_select(g, acts[i]);
    }
    fuzz_check_children(g, acts, n, deep, count, every, first);
    fuzz_check_invariants(g, count);
    fuzz_check_round_trip(g, scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ball_action acts[BALL_MAX_ACTIONS];
    char line[BALL_BPN_MAX], start[BALL_BPN_MAX], before[BALL_BPN_MAX], after[BALL_BPN_MAX];
    int turn0;
    size_t used = read_bpn_line(data, size, line), pos = used;
    uint8_t rules_byte = pos < size ? data[pos++] : 0;
    probe_start(rules_byte, used ? line : NULL, start, &turn0);

    ball_rules rules;
    ball_cardset *cards = NULL;
    make_rules(rules_byte, &rules, &cards);
    unsigned k = (unsigned)((rules_byte & 0x7f) / 3 % 5);
    rules.turn_limit = k ? (unsigned)turn0 + k - 1 : 0;
    if (rules.turn_limit > BALL_MAX_TURN)
        rules.turn_limit = BALL_MAX_TURN;
    counting mem = {COUNTING_MAGIC, 0, 0, 0};
    ball_allocator alloc;
    ball_allocator_init(&alloc, sizeof alloc);
    alloc.malloc_fn = c_malloc;
    alloc.realloc_fn = c_realloc;
    alloc.free_fn = c_free;
    alloc.user = &mem;
    ball_game *g = NULL, *scratch = NULL;
    FUZZ_CHECK(NULL, ball_game_new_with_allocator(&g, &rules, &alloc, NULL, 0) == BALL_OK);
    FUZZ_CHECK(g, mem.live > 0);
    FUZZ_CHECK(NULL, ball_game_new(&scratch, &rules, NULL, 0) == BALL_OK);
    ball_cardset_free(cards);
    fuzz_note("start %s", start);
    FUZZ_CHECK(g, fuzz_position_from_text(g, start) == BALL_OK);
    fuzz_bpn(g, start);
    int count[2];
    count_pieces(g, count);
    fuzz_check_invariants(g, count);

    /* The line of play: played[i] is the decision that took the game from
     * history length i to i + 1; hashes[i], turns[i] what the position at
     * history length i had. The history never outgrows the input. */
    size_t cap = size + 2;
    ball_action *played = malloc(cap * sizeof *played);
    uint64_t *hashes = malloc(cap * sizeof *hashes);
    int *turns = malloc(cap * sizeof *turns);
    FUZZ_CHECK(NULL, played && hashes && turns);
    hashes[0] = ball_hash(g);
    turns[0] = ball_turn(g);

    int since_full = 0;
    for (int decision = 0; pos < size; decision++) {
        uint8_t b = data[pos++];
        int hist = ball_history_length(g);
        FUZZ_CHECK(g, hist >= 0 && (size_t)hist < cap);
        if (b == 0xFF) { /* take back */
            FUZZ_CHECK(g, ball_undo(g) == (hist ? BALL_OK : BALL_E_NO_HISTORY));
            if (hist) {
                FUZZ_CHECK(g, ball_history_length(g) == hist - 1);
                FUZZ_CHECK(g, ball_hash(g) == hashes[hist - 1] && ball_turn(g) == turns[hist - 1]);
            } else {
                FUZZ_CHECK(g, ball_history_length(g) == 0 && ball_hash(g) == hashes[0]);
            }
            continue;
        }
        if (b == 0xFE) { /* the undo history cannot grow */
            fuzz_bpn(g, before);
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

        uint64_t hash = ball_hash(g);
        int turn = ball_turn(g);
        FUZZ_CHECK(g, hash == hashes[hist] && turn == turns[hist]);
        if (++since_full >= FUZZ_FULL_EVERY) {
            since_full = 0;
            fuzz_note("checkpoint at decision %d", decision);
            full_check(g, scratch, acts, count, 0);
        }
        int n = ball_legal_actions(g, NULL, 0);
        FUZZ_CHECK(g, n >= 0 && n <= BALL_MAX_ACTIONS);
        if (n == 0) { /* game over: go back one decision */
            FUZZ_CHECK(g, ball_result(g) != BALL_ONGOING);
            FUZZ_CHECK(g, ball_random_action(g, hash, &acts[0]) == BALL_E_RANGE);
            FUZZ_CHECK(g, ball_apply(g, BALL_ACTION_NONE) == BALL_E_ILLEGAL);
            if (hist == 0)
                break;
            FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
            FUZZ_CHECK(g, ball_hash(g) == hashes[hist - 1] && ball_turn(g) == turns[hist - 1]);
            continue;
        }
        FUZZ_CHECK(g, ball_result(g) == BALL_ONGOING);
        unsigned idx = b;
        if (n > 254 && pos < size)
            idx |= (unsigned)data[pos++] << 8;
        int at = (int)(idx % (unsigned)n);
        /* The decision by index (as ball_legal_actions() lists it: the
         * checkpoints compare the two lists), and one drawn at random. */
        ball_action a = BALL_ACTION_NONE, one = BALL_ACTION_NONE;
        FUZZ_CHECK(g, ball_legal_action_at(g, at, &a) == BALL_OK);
        FUZZ_CHECK(g, ball_legal_action_at(g, n, &one) == BALL_E_RANGE);
        FUZZ_CHECK(g, ball_random_action(g, hash * 0x9E3779B97F4A7C15ull + idx, &one) == BALL_OK);
        FUZZ_CHECK(g, ball_is_legal(g, one) == 1);
        fuzz_note_action("decision (i = decision number, n = legal count)", decision, n, a);

        if (!fuzz_apply(g, a, 1))
            continue; /* refused at BALL_MAX_TURN, nothing changed */
        uint64_t hash_after = ball_hash(g);
        int turn_after = ball_turn(g);
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        FUZZ_CHECK(g, ball_hash(g) == hash && ball_turn(g) == turn && ball_history_length(g) == hist);
        FUZZ_CHECK(g, ball_apply_unchecked(g, a) == BALL_OK);
        FUZZ_CHECK(g, ball_hash(g) == hash_after && ball_turn(g) == turn_after);
        played[hist] = a;
        hashes[hist + 1] = hash_after;
        turns[hist + 1] = turn_after;
        if (decision % FUZZ_INVARIANTS_EVERY == 0)
            fuzz_check_invariants(g, count);
    }

    /* The last position, whatever it is, gets every check. */
    fuzz_note("last position");
    full_check(g, scratch, acts, count, 1);

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
        fuzz_bpn(g, after);
        FUZZ_CHECK(g, strcmp(after, before) == 0);
    }
    ball_game_free(clone);
    FUZZ_CHECK(g, mem.live == live);

    /* Back to the first position, step by step, and forward again. */
    int last = ball_history_length(g);
    uint64_t hash_last = ball_hash(g);
    for (int h = last; h > 0; h--) {
        FUZZ_CHECK(g, ball_undo(g) == BALL_OK);
        FUZZ_CHECK(g, ball_history_length(g) == h - 1);
        FUZZ_CHECK(g, ball_hash(g) == hashes[h - 1] && ball_turn(g) == turns[h - 1]);
    }
    FUZZ_CHECK(g, ball_undo(g) == BALL_E_NO_HISTORY);
    fuzz_bpn(g, after);
    FUZZ_CHECK(g, strcmp(after, start) == 0);
    for (int h = 0; h < last; h++) {
        fuzz_note_action("replay of the line", h, last, played[h]);
        FUZZ_CHECK(g, ball_apply(g, played[h]) == BALL_OK);
        FUZZ_CHECK(g, ball_hash(g) == hashes[h + 1] && ball_turn(g) == turns[h + 1]);
    }
    FUZZ_CHECK(g, ball_hash(g) == hash_last);
    fuzz_bpn(g, after);
    FUZZ_CHECK(g, strcmp(after, before) == 0);

    free(played);
    free(hashes);
    free(turns);
    ball_game_free(g);
    ball_game_free(scratch);
    FUZZ_CHECK(NULL, mem.live == 0);
    return 0;
}
