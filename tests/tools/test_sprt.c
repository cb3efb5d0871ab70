/* The Elo and SPRT arithmetic of `ball match` (tools/sprt.c), against
 * values published by fastchess (https://github.com/Disservin/fastchess),
 * never against this code's own output:
 *
 * - tests/sprt_test.cpp (the file at commit 74b0a8deb702): LLRs of W-D-L
 *   counts and of pentanomial pair counts for the "normalized" and
 *   "logistic" models, checked there to 1% (doctest::Approx(x)
 *   .epsilon(0.01)). Its Stats(w, l, d) takes wins, losses, draws
 *   (src/types/stats.hpp); Stats(ll, ld, wl, dd, wd, ww) the pair counts
 *   from LL to WW (its later src/types/stats.hpp).
 * - tests/elo_test.cpp: Elo(wins, losses, draws) differences and the
 *   half-widths of their 95% intervals, also to 1%.
 *
 * The same 1% tolerance is used here. The SPRT bounds for alpha = beta =
 * 0.05 are ln(0.05/0.95) = -2.944 and ln(0.95/0.05) = 2.944, the values
 * cutechess-cli and fastchess print ("(-2.94, 2.94)"). */
#include <math.h>

#include "testutil.h"
#include "../../tools/sprt.c" /* the code under test, compiled into this program */

static void near(double got, double want, const char *what)
{
    ck_assert_msg(fabs(got - want) <= 0.01 * fabs(want), "%s: %.4f, published %.2f", what, got,
                  want);
}

START_TEST(test_trinomial_llr)
{
    /* sprt_test.cpp "normalized trinomial 1": Stats(36433, 36027, 68692), [0, 2] */
    near(sprt_llr_trinomial(SPRT_NORMALIZED, 36433, 68692, 36027, 0, 2), 0.92, "normalized 1");
    /* "normalized trinomial 2": Stats(10871, 10650, 20431), [-1.75, 0.25] */
    near(sprt_llr_trinomial(SPRT_NORMALIZED, 10871, 20431, 10650, -1.75, 0.25), 2.30,
         "normalized 2");
    /* "logistic trinomial 1": Stats(21404, 21184, 40708), [0.5, 2.5] */
    near(sprt_llr_trinomial(SPRT_LOGISTIC, 21404, 40708, 21184, 0.5, 2.5), -1.57, "logistic 1");
    /* "logistic trinomial 2": Stats(57433, 57030, 106593), [0, 2] */
    near(sprt_llr_trinomial(SPRT_LOGISTIC, 57433, 106593, 57030, 0, 2), -2.59, "logistic 2");
    /* no games yet: 0 */
    ck_assert(sprt_llr_trinomial(SPRT_LOGISTIC, 0, 0, 0, 0, 5) == 0);
}
END_TEST

START_TEST(test_pentanomial_llr)
{
    /* Stats(ll, ld, wl, dd, wd, ww); our pairs[] are LL, LD, WL+DD, WD, WW. */
    /* "normalized pentanomial 1": Stats(365, 16618, 36029, 200, 16974, 390), [0, 2] */
    const double p1[5] = {365, 16618, 36029 + 200, 16974, 390};
    near(sprt_llr_pentanomial(SPRT_NORMALIZED, p1, 0, 2), 2.25, "normalized penta 1");
    /* "normalized pentanomial 2": Stats(127, 4883, 10311, 401, 5150, 104), [-1.75, 0.25] */
    const double p2[5] = {127, 4883, 10311 + 401, 5150, 104};
    near(sprt_llr_pentanomial(SPRT_NORMALIZED, p2, -1.75, 0.25), 3.01, "normalized penta 2");
    /* "logistic pentanomial 1": Stats(223, 9863, 20279, 1000, 10037, 246), [0.5, 2.5] */
    const double p3[5] = {223, 9863, 20279 + 1000, 10037, 246};
    near(sprt_llr_pentanomial(SPRT_LOGISTIC, p3, 0.5, 2.5), -3.07, "logistic penta 1");
    /* "logistic pentanomial 2": Stats(871, 26175, 55003, 980, 26678, 821), [0, 2] */
    const double p4[5] = {871, 26175, 55003 + 980, 26678, 821};
    near(sprt_llr_pentanomial(SPRT_LOGISTIC, p4, 0, 2), -4.98, "logistic penta 2");
}
END_TEST

START_TEST(test_elo)
{
    double elo, err;
    /* elo_test.cpp: Elo(0, 36, 14): -315.34 +- 95.43 */
    ck_assert_int_eq(sprt_elo(0, 14, 36, &elo, &err), 0);
    near(elo, -315.34, "Elo(0, 36, 14)");
    near(err, 95.43, "error of Elo(0, 36, 14)");
    /* Elo(859, 772, 1329): 10.21 +- 9.28 */
    sprt_elo(859, 1329, 772, &elo, &err);
    near(elo, 10.21, "Elo(859, 772, 1329)");
    near(err, 9.28, "error of Elo(859, 772, 1329)");
    /* Elo(1164, 1267, 3049): -6.53 +- 6.12 */
    sprt_elo(1164, 3049, 1267, &elo, &err);
    near(elo, -6.53, "Elo(1164, 1267, 3049)");
    near(err, 6.12, "error of Elo(1164, 1267, 3049)");
    /* undefined: no game, every game won */
    ck_assert_int_eq(sprt_elo(0, 0, 0, &elo, &err), -1);
    ck_assert_int_eq(sprt_elo(5, 0, 0, &elo, &err), -1);
    ck_assert(isinf(elo) && elo > 0 && isinf(err));
}
END_TEST

START_TEST(test_bounds)
{
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    near(lo, -2.94, "lower bound");
    near(hi, 2.94, "upper bound");
}
END_TEST

Suite *make_suite(void)
{
    Suite *s = suite_create("sprt");
    TCase *tc = tcase_create("published values");
    tcase_add_test(tc, test_trinomial_llr);
    tcase_add_test(tc, test_pentanomial_llr);
    tcase_add_test(tc, test_elo);
    tcase_add_test(tc, test_bounds);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN
