/* SPDX-License-Identifier: MIT */
/* Network format version 2, architecture 2 (nnue.h; the file format is
 * docs/network-format.md): the feature set, the loader, the evaluation
 * from scratch and through a searching thread's accumulators.
 *
 * Why this shape (the lessons of Stockfish's NNUE, docs/training.md):
 * a position has about 17 active features of 4,783, so the first layer is
 * a sum of 17 weight columns; kept per coach's side, the sums of the
 * position the search evaluated last are updated from the few squares a
 * turn changed, and the coach to act only chooses which side's sums come
 * first. The first layer is int16 and the later ones int8/int32, so one
 * AVX2 instruction adds 16 weights, and integer sums give the same bits
 * in any order: the incremental sums equal the full ones, and the AVX2
 * and baseline builds agree. int16 sums wrap (two's complement, as the
 * vector additions do); a wrapped sum is the same in every order too.
 *
 * Memory: nnue_load() allocates one block; evaluation allocates nothing
 * and never writes the net, so threads may share one. No global state.
 */
#define BALL_EXPERIMENTAL /* ball_net_features() */
#include "nnue.h"
#include "relative.h"
#include "game.h"
#include "geometry.h"
#include "bitboard.h"
#include "err_text.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(BALL_NO_CPU_DISPATCH)
#define NNUE_AVX2 1
#include <immintrin.h>
#else
#define NNUE_AVX2 0
#endif

#define NNUE_ARCH 2u
#define NNUE_HEADER 40u
/* Columns of an update a side above which a refresh is cheaper: a
 * position has about 17. */
#define NNUE_REFRESH_OVER 20

/* What a piece is on its square, for the table of struct nnue. */
enum { ROLE_ALONE, ROLE_ALONE_BALL, ROLE_UPPER, ROLE_UPPER_BALL, ROLE_LOWER, ROLES };

struct nnue {
    int h, h2;           /* first layer a side, hidden layer */
    int set, nf;         /* the feature set (1 or 2), its number of features */
    int avx2;            /* 1: the AVX2 loops (chosen at load) */
    int residual;        /* 1: the output is added to the built-in evaluation */
    /* the features of a piece code (the byte, of which the low 4 bits
     * count) seen from ATK's side (low 16 bits) and DEF's (high), less the
     * square: piece_feature() looked up (square_cols()), for a top piece
     * in each role ROLE_ALONE .. ROLE_UPPER_BALL and for a lower piece;
     * sq2 a square seen from both sides, ATK's plus its image across row
     * 9 << 16 */
    uint32_t top2[4][256], low2[256];
    uint32_t sq2[BALL_NUM_SQUARES];
    struct nnue_rel rel; /* set 2's tables (relative.h) */
    const int16_t *ft;   /* [nf][h], feature-major */
    const int16_t *ftb;  /* [h] */
    const int8_t *w2;    /* [h2][2h], output-major: own side's h first */
    const int32_t *b2;   /* [h2] */
    const int16_t *wo;   /* [h2] */
    int32_t bo;
    /* the later layers again for output_avx2(), laid out at load: h2
     * padded to h2p, a multiple of 16, with rows of zeros; w2v
     * input-major, [h2p / 16][2h / 4][16][4] (16 outputs' weights of 4
     * inputs in a row), b2c the biases clamped to +-2^25 (the same
     * outputs, clamp_bias()), wo32 the output weights in int32 */
    int h2p;
    const int8_t *w2v;
    const int32_t *b2c, *wo32;
    _Alignas(32) unsigned char data[]; /* the weights above */
};

/* ---------------------------------------------------------------- features */

static int piece_feature(int persp, int msq, uint8_t code, int state)
{
    return nnue_piece_kind(persp, code, state) * BALL_NUM_SQUARES + msq;
}

/* The features of square @p sq (top @p top, lower @p low, the ball on
 * @p ball) seen from @p persp, its image being @p msq: at most 2. */
static int square_features(int persp, int msq, int sq, uint8_t top, uint8_t low, int ball,
                           uint16_t *out)
{
    int n = 0;
    if (top != 0)
        out[n++] = (uint16_t)piece_feature(persp, msq, top, nnue_piece_state(top, low != 0, 0, ball == sq));
    else if (ball == sq)
        out[n++] = (uint16_t)(NNUE_F_BALL + msq);
    if (low != 0)
        out[n++] = (uint16_t)piece_feature(persp, msq, low, nnue_piece_state(low, 0, 1, 0));
    return n;
}

