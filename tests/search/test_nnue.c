/* Network format 2 (docs/network-format.md, "Format 2"; ball.h,
 * experimental: ball_net_features(), ball_net_load(), ball_net_evaluate(),
 * the turn search with ball_net_search_eval).
 *
 * The features are checked by hand against the text of feature set 1 on
 * positions whose pieces are named square by square (R2.2, R3, R7.1);
 * the nets are written by this test (its own writer, its own CRC) with
 * seeded random integers, and the expected values come from this file's
 * own integer forward pass over ball_net_features(), never from
 * libball/nnue/nnue.c. The library's incremental accumulators
 * (nnue_acc_evaluate(), the search's path) must equal a full evaluation
 * at every position of random games walked forward and back, and the
 * check must catch a dropped update; the AVX2 and baseline loops must
 * give the same values; every header field out of range is refused with
 * its byte.
 *
 * Feature set 2 (set 1 plus each piece within 4 columns and 3 rows of the
 * ball by its offset from it): the same checks with a set-2 net, whose
 * expected values take the relative features from this file's own
 * reading of the text (rel_reference(), from ball_net_features()' list
 * and the squares' columns and rows), and hand-computed features of named
 * positions; the incremental check counts the ball moving among pieces,
 * pieces entering and leaving the window, loose balls and stacks, so that
 * a dropped relative update is met. */
#define BALL_EXPERIMENTAL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "../crc32.h"
#include "../../libball/nnue/nnue.h"

#define FEATURES 4783
#define FEATURES_2 7429 /* set 2: 4783 + 42 kinds * 63 offsets */
#define H 64
#define H2 13 /* not a multiple of 16: the AVX2 loop pads the hidden layer with rows of zeros */
#define OPEN_CARRIER "7/6/7/6/7/6/7/6/3x3/6/7/6/3X*3/6/7/6/7 ATK a 1 - 0/0 5"
/* DEF's square piece blocking ATK's knocked-down X on F8; the loose
 * ball on E9 (R7.1, R7.2). */
#define STACK_LOOSE "7/6/7/6/7/6/7/6/2@4/2[sX_]3/7/6/7/6/7/6/7 ATK a 2 - 0/0 3"
/* ATK's carrier on G5; DEF's x on K7 (dc 4, dr 2) and o on D2 (dc -3,
 * dr -3) at the window's edges, its o on L6 (dc 5) just outside. */
#define WINDOW_EDGES "7/6/7/6/7/6/7/6/7/6/5x1/5o/3X*3/6/7/1o4/7 ATK a 2 - 0/0 3"

/* ---- the test's own writer and forward pass --------------------------- */

typedef struct {
    int set, nf; /* the feature set, its features */
    int16_t ft[FEATURES_2][H], ftb[H];
    int8_t w2[H2][2 * H];
    int32_t b2[H2];
    int16_t wo[H2];
    int32_t bo;
} tnet;

static unsigned char *put(unsigned char *p, uint64_t v, int bytes)
{
    for (int b = 0; b < bytes; b++)
        *p++ = (unsigned char)(v >> (8 * b));
    return p;
}

static int rnd(uint64_t *st, int lo, int hi)
{
    return lo + (int)(tu_random(st) % (uint64_t)(hi - lo + 1));
}

/* A net of feature set @p set with weights drawn from @p seed. */
static tnet *tnet_random_set(uint64_t seed, int set)
{
    tnet *t = malloc(sizeof *t);
    uint64_t st = seed;
    ck_assert_ptr_nonnull(t);
    t->set = set;
    t->nf = set == 2 ? FEATURES_2 : FEATURES;
    for (int f = 0; f < t->nf; f++)
        for (int k = 0; k < H; k++)
            t->ft[f][k] = (int16_t)rnd(&st, -40, 40);
    for (int k = 0; k < H; k++)
        t->ftb[k] = (int16_t)rnd(&st, 0, 80);
    for (int j = 0; j < H2; j++) {
        for (int i = 0; i < 2 * H; i++)
            t->w2[j][i] = (int8_t)rnd(&st, -128, 127);
        t->b2[j] = rnd(&st, -3000, 3000);
        t->wo[j] = (int16_t)rnd(&st, -2000, 2000);
    }
    t->bo = rnd(&st, -100000, 100000);
    return t;
}

static tnet *tnet_random(uint64_t seed)
{
    return tnet_random_set(seed, 1);
}

