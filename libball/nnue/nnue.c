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
#include "game.h"
#include "geometry.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(BALL_NO_CPU_DISPATCH)
#define NNUE_AVX2 1
#include <immintrin.h>
#else
#define NNUE_AVX2 0
#endif

#define NNUE_ARCH 2u
#define NNUE_FEATURE_SET 1u
#define NNUE_HEADER 40u

struct nnue {
    int h, h2;           /* first layer a side, hidden layer */
    int avx2;            /* 1: the AVX2 loops (chosen at load) */
    uint8_t mirror[BALL_NUM_SQUARES]; /* square -> its image across row 9 */
    const int16_t *ft;   /* [NNUE_FEATURES][h], feature-major */
    const int16_t *ftb;  /* [h] */
    const int8_t *w2;    /* [h2][2h], output-major: own side's h first */
    const int32_t *b2;   /* [h2] */
    const int16_t *wo;   /* [h2] */
    int32_t bo;
    _Alignas(32) unsigned char data[]; /* the weights above */
};

/* ---------------------------------------------------------------- features */

/* The state of a piece (nnue.h): @p upper 1 for a stack's upper piece,
 * @p lower 1 for its lower one. */
static int piece_state(uint8_t code, int upper, int lower, int has_ball)
{
    if (lower)
        return pc_down(code) ? 6 : 5;
    if (upper)
        return has_ball ? 4 : 3;
    if (pc_down(code))
        return 2;
    return has_ball ? 1 : 0;
}

static int piece_feature(int persp, int msq, uint8_t code, int state)
{
    int owner = pc_team(code) != persp;
    return ((owner * 3 + pc_type(code) - 1) * 7 + state) * BALL_NUM_SQUARES + msq;
}

/* The features of square @p sq (top @p top, lower @p low, the ball on
 * @p ball) seen from @p persp, its image being @p msq: at most 2. */