/* The turns-left bucket of @p p: 1, 2, 3, 4, 5-8, 9-16 turns, more or none. */
static int turns_bucket(const pos *p)
{
    uint32_t left;
    if (p->turn_limit == 0 || p->st.turn > p->turn_limit)
        return p->turn_limit == 0 ? 6 : 0;
    left = p->turn_limit - p->st.turn + 1;
    return left <= 4 ? (int)left - 1 : left <= 8 ? 4 : left <= 16 ? 5 : 6;
}

static int mirror_square(int sq)
{
    return square_at(SQ_COL[sq], BALL_NUM_ROWS + 1 - SQ_ROW[sq]);
}

int nnue_features(const ball_game *game, int persp, uint16_t *out)
{
    const pos *p = &game->p;
    int n = 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++) {
        int msq = persp == BALL_ATK ? sq : mirror_square(sq);
        n += square_features(persp, msq, sq, p->top[sq], p->low[sq], p->st.ball, out + n);
    }
    out[n++] = (uint16_t)(NNUE_F_ZONE + p->zone_depth - 1);
    out[n++] = (uint16_t)(NNUE_F_TURNS + turns_bucket(p));
    return n;
}

/* ---------------------------------------------------------------- loader */

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The header's shape fields, checked in order (docs/network-format.md). */
static int check_header(const unsigned char *p, size_t len, int *fset, int *h, int *h2,
                        char *err, size_t errlen)
{
    uint32_t arch = get32(p + 12), set = get32(p + 16), n = get32(p + 20);
    uint32_t uh = get32(p + 24), uh2 = get32(p + 28);
    (void)len;
    if (arch != NNUE_ARCH)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 12: unknown architecture %lu (format 2 has "
                          "architecture 2)", (unsigned long)arch);
    if (set != 1 && set != 2)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 16: unknown feature set %lu (this library knows 1 "
                          "and 2)", (unsigned long)set);
    if (n != (set == 1 ? NNUE_FEATURES : NNUE_FEATURES_2))
        return err_text(err, errlen, BALL_E_ARG, "net: byte 20: %lu features, feature set %lu has %d",
                          (unsigned long)n, (unsigned long)set, set == 1 ? NNUE_FEATURES : NNUE_FEATURES_2);
    if (uh < 64 || uh > NNUE_MAX_H || uh % 64 != 0)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 24: first layer of %lu a side, not a multiple "
                          "of 64 from 64 to %d", (unsigned long)uh, NNUE_MAX_H);
    if (uh2 < 1 || uh2 > NNUE_MAX_H2)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 28: hidden layer of %lu, out of range 1-%d",
                          (unsigned long)uh2, NNUE_MAX_H2);
    if (get32(p + 32) > 1)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 32: unknown base %lu (0 the network alone, 1 "
                          "added to the built-in evaluation)", (unsigned long)get32(p + 32));
    if (get32(p + 36) != 0)
        return err_text(err, errlen, BALL_E_ARG, "net: byte 36: reserved field %lu, must be 0",
                          (unsigned long)get32(p + 36));
    *fset = (int)set;
    *h = (int)uh;
    *h2 = (int)uh2;
    return BALL_OK;
}

/* Bytes of the weights of a net of @p nf features, @p h and @p h2 (the
 * file between the header and the checksum). */
static size_t weight_bytes(int nf, int h, int h2)
{
    return (size_t)nf * h * 2 + (size_t)h * 2 + (size_t)h2 * 2 * h + (size_t)h2 * 4 +
           (size_t)h2 * 2 + 4;
}

/* Copies little-endian 16- and 32-bit values into host order. */
static void copy16(int16_t *dst, const unsigned char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (int16_t)(uint16_t)(src[2 * i] | src[2 * i + 1] << 8);
}

static void copy32(int32_t *dst, const unsigned char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (int32_t)get32(src + 4 * i);
}

