/* SPDX-License-Identifier: MIT */
/*
 * sprt — Elo and SPRT arithmetic of `ball match`; see sprt.h.
 */
#include "sprt.h"

#include <math.h>

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}

static double logistic_score(double elo)
{
    return 1 / (1 + pow(10, -elo / 400));
}

double sprt_score_to_elo(double s)
{
    return -400 * log10(1 / s - 1);
}

/* The GSPRT over n outcomes of scores a[] with frequencies p[] (summing to
 * 1) in @p total trials: N/2 log(var0/var1); @p scale is 1 for games, 2
 * for pairs (the nElo of a pair's score has twice its variance). */
static double gsprt(int model, int n, const double *a, const double *p, double total,
                    double scale, double elo0, double elo1)
{
    double s = 0, var = 0, s0, s1, v0 = 0, v1 = 0;
    if (total <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        s += p[i] * a[i];
    for (int i = 0; i < n; i++)
        var += p[i] * (a[i] - s) * (a[i] - s);
    if (model == SPRT_NORMALIZED) {
        if (var <= 0)
            return 0;
        double k = sqrt(scale * var) / (800 / log(10.0));
        s0 = 0.5 + elo0 * k;
        s1 = 0.5 + elo1 * k;
    } else {
        s0 = logistic_score(elo0);
        s1 = logistic_score(elo1);
    }
    for (int i = 0; i < n; i++) {
        v0 += p[i] * (a[i] - s0) * (a[i] - s0);
        v1 += p[i] * (a[i] - s1) * (a[i] - s1);
    }
    if (v0 <= 0 || v1 <= 0)
        return 0;
    return 0.5 * total * log(v0 / v1);
}

double sprt_llr_trinomial(int model, double w, double d, double l, double elo0, double elo1)
{
    double n = w + d + l;
    if (n <= 0)
        return 0;
    const double a[3] = {0, 0.5, 1};
    const double p[3] = {l / n, d / n, w / n};
    return gsprt(model, 3, a, p, n, 1, elo0, elo1);
}

double sprt_llr_pentanomial(int model, const double pairs[5], double elo0, double elo1)
{
    double n = 0;
    for (int i = 0; i < 5; i++)
        n += pairs[i];
    if (n <= 0)
        return 0;
    const double a[5] = {0, 0.25, 0.5, 0.75, 1};
    double p[5];
    for (int i = 0; i < 5; i++)
        p[i] = pairs[i] / n;
    return gsprt(model, 5, a, p, n, 2, elo0, elo1);
}

int sprt_elo(double w, double d, double l, double *elo, double *err)
{
    double n = w + d + l;
    *err = INFINITY;
    if (n <= 0) {
        *elo = 0;
        return -1;
    }
    double s = (w + 0.5 * d) / n;
    if (s <= 0 || s >= 1) {
        *elo = s <= 0 ? -INFINITY : INFINITY;
        return -1;
    }
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    double se = sqrt(var / n), lo = s - 1.959963984540054 * se, hi = s + 1.959963984540054 * se;
    *elo = sprt_score_to_elo(s);
    if (lo <= 0 || hi >= 1)
        return 0; /* the interval reaches a sure result: unbounded */
    *err = (sprt_score_to_elo(hi) - sprt_score_to_elo(lo)) / 2;
    return 0;
}
