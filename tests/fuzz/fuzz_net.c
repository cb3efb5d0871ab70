/* Fuzz target: the network loader ball_net_load() (experimental;
 * docs/network-format.md) and ball_net_evaluate() on what it accepts.
 *
 * Input: a mode byte, then
 *  - mode even: the bytes of a network file, loaded as they are (refusals
 *    of every kind: truncation, magic, version, fields, checksum);
 *  - mode odd: a header (the 40 bytes of the file's header) followed by
 *    weight bytes that the target repeats to the length the header's
 *    shapes need (when that is at most 4 MB), then seals the result with
 *    its CRC-32: the inputs a fuzzer could not otherwise get past the
 *    checksum, so that shapes and weights (huge, tiny, NaN, inf) are
 *    explored. The mode's bit 1 appends one stray byte.
 *
 * Properties:
 *  - ball_net_load() never crashes; a refusal returns BALL_E_ARG (or
 *    BALL_E_NOMEM) with *out NULL and a message "net: ...";
 *  - an accepted net evaluates a few positions of a game played from the
 *    start (the decisions drawn from the input) to a value in [-1, 1],
 *    the same value twice, and as ball_net_search_eval();
 *  - a turn search of a few hundred nodes with ball_net_search_eval (the
 *    search's incremental path, libball/nnue/net.h) gives the same result,
 *    node for node, as one with a hook that evaluates in full.
 */
#define BALL_EXPERIMENTAL
#include "fuzz_common.h"
#include "../crc32.h"

#define MAX_BUILT (4u << 20)

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The file of an odd mode: its length, 0 when the header's shapes are
 * out of range or too large to build. */
static size_t built_length(const uint8_t *h)
{
    uint64_t input = get32(h + 20), h1 = get32(h + 24), h2 = get32(h + 28);
    if (input > 20111 || h1 > 1024 || h2 > 1024)
        return 0;
    uint64_t last = h2 ? h2 : h1;
    uint64_t nw = input * h1 + h1 + (h2 ? h2 * h1 + h2 : 0) + last + 1;
    uint64_t len = 40 + 4 * nw + 4;
    return len <= MAX_BUILT ? (size_t)len : 0;
}

static void evaluate_some(const ball_net *net, uint64_t seed)
{
    ball_game *g = NULL;
    FUZZ_CHECK(NULL, ball_game_new(&g, NULL, NULL, 0) == BALL_OK);
    for (int i = 0; i < 6; i++) {
        double v = 2, w = 3;
        FUZZ_CHECK(g, ball_net_evaluate(net, g, &v) == BALL_OK);
        FUZZ_CHECK(g, v >= -1.0 && v <= 1.0);
        FUZZ_CHECK(g, ball_net_evaluate(net, g, &w) == BALL_OK && w == v);
        FUZZ_CHECK(g, ball_net_search_eval((void *)net, g) == v);
        for (int k = 0; k < 4 && ball_result(g) == BALL_ONGOING; k++) {
            ball_action a;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            FUZZ_CHECK(g, ball_random_action(g, seed, &a) == BALL_OK);
            FUZZ_CHECK(g, ball_apply(g, a) == BALL_OK);
        }
    }
    ball_game_free(g);
}

static double full_eval(void *net, const ball_game *g)
{
    double v = 0;
    ball_net_evaluate(net, g, &v);
    return v;
}

/* The search with the incremental path and with a full evaluation at
 * every leaf: the same decision, value and nodes. */
static void search_both_ways(ball_net *net)
{
    ball_search_config cfg;
    ball_search_result r[2];
    ball_game *g = NULL;
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 300;
    cfg.hash_mb = 1;
    FUZZ_CHECK(NULL, ball_game_new(&g, NULL, NULL, 0) == BALL_OK);
    for (int k = 0; k < 2; k++) {
        ball_search *s = NULL;
        FUZZ_CHECK(g, ball_search_new(&s, &cfg, NULL, 0) == BALL_OK);
        FUZZ_CHECK(g, ball_search_set_eval(s, k ? full_eval : ball_net_search_eval, net) == BALL_OK);
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
        search_both_ways(net);
        ball_net_free(net);
    }
    free(built);
    return 0;
}