static void place_weights(struct nnue *nn, const unsigned char *w)
{
    size_t nf = (size_t)nn->nf * nn->h, nw2 = (size_t)nn->h2 * 2 * nn->h;
    unsigned char *d = nn->data;
    int16_t *ft = (int16_t *)d, *ftb = ft + nf;
    int32_t *b2 = (int32_t *)(d + ((2 * (nf + nn->h) + nw2 + 3) & ~(size_t)3));
    int8_t *w2 = (int8_t *)(ftb + nn->h);
    int16_t *wo = (int16_t *)(b2 + nn->h2);
    copy16(ft, w, nf + nn->h);
    memcpy(w2, w + 2 * (nf + nn->h), nw2);
    w += 2 * (nf + nn->h) + nw2;
    copy32(b2, w, (size_t)nn->h2);
    copy16(wo, w + 4 * nn->h2, (size_t)nn->h2);
    nn->bo = (int32_t)get32(w + 6 * nn->h2);
    nn->ft = ft, nn->ftb = ftb, nn->w2 = w2, nn->b2 = b2, nn->wo = wo;
}

/* A hidden layer's sum (|z| <= 2h * 127 * 128 < 2^24) plus a bias b
 * clamped to +-2^25 has the clipped output of the sum plus b, and stays in
 * int32: beyond 2^25 both give 127 (y > 2^24 > 127 * 64), below -2^25
 * both 0 (y < 0). */
static int32_t clamp_bias(int32_t b)
{
    _Static_assert(2 * NNUE_MAX_H * NNUE_QA * 128 < (1 << 24), "|z| < 2^24");
    return b > (1 << 25) ? (1 << 25) : b < -(1 << 25) ? -(1 << 25) : b;
}

/* Bytes of the vector loop's copy of the later layers (struct nnue). */
static size_t relaid_bytes(int h, int h2)
{
    size_t h2p = (size_t)(h2 + 15) & ~(size_t)15;
    return h2p * 2 * h + h2p * 8;
}

/* nn->w2v, b2c and wo32 from w2, b2 and wo, at @p d, a multiple of 32
 * bytes into nn->data (the loops load unaligned all the same: malloc()
 * aligns nn to 16 bytes only). */
static void relay_weights(struct nnue *nn, unsigned char *d)
{
    int h2p = (nn->h2 + 15) & ~15, groups = nn->h / 2;
    int8_t *w2v = (int8_t *)d;
    int32_t *b2c = (int32_t *)(d + (size_t)h2p * 2 * nn->h), *wo32 = b2c + h2p;
    for (int j = 0; j < h2p; j++) {
        for (int g = 0; g < groups; g++)
            for (int b = 0; b < 4; b++)
                w2v[((size_t)(j / 16) * groups + g) * 64 + (j % 16) * 4 + b] =
                    j < nn->h2 ? nn->w2[(size_t)j * 2 * nn->h + 4 * g + b] : 0;
        b2c[j] = j < nn->h2 ? clamp_bias(nn->b2[j]) : 0;
        wo32[j] = j < nn->h2 ? nn->wo[j] : 0;
    }
    nn->h2p = h2p, nn->w2v = w2v, nn->b2c = b2c, nn->wo32 = wo32;
}

/* nn->top2 and low2 from piece_feature(): every code (a type, the DEF
 * and DOWN bits; the byte's high bits ignored) in every role, from both
 * sides; code 0, no piece, the loose ball's feature (square_cols()).
 * nn->sq2 from mirror_square(). */
static void fill_base(struct nnue *nn)
{
    static const struct { int upper, lower, ball; } roles[ROLES] = {
        {0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}, {0, 1, 0}};
    for (int code = 0; code < 256; code++)
        for (int r = 0; r < ROLES; r++) {
            uint8_t c = (uint8_t)(code & 15);
            uint32_t f[2];
            for (int persp = 0; persp < 2; persp++)
                f[persp] = (uint32_t)(pc_type(c) == 0 ? NNUE_F_BALL :
                    piece_feature(persp, 0, c,
                                  nnue_piece_state(c, roles[r].upper, roles[r].lower, roles[r].ball)));
            if (r == ROLE_LOWER)
                nn->low2[code] = f[0] | f[1] << 16;
            else
                nn->top2[r][code] = f[0] | f[1] << 16;
        }
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        nn->sq2[sq] = (uint32_t)sq | (uint32_t)mirror_square(sq) << 16;
}