/* The file of @p t (docs/network-format.md); its length in @p len. */
static unsigned char *tnet_file(const tnet *t, size_t *len)
{
    size_t n = 40 + (size_t)t->nf * H * 2 + H * 2 + H2 * 2 * H + H2 * 4 + H2 * 2 + 4 + 4;
    unsigned char *f = malloc(n), *p = f;
    ck_assert_ptr_nonnull(f);
    memcpy(p, "BALLNET\0", 8);
    p += 8;
    const uint32_t head[8] = {2, 2, (uint32_t)t->set, (uint32_t)t->nf, H, H2, 0, 0};
    for (int i = 0; i < 8; i++)
        p = put(p, head[i], 4);
    for (int fe = 0; fe < t->nf; fe++)
        for (int k = 0; k < H; k++)
            p = put(p, (uint16_t)t->ft[fe][k], 2);
    for (int k = 0; k < H; k++)
        p = put(p, (uint16_t)t->ftb[k], 2);
    for (int j = 0; j < H2; j++)
        for (int i = 0; i < 2 * H; i++)
            *p++ = (unsigned char)t->w2[j][i];
    for (int j = 0; j < H2; j++)
        p = put(p, (uint32_t)t->b2[j], 4);
    for (int j = 0; j < H2; j++)
        p = put(p, (uint16_t)t->wo[j], 2);
    p = put(p, (uint32_t)t->bo, 4);
    p = put(p, test_crc32(f, (size_t)(p - f)), 4);
    ck_assert_uint_eq((size_t)(p - f), n);
    *len = n;
    return f;
}

static void reseal(unsigned char *f, size_t len)
{
    put(f + len - 4, test_crc32(f, len - 4), 4);
}

static int clamp127(int v)
{
    return v < 0 ? 0 : v > 127 ? 127 : v;
}

/* Feature set 2's relative features, by the text: from set 1's list @p f
 * of @p n features (one perspective's, its squares already mirrored), the
 * ball's square (a piece in state 1 or 4, or the loose ball), then each
 * piece within |dc| <= 4, |dr| <= 3 of it (the squares' columns and rows,
 * ball_square_col() and ball_square_row()); appended to @p f, the new
 * number returned. */
static int ball_of(const uint16_t *f, int n)
{
    int ball = -1;
    for (int i = 0; i < n; i++) {
        if (f[i] < 4662 && (f[i] / 111 % 7 == 1 || f[i] / 111 % 7 == 4))
            ball = f[i] % 111;
        else if (f[i] >= 4662 && f[i] < 4773)
            ball = f[i] - 4662;
    }
    ck_assert_int_ge(ball, 0);
    return ball;
}

static int rel_reference(uint16_t *f, int n)
{
    int ball = ball_of(f, n), m = n;
    for (int i = 0; i < n; i++) {
        int square = f[i] % 111, dc, dr;
        if (f[i] >= 4662)
            continue;
        dc = ball_square_col(square) - ball_square_col(ball);
        dr = ball_square_row(square) - ball_square_row(ball);
        if (dc >= -4 && dc <= 4 && dr >= -3 && dr <= 3)
            f[m++] = (uint16_t)(4783 + f[i] / 111 * 63 + (dr + 3) * 9 + dc + 4);
    }
    return m;
}

/* The features of @p g seen from @p persp of feature set @p set. */
static int features_of(ball_game *g, int persp, int set, uint16_t *f)
{
    int n = ball_net_features(g, persp, f, BALL_NET_MAX_ACTIVE);
    ck_assert_int_gt(n, 0);
    return set == 2 ? rel_reference(f, n) : n;
}

/* The network's value by the text of docs/network-format.md. */
static double reference(const tnet *t, ball_game *g)
{
    int side = ball_side(g), x[2 * H];
    long raw = t->bo;
    for (int half = 0; half < 2; half++) {
        uint16_t f[2 * BALL_NET_MAX_ACTIVE];
        int n = features_of(g, half == 0 ? side : side ^ 1, t->set, f);
        for (int k = 0; k < H; k++) {
            int s = t->ftb[k];
            for (int i = 0; i < n; i++)
                s += t->ft[f[i]][k];
            x[half * H + k] = clamp127((int16_t)s);
        }
    }
    for (int j = 0; j < H2; j++) {
        long y = t->b2[j];
        for (int i = 0; i < 2 * H; i++)
            y += (long)x[i] * t->w2[j][i];
        raw += (long)(y <= 0 ? 0 : clamp127((int)(y / 64))) * t->wo[j];
    }
    double o = (double)raw / (127 * 1024);
    return o / (1.0 + (o < 0 ? -o : o));
}

static int sq(const char *name)
{
    return ball_square_at(name[0] - 'A' + 1, atoi(name + 1));
}

/* Feature set 1: a piece's index. */
static int piece_f(int owner, int type, int state, int square)
{
    return ((owner * 3 + type - 1) * 7 + state) * 111 + square;
}

static int has(const uint16_t *f, int n, int want)
{
    for (int i = 0; i < n; i++)
        if (f[i] == want)
            return 1;
    return 0;
}

/* ---- the tests ---------------------------------------------------------- */

