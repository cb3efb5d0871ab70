/* Fuzz target: the network loader ball_net_load() (experimental;
 * docs/network-format.md) and ball_net_evaluate() on what it accepts,
 * for both formats.
 *
 * Input: a mode byte, then
 *  - mode even: the bytes of a network file, loaded as they are (refusals
 *    of every kind: truncation, magic, version, fields, checksum);
 *  - mode odd: a header (the 40 bytes of the file's header) followed by
 *    weight bytes that the target repeats to the length the header's
 *    shapes need in the format of its version field (2: format 2's
 *    int16/int8/int32 layers; anything else: format 1's float32 ones),
 *    when that is at most MAX_BUILT, then seals the result with its
 *    CRC-32: the inputs a fuzzer could not otherwise get past the
 *    checksum, so that shapes and weights (huge, tiny, NaN, inf in format
 *    1; in format 2 any H and H2, base 0 and 1, feature sets 1 and 2
 *    (set 2's features relative to the ball take the search's other
 *    incremental path, libball/nnue/relative.c), int16 extremes whose
 *    first-layer sums wrap, int32 biases at the ends of their range) are
 *    explored. The mode's bit 1 appends one stray byte.
 *
 * Properties:
 *  - ball_net_load() never crashes; a refusal returns BALL_E_ARG (or
 *    BALL_E_NOMEM) with *out NULL and a message "net: ...";
 *  - an accepted net evaluates a few positions of a game played from the
 *    start (its end zones, turn limit and decisions drawn from the input) to a value in [-1, 1],
 *    the same value twice, and as ball_net_search_eval(); a searcher with
 *    the net gives each position a value in [-1, 1] by
 *    ball_search_evaluate(), the same twice;
 *  - format 1: a turn search of a few hundred nodes with
 *    ball_net_search_eval (the search's incremental path, libball/nnue/net.h)
 *    gives the same result, node for node, as one with a hook that
 *    evaluates in full;
 *  - format 2: the same search twice, on fresh searchers, gives the same
 *    result (see search_both_ways() for why not against a full hook).
 */
#define BALL_EXPERIMENTAL
#include "fuzz_common.h"
#include "../crc32.h"

/* 4 MB: format 1 up to H1 = 256 on the smallest input, format 2 up to
 * H = 256 with any H2 (2.48 MB at H2 = 64; H = 320 and more, 3.1 MB and
 * up, only with the smallest H2, H = 448 and 512 not at all: a search on
 * a net of 5 MB a run would slow the fuzzer down for no new code). */
#define MAX_BUILT (4u << 20)

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The file of an odd mode: its length in the format of the header's
 * version field (docs/network-format.md), 0 when the header's shapes are
 * out of range or too large to build. Shapes the loader refuses (H not a
 * multiple of 64, H2 0, a feature count other than the set's 4783 or
 * 7429) are built too:
 * their refusal by field comes before the length's. */
static size_t built_length(const uint8_t *h)
{
    uint64_t input = get32(h + 20), h1 = get32(h + 24), h2 = get32(h + 28);
    uint64_t len;
    if (input > 20111 || h1 > 1024 || h2 > 1024)
        return 0;
    if (get32(h + 8) == 2) {
        /* FT int16 [features][H], FTb int16 [H], W2 int8 [H2][2H], b2
         * int32 [H2], Wo int16 [H2], bo int32, then the CRC */
        len = 40 + 2 * input * h1 + 2 * h1 + 2 * h1 * h2 + 6 * h2 + 4 + 4;
    } else {
        uint64_t last = h2 ? h2 : h1;
        uint64_t nw = input * h1 + h1 + (h2 ? h2 * h1 + h2 : 0) + last + 1;
        len = 40 + 4 * nw + 4;
    }
    return len <= MAX_BUILT ? (size_t)len : 0;
}

/* A game from the start under rules drawn from @p seed (the first four
 * weight bytes): end zones 1-3 rows deep and, half the time, a turn limit
 * of 1-12, so that format 2's zone and turns-left features are seen and
 * change during a search. */
static ball_game *new_game(uint32_t seed)
{
    ball_rules r;
    ball_game *g = NULL;
    ball_rules_init(&r, sizeof r);
    r.end_zone_depth = 1 + (int)(seed >> 24) % 3;
    r.turn_limit = (seed >> 26) & 1 ? 1 + (seed >> 27) % 12 : 0;
    FUZZ_CHECK(NULL, ball_game_new(&g, &r, NULL, 0) == BALL_OK);
    return g;
}

