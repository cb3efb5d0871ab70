/* The learned evaluation (ball.h, experimental: ball_net_*; the file
 * format of docs/network-format.md).
 *
 * The nets are written by this test (its own writer and its own
 * table-driven CRC-32, checked against the standard check value), with
 * weights that are multiples of 1/1024 so that every float sum is exact;
 * the expected values come from this file's dense double-precision forward
 * pass over ball_observation()'s floats, or by hand, never from
 * libball/nnue/net.c. Refusals: a truncation at every byte, a flip of each byte
 * of the header and checksum and of many of the weights, each header field
 * out of range, a non-finite weight, a first-layer weight outside
 * (-128, 128), trailing bytes, NULL arguments. The turn search with the
 * net as its evaluation returns a legal decision; its incremental path
 * (ball_net_search_eval) searches node for node as a full evaluation at
 * every leaf does; and two threads evaluating one net get the values of
 * one thread. */
#define BALL_EXPERIMENTAL
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The largest hidden layer the loader takes (ball.h, ball_net_load()). */
#define NET_MAX_HIDDEN 512

#define IN_ONE "7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2"
#define ISSUE25 "7/6/3s3/6/7/3x2/4x*S1/3xo1/1O5/4[sX_]1/1o5/1X3O/3X2S/6/7/6/7 ATK a 2 - 0/0 34"
#define OPEN_CARRIER "7/6/7/6/7/6/7/6/3x3/6/7/6/3X*3/6/7/6/7 ATK a 1 - 0/0 5"

/* ---- the test's own writer ------------------------------------------ */

static uint32_t crc_table[256];

static void crc_init(void)
{
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[n] = c;
    }
}

static uint32_t crc(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    while (n--)
        c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* A net's weights, as the test holds them (double, exact in float). */
typedef struct {
    int flags, input, h1, h2;
    double *w1, *b1, *w2, *b2, *wo, bo;
} tnet;

/* Multiples of 1/1024 in [-scale, scale] from a seeded generator. */
static double q(uint64_t *st, double scale)
{
    long m = (long)(scale * 1024);
    return (double)((long)(tu_random(st) % (uint64_t)(2 * m + 1)) - m) / 1024.0;
}

static tnet tnet_random(int flags, int h1, int h2, uint64_t seed)
{
    tnet t = {flags, ball_observation_size(flags), h1, h2, 0, 0, 0, 0, 0, 0};
    int last = h2 ? h2 : h1;
    uint64_t st = seed;
    t.w1 = malloc(sizeof(double) * (size_t)t.input * h1);
    t.b1 = malloc(sizeof(double) * h1);
    t.w2 = malloc(sizeof(double) * ((size_t)h2 * h1 + 1));
    t.b2 = malloc(sizeof(double) * (h2 + 1));
    t.wo = malloc(sizeof(double) * last);
    tu_require(t.w1 && t.b1 && t.w2 && t.b2 && t.wo);
    for (size_t i = 0; i < (size_t)t.input * h1; i++)
        t.w1[i] = q(&st, 0.125);
    for (int i = 0; i < h1; i++)
        t.b1[i] = 0.25 + q(&st, 0.125);
    for (size_t i = 0; i < (size_t)h2 * h1; i++)
        t.w2[i] = q(&st, 0.5);
    for (int i = 0; i < h2; i++)
        t.b2[i] = q(&st, 0.25);
    for (int i = 0; i < last; i++)
        t.wo[i] = q(&st, 0.5);
    t.bo = q(&st, 0.25);
    return t;
}

static void tnet_free(tnet *t)
{
    free(t->w1);
    free(t->b1);
    free(t->w2);
    free(t->b2);
    free(t->wo);
}

static unsigned char *put_floats(unsigned char *p, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float f = (float)v[i];
        uint32_t u;
        memcpy(&u, &f, 4);
        put32(p, u);
        p += 4;
    }
    return p;
}

