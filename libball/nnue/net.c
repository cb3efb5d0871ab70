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
 * contiguous column, a loop the compiler vectorizes. The loader converts
 * the first layer to fixed point (integer multiples of 2^-24, in int32,
 * which is why it refuses weights of 128 and more) and the sums are int64:
 * integer additions give the same sums in any order and in any build, so
 * an incremental update (net_acc_evaluate(), net.h: subtract the columns
 * of the bits that went, add those that came) equals the full sum exactly.
 * The dot products of the second and output layers are summed in double
 * in a written-out order (dot()), so they too are the same in every build.
 *
 * Memory: ball_net_load() allocates one block (the struct, the first layer
 * in fixed point and the other weights); ball_net_evaluate() allocates nothing,
 * its scratch (the observation bits, the first layer's sums and the hidden
 * activations, bounded by NET_MAX_INPUT and NET_MAX_HIDDEN: about 10 KB)
 * is on the caller's stack, and the net is never written after loading: any number
 * of threads may evaluate one net at once (the lazy-SMP threads of a turn
 * search do). No global state.
 */
#define BALL_EXPERIMENTAL

#include "ball.h"
#include "net.h"
#include "err_text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's fixed parts (docs/network-format.md). */
#define NET_MAGIC "BALLNET\0"
#define NET_VERSION 1u
#define NET_VERSION_NNUE 2u
#define NET_ARCH_DENSE 1u
#define NET_QUANT_F32 0u
#define NET_HEADER 40u
#define NET_CHECKSUM 4u
/* The first layer's fixed point: multiples of 2^-24 (a float32 of
 * magnitude 1/2 to 1 is one exactly), below 128 in magnitude so that
 * they fit an int32; a sum of at most NET_MAX_INPUT of them fits an
 * int64. */
#define NET_FIX_ONE 16777216.0
#define NET_FIX_LIMIT 128.0f

struct ball_net {
    struct nnue *nn; /* format 2 (nnue.c); NULL: format 1, the fields below */
    int flags;       /* observation flags */
    int input;       /* ball_observation_size(flags) */
    int h1, h2;      /* hidden sizes; h2 0: one hidden layer */
    const int32_t *q1; /* [input][h1], input-major: the weights in 2^-24 */
    const int64_t *qb1; /* [h1]: the biases in 2^-24 */
    const float *w2; /* [h2][h1], output-major */
    const float *b2; /* [h2] */
    const float *wo; /* [h2 ? h2 : h1] */
    float bo;
    float w[];       /* the weights after the first layer, in file order; then q1 and qb1 */
};

/* @p f in units of 2^-24, rounded to nearest (ties away from 0); @p f is
 * finite and below NET_FIX_LIMIT in magnitude (the loader checks). */
