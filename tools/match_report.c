/* SPDX-License-Identifier: MIT */
/* The statistics of `ball match` and its result, as text and as JSON;
 * see match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include "sprt.h"

#include <math.h>
#include <stdio.h>

/* ---------------------------------------------------------------- statistics */

static void update_stats(struct match *m)
{
    double elo, err;
    (void)elo;
    (void)err;
    if (m->cfg.sprt) {
        m->llr = sprt_llr_trinomial(SPRT_LOGISTIC, (double)m->w, (double)m->d, (double)m->l,
                                    m->cfg.elo0, m->cfg.elo1);
        m->llr_penta = sprt_llr_pentanomial(SPRT_LOGISTIC, m->pairs, m->cfg.elo0, m->cfg.elo1);
        if (m->verdict == 0 && (m->llr >= m->upper || m->llr <= m->lower)) {
            m->verdict = m->llr >= m->upper ? 1 : -1;
            m->decided_at = m->played;
            m->llr_decided = m->llr;
            m->stop = 1;
        }
    }
}

/* Engine 1's score in halves (0-2) when it played team @p a_side. */
static int score2(int result, int a_side)
{
    if (result == BALL_ATK_WON || result == BALL_DEF_WON)
        return (result == BALL_ATK_WON) == (a_side == BALL_ATK) ? 2 : 0;
    return 1;
}

void count_game(struct match *m, long idx, int a_side, int result, int forfeit_side)
{
    int s2 = score2(result, a_side);
    if (forfeit_side >= 0) {
        m->forfeits[forfeit_side == a_side ? 0 : 1]++;
        m->term_forfeit++;
    } else if (result == BALL_DRAW) {
        m->term_turnlimit++;
    } else if (result == BALL_ONGOING) {
        m->term_adjudicated++;
    } else {
        m->term_touchdown++;
    }
    m->played++;
    if (s2 == 2)
        m->w++;
    else if (s2 == 1)
        m->d++;
    else
        m->l++;
    m->a_score[idx] = (signed char)s2;
    long mate = idx ^ 1;
    if (mate < m->cfg.games && m->a_score[mate] >= 0)
        m->pairs[s2 + m->a_score[mate]] += 1;
    update_stats(m);
}

static void elo_text(const struct match *m, char *buf, size_t len)
{
    double elo, err;
    int rc = sprt_elo((double)m->w, (double)m->d, (double)m->l, &elo, &err);
    if (elo == 0)
        elo = 0; /* not -0.0 */
    if (rc < 0)
        snprintf(buf, len, "Elo %s", m->played ? (elo > 0 ? "+inf" : "-inf") : "-");
    else if (isinf(err))
        snprintf(buf, len, "Elo %+.1f +/- inf", elo);
    else
        snprintf(buf, len, "Elo %+.1f +/- %.1f", elo, err);
}

void status_line(struct match *m)
{
    char elo[64];
    elo_text(m, elo, sizeof elo);
    double n = (double)m->played;
    fprintf(stderr, "%sgames %ld/%ld  %s vs %s: %ld-%ld-%ld (W-D-L)  score %.3f  %s",
            m->tty ? "\r\033[K" : "", m->played, m->cfg.games, m->cfg.eng[0].name,
            m->cfg.eng[1].name, m->w, m->d, m->l, n > 0 ? ((double)m->w + 0.5 * (double)m->d) / n : 0.5,
            elo);
    if (m->cfg.sprt)
        fprintf(stderr, "  LLR %.2f (%.2f, %.2f)", m->llr, m->lower, m->upper);
    fputs(m->tty ? "" : "\n", stderr);
    fflush(stderr);
}

/* ---------------------------------------------------------------- output */

static void json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            putc(c, f);
    }
    putc('"', f);
}

static const char *sprt_verdict(const struct match *m)
{
    return m->verdict > 0 ? "H1" : m->verdict < 0 ? "H0" : "continue";
}