int nnue_load(struct nnue **out, const unsigned char *p, size_t len, char *err, size_t errlen)
{
    int set = 0, h = 0, h2 = 0, rc = check_header(p, len, &set, &h, &h2, err, errlen);
    int nf = set == 2 ? NNUE_FEATURES_2 : NNUE_FEATURES;
    size_t want;
    struct nnue *nn;
    if (rc != BALL_OK)
        return rc;
    want = NNUE_HEADER + weight_bytes(nf, h, h2) + 4;
    if (len < want)
        return err_text(err, errlen, BALL_E_ARG, "net: truncated: %zu bytes, the header's shapes need %zu",
                          len, want);
    if (len > want)
        return err_text(err, errlen, BALL_E_ARG, "net: byte %zu: %zu bytes after the checksum", want, len - want);
    nn = malloc(sizeof *nn + weight_bytes(nf, h, h2) + 8 + 32 + relaid_bytes(h, h2));
    if (nn == NULL)
        return BALL_E_NOMEM;
    nn->h = h;
    nn->h2 = h2;
    nn->set = set;
    nn->nf = nf;
    nn->residual = (int)get32(p + 32);
    fill_base(nn);
    nnue_rel_fill(&nn->rel);
#if NNUE_AVX2
    nn->avx2 = __builtin_cpu_supports("avx2");
#else
    nn->avx2 = 0;
#endif
    place_weights(nn, p + NNUE_HEADER);
    relay_weights(nn, nn->data + ((weight_bytes(nf, h, h2) + 8 + 31) & ~(size_t)31));
    *out = nn;
    return BALL_OK;
}

void nnue_free(struct nnue *nn)
{
    free(nn);
}

/* ---------------------------------------------------------------- first layer */

#if NNUE_AVX2
/* r[0..3] (ATK's side's 64 sums from column @p c) and r[4..7] (DEF's)
 * plus the columns of @p pair (@p negate 0), or minus them (1). */
__attribute__((target("avx2"))) static inline void add_pair(__m256i r[8], const int16_t *ft,
                                                            size_t h, size_t c, uint32_t pair,
                                                            int negate)
{
    const __m256i *c0 = (const __m256i *)(ft + (pair & 0xFFFF) * h + c);
    const __m256i *c1 = (const __m256i *)(ft + (pair >> 16) * h + c);
    for (int k = 0; k < 4; k++) {
        __m256i v0 = _mm256_loadu_si256(c0 + k), v1 = _mm256_loadu_si256(c1 + k);
        r[k] = negate ? _mm256_sub_epi16(r[k], v0) : _mm256_add_epi16(r[k], v0);
        r[4 + k] = negate ? _mm256_sub_epi16(r[4 + k], v1) : _mm256_add_epi16(r[4 + k], v1);
    }
}

/* out[s] = base[s] + the columns of add - those of sub, for both sides s
 * at once, 64 sums a side (eight registers) at a time: each pair of
 * columns is read once per 64 sums and the sums stay in registers (as
 * Stockfish's accumulator update does). */
__attribute__((target("avx2"))) static void accumulate_avx2(const struct nnue *nn,
                                                            int16_t *out0, int16_t *out1,
                                                            const int16_t *base0,
                                                            const int16_t *base1,
                                                            const struct delta *d)
{
    size_t h = (size_t)nn->h;
    for (size_t c = 0; c < h; c += 64) {
        __m256i r[8];
        for (int k = 0; k < 4; k++) {
            r[k] = _mm256_loadu_si256((const __m256i *)(base0 + c) + k);
            r[4 + k] = _mm256_loadu_si256((const __m256i *)(base1 + c) + k);
        }
        for (int i = 0; i < d->na; i++)
            add_pair(r, nn->ft, h, c, d->add[i], 0);
        for (int i = 0; i < d->ns; i++)
            add_pair(r, nn->ft, h, c, d->sub[i], 1);
        for (int k = 0; k < 4; k++) {
            _mm256_storeu_si256((__m256i *)(out0 + c) + k, r[k]);
            _mm256_storeu_si256((__m256i *)(out1 + c) + k, r[4 + k]);
        }
    }
}
#endif