START_TEST(test_features_by_hand)
{
    ball_game *g = NULL;
    uint16_t f[BALL_NET_MAX_ACTIVE];
    int n;
    /* the start (R2.2): 14 pieces, no loose ball, zone 1, no turn limit */
    ck_assert_int_eq(ball_game_new(&g, NULL, NULL, 0), BALL_OK);
    n = ball_net_features(g, BALL_ATK, f, BALL_NET_MAX_ACTIVE);
    ck_assert_int_eq(n, 16);
    ck_assert(has(f, n, piece_f(0, BALL_X, 1, sq("G5"))));          /* own X5 with the ball */
    ck_assert(has(f, n, piece_f(0, BALL_SQUARE, 0, sq("G3"))));     /* own square piece 7 */
    ck_assert(has(f, n, piece_f(1, BALL_X, 0, sq("G13"))));          /* DEF's X5, seen by ATK */
    ck_assert(has(f, n, 4773) && has(f, n, 4782));                   /* zone 1, no limit */
    n = ball_net_features(g, BALL_DEF, f, BALL_NET_MAX_ACTIVE);
    ck_assert_int_eq(n, 16);
    /* DEF sees the board mirrored (row r -> 18 - r): ATK's carrier on G5
     * is the opponent's X with the ball on G13 */
    ck_assert(has(f, n, piece_f(1, BALL_X, 1, sq("G13"))));
    ck_assert(has(f, n, piece_f(0, BALL_X, 0, sq("G5"))));          /* its own X5 (G13) */
    ck_assert_int_eq(ball_net_features(g, 2, f, BALL_NET_MAX_ACTIVE), BALL_E_ARG);
    ck_assert_int_eq(ball_net_features(g, BALL_ATK, f, 15), BALL_E_BUFFER);
    ck_assert_int_eq(ball_net_features(NULL, BALL_ATK, f, 32), BALL_E_ARG);
    ck_assert_int_eq(ball_net_features(g, BALL_ATK, NULL, 32), BALL_E_ARG);
    ball_game_free(g);
    /* a stack and a loose ball (R7.1, R7.2, R3.1); turn 3 of a limit of 4:
     * 2 turns left, bucket 1 */
    g = tu_game_rules(STACK_LOOSE, 1, 4);
    n = ball_net_features(g, BALL_ATK, f, BALL_NET_MAX_ACTIVE);
    ck_assert_int_eq(n, 5);
    ck_assert(has(f, n, piece_f(1, BALL_SQUARE, 3, sq("F8"))));    /* their upper piece */
    ck_assert(has(f, n, piece_f(0, BALL_X, 6, sq("F8"))));         /* own lower, down */
    ck_assert(has(f, n, 4662 + sq("E9")) && has(f, n, 4773) && has(f, n, 4777));
    n = ball_net_features(g, BALL_DEF, f, BALL_NET_MAX_ACTIVE);
    ck_assert_int_eq(n, 5);
    ck_assert(has(f, n, piece_f(0, BALL_SQUARE, 3, sq("F10"))));
    ck_assert(has(f, n, piece_f(1, BALL_X, 6, sq("F10"))));
    ck_assert(has(f, n, 4662 + sq("E9")));
    ball_game_free(g);
    /* the position after the last turn (R11.2: turn L + 1, drawn): no
     * turn left, bucket 0 */
    g = tu_game_rules(OPEN_CARRIER, 1, 4);
    n = ball_net_features(g, BALL_ATK, f, BALL_NET_MAX_ACTIVE);
    ck_assert(has(f, n, 4776));
    ball_game_free(g);
    /* end zone depth 2: the zone feature moves */
    g = tu_game_rules(OPEN_CARRIER, 2, 0);
    n = ball_net_features(g, BALL_ATK, f, BALL_NET_MAX_ACTIVE);
    ck_assert(has(f, n, 4774) && !has(f, n, 4773) && has(f, n, 4782));
    ball_game_free(g);
}
END_TEST

/* Feature set 2's relative features of named positions, by hand from
 * the text (4783 + kind * 63 + (dr + 3) * 9 + dc + 4, kind = (owner * 3
 * + type - 1) * 7 + state; DEF's rows mirrored): the library's
 * (nnue_rel_features()) and this file's reference's. */
