/* SPDX-License-Identifier: MIT */
/*
 * sprt — the statistics of `ball match` (docs/match.md): the Elo
 * difference of a W-D-L score with its 95% interval, and the
 * log-likelihood ratio (LLR) of the sequential probability ratio test
 * (SPRT) between two Elo hypotheses, over games (trinomial: W, D, L) or
 * over game pairs (pentanomial: the five pair scores 0, 1/4, 1/2, 3/4, 1),
 * as fastchess computes them (GSPRT: LLR = N/2 log(var0 / var1), the
 * variances of the observed distribution around the scores expected under
 * H0 and H1; M. Van den Bergh, "support_MLE_multinomial"). Checked against
 * published values in tests/tools/test_sprt.c.
 */
#ifndef TOOLS_SPRT_H
#define TOOLS_SPRT_H

/** How an Elo hypothesis becomes an expected score. */
enum sprt_model {
    SPRT_LOGISTIC = 0,  /**< logistic Elo: s = 1 / (1 + 10^(-elo/400)) */
    SPRT_NORMALIZED = 1 /**< normalized Elo (Fishtest's nElo): s = 0.5 + nelo * sd / (800 / ln 10) */
};

/** The bounds of the LLR for error rates alpha and beta:
 *  lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

/** The LLR of H1 (elo1) against H0 (elo0) after @p w wins, @p d draws,
 *  @p l losses; 0 when it is not defined yet (no games, no variance). */
double sprt_llr_trinomial(int model, double w, double d, double l, double elo0, double elo1);

/** The same over game pairs: @p pairs[k] pairs scored k/4 of 1 (LL, LD,
 *  WL+DD, WD, WW). */
double sprt_llr_pentanomial(int model, const double pairs[5], double elo0, double elo1);

/**
 * The logistic Elo difference of a score of @p w wins, @p d draws and
 * @p l losses, in @p *elo, and the half-width of its 95% interval in
 * @p *err (from the normal approximation of the mean score:
 * (elo(s + 1.96 se) - elo(s - 1.96 se)) / 2). Returns 0, or -1 when the
 * difference is not finite (no games, or every game won or lost); then
 * @p *elo is +-INFINITY or 0 and @p *err INFINITY.
 */
int sprt_elo(double w, double d, double l, double *elo, double *err);

/** The logistic Elo difference of a mean score 0 < s < 1. */
double sprt_score_to_elo(double s);

#endif