static int square_features(int persp, int msq, int sq, uint8_t top, uint8_t low, int ball,
                           uint16_t *out)
{
    int n = 0;
    if (top != 0)
        out[n++] = (uint16_t)piece_feature(persp, msq, top, piece_state(top, low != 0, 0, ball == sq));
    else if (ball == sq)
        out[n++] = (uint16_t)(NNUE_F_BALL + msq);
    if (low != 0)
        out[n++] = (uint16_t)piece_feature(persp, msq, low, piece_state(low, 0, 1, 0));
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
static int check_header(const unsigned char *p, size_t len, int *h, int *h2, char *err,
                        size_t errlen)
{
    uint32_t arch = get32(p + 12), set = get32(p + 16), n = get32(p + 20);
    uint32_t uh = get32(p + 24), uh2 = get32(p + 28);
    (void)len;
    if (arch != NNUE_ARCH)
        return net_refuse(err, errlen, "byte 12: unknown architecture %lu (format 2 has "
                          "architecture 2)", (unsigned long)arch);
    if (set != NNUE_FEATURE_SET)
        return net_refuse(err, errlen, "byte 16: unknown feature set %lu (this library knows 1)",
                          (unsigned long)set);
    if (n != NNUE_FEATURES)
        return net_refuse(err, errlen, "byte 20: %lu features, feature set 1 has %d",
                          (unsigned long)n, NNUE_FEATURES);
    if (uh < 16 || uh > NNUE_MAX_H || uh % 16 != 0)
        return net_refuse(err, errlen, "byte 24: first layer of %lu a side, not a multiple "
                          "of 16 from 16 to %d", (unsigned long)uh, NNUE_MAX_H);
    if (uh2 < 1 || uh2 > NNUE_MAX_H2)
        return net_refuse(err, errlen, "byte 28: hidden layer of %lu, out of range 1-%d",
                          (unsigned long)uh2, NNUE_MAX_H2);
    if (get32(p + 32) != 0 || get32(p + 36) != 0)
        return net_refuse(err, errlen, "byte %d: reserved field %lu, must be 0",
                          get32(p + 32) != 0 ? 32 : 36,
                          (unsigned long)get32(p + (get32(p + 32) != 0 ? 32 : 36)));
    *h = (int)uh;
    *h2 = (int)uh2;
    return BALL_OK;
}

/* Bytes of the weights of a net of @p h and @p h2 (the file between the
 * header and the checksum). */
static size_t weight_bytes(int h, int h2)
{
    return (size_t)NNUE_FEATURES * h * 2 + (size_t)h * 2 + (size_t)h2 * 2 * h + (size_t)h2 * 4 +
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
    size_t nf = (size_t)NNUE_FEATURES * nn->h, nw2 = (size_t)nn->h2 * 2 * nn->h;
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

int nnue_load(struct nnue **out, const unsigned char *p, size_t len, char *err, size_t errlen)
{
    int h = 0, h2 = 0, rc = check_header(p, len, &h, &h2, err, errlen);
    size_t want;
    struct nnue *nn;
    if (rc != BALL_OK)
        return rc;
    want = NNUE_HEADER + weight_bytes(h, h2) + 4;
    if (len < want)
        return net_refuse(err, errlen, "truncated: %zu bytes, the header's shapes need %zu",
                          len, want);
    if (len > want)
        return net_refuse(err, errlen, "byte %zu: %zu bytes after the checksum", want, len - want);
    nn = malloc(sizeof *nn + weight_bytes(h, h2) + 8);
    if (nn == NULL)
        return BALL_E_NOMEM;
    nn->h = h;
    nn->h2 = h2;
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        nn->mirror[sq] = (uint8_t)mirror_square(sq);
#if NNUE_AVX2
    nn->avx2 = __builtin_cpu_supports("avx2");
#else
    nn->avx2 = 0;
#endif
    place_weights(nn, p + NNUE_HEADER);
    *out = nn;
    return BALL_OK;
}

void nnue_free(struct nnue *nn)
{
    free(nn);
}

/* ---------------------------------------------------------------- first layer */

/* Wrapping int16 addition (the vector instructions wrap too). */
static inline int16_t wrap_add(int16_t a, int d)
{
    return (int16_t)(uint16_t)((uint16_t)a + (uint16_t)d);
}

#if NNUE_AVX2
__attribute__((target("avx2"))) static void column_avx2(int16_t *acc, const int16_t *col, int h,
                                                        int sign)
{
    for (int k = 0; k < h; k += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(acc + k));
        __m256i c = _mm256_loadu_si256((const __m256i *)(col + k));
        a = sign > 0 ? _mm256_add_epi16(a, c) : _mm256_sub_epi16(a, c);
        _mm256_storeu_si256((__m256i *)(acc + k), a);
    }
}
#endif

/* acc += (@p sign 1) or -= (-1) the column of feature @p f. */
static inline void column(const struct nnue *nn, int16_t *acc, int f, int sign)
{
    const int16_t *col = nn->ft + (size_t)f * nn->h;
#if NNUE_AVX2
    if (nn->avx2) {
        column_avx2(acc, col, nn->h, sign);
        return;
    }
#endif
    for (int k = 0; k < nn->h; k++)
        acc[k] = wrap_add(acc[k], sign * col[k]);
}

/* The square features of @p sq for both sides, added with @p sign. */
static void square_columns(const struct nnue *nn, struct nnue_acc *a, int sq, uint8_t top,
                           uint8_t low, int ball, int sign)
{
    uint16_t f[2];
    for (int persp = 0; persp < 2; persp++) {
        int msq = persp == BALL_ATK ? sq : nn->mirror[sq];
        int n = square_features(persp, msq, sq, top, low, ball, f);
        for (int i = 0; i < n; i++)
            column(nn, a->acc[persp], f[i], sign);
    }
}

/* The zone and turns features of both sides, added with @p sign. */
static void global_columns(const struct nnue *nn, struct nnue_acc *a, int zone, int turns, int sign)
{
    for (int persp = 0; persp < 2; persp++) {
        column(nn, a->acc[persp], NNUE_F_ZONE + zone, sign);
        column(nn, a->acc[persp], NNUE_F_TURNS + turns, sign);
    }
}

/* @p a made afresh for @p p. */
static void refresh(const struct nnue *nn, struct nnue_acc *a, const pos *p)
{
    for (int persp = 0; persp < 2; persp++)
        memcpy(a->acc[persp], nn->ftb, (size_t)nn->h * sizeof(int16_t));
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        if (p->top[sq] != 0 || p->low[sq] != 0 || sq == p->st.ball)
            square_columns(nn, a, sq, p->top[sq], p->low[sq], p->st.ball, 1);
    a->zone = p->zone_depth - 1;
    a->turns = turns_bucket(p);
    global_columns(nn, a, a->zone, a->turns, 1);
}

/* A square's old contents out of @p a, its new ones in. */
static void update_square(const struct nnue *nn, struct nnue_acc *a, const pos *p, int sq)
{
    square_columns(nn, a, sq, a->top[sq], a->low[sq], a->ball, -1);
    square_columns(nn, a, sq, p->top[sq], p->low[sq], p->st.ball, 1);
}

/* 1 when the 8 squares from @p sq hold the same pieces in @p a and @p p
 * (fewer than 8 at the end of the board). */
static int same_eight(const struct nnue_acc *a, const pos *p, int sq)
{
    uint64_t t0 = 0, t1 = 0, l0 = 0, l1 = 0;
    size_t n = BALL_NUM_SQUARES - sq < 8 ? (size_t)(BALL_NUM_SQUARES - sq) : 8;
    memcpy(&t0, a->top + sq, n);
    memcpy(&t1, p->top + sq, n);
    memcpy(&l0, a->low + sq, n);
    memcpy(&l1, p->low + sq, n);
    return ((t0 ^ t1) | (l0 ^ l1)) == 0;
}

/* @p a brought from its last position to @p p: the squares whose pieces
 * changed, and the ball's old and new squares when it moved. */
static void update(const struct nnue *nn, struct nnue_acc *a, const pos *p)
{
    int ball = p->st.ball, zone = p->zone_depth - 1, turns = turns_bucket(p);
    int moved = ball != a->ball;
    for (int base = 0; base < BALL_NUM_SQUARES; base += 8) {
        if (same_eight(a, p, base) &&
            !(moved && ((a->ball >= base && a->ball < base + 8) || (ball >= base && ball < base + 8))))
            continue;
        for (int sq = base; sq < base + 8 && sq < BALL_NUM_SQUARES; sq++)
            if (a->top[sq] != p->top[sq] || a->low[sq] != p->low[sq] ||
                (moved && (sq == a->ball || sq == ball)))
                update_square(nn, a, p, sq);
    }
    if (zone != a->zone || turns != a->turns) {
        global_columns(nn, a, a->zone, a->turns, -1);
        global_columns(nn, a, zone, turns, 1);
        a->zone = zone;
        a->turns = turns;
    }
}

/* ---------------------------------------------------------------- later layers */

static inline int clamp127(int v)
{
    return v < 0 ? 0 : v > NNUE_QA ? NNUE_QA : v;
}

/* The hidden layer's input: the coach to act's sums then the other's,
 * clipped to 0..127. */
static void clip_inputs(const struct nnue *nn, const struct nnue_acc *a, int side, uint8_t *x)
{
    for (int k = 0; k < nn->h; k++) {
        x[k] = (uint8_t)clamp127(a->acc[side][k]);
        x[nn->h + k] = (uint8_t)clamp127(a->acc[side ^ 1][k]);
    }
}

#if NNUE_AVX2
__attribute__((target("avx2"))) static int32_t dot_avx2(const uint8_t *x, const int8_t *w, int n)
{
    __m256i sum = _mm256_setzero_si256(), ones = _mm256_set1_epi16(1);
    for (int i = 0; i < n; i += 32) {
        __m256i xv = _mm256_loadu_si256((const __m256i *)(x + i));
        __m256i wv = _mm256_loadu_si256((const __m256i *)(w + i));
        /* pairs of products: at most 2 * 127 * 128, no saturation */
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, wv), ones));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}
#endif