static int64_t to_fix(float f)
{
    double x = (double)f * NET_FIX_ONE; /* exact: float has 24 bits */
    return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* CRC-32 of IEEE 802.3 (zlib's crc32(), Python's zlib.crc32()), a byte
 * at a time from a constant table (read-only data, not state): every
 * searcher loads the network the library carries (ball_search_new()),
 * and bit by bit its 953,232 bytes took 50 million instructions, 96% of
 * the load. CRC_TABLE[n] is n's CRC register after its 8 bits, with the
 * reflected polynomial 0xEDB88320. */
static const uint32_t CRC_TABLE[256] = {
    0x00000000u, 0x77073096u, 0xEE0E612Cu, 0x990951BAu, 0x076DC419u, 0x706AF48Fu,
    0xE963A535u, 0x9E6495A3u, 0x0EDB8832u, 0x79DCB8A4u, 0xE0D5E91Eu, 0x97D2D988u,
    0x09B64C2Bu, 0x7EB17CBDu, 0xE7B82D07u, 0x90BF1D91u, 0x1DB71064u, 0x6AB020F2u,
    0xF3B97148u, 0x84BE41DEu, 0x1ADAD47Du, 0x6DDDE4EBu, 0xF4D4B551u, 0x83D385C7u,
    0x136C9856u, 0x646BA8C0u, 0xFD62F97Au, 0x8A65C9ECu, 0x14015C4Fu, 0x63066CD9u,
    0xFA0F3D63u, 0x8D080DF5u, 0x3B6E20C8u, 0x4C69105Eu, 0xD56041E4u, 0xA2677172u,
    0x3C03E4D1u, 0x4B04D447u, 0xD20D85FDu, 0xA50AB56Bu, 0x35B5A8FAu, 0x42B2986Cu,
    0xDBBBC9D6u, 0xACBCF940u, 0x32D86CE3u, 0x45DF5C75u, 0xDCD60DCFu, 0xABD13D59u,
    0x26D930ACu, 0x51DE003Au, 0xC8D75180u, 0xBFD06116u, 0x21B4F4B5u, 0x56B3C423u,
    0xCFBA9599u, 0xB8BDA50Fu, 0x2802B89Eu, 0x5F058808u, 0xC60CD9B2u, 0xB10BE924u,
    0x2F6F7C87u, 0x58684C11u, 0xC1611DABu, 0xB6662D3Du, 0x76DC4190u, 0x01DB7106u,
    0x98D220BCu, 0xEFD5102Au, 0x71B18589u, 0x06B6B51Fu, 0x9FBFE4A5u, 0xE8B8D433u,
    0x7807C9A2u, 0x0F00F934u, 0x9609A88Eu, 0xE10E9818u, 0x7F6A0DBBu, 0x086D3D2Du,
    0x91646C97u, 0xE6635C01u, 0x6B6B51F4u, 0x1C6C6162u, 0x856530D8u, 0xF262004Eu,
    0x6C0695EDu, 0x1B01A57Bu, 0x8208F4C1u, 0xF50FC457u, 0x65B0D9C6u, 0x12B7E950u,
    0x8BBEB8EAu, 0xFCB9887Cu, 0x62DD1DDFu, 0x15DA2D49u, 0x8CD37CF3u, 0xFBD44C65u,
    0x4DB26158u, 0x3AB551CEu, 0xA3BC0074u, 0xD4BB30E2u, 0x4ADFA541u, 0x3DD895D7u,
    0xA4D1C46Du, 0xD3D6F4FBu, 0x4369E96Au, 0x346ED9FCu, 0xAD678846u, 0xDA60B8D0u,
    0x44042D73u, 0x33031DE5u, 0xAA0A4C5Fu, 0xDD0D7CC9u, 0x5005713Cu, 0x270241AAu,
    0xBE0B1010u, 0xC90C2086u, 0x5768B525u, 0x206F85B3u, 0xB966D409u, 0xCE61E49Fu,
    0x5EDEF90Eu, 0x29D9C998u, 0xB0D09822u, 0xC7D7A8B4u, 0x59B33D17u, 0x2EB40D81u,
    0xB7BD5C3Bu, 0xC0BA6CADu, 0xEDB88320u, 0x9ABFB3B6u, 0x03B6E20Cu, 0x74B1D29Au,
    0xEAD54739u, 0x9DD277AFu, 0x04DB2615u, 0x73DC1683u, 0xE3630B12u, 0x94643B84u,
    0x0D6D6A3Eu, 0x7A6A5AA8u, 0xE40ECF0Bu, 0x9309FF9Du, 0x0A00AE27u, 0x7D079EB1u,
    0xF00F9344u, 0x8708A3D2u, 0x1E01F268u, 0x6906C2FEu, 0xF762575Du, 0x806567CBu,
    0x196C3671u, 0x6E6B06E7u, 0xFED41B76u, 0x89D32BE0u, 0x10DA7A5Au, 0x67DD4ACCu,
    0xF9B9DF6Fu, 0x8EBEEFF9u, 0x17B7BE43u, 0x60B08ED5u, 0xD6D6A3E8u, 0xA1D1937Eu,
    0x38D8C2C4u, 0x4FDFF252u, 0xD1BB67F1u, 0xA6BC5767u, 0x3FB506DDu, 0x48B2364Bu,
    0xD80D2BDAu, 0xAF0A1B4Cu, 0x36034AF6u, 0x41047A60u, 0xDF60EFC3u, 0xA867DF55u,
    0x316E8EEFu, 0x4669BE79u, 0xCB61B38Cu, 0xBC66831Au, 0x256FD2A0u, 0x5268E236u,
    0xCC0C7795u, 0xBB0B4703u, 0x220216B9u, 0x5505262Fu, 0xC5BA3BBEu, 0xB2BD0B28u,
    0x2BB45A92u, 0x5CB36A04u, 0xC2D7FFA7u, 0xB5D0CF31u, 0x2CD99E8Bu, 0x5BDEAE1Du,
    0x9B64C2B0u, 0xEC63F226u, 0x756AA39Cu, 0x026D930Au, 0x9C0906A9u, 0xEB0E363Fu,
    0x72076785u, 0x05005713u, 0x95BF4A82u, 0xE2B87A14u, 0x7BB12BAEu, 0x0CB61B38u,
    0x92D28E9Bu, 0xE5D5BE0Du, 0x7CDCEFB7u, 0x0BDBDF21u, 0x86D3D2D4u, 0xF1D4E242u,
    0x68DDB3F8u, 0x1FDA836Eu, 0x81BE16CDu, 0xF6B9265Bu, 0x6FB077E1u, 0x18B74777u,
    0x88085AE6u, 0xFF0F6A70u, 0x66063BCAu, 0x11010B5Cu, 0x8F659EFFu, 0xF862AE69u,
    0x616BFFD3u, 0x166CCF45u, 0xA00AE278u, 0xD70DD2EEu, 0x4E048354u, 0x3903B3C2u,
    0xA7672661u, 0xD06016F7u, 0x4969474Du, 0x3E6E77DBu, 0xAED16A4Au, 0xD9D65ADCu,
    0x40DF0B66u, 0x37D83BF0u, 0xA9BCAE53u, 0xDEBB9EC5u, 0x47B2CF7Fu, 0x30B5FFE9u,
    0xBDBDF21Cu, 0xCABAC28Au, 0x53B39330u, 0x24B4A3A6u, 0xBAD03605u, 0xCDD70693u,
    0x54DE5729u, 0x23D967BFu, 0xB3667A2Eu, 0xC4614AB8u, 0x5D681B02u, 0x2A6F2B94u,
    0xB40BBE37u, 0xC30C8EA1u, 0x5A05DF1Bu, 0x2D02EF8Du,
};

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = (c >> 8) ^ CRC_TABLE[(c ^ p[i]) & 0xFFu];
    return c ^ 0xFFFFFFFFu;
}

