/* SPDX-License-Identifier: MIT */
/* A learned evaluation (ball.h, experimental: ball_net_*; the file format
 * is docs/network-format.md).
 *
 * Architecture 1: the observation bits of ball_observation_bits() ->
 * dense H1 -> clipped ReLU (min(max(x, 0), 1)) -> [dense H2 -> clipped
 * ReLU] -> one output -> tanh. The inputs are 0 or 1, so the first layer is
 * the bias plus the sum of the weight columns of the set bits (a few dozen
 * of the 3,171 inputs): the file stores the first layer input-major (the H1
 * weights of input i side by side) so that each set bit adds one
 * contiguous column, a loop the compiler vectorizes (element-wise float
 * additions in a fixed order: a vectorized build gives the same sums as a
 * scalar one). The dot products of the second and output layers are
 * summed in double in a written-out order (dot()), so they too are the
 * same in every build.
 *
 * Memory: ball_net_load() allocates one block (the struct and the weights);
 * ball_net_evaluate() allocates nothing, its scratch (the observation bits
 * and the hidden activations, bounded by NET_MAX_HIDDEN) is on the
 * caller's stack, and the net is never written after loading: any number
 * of threads may evaluate one net at once (the lazy-SMP threads of a turn
 * search do). No global state.
 */
#define BALL_EXPERIMENTAL

#include "ball.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's fixed parts (docs/network-format.md). */
#define NET_MAGIC "BALLNET\0"
#define NET_VERSION 1u
#define NET_ARCH_DENSE 1u
#define NET_QUANT_F32 0u
#define NET_HEADER 40u
#define NET_CHECKSUM 4u
/* The largest hidden layer (ball.h, ball_net_load()). */
#define NET_MAX_HIDDEN 512
/* The largest observation: ball_observation_size() with every flag. */
#define NET_MAX_INPUT 20111

struct ball_net {
    int flags;       /* observation flags */
    int input;       /* ball_observation_size(flags) */
    int h1, h2;      /* hidden sizes; h2 0: one hidden layer */
    const float *w1; /* [input][h1], input-major */
    const float *b1; /* [h1] */
    const float *w2; /* [h2][h1], output-major */
    const float *b2; /* [h2] */
    const float *wo; /* [h2 ? h2 : h1] */
    float bo;
    float w[];       /* the weights, in file order */
};

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        int n = snprintf(err, errlen, "net: ");
        va_list ap;
        va_start(ap, fmt);
        if (n > 0 && (size_t)n < errlen)
            vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return BALL_E_ARG;
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* CRC-32 of IEEE 802.3 (zlib's crc32(), Python's zlib.crc32()), bitwise:
 * a table would be global state or 1 KiB on the stack, and loading is not
 * where the time goes. */
static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return c ^ 0xFFFFFFFFu;
}

int ball_net_load(ball_net **out, const void *data, size_t len, char *err, size_t errlen)
{
    const unsigned char *p = data;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (out == NULL)
        return refuse(err, errlen, "NULL output pointer");
    *out = NULL;
    if (data == NULL)
        return refuse(err, errlen, "NULL data");
    if (len < NET_HEADER + NET_CHECKSUM)
        return refuse(err, errlen, "truncated: %zu bytes, the header and checksum alone are %u",
                      len, NET_HEADER + NET_CHECKSUM);
    if (memcmp(p, NET_MAGIC, 8) != 0)
        return refuse(err, errlen, "byte 0: bad magic (not a BALL network file)");
    uint32_t version = get32(p + 8), arch = get32(p + 12), flags = get32(p + 16);
    uint32_t input = get32(p + 20), h1 = get32(p + 24), h2 = get32(p + 28);
    uint32_t quant = get32(p + 32), reserved = get32(p + 36);
    if (version != NET_VERSION)
        return refuse(err, errlen, "byte 8: format version %lu, this library reads %u",
                      (unsigned long)version, NET_VERSION);
    if (arch != NET_ARCH_DENSE)
        return refuse(err, errlen, "byte 12: unknown architecture %lu (this library knows 1)",
                      (unsigned long)arch);
    int size = flags > 0xFFu ? BALL_E_ARG : ball_observation_size((int)flags);
    if (size < 0)
        return refuse(err, errlen, "byte 16: unknown observation flags 0x%lx",
                      (unsigned long)flags);
    if (input != (uint32_t)size)
        return refuse(err, errlen,
                      "byte 20: input size %lu, the observation of flags 0x%lx has %d values",
                      (unsigned long)input, (unsigned long)flags, size);
    if (h1 < 1 || h1 > NET_MAX_HIDDEN)
        return refuse(err, errlen, "byte 24: hidden size %lu out of range 1-%d",
                      (unsigned long)h1, NET_MAX_HIDDEN);
    if (h2 > NET_MAX_HIDDEN)
        return refuse(err, errlen, "byte 28: second hidden size %lu out of range 0-%d",
                      (unsigned long)h2, NET_MAX_HIDDEN);
    if (quant != NET_QUANT_F32)
        return refuse(err, errlen, "byte 32: unknown quantization %lu (this library reads 0, float32)",
                      (unsigned long)quant);
    if (reserved != 0)
        return refuse(err, errlen, "byte 36: reserved field %lu, must be 0", (unsigned long)reserved);
    /* At most 20111 * 512 + 512 * 512 + 2 * 512 + 513 floats: no overflow. */
    size_t last = h2 ? h2 : h1;
    size_t nw = (size_t)input * h1 + h1 + (h2 ? (size_t)h2 * h1 + h2 : 0) + last + 1;
    size_t want = NET_HEADER + nw * 4 + NET_CHECKSUM;
    if (len < want)
        return refuse(err, errlen, "truncated: %zu bytes, the header's shapes need %zu", len, want);
    if (len > want)
        return refuse(err, errlen, "byte %zu: %zu bytes after the checksum", want, len - want);
    uint32_t crc = crc32_of(p, len - NET_CHECKSUM), stored = get32(p + len - NET_CHECKSUM);
    if (crc != stored)
        return refuse(err, errlen, "byte %zu: checksum 0x%08lx, the contents give 0x%08lx (corrupt file)",
                      len - NET_CHECKSUM, (unsigned long)stored, (unsigned long)crc);

    ball_net *net = malloc(sizeof *net + nw * sizeof(float));
    if (net == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "net: out of memory (%zu bytes of weights)", nw * 4);
        return BALL_E_NOMEM;
    }
    for (size_t i = 0; i < nw; i++) {
        uint32_t u = get32(p + NET_HEADER + 4 * i);
        float f;
        memcpy(&f, &u, sizeof f);
        if ((u & 0x7F800000u) == 0x7F800000u) { /* inf or NaN */
            free(net);
            return refuse(err, errlen, "byte %zu: weight %zu is not a finite number",
                          (size_t)NET_HEADER + 4 * i, i);
        }
        net->w[i] = f;
    }
    net->flags = (int)flags;
    net->input = (int)input;
    net->h1 = (int)h1;
    net->h2 = (int)h2;
    net->w1 = net->w;
    net->b1 = net->w1 + (size_t)input * h1;
    net->w2 = net->b1 + h1;
    net->b2 = net->w2 + (size_t)h2 * h1;
    net->wo = h2 ? net->b2 + h2 : net->w2;
    net->bo = net->wo[last];
    *out = net;
    return BALL_OK;
}

