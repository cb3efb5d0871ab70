/* SPDX-License-Identifier: MIT */
/* The arguments of `ball match`; see match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arguments */

static void usage(FILE *f)
{
    fputs("usage: ball match --engine cmd=CMD [name=NAME] [option.X=V ...] --engine ...\n"
          "                  [--games N] [--nodes N | --playouts N | --movetime MS | --tc MS[+INC]]\n"
          "                  [--concurrency K] [--openings FILE] [--rules TEXT]\n"
          "                  [--sprt elo0=A elo1=B [alpha=X] [beta=Y]] [--records FILE]\n"
          "                  [--json FILE] [--margin MS] [--max-decisions N]\n"
          "plays two BEP engines against each other (docs/match.md)\n",
          f);
}

int bad(const char *fmt, ...)
{
    va_list ap;
    fputs("ball: match: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (ball match --help)\n", stderr);
    return EXIT_USAGE;
}

static int number(const char *opt, const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (s == NULL || end == s || *end || errno || v < min || v > max)
        return bad("%s needs a number from %ld to %ld, got '%.40s'", opt, min, max, s ? s : "");
    *out = v;
    return 0;
}

static int real(const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return bad("%s: '%.40s' is not a number", opt, s);
    *out = v;
    return 0;
}

int parse_args(int argc, char **argv, struct config *c)
{
    int limit_given = 0;
    memset(c, 0, sizeof *c);
    c->games = 2;
    c->limit_kind = LIM_NODES;
    c->limit = 1000;
    c->concurrency = 1;
    c->rules_text = "turns=100";
    c->margin_ms = 5000;
    c->max_decisions = MAX_DECISIONS_DEFAULT;
    c->alpha = c->beta = 0.05;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n = 0;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            return -1;
        }
        if (strcmp(a, "--engine") == 0) {
            if (c->n_engines == 2)
                return bad("give --engine exactly twice");
            struct engine_spec *e = &c->eng[c->n_engines++];
            e->limit_kind = -1;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                const char *w = argv[++i];
                if (strncmp(w, "cmd=", 4) == 0)
                    e->cmd = w + 4;
                else if (strncmp(w, "name=", 5) == 0)
                    e->name = w + 5;
                else if (strncmp(w, "nodes=", 6) == 0 || strncmp(w, "playouts=", 9) == 0 ||
                         strncmp(w, "movetime=", 9) == 0) {
                    const char *eq = strchr(w, '=');
                    if (e->limit_kind >= 0)
                        return bad("--engine: give one of nodes=, playouts=, movetime=");
                    if (number(w, eq + 1, 1, 2000000000, &e->limit))
                        return EXIT_USAGE;
                    e->limit_kind = w[0] == 'n' ? LIM_NODES : w[0] == 'p' ? LIM_PLAYOUTS : LIM_MOVETIME;
                }
                else if (strncmp(w, "option.", 7) == 0 && strchr(w, '=') && strchr(w, '=') > w + 7) {
                    if (e->n_options == MAX_OPTIONS)
                        return bad("at most %d options per engine", MAX_OPTIONS);
                    char *eq = strchr(w, '=');
                    *eq = '\0';
                    e->opt_name[e->n_options] = w + 7;
                    e->opt_value[e->n_options++] = eq + 1;
                } else {
                    return bad("--engine: expected cmd=CMD, name=NAME, option.X=V, nodes=N, "
                               "playouts=N or movetime=MS, got '%.40s'", w);
                }
            }
            if (e->cmd == NULL || !*e->cmd)
                return bad("--engine needs cmd=CMD");
            continue;
        }
        if (v == NULL)
            return bad("%s needs a value", a);
        i++;
        if (strcmp(a, "--games") == 0) {
            if (number(a, v, 1, 100000000, &c->games))
                return EXIT_USAGE;
        } else if (strcmp(a, "--nodes") == 0 || strcmp(a, "--playouts") == 0 ||
                   strcmp(a, "--movetime") == 0) {
            if (limit_given++)
                return bad("give one of --nodes, --playouts, --movetime, --tc");
            if (number(a, v, 1, 2000000000, &c->limit))
                return EXIT_USAGE;
            c->limit_kind = a[2] == 'n' ? LIM_NODES : a[2] == 'p' ? LIM_PLAYOUTS : LIM_MOVETIME;
        } else if (strcmp(a, "--tc") == 0) {
            char *end;
            if (limit_given++)
                return bad("give one of --nodes, --playouts, --movetime, --tc");
            c->limit_kind = LIM_TC;
            errno = 0;
            c->limit = strtol(v, &end, 10);
            c->tc_inc = 0;
            if (*end == '+')
                c->tc_inc = strtol(end + 1, &end, 10);
            if (end == v || *end || errno || c->limit < 1 || c->tc_inc < 0)
                return bad("--tc needs MS or MS+INC (milliseconds), got '%.40s'", v);
        } else if (strcmp(a, "--concurrency") == 0) {
            if (number(a, v, 1, 64, &n))
                return EXIT_USAGE;
            c->concurrency = (int)n;
        } else if (strcmp(a, "--openings") == 0) {
            c->openings_path = v;
        } else if (strcmp(a, "--records") == 0) {
            c->records_path = v;
        } else if (strcmp(a, "--json") == 0) {
            c->json_path = v;
        } else if (strcmp(a, "--rules") == 0) {
            c->rules_text = v;
        } else if (strcmp(a, "--margin") == 0) {
            if (number(a, v, 0, 3600000, &c->margin_ms))
                return EXIT_USAGE;
        } else if (strcmp(a, "--max-decisions") == 0) {
            if (number(a, v, 1, 100000000, &c->max_decisions))
                return EXIT_USAGE;
        } else if (strcmp(a, "--sprt") == 0) {
            int have0 = 0, have1 = 0;
            i--;
            while (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0) {
                const char *w = argv[++i];
                int rc = 0;
                if (strncmp(w, "elo0=", 5) == 0)
                    rc = real("--sprt elo0", w + 5, &c->elo0), have0 = 1;
                else if (strncmp(w, "elo1=", 5) == 0)
                    rc = real("--sprt elo1", w + 5, &c->elo1), have1 = 1;
                else if (strncmp(w, "alpha=", 6) == 0)
                    rc = real("--sprt alpha", w + 6, &c->alpha);
                else if (strncmp(w, "beta=", 5) == 0)
                    rc = real("--sprt beta", w + 5, &c->beta);
                else
                    return bad("--sprt: expected elo0=, elo1=, alpha= or beta=, got '%.40s'", w);
                if (rc)
                    return rc;
            }
            if (!have0 || !have1)
                return bad("--sprt needs elo0=A and elo1=B");
            if (!(c->elo0 < c->elo1))
                return bad("--sprt: elo0 must be below elo1");
            if (!(c->alpha > 0 && c->alpha < 0.5 && c->beta > 0 && c->beta < 0.5))
                return bad("--sprt: alpha and beta must lie between 0 and 0.5");
            c->sprt = 1;
        } else {
            return bad("unknown option '%.40s'", a);
        }
    }
    if (c->n_engines != 2)
        return bad("give --engine exactly twice");
    if (c->eng[0].name == NULL)
        c->eng[0].name = "engine1";
    if (c->eng[1].name == NULL)
        c->eng[1].name = "engine2";
    if (strcmp(c->eng[0].name, c->eng[1].name) == 0)
        return bad("the engines need different names (name=...)");
    for (int k = 0; k < 2; k++)
        if (strlen(c->eng[k].name) > 40)
            return bad("engine name '%.40s...' is longer than 40 bytes", c->eng[k].name);
    if (c->games % 2)
        c->games++;
    limit_of(c, c->limit_text, sizeof c->limit_text);
    for (int k = 0; k < 2; k++) {
        static const char *const KIND[] = {"nodes", "playouts", "movetime"};
        const struct engine_spec *e = &c->eng[k];
        size_t n = strlen(c->limit_text);
        if (e->limit_kind >= 0)
            snprintf(c->limit_text + n, sizeof c->limit_text - n, ", %s %s %ld", e->name,
                     KIND[e->limit_kind], e->limit);
    }
    return 0;
}