/* The checksum of the @p len bytes at @p p, its last four, against the
 * others': BALL_OK, or BALL_E_ARG with a message. */
static int checksum_check(const unsigned char *p, size_t len, char *err, size_t errlen)
{
    uint32_t crc = crc32_of(p, len - NET_CHECKSUM), stored = get32(p + len - NET_CHECKSUM);
    if (crc != stored)
        return err_text(err, errlen, BALL_E_ARG, "net: byte %zu: checksum 0x%08lx, the contents give 0x%08lx "
                          "(corrupt file)", len - NET_CHECKSUM, (unsigned long)stored,
                          (unsigned long)crc);
    return BALL_OK;
}

/* A format-2 file (nnue.c), its magic read, wrapped in a ball_net. */
static int load_nnue(ball_net **out, const unsigned char *p, size_t len, char *err, size_t errlen)
{
    struct nnue *nn = NULL;
    ball_net *net;
    int rc = nnue_load(&nn, p, len, err, errlen);
    if (rc == BALL_OK && (rc = checksum_check(p, len, err, errlen)) != BALL_OK) {
        nnue_free(nn);
        return rc;
    }
    if (rc == BALL_E_NOMEM)
        return err_text(err, errlen, rc, "net: out of memory (%zu bytes of weights)", len);
    if (rc != BALL_OK)
        return rc;
    net = calloc(1, sizeof *net);
    if (net == NULL) {
        nnue_free(nn);
        return err_text(err, errlen, BALL_E_NOMEM, "net: out of memory");
    }
    net->nn = nn;
    *out = net;
    return BALL_OK;
}

/* A format-1 header's shapes (docs/network-format.md). */
struct dense_shape {
    uint32_t flags, input, h1, h2;
    size_t nw; /* the number of weights, all layers */
};

/* Step 1 of a format-1 file: its header's fields, one by one in the
 * order of the file, into @p sh; BALL_OK, or BALL_E_ARG naming the byte
 * of the first wrong one. */