/* The file of t (docs/network-format.md); its length in *len. */
static unsigned char *tnet_file(const tnet *t, size_t *len)
{
    size_t last = t->h2 ? t->h2 : t->h1;
    size_t nw = (size_t)t->input * t->h1 + t->h1 + (t->h2 ? (size_t)t->h2 * t->h1 + t->h2 : 0) +
                last + 1;
    *len = 40 + 4 * nw + 4;
    unsigned char *f = malloc(*len), *p = f + 40;
    tu_require(f != NULL);
    memcpy(f, "BALLNET\0", 8);
    uint32_t head[8] = {1, 1, (uint32_t)t->flags, (uint32_t)t->input, (uint32_t)t->h1,
                        (uint32_t)t->h2, 0, 0};
    for (int i = 0; i < 8; i++)
        put32(f + 8 + 4 * i, head[i]);
    p = put_floats(p, t->w1, (size_t)t->input * t->h1);
    p = put_floats(p, t->b1, t->h1);
    if (t->h2) {
        p = put_floats(p, t->w2, (size_t)t->h2 * t->h1);
        p = put_floats(p, t->b2, t->h2);
    }
    p = put_floats(p, t->wo, last);
    p = put_floats(p, &t->bo, 1);
    put32(p, crc(f, *len - 4));
    return f;
}

/* Rewrites the checksum after an edit of the header. */
static void reseal(unsigned char *f, size_t len)
{
    put32(f + len - 4, crc(f, len - 4));
}

static double clip(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The dense forward pass of architecture 1 on ball_observation()'s floats. */
static double reference(const tnet *t, const ball_game *g)
{
    float *obs = malloc(sizeof(float) * t->input);
    double a1[NET_MAX_HIDDEN], a2[NET_MAX_HIDDEN], s;
    tu_require(obs != NULL);
    ck_assert_int_eq(ball_observation(g, t->flags, obs, (size_t)t->input), BALL_OK);
    for (int k = 0; k < t->h1; k++) {
        s = t->b1[k];
        for (int i = 0; i < t->input; i++)
            s += obs[i] * t->w1[(size_t)i * t->h1 + k];
        a1[k] = clip(s);
    }
    const double *a = a1;
    int n = t->h1;
    if (t->h2) {
        for (int j = 0; j < t->h2; j++) {
            s = t->b2[j];
            for (int k = 0; k < t->h1; k++)
                s += t->w2[(size_t)j * t->h1 + k] * a1[k];
            a2[j] = clip(s);
        }
        a = a2;
        n = t->h2;
    }
    s = t->bo;
    for (int k = 0; k < n; k++)
        s += t->wo[k] * a[k];
    free(obs);
    return tanh(s);
}

/* Positions: the start, the test BPNs, and 40 positions of a seeded
 * random game (restarted when over). */
#define N_POS 44
static ball_game *positions[N_POS];

static void make_positions(void)
{
    const char *bpn[3] = {IN_ONE, ISSUE25, OPEN_CARRIER};
    uint64_t st = 7;
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&positions[0], NULL, NULL, 0), BALL_OK);
    for (int i = 0; i < 3; i++)
        positions[1 + i] = tu_game(bpn[i]);
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    for (int i = 4; i < N_POS; i++) {
        ball_action a;
        for (int k = 0; k < 5; k++) {
            if (ball_result(g) != BALL_ONGOING) {
                ball_game_free(g);
                ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
            }
            ck_assert_int_eq(ball_random_action(g, tu_random(&st), &a), BALL_OK);
            ck_assert_int_eq(ball_apply(g, a), BALL_OK);
        }
        ck_assert_int_eq(ball_game_clone(&positions[i], g), BALL_OK);
    }
    ball_game_free(g);
}

static void free_positions(void)
{
    for (int i = 0; i < N_POS; i++)
        ball_game_free(positions[i]);
}

/* ---- the tests ------------------------------------------------------- */

/* The test's CRC is the standard one (check value of "123456789"). */
START_TEST(test_crc_check_value)
{
    crc_init();
    ck_assert_uint_eq(crc((const unsigned char *)"123456789", 9), 0xCBF43926u);
}
END_TEST

/* By hand: every first-layer weight 0, bias 0.5, output weight 2, output
 * bias -0.25: tanh(2 * 0.5 - 0.25) = tanh(0.75) = 0.635148952387287... in
 * every position. And a net that counts set bits: weight 1/1024 each, so
 * the value is tanh(bits / 1024) (all below 1024: no clip). */
