/* SPDX-License-Identifier: MIT */
/* The arguments of `ball match`; see match.h. */
#define _POSIX_C_SOURCE 200809L

#include "match.h"

#include "options.h"

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

/* The longest time a limit may give (ms): a day, the most the library
 * searches (docs/protocol.md, "ball engine"). */
#define MAX_TIME_MS 86400000L
#define MAX_COUNT 2000000000L /* nodes, playouts */

static const char *const LIMIT_WORD[] = {"nodes", "playouts", "movetime"};

/* "nodes=N", "playouts=N" or "movetime=MS" of an --engine into @p e. */
static int engine_limit(struct engine_spec *e, const char *w)
{
    size_t name = strcspn(w, "=");
    int kind = 0;
    while (kind < 3 && (strlen(LIMIT_WORD[kind]) != name || strncmp(w, LIMIT_WORD[kind], name) != 0))
        kind++;
    if (e->limit_kind >= 0)
        return bad("--engine: give only one of nodes=, playouts=, movetime= (got %s= and %.*s=)",
                   LIMIT_WORD[e->limit_kind], (int)name, w);
    if (number(w, w + name + 1, 1, kind == LIM_MOVETIME ? MAX_TIME_MS : MAX_COUNT, &e->limit))
        return EXIT_USAGE;
    e->limit_kind = kind;
    return 0;
}

/* One word after --engine. */
static int engine_word(struct engine_spec *e, char *w)
{
    char *eq = strchr(w, '=');
    if (strncmp(w, "cmd=", 4) == 0)
        e->cmd = w + 4;
    else if (strncmp(w, "name=", 5) == 0)
        e->name = w + 5;
    else if (strncmp(w, "nodes=", 6) == 0 || strncmp(w, "playouts=", 9) == 0 ||
             strncmp(w, "movetime=", 9) == 0)
        return engine_limit(e, w);
    else if (strncmp(w, "option.", 7) == 0 && eq != NULL && eq > w + 7) {
        if (e->n_options == MAX_OPTIONS)
            return bad("at most %d options per engine", MAX_OPTIONS);
        *eq = '\0';
        e->opt_name[e->n_options] = w + 7;
        e->opt_value[e->n_options++] = eq + 1;
    } else {
        return bad("--engine: expected cmd=CMD, name=NAME, option.X=V, nodes=N, "
                   "playouts=N or movetime=MS, got '%.40s'", w);
    }
    return 0;
}

/* The words of a --engine: @p first (its value), then argv[optind...] up
 * to the next option. */
static int engine_words(struct config *c, char *first, int argc, char **argv)
{
    if (c->n_engines == 2)
        return bad("give --engine exactly twice");
    struct engine_spec *e = &c->eng[c->n_engines++];
    e->limit_kind = -1;
    for (char *w = first; w != NULL; w = optind < argc && strncmp(argv[optind], "--", 2) != 0 ? argv[optind++] : NULL)
        if (engine_word(e, w) != 0)
            return EXIT_USAGE;
    if (e->cmd == NULL || !*e->cmd)
        return bad("--engine needs cmd=CMD");
    return 0;
}

/* One word after --sprt; sets *have0 / *have1 when it is elo0= / elo1=. */
static int sprt_word(struct config *c, const char *w, int *have0, int *have1)
{
    if (strncmp(w, "elo0=", 5) == 0)
        return *have0 = 1, real("--sprt elo0", w + 5, &c->elo0);
    if (strncmp(w, "elo1=", 5) == 0)
        return *have1 = 1, real("--sprt elo1", w + 5, &c->elo1);
    if (strncmp(w, "alpha=", 6) == 0)
        return real("--sprt alpha", w + 6, &c->alpha);
    if (strncmp(w, "beta=", 5) == 0)
        return real("--sprt beta", w + 5, &c->beta);
    return bad("--sprt: expected elo0=, elo1=, alpha= or beta=, got '%.40s'", w);
}

/* The words of --sprt, as engine_words(). */
static int sprt_words(struct config *c, char *first, int argc, char **argv)
{
    int have0 = 0, have1 = 0;
    for (char *w = first; w != NULL; w = optind < argc && strncmp(argv[optind], "--", 2) != 0 ? argv[optind++] : NULL)
        if (sprt_word(c, w, &have0, &have1) != 0)
            return EXIT_USAGE;
    if (!have0 || !have1)
        return bad("--sprt needs elo0=A and elo1=B");
    if (!(c->elo0 < c->elo1))
        return bad("--sprt: elo0 must be below elo1");
    if (!(c->alpha > 0 && c->alpha < 0.5 && c->beta > 0 && c->beta < 0.5))
        return bad("--sprt: alpha and beta must lie between 0 and 0.5");
    c->sprt = 1;
    return 0;
}

/* --tc MS[+INC], each at most a day. */
static int time_control(struct config *c, const char *v)
{
    char *end;
    errno = 0;
    c->limit = strtol(v, &end, 10);
    c->tc_inc = 0;
    if (*end == '+')
        c->tc_inc = strtol(end + 1, &end, 10);
    if (end == v || *end || errno || c->limit < 1 || c->tc_inc < 0)
        return bad("--tc needs MS or MS+INC (milliseconds), got '%.40s'", v);
    if (c->limit > MAX_TIME_MS || c->tc_inc > MAX_TIME_MS)
        return bad("--tc: the time and the increment are at most %ld ms (a day), got '%.40s'",
                   MAX_TIME_MS, v);
    c->limit_kind = LIM_TC;
    return 0;
}