static int dense_header(struct dense_shape *sh, const unsigned char *p, char *err, size_t errlen)
{
    uint32_t version = get32(p + 8), arch = get32(p + 12), flags = get32(p + 16);
    uint32_t input = get32(p + 20), h1 = get32(p + 24), h2 = get32(p + 28);
    uint32_t quant = get32(p + 32), reserved = get32(p + 36);
    if (version != NET_VERSION)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 8: format version %lu, this library reads %u and %u",
                      (unsigned long)version, NET_VERSION, NET_VERSION_NNUE);
    if (arch != NET_ARCH_DENSE)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 12: unknown architecture %lu (this library knows 1)",
                      (unsigned long)arch);
    int size = flags > 0xFFu ? BALL_E_ARG : ball_observation_size((int)flags);
    if (size < 0)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 16: unknown observation flags 0x%lx",
                      (unsigned long)flags);
    if (input != (uint32_t)size)
        return err_text(err, errlen, BALL_E_ARG,
                      "net: byte 20: input size %lu, the observation of flags 0x%lx has %d values",
                      (unsigned long)input, (unsigned long)flags, size);
    if (h1 < 1 || h1 > NET_MAX_HIDDEN)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 24: hidden size %lu out of range 1-%d",
                      (unsigned long)h1, NET_MAX_HIDDEN);
    if (h2 > NET_MAX_HIDDEN)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 28: second hidden size %lu out of range 0-%d",
                      (unsigned long)h2, NET_MAX_HIDDEN);
    if (quant != NET_QUANT_F32)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 32: unknown quantization %lu (this library reads 0, float32)",
                      (unsigned long)quant);
    if (reserved != 0)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 36: reserved field %lu, must be 0", (unsigned long)reserved);
    sh->flags = flags;
    sh->input = input;
    sh->h1 = h1;
    sh->h2 = h2;
    /* At most 20111 * 512 + 512 * 512 + 2 * 512 + 513 floats: no overflow. */
    sh->nw = (size_t)input * h1 + h1 + (h2 ? (size_t)h2 * h1 + h2 : 0) + (h2 ? h2 : h1) + 1;
    return BALL_OK;
}

/* Step 2: the file's length, the header's shapes', and its checksum. */
static int dense_length(const struct dense_shape *sh, const unsigned char *p, size_t len, char *err,
                        size_t errlen)
{
    size_t want = NET_HEADER + sh->nw * 4 + NET_CHECKSUM;
    if (len < want)
        return err_text(err, errlen, BALL_E_ARG, "net: truncated: %zu bytes, the header's shapes need %zu", len, want);
    if (len > want)
        return err_text(err, errlen, BALL_E_ARG, "net: byte %zu: %zu bytes after the checksum", want, len - want);
    return checksum_check(p, len, err, errlen);
}

/* Step 3: the block of a net of shapes @p sh, its layers placed: the
 * later layers' floats, then the first layer in fixed point only: int32
 * weights and int64 biases (an offset of 8 bytes' multiple, for the
 * int64s). NULL when out of memory. */
static ball_net *dense_alloc(const struct dense_shape *sh)
{
    size_t n1 = (size_t)sh->input * sh->h1;
    size_t q1_at = sizeof(ball_net) + (sh->nw - n1 - sh->h1) * sizeof(float);
    size_t qb1_at = (q1_at + n1 * sizeof(int32_t) + 7) & ~(size_t)7;
    ball_net *net = malloc(qb1_at + sh->h1 * sizeof(int64_t));
    if (net == NULL)
        return NULL;
    net->nn = NULL;
    net->flags = (int)sh->flags;
    net->input = (int)sh->input;
    net->h1 = (int)sh->h1;
    net->h2 = (int)sh->h2;
    net->q1 = (const int32_t *)((char *)net + q1_at);
    net->qb1 = (const int64_t *)((char *)net + qb1_at);
    net->w2 = net->w;
    net->b2 = net->w2 + (size_t)sh->h2 * sh->h1;
    net->wo = sh->h2 ? net->b2 + sh->h2 : net->w2;
    return net;
}

/* Step 4: the weights, each checked (finite; the first layer's below
 * NET_FIX_LIMIT) and stored: the first layer's weights and biases in
 * fixed point, the others as they are; BALL_OK, or BALL_E_ARG naming the
 * byte of the first wrong one. */
static int dense_weights(ball_net *net, const struct dense_shape *sh, const unsigned char *p, char *err,
                         size_t errlen)
{
    size_t n1 = (size_t)sh->input * sh->h1, h1 = sh->h1;
    /* const for the readers; written here, in the block just allocated */
    int32_t *q1 = (int32_t *)net->q1;
    int64_t *qb1 = (int64_t *)net->qb1;
    for (size_t i = 0; i < sh->nw; i++) {
        uint32_t u = get32(p + NET_HEADER + 4 * i);
        float f;
        memcpy(&f, &u, sizeof f);
        if ((u & 0x7F800000u) == 0x7F800000u) /* inf or NaN */
            return err_text(err, errlen, BALL_E_ARG, "net: byte %zu: weight %zu is not a finite number",
                          (size_t)NET_HEADER + 4 * i, i);
        if (i < n1 + h1 && !(f < NET_FIX_LIMIT && f > -NET_FIX_LIMIT))
            return err_text(err, errlen, BALL_E_ARG,
                          "net: byte %zu: first-layer weight %zu is %g, out of range (-128, 128)",
                          (size_t)NET_HEADER + 4 * i, i, (double)f);
        if (i < n1)
            q1[i] = (int32_t)to_fix(f);
        else if (i < n1 + h1)
            qb1[i - n1] = to_fix(f);
        else
            net->w[i - n1 - h1] = f;
    }
    net->bo = net->wo[sh->h2 ? sh->h2 : sh->h1];
    return BALL_OK;
}