START_TEST(test_relative_features_by_hand)
{
    static const struct {
        const char *bpn;
        int persp, n;
        int want[4];
    } cases[] = {
        /* own carrier X at (0, 0): kind 1, offset 31; DEF's x on G9 (dr 4) is outside */
        {OPEN_CARRIER, BALL_ATK, 1, {4783 + 1 * 63 + 31}},
        /* from DEF: the opponent's carrier, kind (3 + 0) * 7 + 1 = 22 */
        {OPEN_CARRIER, BALL_DEF, 1, {4783 + 22 * 63 + 31}},
        /* the loose ball on E9; the stack on F8 (dc 1, dr -1, offset 23):
         * their upper square piece (kind (3 + 2) * 7 + 3 = 38), own lower
         * X down (kind 6) */
        {STACK_LOOSE, BALL_ATK, 2, {4783 + 38 * 63 + 23, 4783 + 6 * 63 + 23}},
        /* from DEF, dr 1 (offset 41): own upper (kind 17), their lower X (27) */
        {STACK_LOOSE, BALL_DEF, 2, {4783 + 17 * 63 + 41, 4783 + 27 * 63 + 41}},
        /* the carrier (kind 1, offset 31), x on K7 (kind 21, offset 5 * 9
         * + 8 = 53), o on D2 (kind 28, offset 0 * 9 + 1 = 1); L6 none */
        {WINDOW_EDGES, BALL_ATK, 3, {4783 + 1 * 63 + 31, 4783 + 21 * 63 + 53, 4783 + 28 * 63 + 1}},
        /* from DEF: the carrier kind 22; own x kind 0 at dr -2 (offset 17),
         * own o kind 7 at dr 3 (offset 55) */
        {WINDOW_EDGES, BALL_DEF, 3, {4783 + 22 * 63 + 31, 4783 + 0 * 63 + 17, 4783 + 7 * 63 + 55}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ball_game *g = tu_game(cases[c].bpn);
        uint16_t lib[NNUE_MAX_ACTIVE], ref[2 * BALL_NET_MAX_ACTIVE];
        int n = nnue_rel_features(g, cases[c].persp, lib);
        int n1 = ball_net_features(g, cases[c].persp, ref, BALL_NET_MAX_ACTIVE);
        int nr = features_of(g, cases[c].persp, 2, ref) - n1;
        ck_assert_msg(n == cases[c].n, "case %zu: %d features", c, n);
        ck_assert_int_eq(nr, cases[c].n);
        for (int i = 0; i < cases[c].n; i++) {
            ck_assert_msg(has(lib, n, cases[c].want[i]), "case %zu: the library lacks %d", c,
                          cases[c].want[i]);
            ck_assert_msg(has(ref + n1, nr, cases[c].want[i]), "case %zu: the reference lacks %d",
                          c, cases[c].want[i]);
        }
        ball_game_free(g);
    }
}
END_TEST

/* Positions of seeded random games, the first decision of each turn. */
#define N_POS 60
static ball_game *positions[N_POS];

static void make_positions(void)
{
    uint64_t st = 11;
    ball_game *g = tu_game_rules(NULL, 1, 60);
    int n = 0, side = -1;
    while (n < N_POS) {
        ball_action a;
        if (ball_result(g) != BALL_ONGOING) {
            ball_game_free(g);
            g = tu_game_rules(NULL, 1 + n % 3, 60);
            side = -1;
        }
        if (ball_side(g) != side)
            ck_assert_int_eq(ball_game_clone(&positions[n++], g), BALL_OK);
        side = ball_side(g);
        ck_assert_int_eq(ball_random_action(g, tu_random(&st), &a), BALL_OK);
        ck_assert_int_eq(ball_apply(g, a), BALL_OK);
    }
    ball_game_free(g);
}

static void free_positions(void)
{
    for (int i = 0; i < N_POS; i++)
        ball_game_free(positions[i]);
}

START_TEST(test_against_reference)
{
    size_t len;
    tnet *t = tnet_random_set(5, 1 + _i);
    unsigned char *f = tnet_file(t, &len);
    ball_net *net = tu_net_load_ok(f, len);
    static const char *const named[] = {OPEN_CARRIER, STACK_LOOSE, WINDOW_EDGES};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        ball_game *g = tu_game(named[i]);
        double v = 2.0;
        ck_assert_int_eq(ball_net_evaluate(net, g, &v), BALL_OK);
        ck_assert_msg(v == reference(t, g), "%s: %.17g, the text %.17g", named[i], v,
                      reference(t, g));
        ball_game_free(g);
    }
    make_positions();
    for (int i = 0; i < N_POS; i++) {
        double v = 2.0;
        ck_assert_int_eq(ball_net_evaluate(net, positions[i], &v), BALL_OK);
        ck_assert_msg(v == reference(t, positions[i]), "position %d: %.17g, the text %.17g", i,
                      v, reference(t, positions[i]));
        ck_assert(v > -1.0 && v < 1.0);
    }
    free_positions();
    ball_net_free(net);
    free(f);
    free(t);
}
END_TEST

/* The accumulators of a search thread, updated from the previous
 * position, against a full evaluation at every position of random games
 * played forward and undone (as the search walks them), in both the AVX2
 * and the baseline loops; and the same check finds a dropped update. */
/* What the walk of test_incremental_equals_full() met, between one
 * evaluation and the next, by ATK's relative features (set 2). */
struct walk_seen {
    int ball;    /* the last position's ball square; -1 none yet */
    int n;       /* its relative features */
    uint16_t f[2 * BALL_NET_MAX_ACTIVE];
    long ball_moved_near, window_changed, loose_near, stack_near;
};

static void walk_note(struct walk_seen *w, ball_game *g)
{
    uint16_t f[2 * BALL_NET_MAX_ACTIVE];
    int n1 = ball_net_features(g, BALL_ATK, f, BALL_NET_MAX_ACTIVE);
    int n = features_of(g, BALL_ATK, 2, f) - n1, ball = ball_of(f, n1), loose = 0, same = 1;
    for (int i = 0; i < n1; i++)
        loose |= f[i] >= 4662 && f[i] < 4773;
    /* the relative features, after set 1's */
    memmove(f, f + n1, (size_t)n * sizeof *f);
    if (w->ball >= 0 && ball != w->ball && n >= 2 && w->n >= 2)
        w->ball_moved_near++;
    if (w->ball >= 0 && ball == w->ball) {
        same = n == w->n;
        for (int i = 0; same && i < n; i++)
            same = has(w->f, w->n, f[i]);
        w->window_changed += !same;
    }
    for (int i = 0; i < n; i++)
        w->stack_near += (f[i] - 4783) / 63 % 7 >= 3;
    w->loose_near += loose && n >= 1;
    w->ball = ball;
    w->n = n;
    memcpy(w->f, f, (size_t)n * sizeof *f);
}