void ball_net_free(ball_net *net)
{
    free(net);
}

/* exp(y) for y in [-40, 0]: y = k ln 2 + r, |r| <= ln 2 / 2, e^r by its
 * Taylor series to r^14 (error below 1e-17), 2^k from its bits. The
 * library has no libm dependency, so no exp() or tanh(). */
static double exp_neg(double y)
{
    double k = (double)(long)(y / 0.6931471805599453 - 0.5);
    double r = (y - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    double t = 1.0, e = 1.0;
    for (int i = 1; i <= 14; i++) {
        t *= r / i;
        e += t;
    }
    uint64_t bits = (uint64_t)((long)k + 1023) << 52;
    double scale;
    memcpy(&scale, &bits, sizeof scale);
    return e * scale;
}

/* tanh(x), to within a few units of the last place. */
static double net_tanh(double x)
{
    double ax = x < 0 ? -x : x;
    if (ax > 20.0)
        return x < 0 ? -1.0 : 1.0;
    double t = exp_neg(-2.0 * ax), v = (1.0 - t) / (1.0 + t);
    return x < 0 ? -v : v;
}

/* Clipped ReLU: min(max(x, 0), 1); a NaN (inf - inf of huge weights)
 * gives 0. */
static float clip(float x)
{
    if (!(x > 0.0f))
        return 0.0f;
    return x < 1.0f ? x : 1.0f;
}

/* The dot product of w and a over n, in double: four partial sums (of the
 * terms k = 0, 1, 2, 3 mod 4, each in order) added as (s0 + s1) + (s2 +
 * s3). The order is written out, so every build (vectorized or not)
 * gives the same bits; four chains instead of one hide the latency of the
 * additions. */
static double dot(const float *w, const float *a, int n)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        s0 += (double)w[k] * a[k];
        s1 += (double)w[k + 1] * a[k + 1];
        s2 += (double)w[k + 2] * a[k + 2];
        s3 += (double)w[k + 3] * a[k + 3];
    }
    for (; k < n; k++)
        s0 += (double)w[k] * a[k];
    return (s0 + s1) + (s2 + s3);
}

int ball_net_evaluate(const ball_net *net, const ball_game *game, double *value)
{
    uint8_t bits[(NET_MAX_INPUT + 7) / 8];
    float a1[NET_MAX_HIDDEN], a2[NET_MAX_HIDDEN];
    if (net == NULL || game == NULL || value == NULL)
        return BALL_E_ARG;
    int rc = ball_observation_bits(game, net->flags, bits, sizeof bits);
    if (rc != BALL_OK)
        return rc;
    int h1 = net->h1, nbytes = (net->input + 7) / 8;
    memcpy(a1, net->b1, (size_t)h1 * sizeof *a1);
    for (int i = 0; i < nbytes; i++) {
        unsigned b = bits[i];
        while (b != 0) {
            int j = __builtin_ctz(b);
            const float *col = net->w1 + (size_t)(i * 8 + j) * (size_t)h1;
            b &= b - 1;
            for (int k = 0; k < h1; k++)
                a1[k] += col[k];
        }
    }
    for (int k = 0; k < h1; k++)
        a1[k] = clip(a1[k]);
    const float *a = a1;
    int n = h1;
    if (net->h2 > 0) {
        for (int j = 0; j < net->h2; j++) {
            const float *row = net->w2 + (size_t)j * (size_t)h1;
            a2[j] = clip((float)(net->b2[j] + dot(row, a1, h1)));
        }
        a = a2;
        n = net->h2;
    }
    /* finite: the weights are (the loader checks) and clip() keeps every
     * activation in [0, 1], a NaN included */
    *value = net_tanh(net->bo + dot(net->wo, a, n));
    return BALL_OK;
}

double ball_net_search_eval(void *net, const ball_game *game)
{
    double v = 0.0;
    if (ball_net_evaluate(net, game, &v) != BALL_OK)
        return 0.0;
    return v;
}