/* A format-1 file, its magic read: the steps above in turn. */
static int load_dense(ball_net **out, const unsigned char *p, size_t len, char *err, size_t errlen)
{
    struct dense_shape sh = {0, 0, 0, 0, 0}; /* set by dense_header() (which GCC cannot see returns BALL_OK only then) */
    ball_net *net;
    int rc;
    if ((rc = dense_header(&sh, p, err, errlen)) != BALL_OK ||
        (rc = dense_length(&sh, p, len, err, errlen)) != BALL_OK)
        return rc;
    net = dense_alloc(&sh);
    if (net == NULL)
        return err_text(err, errlen, BALL_E_NOMEM, "net: out of memory (%zu bytes of weights)",
                        sh.nw * 4);
    if ((rc = dense_weights(net, &sh, p, err, errlen)) != BALL_OK) {
        free(net);
        return rc;
    }
    *out = net;
    return BALL_OK;
}

int ball_net_load(ball_net **out, const void *data, size_t len, char *err, size_t errlen)
{
    const unsigned char *p = data;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (out == NULL)
        return err_text(err, errlen, BALL_E_ARG, "net: NULL output pointer");
    *out = NULL;
    if (data == NULL)
        return err_text(err, errlen, BALL_E_ARG, "net: NULL data");
    if (len < NET_HEADER + NET_CHECKSUM)
        return err_text(err, errlen, BALL_E_ARG, "net: truncated: %zu bytes, the header and checksum alone are %u",
                      len, NET_HEADER + NET_CHECKSUM);
    if (memcmp(p, NET_MAGIC, 8) != 0)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 0: bad magic (not a BALL network file)");
    if (get32(p + 8) == NET_VERSION_NNUE)
        return load_nnue(out, p, len, err, errlen);
    return load_dense(out, p, len, err, errlen);
}

void ball_net_free(ball_net *net)
{
    if (net != NULL && net->nn != NULL)
        nnue_free(net->nn);
    free(net);
}