/* x . w over @p n (a multiple of 32) in int32. */
static int32_t dot8(const struct nnue *nn, const uint8_t *x, const int8_t *w, int n)
{
    int32_t s = 0;
#if NNUE_AVX2
    if (nn->avx2)
        return dot_avx2(x, w, n);
#else
    (void)nn;
#endif
    for (int i = 0; i < n; i++)
        s += (int32_t)x[i] * w[i];
    return s;
}

/* The raw output from the accumulators, for the coach @p side to act. */
static int finish(const struct nnue *nn, const struct nnue_acc *a, int side)
{
    _Alignas(32) uint8_t x[2 * NNUE_MAX_H];
    int32_t out = nn->bo;
    clip_inputs(nn, a, side, x);
    for (int j = 0; j < nn->h2; j++) {
        int32_t y = nn->b2[j] + dot8(nn, x, nn->w2 + (size_t)j * 2 * nn->h, 2 * nn->h);
        out += (y <= 0 ? 0 : clamp127(y >> NNUE_QB_SHIFT)) * nn->wo[j];
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

int nnue_evaluate(const struct nnue *nn, const ball_game *game)
{
    struct nnue_acc a;
    refresh(nn, &a, &game->p);
    return finish(nn, &a, game->p.st.side);
}

int nnue_acc_evaluate(struct nnue_acc *a, const struct nnue *nn, const ball_game *game)
{
    const pos *p = &game->p;
    if (a->nn == nn)
        update(nn, a, p);
    else
        refresh(nn, a, p);
    remember(a, nn, p);
    return finish(nn, a, p->st.side);
}

double nnue_squash(int raw)
{
    double o = (double)raw / (NNUE_QA * NNUE_QO);
    return o / (1.0 + (o < 0 ? -o : o));
}

int nnue_search_value(int raw)
{
    return (int)((int64_t)raw * 1500 / (NNUE_QA * NNUE_QO));
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