START_TEST(test_incremental_equals_full)
{
    size_t len;
    tnet *t = tnet_random_set(9, 1 + _i);
    unsigned char *f = tnet_file(t, &len);
    struct nnue *nn = NULL;
    char err[200];
    ck_assert_int_eq(nnue_load(&nn, f, len, err, sizeof err), BALL_OK);
    for (int simd = 0; simd < 2; simd++) {
        struct nnue_acc *acc = malloc(sizeof *acc);
        uint64_t st = 3;
        long compared = 0;
        struct walk_seen seen = {.ball = -1};
        nnue_set_simd(nn, simd);
        nnue_acc_reset(acc);
        for (int game = 0; game < 6; game++) {
            ball_game *g = tu_game_rules(NULL, 1 + game % 3, 40);
            while (ball_result(g) == BALL_ONGOING) {
                ball_action a;
                ck_assert_int_eq(nnue_acc_evaluate(acc, nn, g), nnue_evaluate(nn, g));
                compared++;
                walk_note(&seen, g);
                ck_assert_int_eq(ball_random_action(g, tu_random(&st), &a), BALL_OK);
                ck_assert_int_eq(ball_apply(g, a), BALL_OK);
                if (tu_random(&st) % 5 == 0 && ball_history_length(g) > 3) {
                    ck_assert_int_eq(ball_undo(g), BALL_OK);
                    ck_assert_int_eq(ball_undo(g), BALL_OK);
                }
            }
            ball_game_free(g);
        }
        ck_assert_int_gt(compared, 500);
        /* the walk met what set 2's update must follow: the ball moving
         * among pieces (every relative feature changes), pieces entering
         * or leaving the window while the ball stays, a loose ball and a
         * stack near it */
        ck_assert_msg(seen.ball_moved_near > 10 && seen.window_changed > 50 &&
                          seen.loose_near > 5 && seen.stack_near > 5,
                      "moved %ld, window %ld, loose %ld, stack %ld", seen.ball_moved_near,
                      seen.window_changed, seen.loose_near, seen.stack_near);
        {
            /* the same pieces under another end zone depth (a searcher
             * used for games of two rulesets): only the zone changes */
            ball_game *g1 = tu_game_rules(OPEN_CARRIER, 1, 0), *g2 = tu_game_rules(OPEN_CARRIER, 2, 0);
            ck_assert_int_eq(nnue_acc_evaluate(acc, nn, g1), nnue_evaluate(nn, g1));
            ck_assert_int_eq(nnue_acc_evaluate(acc, nn, g2), nnue_evaluate(nn, g2));
            ball_game_free(g1);
            ball_game_free(g2);
        }
        free(acc);
    }
    {
        /* a dropped update: the accumulators told a position they never
         * saw; the next evaluation then differs from the full one */
        struct nnue_acc *acc = malloc(sizeof *acc);
        ball_game *g = tu_game_rules(NULL, 1, 0), *h;
        nnue_acc_reset(acc);
        nnue_acc_evaluate(acc, nn, g);
        ck_assert_int_eq(ball_game_clone(&h, g), BALL_OK);
        tu_apply(h, "G13-F12");
        tu_apply(g, "G13-F12");
        (void)h; /* the control: an update that is made */
        ck_assert_int_eq(nnue_acc_evaluate(acc, nn, g), nnue_evaluate(nn, g));
        tu_apply(g, "F12-E13");
        {
            /* drop: record g's squares without updating the sums */
            struct nnue_acc stale = *acc;
            nnue_acc_evaluate(&stale, nn, g);
            memcpy(acc->top, stale.top, sizeof acc->top);
            memcpy(acc->low, stale.low, sizeof acc->low);
            acc->ball = stale.ball;
        }
        ck_assert_int_ne(nnue_acc_evaluate(acc, nn, g), nnue_evaluate(nn, g));
        ball_game_free(g);
        ball_game_free(h);
        free(acc);
    }
    nnue_free(nn);
    free(f);
    free(t);
}
END_TEST

/* Every position: the AVX2 loops (where the CPU has them) and the
 * baseline give the same raw output. */
START_TEST(test_same_in_every_build)
{
    size_t len;
    tnet *t = tnet_random_set(13, 1 + _i);
    unsigned char *f = tnet_file(t, &len);
    struct nnue *nn = NULL;
    char err[200];
    ck_assert_int_eq(nnue_load(&nn, f, len, err, sizeof err), BALL_OK);
    make_positions();
    for (int i = 0; i < N_POS; i++) {
        int64_t simd, base;
        nnue_set_simd(nn, 1);
        simd = nnue_evaluate(nn, positions[i]);
        nnue_set_simd(nn, 0);
        base = nnue_evaluate(nn, positions[i]);
        ck_assert_int_eq(simd, base);
    }
    free_positions();
    nnue_free(nn);
    free(f);
    free(t);
}
END_TEST