START_TEST(test_by_hand)
{
    crc_init();
    tnet t = tnet_random(0, 1, 0, 1);
    size_t len;
    double v;
    memset(t.w1, 0, sizeof(double) * (size_t)t.input);
    t.b1[0] = 0.5;
    t.wo[0] = 2.0;
    t.bo = -0.25;
    unsigned char *f = tnet_file(&t, &len);
    ck_assert_uint_eq(len, 40 + 4 * (3171 + 1 + 1 + 1) + 4);
    ball_net *net = tu_net_load_ok(f, len);
    make_positions();
    for (int i = 0; i < N_POS; i++) {
        ck_assert_int_eq(ball_net_evaluate(net, positions[i], &v), BALL_OK);
        ck_assert_double_eq_tol(v, 0.6351489523872873, 1e-12);
    }
    ball_net_free(net);
    free(f);

    for (int i = 0; i < t.input; i++)
        t.w1[i] = 1.0 / 1024;
    t.b1[0] = 0;
    t.wo[0] = 1.0;
    t.bo = 0;
    f = tnet_file(&t, &len);
    net = tu_net_load_ok(f, len);
    float *obs = malloc(sizeof(float) * t.input);
    for (int i = 0; i < N_POS; i++) {
        int bits = 0;
        ck_assert_int_eq(ball_observation(positions[i], 0, obs, (size_t)t.input), BALL_OK);
        for (int k = 0; k < t.input; k++)
            bits += obs[k] == 1.0f;
        ck_assert_int_gt(bits, 0);
        ck_assert_int_eq(ball_net_evaluate(net, positions[i], &v), BALL_OK);
        ck_assert_double_eq_tol(v, tanh(bits / 1024.0), 1e-12);
        ck_assert_double_eq(ball_net_search_eval(net, positions[i]), v);
    }
    free(obs);
    free_positions();
    ball_net_free(net);
    free(f);
    tnet_free(&t);
}
END_TEST

/* Random nets of one and two hidden layers, under every observation
 * flag, against the dense reference within 1e-6. */
START_TEST(test_against_reference)
{
    static const int shapes[][3] = {{0, 64, 0}, {0, 256, 0}, {0, 32, 16}, {1, 16, 0},
                                    {2, 8, 8}, {3, 4, 0}, {0, 512, 512}};
    crc_init();
    make_positions();
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tnet t = tnet_random(shapes[s][0], shapes[s][1], shapes[s][2], 11 + s);
        size_t len;
        unsigned char *f = tnet_file(&t, &len);
        ball_net *net = tu_net_load_ok(f, len);
        double lo = 1, hi = -1;
        for (int i = 0; i < N_POS; i++) {
            double v, want = reference(&t, positions[i]);
            ck_assert_int_eq(ball_net_evaluate(net, positions[i], &v), BALL_OK);
            ck_assert_msg(fabs(v - want) < 1e-6, "shape %zu position %d: %.9f, reference %.9f",
                          s, i, v, want);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        ck_assert_msg(hi - lo > 1e-3, "shape %zu: the same value everywhere", s); /* not a constant */
        ball_net_free(net);
        free(f);
        tnet_free(&t);
    }
    free_positions();
}
END_TEST