/* out += the columns of side @p side (0 the low halves of @p cols, 1 the
 * high) of @p cols[0 .. n - 1] (@p negate 0), or -= them (@p negate 1),
 * in plain C: integer additions that wrap as the vector ones do (taking a
 * column is adding its two's complement), so the same bits. */
static void add_columns(const struct nnue *nn, int16_t *out, int side, const uint32_t *cols,
                        int n, int negate)
{
    for (int i = 0; i < n; i++) {
        const int16_t *col = nn->ft + (size_t)(cols[i] >> (16 * side) & 0xFFFF) * nn->h;
        for (int k = 0; k < nn->h; k++) {
            uint16_t c = (uint16_t)col[k];
            out[k] = (int16_t)(uint16_t)((uint16_t)out[k] + (uint16_t)(negate ? 0u - c : c));
        }
    }
}

/* The same sums as accumulate_avx2(), without AVX2. */
static void accumulate(const struct nnue *nn, int16_t *out0, int16_t *out1, const int16_t *base0,
                       const int16_t *base1, const struct delta *d)
{
#if NNUE_AVX2
    if (nn->avx2) {
        accumulate_avx2(nn, out0, out1, base0, base1, d);
        return;
    }
#endif
    for (int side = 0; side < 2; side++) {
        int16_t *out = side == 0 ? out0 : out1;
        const int16_t *base = side == 0 ? base0 : base1;
        if (out != base)
            memcpy(out, base, (size_t)nn->h * sizeof *out);
        add_columns(nn, out, side, d->add, d->na, 0);
        add_columns(nn, out, side, d->sub, d->ns, 1);
    }
}

/* The lists never fill (relative.h, NNUE_MAX_DELTA): a position has at
 * most NNUE_MAX_ACTIVE / 2 + 1 features a side of set 1 and
 * NNUE_MAX_ACTIVE_2 / 2 - 1 of set 2; an update takes each feature of the
 * old position out at most once and puts each of the new one's in at most
 * once (with the global ones each way); square_cols() writes two past the
 * end. */
_Static_assert(NNUE_MAX_DELTA >= 2 * (NNUE_MAX_ACTIVE / 2 + 1) + 4 + 2, "room for a whole change");
_Static_assert(NNUE_MAX_DELTA >= NNUE_MAX_ACTIVE_2 + 2, "room for a whole change of set 2");

/* Square @p sq's features (top @p top, lower @p low, the ball on
 * @p ball) seen from both sides, appended to @p list (@p n pairs so far):
 * one table look-up a piece (nn->base2, both sides' columns less the
 * square) plus the square from both sides (nn->sq2), without a branch.
 * The top piece's pair (the loose ball's on an empty square: code 0) and
 * the lower piece's are written at the list's end whether or not the
 * square has them, and counted only when it has: the list has room for
 * two more (NNUE_MAX_DELTA). */
static inline void square_cols(const struct nnue *nn, uint32_t *list, size_t *n, size_t sq,
                               uint8_t top, uint8_t low, size_t ball)
{
    size_t here = ball == sq, role = (size_t)(low != 0) * 2 + here;
    uint32_t at = nn->sq2[sq];
    _Static_assert(ROLE_ALONE == 0 && ROLE_ALONE_BALL == 1 && ROLE_UPPER == 2 &&
                   ROLE_UPPER_BALL == 3, "role = 2 * stacked + ball");
    list[*n] = nn->top2[role][top] + at;
    *n += (top != 0) | here;
    list[*n] = nn->low2[low] + at;
    *n += low != 0;
}

static void global_delta(struct delta *d, int zone, int turns, int sign)
{
    int *n = sign > 0 ? &d->na : &d->ns;
    uint32_t *list = sign > 0 ? d->add : d->sub;
    list[(*n)++] = (uint32_t)(NNUE_F_ZONE + zone) * 0x10001u;
    list[(*n)++] = (uint32_t)(NNUE_F_TURNS + turns) * 0x10001u;
}