static void evaluate_some(ball_net *net, uint32_t seed)
{
    ball_game *g = new_game(seed);
    ball_search *s = NULL;
    ball_search_config cfg;
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.hash_mb = 1;
    uint64_t draw = seed;
    FUZZ_CHECK(g, ball_search_new(&s, &cfg, NULL, 0) == BALL_OK);
    FUZZ_CHECK(g, ball_search_set_eval(s, ball_net_search_eval, net) == BALL_OK);
    for (int i = 0; i < 6; i++) {
        double v = 2, w = 3;
        FUZZ_CHECK(g, ball_net_evaluate(net, g, &v) == BALL_OK);
        FUZZ_CHECK(g, v >= -1.0 && v <= 1.0);
        FUZZ_CHECK(g, ball_net_evaluate(net, g, &w) == BALL_OK && w == v);
        FUZZ_CHECK(g, ball_net_search_eval(net, g) == v);
        /* the searcher's leaf value: format 2 through its accumulators
         * (base 1: plus the built-in evaluation), format 1 incrementally */
        v = 2, w = 3;
        FUZZ_CHECK(g, ball_search_evaluate(s, g, &v) == BALL_OK);
        FUZZ_CHECK(g, v >= -1.0 && v <= 1.0);
        FUZZ_CHECK(g, ball_search_evaluate(s, g, &w) == BALL_OK && w == v);
        for (int k = 0; k < 4 && ball_result(g) == BALL_ONGOING; k++) {
            ball_action a;
            draw = draw * 6364136223846793005ULL + 1442695040888963407ULL;
            FUZZ_CHECK(g, ball_random_action(g, draw, &a) == BALL_OK);
            FUZZ_CHECK(g, ball_apply(g, a) == BALL_OK);
        }
    }
    ball_search_free(s);
    ball_game_free(g);
}

static double full_eval(void *net, const ball_game *g)
{
    double v = 0;
    ball_net_evaluate(net, g, &v);
    return v;
}

/* Format 1: the search with the incremental path and with a full
 * evaluation at every leaf: the same decision, value and nodes.
 *
 * Format 2 (@p nnue): the search with the net twice, on fresh searchers:
 * the same decision, value and nodes (determinism, and accumulators that
 * start from nothing at each searcher). A full hook is no reference for
 * it: hook_eval() (libball/search/evaluate.h) recognises
 * ball_net_search_eval with a format-2 net and takes its integer output
 * to the search's scale (nnue_search_value(), r * 1500 / (127 * 1024)
 * rounded toward 0), while any other hook goes through the double
 * ball_net_evaluate() = o / (1 + |o|) and its inverse in hook_eval(),
 * which rounds differently; and with base 1 the search adds its built-in
 * evaluation, which ball_net_evaluate() leaves out. */
static void search_both_ways(ball_net *net, int nnue, uint32_t seed)
{
    ball_search_config cfg;
    ball_search_result r[2];
    ball_game *g = new_game(seed);
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 300;
    cfg.hash_mb = 1;
    for (int k = 0; k < 2; k++) {
        ball_search *s = NULL;
        FUZZ_CHECK(g, ball_search_new(&s, &cfg, NULL, 0) == BALL_OK);
        FUZZ_CHECK(g, ball_search_set_eval(s, k && !nnue ? full_eval : ball_net_search_eval, net) ==
                          BALL_OK);
        ball_search_result_init(&r[k], sizeof r[k]);
        FUZZ_CHECK(g, ball_search_run(s, g, &r[k]) == BALL_OK);
        ball_search_free(s);
    }
    FUZZ_CHECK(g, r[0].best == r[1].best && r[0].value == r[1].value && r[0].nodes == r[1].nodes);
    ball_game_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int mode = data[0];
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    uint8_t *built = NULL;
    const uint8_t *file = in;
    size_t len = n;

    if (mode & 1) {
        if (n < 40)
            return 0;
        len = built_length(in);
        if (len == 0)
            return 0;
        built = malloc(len + 1);
        FUZZ_CHECK(NULL, built != NULL);
        memcpy(built, in, 40);
        size_t nweights = n - 40;
        for (size_t i = 40; i < len - 4; i++)
            built[i] = nweights ? in[40 + (i - 40) % nweights] : 0;
        uint32_t c = test_crc32(built, len - 4);
        for (int b = 0; b < 4; b++)
            built[len - 4 + b] = (uint8_t)(c >> (8 * b));
        if (mode & 2)
            built[len++] = 0;
        file = built;
    }
    fuzz_note("mode %d, %zu bytes", mode, len);

    ball_net *net = (ball_net *)&net;
    char err[256] = "x";
    int rc = ball_net_load(&net, file, len, err, sizeof err);
    if (rc != BALL_OK) {
        FUZZ_CHECK(NULL, rc == BALL_E_ARG || rc == BALL_E_NOMEM);
        FUZZ_CHECK(NULL, net == NULL);
        FUZZ_CHECK(NULL, strncmp(err, "net: ", 5) == 0 && strlen(err) > 5);
    } else {
        FUZZ_CHECK(NULL, net != NULL && err[0] == '\0');
        FUZZ_CHECK(NULL, !(mode & 1) || !(mode & 2)); /* a stray byte is refused */
        evaluate_some(net, get32(file + 40));
        search_both_ways(net, get32(file + 8) == 2, get32(file + 40));
        ball_net_free(net);
    }
    free(built);
    return 0;
}