START_TEST(test_refusals)
{
    crc_init();
    tnet t = tnet_random(0, 1, 0, 3);
    size_t len;
    unsigned char *f = tnet_file(&t, &len), *g = malloc(len + 1);
    ball_net *net = (ball_net *)&net;
    char err[256];

    /* NULL arguments */
    ck_assert_int_eq(ball_net_load(NULL, f, len, err, sizeof err), BALL_E_ARG);
    ck_assert_int_eq(ball_net_load(&net, NULL, len, err, sizeof err), BALL_E_ARG);
    ck_assert_ptr_null(net);
    ck_assert_int_eq(ball_net_load(&net, f, 3, NULL, 0), BALL_E_ARG);
    double v = 5;
    ck_assert_int_eq(ball_net_evaluate(NULL, NULL, &v), BALL_E_ARG);
    ck_assert_double_eq(ball_net_search_eval(NULL, NULL), 0.0);
    ball_net_free(NULL);

    /* truncated at every byte */
    for (size_t n = 0; n < len; n++)
        tu_net_refused(f, n, "truncated");
    /* one byte too many */
    memcpy(g, f, len);
    g[len] = 0;
    tu_net_refused(g, len + 1, "after the checksum");

    /* a flip of each header and checksum byte, and of every 7th byte:
     * a header field's flip is refused by its own check (magic, a field
     * out of range, a length that no longer fits), a weight's or the
     * checksum's by the checksum */
    for (size_t i = 0; i < len; i++) {
        if (i >= 40 && i < len - 4 && i % 7 != 0)
            continue;
        memcpy(g, f, len);
        g[i] ^= (unsigned char)(1u << (i % 8));
        tu_net_refused(g, len, i < 8 ? "magic" : i < 40 ? "" : "checksum");
    }

    /* each header field out of range (checksum made right again) */
    static const struct { size_t at; uint32_t value; const char *want; } fields[] = {
        {8, 3, "byte 8: format version 3, this library reads 1 and 2"},
        {8, 0, "format version 0"},
        {12, 2, "byte 12: unknown architecture 2"},
        {16, 4, "byte 16: unknown observation flags 0x4"},
        {16, 0x100, "unknown observation flags"},
        {16, 1, "byte 20: input size 3171"},
        {20, 3170, "byte 20: input size 3170"},
        {24, 0, "byte 24: hidden size 0"},
        {24, 513, "hidden size 513"},
        {24, 0xFFFFFFFFu, "hidden size 4294967295"},
        {28, 513, "byte 28: second hidden size 513"},
        {28, 1, "truncated"},
        {32, 1, "byte 32: unknown quantization 1"},
        {36, 1, "byte 36: reserved"},
    };
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        memcpy(g, f, len);
        put32(g + fields[k].at, fields[k].value);
        reseal(g, len);
        tu_net_refused(g, len, fields[k].want);
    }
    /* a hidden size of 2 in a file made for 1: the length is wrong */
    memcpy(g, f, len);
    put32(g + 24, 2);
    tu_net_refused(g, len, "truncated");

    /* a NaN and an infinity among the weights; a first-layer weight or
     * bias outside (-128, 128) (the fixed point of the first layer,
     * docs/network-format.md), while elsewhere any finite weight loads */
    static const struct {
        size_t at;
        uint32_t bits;
        const char *want;
    } bad[] = {
        {40 + 4 * 100, 0x7FC00000u, "byte 440: weight 100 is not a finite number"},
        {40 + 4 * 100, 0xFF800000u, "byte 440: weight 100 is not a finite number"},
        {40 + 4 * 100, 0x43000000u, "byte 440: first-layer weight 100 is 128, out of range (-128, 128)"},
        {40 + 4 * 7, 0xC3488000u, "byte 68: first-layer weight 7 is -200.5, out of range (-128, 128)"},
        {40 + 4 * 3171, 0x43000000u, "byte 12724: first-layer weight 3171 is 128, out of range (-128, 128)"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memcpy(g, f, len);
        put32(g + bad[k].at, bad[k].bits);
        reseal(g, len);
        tu_net_refused(g, len, bad[k].want);
    }
    memcpy(g, f, len);
    put32(g + 40 + 4 * 100, 0x42FEFFFEu); /* 127.49998: in range */
    put32(g + 40 + 4 * 3172, 0x447A0000u); /* the output weight 1000 */
    reseal(g, len);
    net = tu_net_load_ok(g, len);
    ball_net_free(net);

    /* and the file itself still loads */
    net = tu_net_load_ok(f, len);
    ball_net_free(net);
    free(g);
    free(f);
    tnet_free(&t);
}
END_TEST

static int net_calls;

static double counting_eval(void *ud, const ball_game *g)
{
    __atomic_add_fetch(&net_calls, 1, __ATOMIC_RELAXED);
    return ball_net_search_eval(ud, g);
}

/* The turn search with the net as its evaluation (one and two threads):
 * it calls the net and answers a legal decision; IN_ONE's touchdown
 * (R11.1) is still found, since proven values come from the search. */
/* The error text's bounds: no buffer, an empty one, one that holds only
 * part of the message; NULL arguments of evaluate; the output's
 * saturation on both sides. */