/* @p a made afresh for @p p: the bias plus every feature. */
static void refresh(const struct nnue *nn, struct nnue_acc *a, const pos *p)
{
    struct delta d;
    size_t n = 0, ball = (size_t)p->st.ball;
    /* the pieces away from the ball (a top piece alone or upper, a lower
     * one), then the ball's square: the one with a role of its own */
    bb_t away = (p->piece[0] | p->piece[1]) & ~bb_bit(p->st.ball);
    for (size_t half = 0; half < 2; half++)
        for (uint64_t bits = (uint64_t)(away >> (64 * half)); bits != 0; bits &= bits - 1) {
            size_t sq = (size_t)BIT_SQUARE[64 * half + (size_t)__builtin_ctzll(bits)];
            uint8_t low = p->low[sq];
            uint32_t at = nn->sq2[sq];
            d.add[n++] = nn->top2[low != 0 ? ROLE_UPPER : ROLE_ALONE][p->top[sq]] + at;
            if (low != 0)
                d.add[n++] = nn->low2[low] + at;
        }
    square_cols(nn, d.add, &n, ball, p->top[ball], p->low[ball], ball);
    d.na = (int)n;
    d.ns = 0;
    a->zone = p->zone_depth - 1;
    a->turns = turns_bucket(p);
    global_delta(&d, a->zone, a->turns, 1);
    if (nn->set == 2)
        nnue_rel_refresh(&nn->rel, &d, p);
    accumulate(nn, a->acc[0], a->acc[1], nn->ftb, nn->ftb, &d);
}

/* The squares whose pieces differ between @p a's position and @p p, as
 * bits of m[0] (squares 0-63) and m[1] (64-110). */
#if NNUE_AVX2
/* Bit i of the 32 bytes from @p x and @p y: 1 where they differ. */
__attribute__((target("avx2"))) static inline uint32_t differ32(const uint8_t *x, const uint8_t *y)
{
    __m256i eq = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)x),
                                   _mm256_loadu_si256((const __m256i *)y));
    return ~(uint32_t)_mm256_movemask_epi8(eq);
}

/* 32 squares a compare; the last load starts at square 79 so that it
 * stays inside the 111-square arrays, and overlaps the one before. */
__attribute__((target("avx2"))) static void changed_squares_avx2(const struct nnue_acc *a,
                                                                 const pos *p, uint64_t m[2])
{
    _Static_assert(BALL_NUM_SQUARES == 111, "four 32-square compares cover the board");
    uint64_t c[4];
    static const int at[4] = {0, 32, 64, 79};
    for (int i = 0; i < 4; i++)
        c[i] = differ32(a->top + at[i], p->top + at[i]) | differ32(a->low + at[i], p->low + at[i]);
    m[0] = c[0] | c[1] << 32;
    m[1] = c[2] | c[3] << 15;
}
#endif

static void changed_squares(const struct nnue *nn, const struct nnue_acc *a, const pos *p,
                            uint64_t m[2])
{
#if NNUE_AVX2
    if (nn->avx2) {
        changed_squares_avx2(a, p, m);
        return;
    }
#endif
    (void)nn;
    m[0] = m[1] = 0;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        if (a->top[sq] != p->top[sq] || a->low[sq] != p->low[sq])
            m[sq >> 6] |= (uint64_t)1 << (sq & 63);
}

/* The squares that changed from @p a's position to @p p, and the ball's
 * old and new squares when it moved, as columns out and in; the squares
 * in @p m. */
static void changes(const struct nnue *nn, const struct nnue_acc *a, const pos *p, struct delta *d,
                    uint64_t m[2])
{
    int ball = p->st.ball;
    changed_squares(nn, a, p, m);
    if (ball != a->ball) {
        /* the ball is always on a square (R3.3), loose or held */
        m[a->ball >> 6] |= (uint64_t)1 << (a->ball & 63);
        m[ball >> 6] |= (uint64_t)1 << (ball & 63);
    }
    size_t na = 0, ns = 0;
    for (size_t half = 0; half < 2; half++)
        for (uint64_t bits = m[half]; bits != 0; bits &= bits - 1) {
            size_t sq = half * 64 + (size_t)__builtin_ctzll(bits);
            square_cols(nn, d->sub, &ns, sq, a->top[sq], a->low[sq], (size_t)a->ball);
            square_cols(nn, d->add, &na, sq, p->top[sq], p->low[sq], (size_t)ball);
        }
    d->na = (int)na, d->ns = (int)ns;
}