START_TEST(test_refusals)
{
    size_t len;
    int set = 1 + _i;
    tnet *t = tnet_random_set(17, set);
    unsigned char *f = tnet_file(t, &len), *c = malloc(len + 8);
    static const struct {
        int set; /* the file's feature set it applies to; 0 both */
        int offset;
        uint32_t value;
        const char *want;
    } fields[] = {
        {0, 8, 3, "byte 8: format version 3"},
        {0, 12, 1, "byte 12: unknown architecture 1"},
        {0, 16, 3, "byte 16: unknown feature set 3 (this library knows 1 and 2)"},
        {0, 16, 0, "byte 16: unknown feature set 0"},
        {0, 20, 4782, "byte 20: 4782 features"},
        {0, 20, 7430, "byte 20: 7430 features"},
        /* a pair of a set and the other set's count */
        {1, 16, 2, "byte 20: 4783 features, feature set 2 has 7429"},
        {1, 20, 7429, "byte 20: 7429 features, feature set 1 has 4783"},
        {2, 16, 1, "byte 20: 7429 features, feature set 1 has 4783"},
        {2, 20, 4783, "byte 20: 4783 features, feature set 2 has 7429"},
        {0, 24, 32, "byte 24: first layer of 32"},
        {0, 24, 96, "byte 24: first layer of 96"},
        {0, 24, 1024, "byte 24: first layer of 1024"},
        {0, 28, 0, "byte 28: hidden layer of 0"},
        {0, 28, 65, "byte 28: hidden layer of 65"},
        {0, 32, 2, "byte 32: unknown base 2"},
        {0, 36, 7, "byte 36: reserved field 7"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (fields[i].set != 0 && fields[i].set != set)
            continue;
        memcpy(c, f, len);
        put(c + fields[i].offset, fields[i].value, 4);
        reseal(c, len);
        tu_net_refused(c, len, fields[i].want);
    }
    tu_net_refused(f, len - 1, "truncated");
    tu_net_refused(f, 60, "truncated");
    memcpy(c, f, len);
    c[len] = 0;
    put(c + len - 4, 0, 4);
    reseal(c, len + 1);
    tu_net_refused(c, len + 1, "bytes after the checksum");
    memcpy(c, f, len);
    c[1000] ^= 1;
    tu_net_refused(c, len, "checksum");
    free(c);
    free(f);
    free(t);
}
END_TEST

/* The turn search with a format-2 net (the whole evaluation, then with
 * base 1 a correction of the built-in one): a legal decision, the same
 * one twice (the accumulators are per thread and start afresh with a
 * net); ball_search_evaluate() is the built-in value plus the net's. */
START_TEST(test_search_uses_net)
{
    size_t len;
    tnet *t = tnet_random_set(21, 1 + (_i >> 1));
    unsigned char *f = tnet_file(t, &len);
    int residual = _i & 1;
    if (residual) {
        put(f + 32, 1, 4);
        reseal(f, len);
    }
    ball_net *net = tu_net_load_ok(f, len);
    ball_action first = BALL_ACTION_NONE;
    for (int run = 0; run < 2; run++) {
        ball_search *s = NULL;
        ball_search_config cfg;
        ball_search_result r;
        ball_game *g = tu_game(OPEN_CARRIER);
        char err[200];
        ball_search_config_init(&cfg, sizeof cfg);
        cfg.nodes = 3000;
        cfg.hash_mb = 1;
        ck_assert_int_eq(ball_search_new(&s, &cfg, err, sizeof err), BALL_OK);
        ck_assert_int_eq(ball_search_set_eval(s, ball_net_search_eval, net), BALL_OK);
        ball_search_result_init(&r, sizeof r);
        ck_assert_int_eq(ball_search_run(s, g, &r), BALL_OK);
        ck_assert_int_eq(ball_is_legal(g, r.best), 1);
        if (run == 0)
            first = r.best;
        ck_assert_uint_eq(r.best, first);
        {
            double v = 0, w = 0, hand = 0;
            ball_search *plain = NULL;
            ball_search_config hand_cfg = cfg;
            hand_cfg.eval = BALL_EVAL_HAND;
            ck_assert_int_eq(ball_search_new(&plain, &hand_cfg, err, sizeof err), BALL_OK);
            ck_assert_int_eq(ball_search_evaluate(plain, g, &hand), BALL_OK);
            ck_assert_int_eq(ball_search_evaluate(s, g, &v), BALL_OK);
            ck_assert_int_eq(ball_net_evaluate(net, g, &w), BALL_OK);
            if (residual) {
                /* on the search's scale (v / (|v| + 1500)): the sum */
                double ho = hand / (1 - (hand < 0 ? -hand : hand)), wo = w / (1 - (w < 0 ? -w : w));
                double sum = (ho + wo) / (1 + (ho + wo < 0 ? -(ho + wo) : ho + wo));
                ck_assert_msg(v - sum < 2e-3 && sum - v < 2e-3, "%g against %g + %g", v, hand, w);
            } else {
                /* the same network on the search's scale: within its rounding */
                ck_assert_msg(v - w < 1e-3 && w - v < 1e-3, "%g against %g", v, w);
            }
            ck_assert_int_eq(ball_search_evaluate(NULL, g, &v), BALL_E_ARG);
            ck_assert_int_eq(ball_search_evaluate(s, NULL, &v), BALL_E_ARG);
            ck_assert_int_eq(ball_search_evaluate(s, g, NULL), BALL_E_ARG);
            ball_search_free(plain);
        }
        ball_search_free(s);
        ball_game_free(g);
    }
    ball_net_free(net);
    free(f);
    free(t);
}
END_TEST

/* ball_search_evaluate() of a finished game: 0 for a draw (R11.2: the
 * position after the last turn), +1 or -1 for the coach to act by who
 * scored (R11.1). */
START_TEST(test_evaluate_finished)
{
    ball_search *s = NULL;
    ball_search_config cfg;
    char err[200];
    double v = 5;
    ball_game *g = tu_game_rules(OPEN_CARRIER, 1, 4); /* turn 5 of 4: drawn */
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.nodes = 100;
    cfg.hash_mb = 1;
    ck_assert_int_eq(ball_search_new(&s, &cfg, err, sizeof err), BALL_OK);
    ck_assert_int_eq(ball_result(g), BALL_DRAW);
    ck_assert_int_eq(ball_search_evaluate(s, g, &v), BALL_OK);
    ck_assert(v == 0.0);
    ball_game_free(g);
    /* ATK's carrier on L16 steps into row 17 (R1.4, R11.1): ATK won */
    g = tu_game("7/5X*/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2");
    tu_apply(g, "L16-M17");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_search_evaluate(s, g, &v), BALL_OK);
    ck_assert(v == (ball_side(g) == BALL_ATK ? 1.0 : -1.0));
    ball_game_free(g);
    /* a finished position given as such (N1): ATK's carrier on K17, DEF
     * to act, so the coach to act has lost */
    g = tu_game("5X*1/6/7/6/7/6/7/6/7/6/7/6/7/6/7/6/x6 DEF a 2 - 0/0 3");
    ck_assert_int_eq(ball_result(g), BALL_ATK_WON);
    ck_assert_int_eq(ball_search_evaluate(s, g, &v), BALL_OK);
    ck_assert(v == -1.0);
    ball_game_free(g);
    ball_search_free(s);
}
END_TEST