const struct nnue *net_nnue(const ball_net *net)
{
    return net->nn;
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

/* Word @p w of the observation bits at @p bytes (bit k: input 64 w + k),
 * of @p nbytes bytes in all: little-endian whatever the machine's order. */
static uint64_t bits_word(const unsigned char *bytes, int nbytes, int w)
{
    uint64_t x = 0;
    for (int b = 0; b < 8 && 8 * w + b < nbytes; b++)
        x |= (uint64_t)bytes[8 * w + b] << (8 * b);
    return x;
}

/* On x86-64 with GNU ifunc the first layer's loops are compiled twice,
 * for AVX2 (four int64 additions an instruction) and for the baseline
 * (SSE2: two, each int32 widened by hand); the loader picks one. The sums
 * are integers, so both give the same bits. Define BALL_NO_CPU_DISPATCH
 * for the baseline only. GCC only, as in movegen_rules.h. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute) \
    && !defined(__clang__) && !defined(BALL_NO_CPU_DISPATCH)
#if __has_attribute(target_clones)
#define NET_DISPATCH __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef NET_DISPATCH
#define NET_DISPATCH
#endif

/* acc += (or -=, @p sign -1) the first-layer column of input @p i. */
static inline void add_column(const ball_net *net, int64_t *acc, int i, int sign)
{
    const int32_t *col = net->q1 + (size_t)i * (size_t)net->h1;
    int h1 = net->h1;
    if (sign > 0)
        for (int k = 0; k < h1; k++)
            acc[k] += col[k];
    else
        for (int k = 0; k < h1; k++)
            acc[k] -= col[k];
}

/* The observation of @p game as words, into @p words (NET_MAX_WORDS);
 * the number of words, or a negative error code. The bits are written as
 * bytes into @p words itself and turned into words in place: word w is
 * made of bytes 8 w to 8 w + 7 only, read before it is written. */
static int observe(const ball_net *net, const ball_game *game, uint64_t *words)
{
    unsigned char *bytes = (unsigned char *)words;
    int nbytes = (net->input + 7) / 8, nwords = (net->input + 63) / 64;
    int rc = ball_observation_bits(game, net->flags, bytes, NET_MAX_WORDS * sizeof *words);
    if (rc != BALL_OK)
        return rc;
    for (int w = 0; w < nwords; w++)
        words[w] = bits_word(bytes, nbytes, w);
    return nwords;
}

/* The first layer from the bias over the set bits of @p words. */
NET_DISPATCH static void sum_full(const ball_net *net, const uint64_t *words, int nwords,
                                  int64_t *acc)
{
    memcpy(acc, net->qb1, (size_t)net->h1 * sizeof *acc);
    for (int w = 0; w < nwords; w++)
        for (uint64_t x = words[w]; x != 0; x &= x - 1)
            add_column(net, acc, 64 * w + __builtin_ctzll(x), 1);
}

/* The first layer @p acc of the bits @p old made that of @p words:
 * subtract the columns of the bits that went, add those that came. */
NET_DISPATCH static void sum_diff(const ball_net *net, const uint64_t *old,
                                  const uint64_t *words, int nwords, int64_t *acc)
{
    for (int w = 0; w < nwords; w++) {
        uint64_t gone = old[w] & ~words[w], came = words[w] & ~old[w];
        for (; gone != 0; gone &= gone - 1)
            add_column(net, acc, 64 * w + __builtin_ctzll(gone), -1);
        for (; came != 0; came &= came - 1)
            add_column(net, acc, 64 * w + __builtin_ctzll(came), 1);
    }
}

/* 1 when fewer bits changed from @p old to @p words than are set in
 * @p words: then the update adds fewer columns than the full sum. (The
 * observation is seen from the coach to act, so a position of the other
 * coach changes nearly every bit.) */
NET_DISPATCH static int fewer_changed(const uint64_t *old, const uint64_t *words, int nwords)
{
    int changed = 0, set = 0;
    for (int w = 0; w < nwords; w++) {
        changed += __builtin_popcountll(old[w] ^ words[w]);
        set += __builtin_popcountll(words[w]);
    }
    return changed < set;
}

/* The clipped ReLU of the first layer's sums: clamped to [0, 1] (0 to
 * 2^24 units) as integers, then converted, exactly: a float holds 24
 * bits. */
NET_DISPATCH static void activate(const int64_t *acc, float *a1, int h1)
{
    const int64_t one = (int64_t)NET_FIX_ONE;
    for (int k = 0; k < h1; k++) {
        int64_t x = acc[k];
        x = x < 0 ? 0 : x;
        x = x > one ? one : x;
        a1[k] = (float)(int32_t)x * (float)(1.0 / NET_FIX_ONE);
    }
}

/* The layers after the first, from its sums @p acc. */
static double finish(const ball_net *net, const int64_t *acc)
{
    float a1[NET_MAX_HIDDEN], a2[NET_MAX_HIDDEN];
    int h1 = net->h1;
    activate(acc, a1, h1);
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
    return net_tanh(net->bo + dot(net->wo, a, n));
}

int ball_net_evaluate(const ball_net *net, const ball_game *game, double *value)
{
    uint64_t words[NET_MAX_WORDS];
    int64_t acc[NET_MAX_HIDDEN];
    if (net == NULL || game == NULL || value == NULL)
        return BALL_E_ARG;
    if (net->nn != NULL) {
        *value = nnue_squash(nnue_evaluate(net->nn, game));
        return BALL_OK;
    }
    int nwords = observe(net, game, words);
    if (nwords < 0)
        return nwords;
    sum_full(net, words, nwords, acc);
    *value = finish(net, acc);
    return BALL_OK;
}

int net_acc_evaluate(struct net_acc *a, const ball_net *net, const ball_game *game, double *value)
{
    uint64_t words[NET_MAX_WORDS];
    int nwords = observe(net, game, words);
    if (nwords < 0)
        return nwords;
    if (a->net == net && fewer_changed(a->bits, words, nwords))
        sum_diff(net, a->bits, words, nwords, a->acc);
    else
        sum_full(net, words, nwords, a->acc); /* a new net, or much changed */
    memcpy(a->bits, words, (size_t)nwords * sizeof *words);
    a->net = net;
    *value = finish(net, a->acc);
    return BALL_OK;
}

double ball_net_search_eval(void *net, const ball_game *game)
{
    double v = 0.0;
    if (ball_net_evaluate(net, game, &v) != BALL_OK)
        return 0.0;
    return v;
}