/* @p a brought from its last position to @p p. */
static void update(const struct nnue *nn, struct nnue_acc *a, const pos *p)
{
    struct delta d;
    int zone = p->zone_depth - 1, turns = turns_bucket(p), rel;
    uint64_t m[2];
    changes(nn, a, p, &d, m);
    /* set 2: the relative features too; a refresh would add the rel new
     * ones as well */
    rel = nn->set == 2 ? nnue_rel_update(&nn->rel, &d, a, p, m) : 0;
    if (d.na + d.ns > NNUE_REFRESH_OVER + rel) {
        /* most of the board changed (another game): summing afresh
         * adds fewer columns */
        refresh(nn, a, p);
        return;
    }
    if (zone != a->zone || turns != a->turns) {
        global_delta(&d, a->zone, a->turns, -1);
        global_delta(&d, zone, turns, 1);
        a->zone = zone;
        a->turns = turns;
    }
    accumulate(nn, a->acc[0], a->acc[1], a->acc[0], a->acc[1], &d);
}

/* ---------------------------------------------------------------- later layers */

static inline int clamp127(int v)
{
    return v < 0 ? 0 : v > NNUE_QA ? NNUE_QA : v;
}

#if NNUE_AVX2
/* The raw output from the accumulators (the coach @p side to act's
 * first), the AVX2 way, the same integers as finish()'s plain C: the sums
 * clipped to 0..127 as bytes; the hidden layer 16 outputs at a time from
 * 4 inputs at a time (their bytes broadcast, times the 16 outputs' 4
 * weights of nn->w2v, the products summed in pairs, at most 2 * 127 * 128:
 * no saturation, then in int32), so the sums come out in output order
 * with no horizontal sums; then clipped (with nn->b2c, in int32) and
 * times Wo: h2 products of at most 127 * 2^15 sum to less than 2^31
 * (NNUE_MAX_H2 <= 64); bo is added in 64 bits. */
__attribute__((target("avx2"))) static int64_t output_avx2(const struct nnue *nn,
                                                           const struct nnue_acc *a, int side)
{
    _Static_assert(NNUE_MAX_H2 * NNUE_QA * 32768LL < 2147483648LL, "the output sum fits an int32");
    _Alignas(32) uint8_t x[2 * NNUE_MAX_H];
    const __m256i zero = _mm256_setzero_si256(), top16 = _mm256_set1_epi16(NNUE_QA);
    const __m256i ones = _mm256_set1_epi16(1), top32 = _mm256_set1_epi32(NNUE_QA);
    int h = nn->h, groups = h / 2;
    __m256i total = zero;
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = a->acc[half == 0 ? side : side ^ 1];
        for (int k = 0; k < h; k += 32) {
            __m256i lo = _mm256_loadu_si256((const __m256i *)(acc + k));
            __m256i hi = _mm256_loadu_si256((const __m256i *)(acc + k + 16));
            lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), top16);
            hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), top16);
            /* packus interleaves the 128-bit lanes; the permute restores the order */
            __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
            _mm256_store_si256((__m256i *)(x + half * h + k), packed);
        }
    }
    for (int j = 0; j < nn->h2p; j += 16) {
        const int8_t *w = nn->w2v + (size_t)j * 2 * h;
        __m256i s0 = zero, s1 = zero;
        /* groups is a multiple of 32: eight groups a pass */
        for (int g = 0; g < groups; g += 8) {
            for (int u = 0; u < 8; u++) {
                int32_t four;
                const int8_t *wu = w + 64 * (g + u);
                memcpy(&four, x + 4 * (g + u), sizeof four);
                __m256i xv = _mm256_set1_epi32(four);
                __m256i p0 = _mm256_maddubs_epi16(xv, _mm256_loadu_si256((const __m256i *)wu));
                __m256i p1 = _mm256_maddubs_epi16(xv, _mm256_loadu_si256((const __m256i *)(wu + 32)));
                s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(p0, ones));
                s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(p1, ones));
            }
        }
        s0 = _mm256_add_epi32(s0, _mm256_loadu_si256((const __m256i *)(nn->b2c + j)));
        s1 = _mm256_add_epi32(s1, _mm256_loadu_si256((const __m256i *)(nn->b2c + j + 8)));
        s0 = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(s0, NNUE_QB_SHIFT), zero), top32);
        s1 = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(s1, NNUE_QB_SHIFT), zero), top32);
        total = _mm256_add_epi32(total, _mm256_mullo_epi32(s0, _mm256_loadu_si256((const __m256i *)(nn->wo32 + j))));
        total = _mm256_add_epi32(total, _mm256_mullo_epi32(s1, _mm256_loadu_si256((const __m256i *)(nn->wo32 + j + 8))));
    }
    __m128i t = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4E));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xB1));
    return (int64_t)nn->bo + _mm_cvtsi128_si32(t);
}
#endif