/* The value a fresh searcher with @p net gives @p g as a leaf
 * (ball_search_evaluate()). */
static double searcher_value(ball_net *net, ball_game *g)
{
    ball_search *s = NULL;
    ball_search_config cfg;
    char err[200];
    double v = 2.0;
    ball_search_config_init(&cfg, sizeof cfg);
    cfg.hash_mb = 1;
    ck_assert_int_eq(ball_search_new(&s, &cfg, err, sizeof err), BALL_OK);
    ck_assert_int_eq(ball_search_set_eval(s, ball_net_search_eval, net), BALL_OK);
    ck_assert_int_eq(ball_search_evaluate(s, g, &v), BALL_OK);
    ball_search_free(s);
    return v;
}

/* A network whose output is beyond the search's range of evaluations
 * (EVAL_MAX, 20000, docs/players.md) is clamped there, as the search's
 * leaves are: v / (|v| + 1500) of +-20000. */
START_TEST(test_evaluate_clamped)
{
    size_t len;
    tnet *t = tnet_random(25);
    ball_game *g = tu_game(OPEN_CARRIER);
    for (int sign = -1; sign <= 1; sign += 2) {
        double v;
        unsigned char *f;
        ball_net *net;
        memset(t->wo, 0, sizeof t->wo);
        t->bo = sign * 1000000000; /* o = 1e9 / (127 * 1024): 11.5 million on the search's scale */
        f = tnet_file(t, &len);
        net = tu_net_load_ok(f, len);
        v = searcher_value(net, g);
        ck_assert_msg(v == sign * 20000.0 / 21500.0, "%.17g", v);
        ball_net_free(net);
        free(f);
    }
    ball_game_free(g);
    free(t);
}
END_TEST

/* Biases at the ends of int32 plus the layers' sums, beyond int32 (the
 * hidden sums at their largest, 2H * 127 * 127, and every output unit
 * but one at 127 times an extreme Wo, the one's bias at INT32_MIN): the
 * value is the text's exact one (reference() sums in 64 bits), of the
 * sign of bo, not wrapped around;
 * the search clamps it to +-EVAL_MAX. Found by tests/fuzz/fuzz_net.c
 * (UBSan: signed overflow in the library's int32 sums). */
START_TEST(test_extreme_biases)
{
    size_t len;
    tnet *t = tnet_random(31);
    ball_game *g = tu_game(OPEN_CARRIER);
    memset(t->ft, 0, sizeof t->ft);
    for (int k = 0; k < H; k++)
        t->ftb[k] = 127;
    for (int sign = -1; sign <= 1; sign += 2) {
        double v = 2.0;
        for (int j = 0; j < H2; j++) {
            for (int i = 0; i < 2 * H; i++)
                t->w2[j][i] = 127;
            t->b2[j] = j == 0 ? INT32_MIN : INT32_MAX; /* one unit at 0 */
            t->wo[j] = sign > 0 ? INT16_MAX : INT16_MIN;
        }
        t->bo = sign > 0 ? INT32_MAX : INT32_MIN;
        unsigned char *f = tnet_file(t, &len);
        ball_net *net = tu_net_load_ok(f, len);
        ck_assert_int_eq(ball_net_evaluate(net, g, &v), BALL_OK);
        ck_assert_msg(v == reference(t, g), "%.17g, the text %.17g", v, reference(t, g));
        ck_assert(sign * v > 0.99 && sign * v < 1.0);
        v = searcher_value(net, g);
        ck_assert_msg(v == sign * 20000.0 / 21500.0, "%.17g", v);
        ball_net_free(net);
        free(f);
    }
    ball_game_free(g);
    free(t);
}
END_TEST