void report_text(const struct match *m, FILE *f)
{
    char elo[64];
    double n = (double)m->played;
    elo_text(m, elo, sizeof elo);
    fprintf(f, "Match %s vs %s (%s, rules '%s'): %ld of %ld games\n", m->cfg.eng[0].name,
            m->cfg.eng[1].name, m->cfg.limit_text, m->cfg.rules_text, m->played, m->cfg.games);
    fprintf(f, "Score of %s vs %s: %ld - %ld - %ld (W-D-L)  %.3f\n", m->cfg.eng[0].name,
            m->cfg.eng[1].name, m->w, m->d, m->l,
            n > 0 ? ((double)m->w + 0.5 * (double)m->d) / n : 0.5);
    fprintf(f, "%s (95%%)\n", elo);
    fprintf(f, "Pairs (LL, LD, DD+WL, WD, WW): %.0f %.0f %.0f %.0f %.0f\n", m->pairs[0], m->pairs[1],
            m->pairs[2], m->pairs[3], m->pairs[4]);
    fprintf(f, "Ends: %ld touchdown, %ld turn limit, %ld forfeit (%s %ld, %s %ld), %ld adjudicated\n",
            m->term_touchdown, m->term_turnlimit, m->term_forfeit, m->cfg.eng[0].name,
            m->forfeits[0], m->cfg.eng[1].name, m->forfeits[1], m->term_adjudicated);
    if (m->cfg.sprt) {
        char at[96] = "";
        if (m->verdict != 0)
            snprintf(at, sizeof at, "; decided at game %ld (LLR %.2f)", m->decided_at, m->llr_decided);
        fprintf(f, "SPRT elo0 %g elo1 %g alpha %g beta %g: LLR %.2f (%.2f, %.2f), pentanomial LLR %.2f%s: %s\n",
                m->cfg.elo0, m->cfg.elo1, m->cfg.alpha, m->cfg.beta, m->llr, m->lower, m->upper,
                m->llr_penta, at, sprt_verdict(m));
    }
}

int report_json(const struct match *m, const char *path)
{
    FILE *f = fopen(path, "w");
    double elo, err;
    if (f == NULL)
        return -1;
    int ok = sprt_elo((double)m->w, (double)m->d, (double)m->l, &elo, &err) == 0;
    if (elo == 0)
        elo = 0; /* not -0.0 */
    fputs("{\n  \"engines\": [", f);
    for (int i = 0; i < 2; i++) {
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        json_string(f, m->cfg.eng[i].name);
        fputs(", \"cmd\": ", f);
        json_string(f, m->cfg.eng[i].cmd);
        fprintf(f, ", \"forfeits\": %ld}", m->forfeits[i]);
    }
    fputs("],\n  \"limit\": ", f);
    json_string(f, m->cfg.limit_text);
    fputs(",\n  \"rules\": ", f);
    json_string(f, m->cfg.rules_text);
    fprintf(f, ",\n  \"games\": %ld,\n  \"games_planned\": %ld,\n  \"wins\": %ld,\n  \"draws\": %ld,\n"
               "  \"losses\": %ld,\n  \"score\": %.4f,\n",
            m->played, m->cfg.games, m->w, m->d, m->l,
            m->played ? ((double)m->w + 0.5 * (double)m->d) / (double)m->played : 0.5);
    if (ok && !isinf(err))
        fprintf(f, "  \"elo\": %.2f,\n  \"elo_error95\": %.2f,\n", elo, err);
    else
        fputs("  \"elo\": null,\n  \"elo_error95\": null,\n", f);
    fprintf(f, "  \"pentanomial\": [%.0f, %.0f, %.0f, %.0f, %.0f],\n", m->pairs[0], m->pairs[1],
            m->pairs[2], m->pairs[3], m->pairs[4]);
    fprintf(f, "  \"ends\": {\"touchdown\": %ld, \"turn_limit\": %ld, \"forfeit\": %ld, \"adjudicated\": %ld},\n",
            m->term_touchdown, m->term_turnlimit, m->term_forfeit, m->term_adjudicated);
    if (m->cfg.sprt) {
        char at[96] = "\"decided_at\": null, \"llr_at_decision\": null";
        if (m->verdict != 0)
            snprintf(at, sizeof at, "\"decided_at\": %ld, \"llr_at_decision\": %.4f", m->decided_at,
                     m->llr_decided);
        fprintf(f, "  \"sprt\": {\"elo0\": %g, \"elo1\": %g, \"alpha\": %g, \"beta\": %g, \"llr\": %.4f, "
                   "\"llr_pentanomial\": %.4f, \"lower\": %.4f, \"upper\": %.4f, \"result\": \"%s\", %s}\n",
                m->cfg.elo0, m->cfg.elo1, m->cfg.alpha, m->cfg.beta, m->llr, m->llr_penta, m->lower,
                m->upper, sprt_verdict(m), at);
    } else {
        fputs("  \"sprt\": null\n", f);
    }
    fputs("}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