/* The hidden layer's sums before their bias, in plain C: the same
 * integers. */
static void hidden(const struct nnue *nn, const struct nnue_acc *a, int side, int32_t *z)
{
    uint8_t x[2 * NNUE_MAX_H];
    int h = nn->h;
    for (int k = 0; k < h; k++) {
        x[k] = (uint8_t)clamp127(a->acc[side][k]);
        x[h + k] = (uint8_t)clamp127(a->acc[side ^ 1][k]);
    }
    for (int j = 0; j < nn->h2; j++) {
        const int8_t *w = nn->w2 + (size_t)j * 2 * h;
        int32_t s = 0;
        for (int i = 0; i < 2 * h; i++)
            s += (int32_t)x[i] * w[i];
        z[j] = s;
    }
}

/* The raw output from the accumulators, for the coach @p side to act.
 * y and r in 64 bits: b2 or bo near the ends of int32 plus the sums
 * (|z| < 2^24, |r - bo| < 2^28) would overflow an int32 (found by
 * tests/fuzz/fuzz_net.c); exact, as the training's floats are. */
static int64_t finish(const struct nnue *nn, const struct nnue_acc *a, int side)
{
    int32_t z[NNUE_MAX_H2];
    int64_t out = nn->bo;
#if NNUE_AVX2
    if (nn->avx2)
        return output_avx2(nn, a, side);
#endif
    hidden(nn, a, side, z);
    for (int j = 0; j < nn->h2; j++) {
        int64_t y = (int64_t)nn->b2[j] + z[j], q = y >> NNUE_QB_SHIFT;
        out += (y <= 0 ? 0 : q > NNUE_QA ? NNUE_QA : q) * nn->wo[j];
    }
    return out;
}

/* ---------------------------------------------------------------- evaluation */

static void remember(struct nnue_acc *a, const struct nnue *nn, const pos *p)
{
    memcpy(a->top, p->top, sizeof a->top);
    memcpy(a->low, p->low, sizeof a->low);
    a->ball = p->st.ball;
    a->nn = nn;
}

int64_t nnue_evaluate(const struct nnue *nn, const ball_game *game)
{
    struct nnue_acc a;
    refresh(nn, &a, &game->p);
    return finish(nn, &a, game->p.st.side);
}

int64_t nnue_acc_evaluate(struct nnue_acc *a, const struct nnue *nn, const ball_game *game)
{
    const pos *p = &game->p;
    if (a->nn == nn)
        update(nn, a, p);
    else
        refresh(nn, a, p);
    remember(a, nn, p);
    return finish(nn, a, p->st.side);
}

double nnue_squash(int64_t raw)
{
    double o = (double)raw / (NNUE_QA * NNUE_QO);
    return o / (1.0 + (o < 0 ? -o : o));
}

int nnue_search_value(int64_t raw)
{
    /* |raw| < 2^32: the product fits, the quotient is an int */
    return (int)(raw * 1500 / (NNUE_QA * NNUE_QO));
}

int ball_net_features(const ball_game *game, int perspective, uint16_t *out, size_t cap)
{
    uint16_t f[NNUE_MAX_ACTIVE];
    int n;
    if (game == NULL || out == NULL || (perspective != BALL_ATK && perspective != BALL_DEF))
        return BALL_E_ARG;
    n = nnue_features(game, perspective, f);
    if ((size_t)n > cap)
        return BALL_E_BUFFER;
    memcpy(out, f, (size_t)n * sizeof *f);
    return n;
}

int nnue_set_simd(struct nnue *nn, int on)
{
    nn->avx2 = 0;
#if NNUE_AVX2
    if (on)
        nn->avx2 = __builtin_cpu_supports("avx2");
#else
    (void)on;
#endif
    return nn->avx2;
}

int nnue_residual(const struct nnue *nn)
{
    return nn->residual;
}