START_TEST(test_edges)
{
    crc_init();
    tnet t = tnet_random(0, 1, 0, 5);
    size_t len;
    unsigned char *f = tnet_file(&t, &len);
    ball_net *net = NULL;
    char err[8];
    double v = 5;

    memset(err, 'z', sizeof err);
    ck_assert_int_eq(ball_net_load(&net, f, 3, err, 0), BALL_E_ARG);
    ck_assert_int_eq(err[0], 'z'); /* errlen 0: nothing written */
    ck_assert_int_eq(ball_net_load(&net, f, 3, err, 3), BALL_E_ARG);
    ck_assert_str_eq(err, "ne"); /* "net: " cut to fit */
    ck_assert_int_eq(ball_net_load(&net, f, 3, err, 6), BALL_E_ARG);
    ck_assert_str_eq(err, "net: "); /* the prefix, no room for the rest */
    ck_assert_int_eq(ball_net_load(&net, f, 3, err, sizeof err), BALL_E_ARG);
    ck_assert_uint_eq(strlen(err), sizeof err - 1);
    ck_assert_int_eq(strncmp(err, "net: ", 5), 0);
    ck_assert_ptr_null(net);

    ck_assert_int_eq(ball_net_load(&net, f, len, NULL, 0), BALL_OK); /* no error buffer */
    ck_assert_ptr_nonnull(net);
    ball_game *g = NULL;
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    ck_assert_int_eq(ball_net_evaluate(net, NULL, &v), BALL_E_ARG);
    ck_assert_int_eq(ball_net_evaluate(net, g, NULL), BALL_E_ARG);
    ck_assert_double_eq(v, 5);
    ball_net_free(net);
    free(f);

    /* an output bias of -100 and +100: tanh is -1 and 1 exactly */
    memset(t.wo, 0, sizeof(double) * (size_t)t.h1);
    for (int sign = -1; sign <= 1; sign += 2) {
        t.bo = 100.0 * sign;
        f = tnet_file(&t, &len);
        net = tu_net_load_ok(f, len);
        ck_assert_int_eq(ball_net_evaluate(net, g, &v), BALL_OK);
        ck_assert_double_eq(v, (double)sign);
        ball_net_free(net);
        free(f);
    }
    ball_game_free(g);
    tnet_free(&t);
}
END_TEST

START_TEST(test_search_uses_net)
{
    crc_init();
    tnet t = tnet_random(0, 64, 0, 5);
    size_t len;
    unsigned char *f = tnet_file(&t, &len);
    ball_net *net = tu_net_load_ok(f, len);
    for (int threads = 1; threads <= 2; threads++) {
        ball_search_config cfg;
        ball_search *s = NULL;
        ball_search_result r;
        ball_game *g = NULL;
        ball_search_config_init(&cfg, sizeof cfg);
        cfg.nodes = 3000;
        cfg.hash_mb = 1;
        cfg.threads = threads;
        ck_assert_int_eq(ball_search_new(&s, &cfg, NULL, 0), BALL_OK);
        ck_assert_int_eq(ball_search_set_eval(s, counting_eval, net), BALL_OK);
        ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
        net_calls = 0;
        ball_search_result_init(&r, sizeof r);
        ck_assert_int_eq(ball_search_run(s, g, &r), BALL_OK);
        ck_assert_int_eq(ball_is_legal(g, r.best), 1);
        ck_assert_int_gt(net_calls, 100);
        ball_game_free(g);

        /* ball_net_search_eval with no net: every leaf is 0.0 (ball.h),
         * not the incremental path, and the search still answers */
        ck_assert_int_eq(ball_search_set_eval(s, ball_net_search_eval, NULL), BALL_OK);
        ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
        ball_search_clear(s);
        ball_search_result_init(&r, sizeof r);
        ck_assert_int_eq(ball_search_run(s, g, &r), BALL_OK);
        ck_assert_int_eq(ball_is_legal(g, r.best), 1);
        ck_assert_double_lt(fabs(r.value), 0.01); /* only the seeded tie-breaks of a few units */
        ball_game_free(g);

        g = tu_game(IN_ONE);
        ck_assert_int_eq(ball_search_set_eval(s, ball_net_search_eval, net), BALL_OK);
        ball_search_clear(s);
        ball_search_result_init(&r, sizeof r);
        ck_assert_int_eq(ball_search_run(s, g, &r), BALL_OK);
        ck_assert_int_eq(ball_is_legal(g, r.best), 1);
        ck_assert_int_eq(r.proven, 1);
        ball_game_free(g);
        ball_search_free(s);
    }
    ball_net_free(net);
    free(f);
    tnet_free(&t);
}
END_TEST