/* The residual network @p net on the search's scale over the hand-written
 * value @p hand: what a searcher with it gives (test_search_uses_net). */
static double residual_sum(double hand, double w)
{
    double ho = hand / (1 - (hand < 0 ? -hand : hand)), wo = w / (1 - (w < 0 ? -w : w));
    return (ho + wo) / (1 + (ho + wo < 0 ? -(ho + wo) : ho + wo));
}

/* A searcher made with the defaults evaluates with the network of
 * share/net/nnue.net (BALL_EVAL_NETWORK, ball.h): on named positions its
 * value is the hand-written one corrected by that file's network (a
 * residual net), read here from the file and loaded as any other;
 * ball_search_set_eval(NULL) goes back to it, BALL_EVAL_HAND gives the
 * hand-written value, and an eval out of range is refused. */
START_TEST(test_default_network)
{
    static const char *const named[] = {OPEN_CARRIER, STACK_LOOSE, WINDOW_EDGES};
    FILE *f = fopen("share/net/nnue.net", "rb");
    static unsigned char data[2 << 20];
    size_t len;
    ball_net *file_net;
    ball_search *dflt = NULL, *hand = NULL, *bad = NULL;
    ball_search_config cfg;
    char err[200];
    int differ = 0;
    ck_assert_msg(f != NULL, "share/net/nnue.net: run the test from the repository");
    len = fread(data, 1, sizeof data, f);
    fclose(f);
    ck_assert_uint_gt(len, 900000);
    file_net = tu_net_load_ok(data, len);
    ball_search_config_init(&cfg, sizeof cfg);
    ck_assert_int_eq(cfg.eval, BALL_EVAL_NETWORK);
    cfg.hash_mb = 1;
    ck_assert_int_eq(ball_search_new(&dflt, &cfg, err, sizeof err), BALL_OK);
    cfg.eval = BALL_EVAL_HAND;
    ck_assert_int_eq(ball_search_new(&hand, &cfg, err, sizeof err), BALL_OK);
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        ball_game *g = tu_game(named[i]);
        double v = 0, h = 0, w = 0, again = 0;
        ck_assert_int_eq(ball_search_evaluate(dflt, g, &v), BALL_OK);
        ck_assert_int_eq(ball_search_evaluate(hand, g, &h), BALL_OK);
        ck_assert_int_eq(ball_net_evaluate(file_net, g, &w), BALL_OK);
        ck_assert_msg(v - residual_sum(h, w) < 2e-3 && residual_sum(h, w) - v < 2e-3,
                      "%s: %g against %g + %g", named[i], v, h, w);
        differ += v != h;
        /* a caller's evaluation, then back to the network */
        ck_assert_int_eq(ball_search_set_eval(dflt, ball_net_search_eval, file_net), BALL_OK);
        ck_assert_int_eq(ball_search_set_eval(dflt, NULL, NULL), BALL_OK);
        ck_assert_int_eq(ball_search_evaluate(dflt, g, &again), BALL_OK);
        ck_assert_msg(again == v, "%s: %.17g after set_eval(NULL), %.17g before", named[i], again, v);
        ck_assert_int_eq(ball_search_set_eval(hand, NULL, NULL), BALL_OK);
        ck_assert_int_eq(ball_search_evaluate(hand, g, &again), BALL_OK);
        ck_assert_msg(again == h, "%s: the hand searcher changed", named[i]);
        ball_game_free(g);
    }
    ck_assert_int_gt(differ, 0);
    for (int e = -1; e <= 2; e += 3) {
        cfg.eval = e;
        ck_assert_int_eq(ball_search_new(&bad, &cfg, err, sizeof err), BALL_E_ARG);
        ck_assert_ptr_null(bad);
        ck_assert_msg(strstr(err, "eval") != NULL, "%s", err);
    }
    ball_search_free(dflt);
    ball_search_free(hand);
    ball_net_free(file_net);
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("nnue");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_features_by_hand);
    tcase_add_test(tc, test_relative_features_by_hand);
    /* the loops: feature set 1 + _i */
    tcase_add_loop_test(tc, test_against_reference, 0, 2);
    tcase_add_loop_test(tc, test_incremental_equals_full, 0, 2);
    tcase_add_loop_test(tc, test_same_in_every_build, 0, 2);
    tcase_add_loop_test(tc, test_refusals, 0, 2);
    /* residual _i & 1, feature set 1 + (_i >> 1) */
    tcase_add_loop_test(tc, test_search_uses_net, 0, 4);
    tcase_add_test(tc, test_default_network);
    tcase_add_test(tc, test_evaluate_finished);
    tcase_add_test(tc, test_evaluate_clamped);
    tcase_add_test(tc, test_extreme_biases);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