/* The options of `ball match`, in the order of enum match_option. */
enum match_option { M_ENGINE, M_GAMES, M_NODES, M_PLAYOUTS, M_MOVETIME, M_TC, M_CONCURRENCY,
                    M_OPENINGS, M_RECORDS, M_JSON, M_RULES, M_MARGIN, M_MAX_DECISIONS, M_SPRT,
                    M_HELP, N_MATCH_OPTIONS };
static const struct option MATCH_OPTIONS[N_MATCH_OPTIONS + 1] = {
    {"engine", required_argument, NULL, 0},   {"games", required_argument, NULL, 0},
    {"nodes", required_argument, NULL, 0},    {"playouts", required_argument, NULL, 0},
    {"movetime", required_argument, NULL, 0}, {"tc", required_argument, NULL, 0},
    {"concurrency", required_argument, NULL, 0}, {"openings", required_argument, NULL, 0},
    {"records", required_argument, NULL, 0},  {"json", required_argument, NULL, 0},
    {"rules", required_argument, NULL, 0},    {"margin", required_argument, NULL, 0},
    {"max-decisions", required_argument, NULL, 0}, {"sprt", required_argument, NULL, 0},
    {"help", no_argument, NULL, 0},           {NULL, 0, NULL, 0},
};

/* --nodes, --playouts, --movetime or --tc: only one of them. */
static int match_limit(struct config *c, int k, const char *v, int *limit_given)
{
    if (*limit_given >= 0)
        return bad("give only one of --nodes, --playouts, --movetime, --tc (got --%s and --%s)",
                   MATCH_OPTIONS[*limit_given].name, MATCH_OPTIONS[k].name);
    *limit_given = k;
    if (k == M_TC)
        return time_control(c, v);
    c->limit_kind = k == M_NODES ? LIM_NODES : k == M_PLAYOUTS ? LIM_PLAYOUTS : LIM_MOVETIME;
    return number(k == M_NODES ? "--nodes" : k == M_PLAYOUTS ? "--playouts" : "--movetime", v, 1,
                  k == M_MOVETIME ? MAX_TIME_MS : MAX_COUNT, &c->limit);
}

/* One option of `ball match` (not --help) with its value. */
static int match_option(struct config *c, int k, char *v, int argc, char **argv, int *limit_given)
{
    long n = 0;
    int rc = 0;
    switch (k) {
    case M_ENGINE: return engine_words(c, v, argc, argv);
    case M_SPRT: return sprt_words(c, v, argc, argv);
    case M_GAMES: return number("--games", v, 1, 100000000, &c->games);
    case M_NODES: case M_PLAYOUTS: case M_MOVETIME: case M_TC:
        return match_limit(c, k, v, limit_given);
    case M_CONCURRENCY:
        rc = number("--concurrency", v, 1, 64, &n);
        c->concurrency = (int)n;
        return rc;
    case M_OPENINGS: c->openings_path = v; return 0;
    case M_RECORDS: c->records_path = v; return 0;
    case M_JSON: c->json_path = v; return 0;
    case M_RULES: c->rules_text = v; return 0;
    case M_MARGIN: return number("--margin", v, 0, 3600000, &c->margin_ms);
    default: return number("--max-decisions", v, 1, 100000000, &c->max_decisions);
    }
}

/* The defaults of docs/match.md. */
static void defaults(struct config *c)
{
    memset(c, 0, sizeof *c);
    c->games = 2;
    c->limit_kind = LIM_NODES;
    c->limit = 1000;
    c->concurrency = 1;
    c->rules_text = "turns=100";
    c->margin_ms = 5000;
    c->max_decisions = MAX_DECISIONS_DEFAULT;
    c->alpha = c->beta = 0.05;
}

/* What is checked once every option is read: two engines with distinct
 * names, an even number of games; the limit's text. */
static int finish(struct config *c)
{
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
        const struct engine_spec *e = &c->eng[k];
        size_t n = strlen(c->limit_text);
        if (e->limit_kind >= 0)
            snprintf(c->limit_text + n, sizeof c->limit_text - n, ", %s %s %ld", e->name,
                     LIMIT_WORD[e->limit_kind], e->limit);
    }
    return 0;
}

int parse_args(int argc, char **argv, struct config *c)
{
    char msg[160], *v;
    int k, limit_given = -1;
    defaults(c);
    optind = 0;
    while ((k = options_next(argc, argv, MATCH_OPTIONS, &v, msg, sizeof msg)) >= 0) {
        if (k == M_HELP) {
            usage(stdout);
            return -1;
        }
        if (match_option(c, k, v, argc, argv, &limit_given) != 0)
            return EXIT_USAGE;
    }
    if (k == OPT_ERROR)
        return bad("%s", msg);
    if (optind < argc)
        return bad("unexpected argument '%.40s'", argv[optind]);
    return finish(c);
}