/* The search evaluates ball_net_search_eval incrementally from its last
 * leaf (libball/nnue/net.h) and a caller's hook in full: the two must give
 * the same search, node for node, from several positions in a row on
 * one searcher (so that the sums carry over from one run to the next),
 * and after the net is swapped for another. */
START_TEST(test_incremental_equals_full)
{
    crc_init();
    tnet t1 = tnet_random(0, 64, 0, 11), t2 = tnet_random(0, 32, 8, 12);
    size_t len1, len2;
    unsigned char *f1 = tnet_file(&t1, &len1), *f2 = tnet_file(&t2, &len2);
    ball_net *n1 = tu_net_load_ok(f1, len1), *n2 = tu_net_load_ok(f2, len2);
    ball_search *s[2];
    ball_search_config cfg;
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 4000;
    cfg.hash_mb = 1;
    make_positions();
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(ball_search_new(&s[k], &cfg, NULL, 0), BALL_OK);
    int differ = 0;
    for (int i = 0; i < 24; i++) {
        ball_net *net = i < 12 ? n1 : n2;
        ball_game *g = positions[(i * 7) % N_POS];
        ball_search_result r[2];
        if (ball_result(g) != BALL_ONGOING)
            continue;
        if (i == 0 || i == 12) {
            ck_assert_int_eq(ball_search_set_eval(s[0], ball_net_search_eval, net), BALL_OK);
            ck_assert_int_eq(ball_search_set_eval(s[1], counting_eval, net), BALL_OK);
        }
        for (int k = 0; k < 2; k++) {
            ball_search_result_init(&r[k], sizeof r[k]);
            ck_assert_int_eq(ball_search_run(s[k], g, &r[k]), BALL_OK);
        }
        ck_assert_msg(r[0].best == r[1].best && r[0].value == r[1].value &&
                          r[0].nodes == r[1].nodes && r[0].depth == r[1].depth,
                      "position %d: incremental %.9f in %llu nodes, full %.9f in %llu", i,
                      r[0].value, (unsigned long long)r[0].nodes, r[1].value,
                      (unsigned long long)r[1].nodes);
        differ += r[0].value != 0.0;
    }
    ck_assert_int_gt(differ, 12); /* the values are the net's, not constants */
    for (int k = 0; k < 2; k++)
        ball_search_free(s[k]);
    free_positions();
    ball_net_free(n1);
    ball_net_free(n2);
    free(f1);
    free(f2);
    tnet_free(&t1);
    tnet_free(&t2);
}
END_TEST

struct thread_job {
    const ball_net *net;
    double values[N_POS];
};

static void *evaluate_all(void *p)
{
    struct thread_job *j = p;
    for (int rep = 0; rep < 20; rep++)
        for (int i = 0; i < N_POS; i++)
            if (ball_net_evaluate(j->net, positions[i], &j->values[i]) != BALL_OK)
                j->values[i] = 99;
    return NULL;
}

/* Two threads on one net get the values of one thread. */
START_TEST(test_threads_share_a_net)
{
    crc_init();
    tnet t = tnet_random(0, 128, 32, 9);
    size_t len;
    unsigned char *f = tnet_file(&t, &len);
    ball_net *net = tu_net_load_ok(f, len);
    struct thread_job one = {net, {0}}, jobs[2] = {{net, {0}}, {net, {0}}};
    pthread_t th[2];
    make_positions();
    evaluate_all(&one);
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_create(&th[k], NULL, evaluate_all, &jobs[k]), 0);
    for (int k = 0; k < 2; k++)
        ck_assert_int_eq(pthread_join(th[k], NULL), 0);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < N_POS; i++)
            ck_assert_double_eq(jobs[k].values[i], one.values[i]);
    free_positions();
    ball_net_free(net);
    free(f);
    tnet_free(&t);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("net");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_crc_check_value);
    tcase_add_test(tc, test_by_hand);
    tcase_add_test(tc, test_against_reference);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_edges);
    tcase_add_test(tc, test_search_uses_net);
    tcase_add_test(tc, test_incremental_equals_full);
    tcase_add_test(tc, test_threads_share_a_net);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
