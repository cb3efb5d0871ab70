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
    uint8_t mirror[BALL_NUM_SQUARES]; /* square -> its image across row 9 */
    /* the feature of a piece code as ROLE_*, seen from each side, less its
     * square: piece_feature() looked up (square_delta()) */
    uint16_t base[2][16][ROLES];
    const int16_t *ft;   /* [nf][h], feature-major */
    const int16_t *ftb;  /* [h] */
    const int8_t *w2;    /* [h2][2h], output-major: own side's h first */
    const int32_t *b2;   /* [h2] */
    const int16_t *wo;   /* [h2] */
    int32_t bo;
    _Alignas(32) unsigned char data[]; /* the weights above */
};

/* ---------------------------------------------------------------- features */

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

/* nn->base from piece_feature(): every code (a type, the DEF and DOWN
 * bits) in every role, from both sides. */
static void fill_base(struct nnue *nn)
{
    static const struct { int upper, lower, ball; } roles[ROLES] = {
        {0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}, {0, 1, 0}};
    for (int persp = 0; persp < 2; persp++)
        for (int code = 0; code < 16; code++)
            for (int r = 0; r < ROLES; r++)
                nn->base[persp][code][r] = (uint16_t)(pc_type((uint8_t)code) == 0 ? 0 :
                    piece_feature(persp, 0, (uint8_t)code,
                                  nnue_piece_state((uint8_t)code, roles[r].upper, roles[r].lower,
                                              roles[r].ball)));
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
    nn = malloc(sizeof *nn + weight_bytes(nf, h, h2) + 8);
    if (nn == NULL)
        return BALL_E_NOMEM;
    nn->h = h;
    nn->h2 = h2;
    nn->set = set;
    nn->nf = nf;
    nn->residual = (int)get32(p + 32);
    for (int sq = 0; sq < BALL_NUM_SQUARES; sq++)
        nn->mirror[sq] = (uint8_t)mirror_square(sq);
    fill_base(nn);
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

#if NNUE_AVX2
/* out = base + the columns of add - those of sub, 64 sums (four
 * registers) at a time: each column is read once per 64 sums and the sums
 * stay in registers (as Stockfish's accumulator update does). */
__attribute__((target("avx2"))) static void accumulate_avx2(const struct nnue *nn, int16_t *out,
                                                            const int16_t *base,
                                                            const struct delta *d)
{
    for (int c = 0; c < nn->h; c += 64) {
        __m256i r0 = _mm256_loadu_si256((const __m256i *)(base + c));
        __m256i r1 = _mm256_loadu_si256((const __m256i *)(base + c + 16));
        __m256i r2 = _mm256_loadu_si256((const __m256i *)(base + c + 32));
        __m256i r3 = _mm256_loadu_si256((const __m256i *)(base + c + 48));
        for (int i = 0; i < d->na; i++) {
            const __m256i *col = (const __m256i *)(nn->ft + (size_t)d->add[i] * nn->h + c);
            r0 = _mm256_add_epi16(r0, _mm256_loadu_si256(col));
            r1 = _mm256_add_epi16(r1, _mm256_loadu_si256(col + 1));
            r2 = _mm256_add_epi16(r2, _mm256_loadu_si256(col + 2));
            r3 = _mm256_add_epi16(r3, _mm256_loadu_si256(col + 3));
        }
        for (int i = 0; i < d->ns; i++) {
            const __m256i *col = (const __m256i *)(nn->ft + (size_t)d->sub[i] * nn->h + c);
            r0 = _mm256_sub_epi16(r0, _mm256_loadu_si256(col));
            r1 = _mm256_sub_epi16(r1, _mm256_loadu_si256(col + 1));
            r2 = _mm256_sub_epi16(r2, _mm256_loadu_si256(col + 2));
            r3 = _mm256_sub_epi16(r3, _mm256_loadu_si256(col + 3));
        }
        _mm256_storeu_si256((__m256i *)(out + c), r0);
        _mm256_storeu_si256((__m256i *)(out + c + 16), r1);
        _mm256_storeu_si256((__m256i *)(out + c + 32), r2);
        _mm256_storeu_si256((__m256i *)(out + c + 48), r3);
    }
}
#endif

/* out += the columns @p cols[0 .. n - 1] (@p negate 0), or -= them
 * (@p negate 1), in plain C: integer additions that wrap as the vector
 * ones do (taking a column is adding its two's complement), so the same
 * bits. */
static void add_columns(const struct nnue *nn, int16_t *out, const uint16_t *cols, int n, int negate)
{
    for (int i = 0; i < n; i++) {
        const int16_t *col = nn->ft + (size_t)cols[i] * nn->h;
        for (int k = 0; k < nn->h; k++) {
            uint16_t c = (uint16_t)col[k];
            out[k] = (int16_t)(uint16_t)((uint16_t)out[k] + (uint16_t)(negate ? 0u - c : c));
        }
    }
}

/* The same sums as accumulate_avx2(), without AVX2. */
static void accumulate(const struct nnue *nn, int16_t *out, const int16_t *base,
                       const struct delta *d)
{
#if NNUE_AVX2
    if (nn->avx2) {
        accumulate_avx2(nn, out, base, d);
        return;
    }
#endif
    if (out != base)
        memcpy(out, base, (size_t)nn->h * sizeof *out);
    add_columns(nn, out, d->add, d->na, 0);
    add_columns(nn, out, d->sub, d->ns, 1);
}

/* The lists never fill: an update takes each feature of the old position
 * out at most once and puts each of the new one in at most once. */
_Static_assert(NNUE_MAX_DELTA >= NNUE_MAX_ACTIVE_2, "room for a whole change");

/* Square @p sq's features (top @p top, lower @p low, the ball on @p ball)
 * for both sides, onto the add (@p sign 1) or sub lists of @p d. */
static void square_delta(const struct nnue *nn, struct delta *d, int sq, uint8_t top, uint8_t low,
                        int ball, int sign)
{
    int role = low != 0 ? (ball == sq ? ROLE_UPPER_BALL : ROLE_UPPER)
                        : (ball == sq ? ROLE_ALONE_BALL : ROLE_ALONE);
    for (int persp = 0; persp < 2; persp++) {
        int msq = persp == BALL_ATK ? sq : nn->mirror[sq];
        int *n = sign > 0 ? &d[persp].na : &d[persp].ns;
        uint16_t *list = sign > 0 ? d[persp].add : d[persp].sub;
        if (top != 0)
            list[(*n)++] = (uint16_t)(nn->base[persp][top & 15][role] + msq);
        else if (ball == sq)
            list[(*n)++] = (uint16_t)(NNUE_F_BALL + msq);
        if (low != 0)
            list[(*n)++] = (uint16_t)(nn->base[persp][low & 15][ROLE_LOWER] + msq);
    }
}

static void global_delta(struct delta *d, int zone, int turns, int sign)
{
    for (int persp = 0; persp < 2; persp++) {
        int *n = sign > 0 ? &d[persp].na : &d[persp].ns;
        uint16_t *list = sign > 0 ? d[persp].add : d[persp].sub;
        list[(*n)++] = (uint16_t)(NNUE_F_ZONE + zone);
        list[(*n)++] = (uint16_t)(NNUE_F_TURNS + turns);
    }
}

/* @p a made afresh for @p p: the bias plus every feature. */
static void refresh(const struct nnue *nn, struct nnue_acc *a, const pos *p)
{
    struct delta d[2];
    int sq;
    bb_t occupied = p->piece[0] | p->piece[1] | bb_bit(p->st.ball);
    d[0].na = d[0].ns = d[1].na = d[1].ns = 0;
    for (BB_EACH(sq, occupied))
        square_delta(nn, d, sq, p->top[sq], p->low[sq], p->st.ball, 1);
    a->zone = p->zone_depth - 1;
    a->turns = turns_bucket(p);
    global_delta(d, a->zone, a->turns, 1);
    if (nn->set == 2)
        nnue_rel_refresh(d, p);
    accumulate(nn, a->acc[0], nn->ftb, &d[0]);
    accumulate(nn, a->acc[1], nn->ftb, &d[1]);
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
    d[0].na = d[0].ns = d[1].na = d[1].ns = 0;
    for (int half = 0; half < 2; half++)
        for (uint64_t bits = m[half]; bits != 0; bits &= bits - 1) {
            int sq = half * 64 + __builtin_ctzll(bits);
            square_delta(nn, d, sq, a->top[sq], a->low[sq], a->ball, -1);
            square_delta(nn, d, sq, p->top[sq], p->low[sq], ball, 1);
        }
}

/* @p a brought from its last position to @p p. */
static void update(const struct nnue *nn, struct nnue_acc *a, const pos *p)
{
    struct delta d[2];
    int zone = p->zone_depth - 1, turns = turns_bucket(p), rel;
    uint64_t m[2];
    changes(nn, a, p, d, m);
    /* set 2: the relative features too; a refresh would add the rel new
     * ones as well */
    rel = nn->set == 2 ? nnue_rel_update(d, a, p, m) : 0;
    if (d[0].na + d[0].ns > NNUE_REFRESH_OVER + rel) {
        /* most of the board changed (another game): summing afresh
         * adds fewer columns */
        refresh(nn, a, p);
        return;
    }
    if (zone != a->zone || turns != a->turns) {
        global_delta(d, a->zone, a->turns, -1);
        global_delta(d, zone, turns, 1);
        a->zone = zone;
        a->turns = turns;
    }
    accumulate(nn, a->acc[0], a->acc[0], &d[0]);
    accumulate(nn, a->acc[1], a->acc[1], &d[1]);
}

/* ---------------------------------------------------------------- later layers */

static inline int clamp127(int v)
{
    return v < 0 ? 0 : v > NNUE_QA ? NNUE_QA : v;
}

#if NNUE_AVX2
/* The hidden layer's outputs @p z from the accumulators (the coach to
 * act's first): the sums clipped to 0..127 as bytes, then each output's
 * byte products summed in pairs (at most 2 * 127 * 128: no saturation)
 * and in int32. */
__attribute__((target("avx2"))) static void hidden_avx2(const struct nnue *nn,
                                                        const struct nnue_acc *a, int side,
                                                        int32_t *z)
{
    _Alignas(32) uint8_t x[2 * NNUE_MAX_H];
    const __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16(NNUE_QA);
    const __m256i ones = _mm256_set1_epi16(1);
    int h = nn->h, n = 2 * h;
    for (int half = 0; half < 2; half++) {
        const int16_t *acc = a->acc[half == 0 ? side : side ^ 1];
        for (int k = 0; k < h; k += 32) {
            __m256i lo = _mm256_loadu_si256((const __m256i *)(acc + k));
            __m256i hi = _mm256_loadu_si256((const __m256i *)(acc + k + 16));
            lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), top);
            hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), top);
            /* packus interleaves the 128-bit lanes; the permute restores the order */
            __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
            _mm256_store_si256((__m256i *)(x + half * h + k), packed);
        }
    }
    /* four outputs at a time, sharing each load of x; h2 need not be a
     * multiple of 4 (the last group repeats its last row, unused) */
    for (int j = 0; j < nn->h2; j += 4) {
        const int8_t *w0 = nn->w2 + (size_t)j * n;
        const int8_t *w1 = nn->w2 + (size_t)(j + 1 < nn->h2 ? j + 1 : j) * n;
        const int8_t *w2 = nn->w2 + (size_t)(j + 2 < nn->h2 ? j + 2 : j) * n;
        const int8_t *w3 = nn->w2 + (size_t)(j + 3 < nn->h2 ? j + 3 : j) * n;
        __m256i sum[4] = {zero, zero, zero, zero};
        for (int i = 0; i < n; i += 32) {
            __m256i xv = _mm256_load_si256((const __m256i *)(x + i));
#define NNUE_MAC(q, wq)                                                                            \
    sum[q] = _mm256_add_epi32(                                                                     \
        sum[q], _mm256_madd_epi16(                                                                 \
                    _mm256_maddubs_epi16(xv, _mm256_loadu_si256((const __m256i *)((wq) + i))), ones))
            NNUE_MAC(0, w0);
            NNUE_MAC(1, w1);
            NNUE_MAC(2, w2);
            NNUE_MAC(3, w3);
#undef NNUE_MAC
        }
        /* the four horizontal sums at once */
        __m256i s01 = _mm256_hadd_epi32(sum[0], sum[1]), s23 = _mm256_hadd_epi32(sum[2], sum[3]);
        __m256i s = _mm256_hadd_epi32(s01, s23);
        __m128i t = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        _Alignas(16) int32_t four[4];
        _mm_store_si128((__m128i *)four, t);
        for (int q = 0; q < 4 && j + q < nn->h2; q++)
            z[j + q] = four[q];
    }
}
#endif

/* The hidden layer's sums before their bias, in plain C: the same
 * integers. */
static void hidden(const struct nnue *nn, const struct nnue_acc *a, int side, int32_t *z)
{
    uint8_t x[2 * NNUE_MAX_H];
    int h = nn->h;
#if NNUE_AVX2
    if (nn->avx2) {
        hidden_avx2(nn, a, side, z);
        return;
    }
#endif
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
