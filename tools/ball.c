/* SPDX-License-Identifier: MIT */
/*
 * ball — command-line front end of libball.
 *
 *   ball [OPTIONS] perft [--threads N] DEPTH [BPN]
 *                                       number of decision sequences (N3)
 *   ball [OPTIONS] divide DEPTH [BPN]   perft split by first decision
 *   ball [OPTIONS] legal [BPN]          legal decisions, in square order
 *   ball [OPTIONS] apply BPN ACTION...  BPN after the given decisions
 *   ball [OPTIONS] trace [BPN]          BPN and legal decisions after each
 *                                       decision read from standard input
 *   ball [OPTIONS] show [BPN]           board diagram
 *   ball [OPTIONS] record [--event TEXT ...] [BPN]
 *                                       game record (docs/records.md) of
 *                                       the decisions read from standard input
 *   ball [OPTIONS] replay [--ply N] FILE
 *                                       check the records of FILE, print each
 *                                       game's final BPN and result
 *   ball [OPTIONS] svg [--highlight SQ,...] [--action TEXT] [BPN]
 *                                       SVG picture of the position
 *
 * `man ball` (man/ball.1) documents every command.
 *
 * `ball --help` lists the options; it is generated from the option table
 * below. The output formats are parsed by other programs; keep them
 * stable. Every error goes to standard error, says what is wrong and
 * where, and exits with status 2 (1 for internal failures such as running
 * out of memory or a failed write).
 *
 * Only the public API of ball.h is used, plus the board diagram shared
 * with the examples (examples/common/board.c).
 */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno, clock_gettime */

#include "ball.h"
#include "board.h"
#include "edit_distance.h"
#include "engine.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXIT_USAGE 2    /* bad input: usage, BPN, action, depth, options */
#define EXIT_INTERNAL 1 /* out of memory, write error */
#define MAX_THREADS 256
#define TRACE_LINE_MAX 255 /* longest line `trace` reads, without its newline */
#define ERR_MAX 256

/* ---------------------------------------------------------------- options
 * Every option is one row of OPTIONS: its name, the kind of its argument,
 * where the value goes (a field of struct settings), its range and its
 * help text. Global options come before the command; an option with a
 * command name comes right after that command. --help is generated from
 * the table. */

/* What the options set. Integers are -1 until given. */
struct settings {
    int help;
    int version;
    const char *rules_text; /* NULL until given */
    long depth_zone;
    long turn_limit;
    long threads;
    const char *tags[BALL_TAG_COUNT]; /* record: --event ... --def */
    long ply;                         /* replay: --ply */
    const char *highlight;            /* svg: --highlight */
    const char *action;               /* svg: --action */
};

enum arg_kind {
    ARG_FLAG, /* no argument: sets an int to 1 */
    ARG_INT,  /* a decimal integer in [min, max], stored in a long */
    ARG_TEXT  /* any text, stored as a const char * */
};

struct option_spec {
    const char *name;    /* "--rules" */
    const char *command; /* NULL: a global option; else the command it follows */
    enum arg_kind kind;
    const char *arg;     /* the argument's name in the help: "TEXT", "N" */
    size_t target;       /* offsetof(struct settings, field) */
    long min, max;       /* ARG_INT: accepted values */
    const char *help;    /* lines separated by '\n' */
};

static const struct option_spec OPTIONS[] = {
    {"--rules", NULL, ARG_TEXT, "TEXT", offsetof(struct settings, rules_text), 0, 0,
     "whole ruleset in the text form of ball_rules_from_text,\n"
     "e.g. 'zone=2 turns=100 earn.dodge=1 atk=Sprint:2:pa+1'"},
    {"--depth-zone", NULL, ARG_INT, "N", offsetof(struct settings, depth_zone), 0, INT_MAX,
     "end zone depth in rows, 1-3 (default 1); set over the\n"
     "zone= of --rules, whatever the order of the two"},
    {"--turn-limit", NULL, ARG_INT, "N", offsetof(struct settings, turn_limit), 0, BALL_MAX_TURN,
     "last turn that may be played, 0 = none (default 0); set\n"
     "over the turns= of --rules, whatever the order of the two"},
    {"--help", NULL, ARG_FLAG, NULL, offsetof(struct settings, help), 0, 0, "this text"},
    {"--version", NULL, ARG_FLAG, NULL, offsetof(struct settings, version), 0, 0,
     "version of the library in use"},
    {"--threads", "perft", ARG_INT, "N", offsetof(struct settings, threads), 1, MAX_THREADS,
     "share the root decisions out among N threads (1-256,\n"
     "default 1), the largest subtrees first; the count is\n"
     "the same"},
    {"--threads", "divide", ARG_INT, "N", offsetof(struct settings, threads), 1, MAX_THREADS,
     "share the root decisions out among N threads (1-256,\n"
     "default 1), the largest subtrees first; the counts are\n"
     "the same"},
    {"--event", "record", ARG_TEXT, "TEXT", offsetof(struct settings, tags[BALL_TAG_EVENT]), 0, 0,
     "the Event tag"},
    {"--site", "record", ARG_TEXT, "TEXT", offsetof(struct settings, tags[BALL_TAG_SITE]), 0, 0,
     "the Site tag"},
    {"--date", "record", ARG_TEXT, "TEXT", offsetof(struct settings, tags[BALL_TAG_DATE]), 0, 0,
     "the Date tag (YYYY-MM-DD)"},
    {"--atk", "record", ARG_TEXT, "TEXT", offsetof(struct settings, tags[BALL_TAG_ATK]), 0, 0,
     "the ATK tag: who coached ATK"},
    {"--def", "record", ARG_TEXT, "TEXT", offsetof(struct settings, tags[BALL_TAG_DEF]), 0, 0,
     "the DEF tag: who coached DEF"},
    {"--ply", "replay", ARG_INT, "N", offsetof(struct settings, ply), 0, INT_MAX,
     "print the position after the first N decisions of\n"
     "each game instead of the final one"},
    {"--highlight", "svg", ARG_TEXT, "SQ,...", offsetof(struct settings, highlight), 0, 0,
     "outline these squares (comma-separated names)"},
    {"--action", "svg", ARG_TEXT, "TEXT", offsetof(struct settings, action), 0, 0,
     "draw an arrow for this legal action (N2)"},
};
#define N_OPTIONS (sizeof OPTIONS / sizeof OPTIONS[0])

/* ---------------------------------------------------------------- commands */

struct command {
    const char *name;
    const char *args; /* the arguments after the command's options */
    const char *help; /* lines separated by '\n' */
    int (*run)(ball_game *g, const struct settings *set, int argc, char **argv);
};

static int cmd_perft(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_divide(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_legal(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_apply(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_trace(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_show(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_record(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_replay(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_svg(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_engine(ball_game *g, const struct settings *set, int argc, char **argv);
static int cmd_match(ball_game *g, const struct settings *set, int argc, char **argv);

static const struct command COMMANDS[] = {
    {"perft", "DEPTH [BPN]", "number of decision sequences of DEPTH decisions (0-64)", cmd_perft},
    {"divide", "DEPTH [BPN]", "'ACTION COUNT' per legal action, then 'total N'", cmd_divide},
    {"legal", "[BPN]", "legal actions, one per line, in square order (see below)", cmd_legal},
    {"apply", "BPN ACTION...", "apply the actions in order, print the final BPN", cmd_apply},
    {"trace", "[BPN]",
     "read actions from standard input, one per line; print\n"
     "'BPN<TAB>legal actions' before and after each", cmd_trace},
    {"show", "[BPN]", "board diagram and game state", cmd_show},
    {"record", "[BPN]",
     "read actions from standard input, one per line (as\n"
     "trace); print the game record (docs/records.md)", cmd_record},
    {"replay", "FILE",
     "check the game records of FILE (- = standard input);\n"
     "print 'BPN<TAB>result' for each game", cmd_replay},
    {"svg", "[BPN]", "SVG picture of the position", cmd_svg},
    {"engine", "[--searcher search|mcts] [--net FILE] [--log FILE]", "serve a searcher over BEP (docs/protocol.md)", cmd_engine},
    {"match", "--engine cmd=CMD ... --engine ... [--games N] ...",
     "play BEP engines against each other (docs/match.md)", cmd_match},
};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

/* ---------------------------------------------------------------- help */

#define HELP_COLUMN 24

/* "  LEFT    help line 1\n" + further help lines under the first. */
static void help_entry(FILE *out, const char *left, const char *help)
{
    int n = fprintf(out, "  %s", left);
    if (n >= HELP_COLUMN) {
        putc('\n', out);
        n = 0;
    }
    while (*help) {
        size_t len = strcspn(help, "\n");
        fprintf(out, "%*s%.*s\n", HELP_COLUMN - n, "", (int)len, help);
        n = 0;
        help += len;
        if (*help == '\n')
            help++;
    }
}

/* "--name ARG" of an option. */
static void option_text(const struct option_spec *o, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* "perft [--threads N] DEPTH [BPN]": a command, its options, its arguments. */
static void command_synopsis(const struct command *c, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", c->name);
    for (size_t k = 0; k < N_OPTIONS && n < len; k++) {
        char opt[64];
        if (OPTIONS[k].command == NULL || strcmp(OPTIONS[k].command, c->name) != 0)
            continue;
        option_text(&OPTIONS[k], opt, sizeof opt);
        n += (size_t)snprintf(buf + n, len - n, " [%s]", opt);
    }
    if (n < len)
        snprintf(buf + n, len - n, " %s", c->args);
}

/* The short usage of a bare `ball`: the synopsis and the command names. */
static void short_usage(FILE *out)
{
    fputs("usage: ball [OPTIONS] COMMAND [ARGS]\n"
          "commands:", out);
    for (size_t c = 0; c < N_COMMANDS; c++)
        fprintf(out, " %s", COMMANDS[c].name);
    fputs("\nball --help for the full help, man ball for the manual\n", out);
}

/* The command a mistyped WORD most likely meant: the nearest within edit
 * distance 2, else one that WORD (2 bytes or more) begins or is the
 * beginning of; NULL if none. */
static const char *suggest_command(const char *word)
{
    const char *best = NULL;
    size_t best_d = 3, lw = strlen(word);
    for (size_t c = 0; c < N_COMMANDS; c++) {
        size_t d = edit_distance(word, COMMANDS[c].name);
        if (d < best_d) {
            best_d = d;
            best = COMMANDS[c].name;
        }
    }
    if (best != NULL || lw < 2)
        return best;
    for (size_t c = 0; c < N_COMMANDS; c++) {
        size_t ln = strlen(COMMANDS[c].name);
        if (strncmp(word, COMMANDS[c].name, lw < ln ? lw : ln) == 0)
            return COMMANDS[c].name;
    }
    return NULL;
}

static void usage(FILE *out)
{
    char left[128];
    fputs("usage: ball [OPTIONS] COMMAND [ARGS]\n"
          "\n"
          "commands (BPN defaults to the standard start; quote it, it has spaces):\n", out);
    for (size_t c = 0; c < N_COMMANDS; c++) {
        command_synopsis(&COMMANDS[c], left, sizeof left);
        help_entry(out, left, COMMANDS[c].help);
    }
    fputs("\noptions (before the command; each at most once):\n", out);
    for (size_t k = 0; k < N_OPTIONS; k++) {
        if (OPTIONS[k].command != NULL)
            continue;
        option_text(&OPTIONS[k], left, sizeof left);
        help_entry(out, left, OPTIONS[k].help);
    }
    for (size_t c = 0; c < N_COMMANDS; c++) {
        int header = 0;
        for (size_t k = 0; k < N_OPTIONS; k++) {
            if (OPTIONS[k].command == NULL || strcmp(OPTIONS[k].command, COMMANDS[c].name) != 0)
                continue;
            if (!header++)
                fprintf(out, "\noptions of %s (right after it):\n", COMMANDS[c].name);
            option_text(&OPTIONS[k], left, sizeof left);
            help_entry(out, left, OPTIONS[k].help);
        }
    }
    fputs("\nActions are listed (legal, divide, trace) in square order, compared piece\n"
          "by piece: squares first, by index (row by row from A1, so G9 before G13\n"
          "before A15), then numbers by value, then other characters by byte; so\n"
          "`end` comes after the actions of pieces.\n"
          "Errors exit with status 2 (1: out of memory or a failed write).\n", out);
}

/* ---------------------------------------------------------------- parsing */

/* Reads a decimal number made of digits only. Returns 0 and the value,
 * -1 when @p s is not such a number, -2 when it is above @p max. */
static int parse_number(const char *s, long max, long *out)
{
    long v = 0;
    int too_big = 0;
    if (s == NULL || *s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        if (v > (max - (*s - '0')) / 10)
            too_big = 1; /* keep checking that the rest are digits */
        else
            v = v * 10 + (*s - '0');
    }
    if (too_big)
        return -2;
    *out = v;
    return 0;
}

/* Parses the options at argv[*i...] that belong to @p command (NULL: the
 * global ones), stopping at the first argument that is not one or at
 * "--". Returns 0 or an exit status after printing the error. */
static int parse_options(int argc, char **argv, int *i, const char *command, struct settings *set,
                         unsigned char given[N_OPTIONS])
{
    /* messages start "ball: " or "ball: perft: " */
    char where[32];
    snprintf(where, sizeof where, "%s%s", command ? command : "", command ? ": " : "");
    for (; *i < argc && strncmp(argv[*i], "--", 2) == 0; (*i)++) {
        const char *arg = argv[*i], *value = NULL;
        size_t name_len = strcspn(arg, "=");
        const struct option_spec *o = NULL;
        size_t k;
        if (strcmp(arg, "--") == 0) {
            (*i)++;
            return 0;
        }
        for (k = 0; k < N_OPTIONS; k++) {
            const char *cmd = OPTIONS[k].command;
            if ((cmd == NULL) != (command == NULL) || (cmd && strcmp(cmd, command) != 0))
                continue;
            if (strlen(OPTIONS[k].name) == name_len && strncmp(arg, OPTIONS[k].name, name_len) == 0) {
                o = &OPTIONS[k];
                break;
            }
        }
        if (o == NULL) {
            fprintf(stderr, "ball: %sunknown option '%.40s' (see ball --help)\n", where, arg);
            return EXIT_USAGE;
        }
        if (given[k]++) {
            fprintf(stderr, "ball: %soption %s given twice\n", where, o->name);
            return EXIT_USAGE;
        }
        if (arg[name_len] == '=')
            value = arg + name_len + 1;
        if (o->kind == ARG_FLAG) {
            if (value) {
                fprintf(stderr, "ball: %soption %s takes no value\n", where, o->name);
                return EXIT_USAGE;
            }
            *(int *)((char *)set + o->target) = 1;
            continue;
        }
        if (value == NULL) {
            if (*i + 1 >= argc) {
                fprintf(stderr, "ball: %soption %s needs a value (%s)\n", where, o->name, o->arg);
                return EXIT_USAGE;
            }
            value = argv[++*i];
        }
        if (o->kind == ARG_TEXT) {
            *(const char **)((char *)set + o->target) = value;
            continue;
        }
        long v = 0;
        if (parse_number(value, o->max, &v) != 0 || v < o->min) {
            fprintf(stderr, "ball: %sbad value '%.40s' for %s: expected an integer from %ld to %ld\n",
                    where, value, o->name, o->min, o->max);
            return EXIT_USAGE;
        }
        *(long *)((char *)set + o->target) = v;
    }
    return 0;
}

/* Reads a perft/divide depth: 0 to BALL_MAX_PERFT_DEPTH. */
static int parse_depth(const char *command, const char *s, int *depth)
{
    long d = 0;
    int rc = parse_number(s, BALL_MAX_PERFT_DEPTH, &d);
    if (rc == -1) {
        fprintf(stderr, "ball: %s: bad depth '%.40s': expected an integer from 0 to %d\n", command, s,
                BALL_MAX_PERFT_DEPTH);
        return EXIT_USAGE;
    }
    if (rc == -2) {
        fprintf(stderr, "ball: %s: depth %.40s is too deep: the maximum is %d (BALL_MAX_PERFT_DEPTH)\n",
                command, s, BALL_MAX_PERFT_DEPTH);
        return EXIT_USAGE;
    }
    *depth = (int)d;
    return 0;
}

/* ---------------------------------------------------------------- helpers */

/* One legal action and its N2 text, for sorting. */
struct action_text {
    ball_action action;
    char text[BALL_ACTION_TEXT_MAX];
};

/* The square named at the start of @p s ("G9" in "G9-F10"): its index and
 * the name's length in @p *len, or -1 when no square name starts there. */
static int square_at_text(const char *s, size_t *len)
{
    char name[BALL_SQUARE_TEXT_MAX];
    size_t n = 1;
    if (s[0] < 'A' || s[0] > 'M')
        return -1;
    name[0] = s[0];
    while (n < BALL_SQUARE_TEXT_MAX - 1 && s[n] >= '0' && s[n] <= '9') {
        name[n] = s[n];
        n++;
    }
    name[n] = '\0';
    int sq = ball_square_from_text(name);
    if (sq < 0)
        return -1;
    *len = n;
    return sq;
}

/* One token of an action text for sorting: a square name (category 0,
 * by index), a run of digits (1, by value) or any other byte (2). */
struct sort_token {
    int category;
    int value;         /* square index or byte */
    const char *digits; /* category 1: the digits without leading zeros */
    size_t len;         /* category 1: their number */
};

/* Reads the token at @p *s and moves @p *s past it. */
static void next_token(const char **s, struct sort_token *t)
{
    size_t len = 0;
    int sq = square_at_text(*s, &len);
    if (sq >= 0) {
        *t = (struct sort_token){0, sq, NULL, 0};
        *s += len;
    } else if (**s >= '0' && **s <= '9') {
        len = strspn(*s, "0123456789");
        *t = (struct sort_token){1, 0, *s, len};
        *s += len;
        while (t->len > 1 && *t->digits == '0')
            t->digits++, t->len--;
    } else {
        *t = (struct sort_token){2, (unsigned char)**s, NULL, 0};
        (*s)++;
    }
}

/* Square order of action texts, token by token: squares first, by index
 * (row by row: G9 before G13 before A15), then numbers by value ("pe+2"
 * before "pe+10"), then other bytes by value; a text that is a prefix of
 * another comes first; bytes break the remaining ties. */
static int compare_action_texts(const char *a, const char *b)
{
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        struct sort_token x, y;
        next_token(&a, &x);
        next_token(&b, &y);
        if (x.category != y.category)
            return x.category < y.category ? -1 : 1;
        if (x.category == 1) {
            if (x.len != y.len)
                return x.len < y.len ? -1 : 1;
            int c = strncmp(x.digits, y.digits, x.len);
            if (c != 0)
                return c;
        } else if (x.value != y.value) {
            return x.value < y.value ? -1 : 1;
        }
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return strcmp(a0, b0);
}

static int cmp_action_text(const void *a, const void *b)
{
    const struct action_text *x = a, *y = b;
    return compare_action_texts(x->text, y->text);
}

/* Writes the legal actions of @p g, in square order, into @p out (room
 * for BALL_MAX_ACTIONS). Returns their number or a negative ball_error. */
static int sorted_legal(ball_game *g, struct action_text *out)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        int rc = ball_action_to_text(acts[i], out[i].text, sizeof out[i].text);
        if (rc < 0)
            return rc;
        out[i].action = acts[i];
    }
    qsort(out, (size_t)n, sizeof *out, cmp_action_text);
    return n;
}

/* Reports an error on standard error: "ball: WHAT: message", the message
 * being @p msg, else the game's, else the code's. Returns the exit status. */
static int report(const char *what, const char *msg, int rc)
{
    if (msg == NULL || *msg == '\0')
        msg = ball_strerror(rc);
    fprintf(stderr, "ball: %s: %s\n", what, msg);
    return rc == BALL_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

static int fail(ball_game *g, const char *what, int rc)
{
    return report(what, g ? ball_errmsg(g) : NULL, rc);
}

/* Sets the position of @p g from the optional BPN argument. */
static int load_bpn(ball_game *g, const char *bpn)
{
    if (bpn == NULL)
        return 0;
    int rc = ball_position_from_text(g, bpn);
    if (rc < 0)
        return fail(g, "bad BPN", rc);
    return 0;
}

/* Parses and applies one action text; errors name it as "@p where @p index". */
static int apply_text(ball_game *g, const char *text, const char *where, unsigned long index)
{
    ball_action a = BALL_ACTION_NONE;
    char what[96];
    int rc = ball_action_from_text(g, text, &a);
    if (rc >= 0)
        rc = ball_apply(g, a);
    if (rc < 0) {
        snprintf(what, sizeof what, "%s %lu '%.40s'", where, index, text);
        return fail(g, what, rc);
    }
    return 0;
}

static int usage_error(const char *command)
{
    char synopsis[128];
    for (size_t c = 0; c < N_COMMANDS; c++) {
        if (strcmp(COMMANDS[c].name, command) != 0)
            continue;
        command_synopsis(&COMMANDS[c], synopsis, sizeof synopsis);
        fprintf(stderr, "ball: usage: ball [OPTIONS] %s\n", synopsis);
    }
    return EXIT_USAGE;
}

/* ---------------------------------------------------------------- perft
 * With --threads N the root actions are shared out among N threads. Each
 * thread works on its own clone of the game, made before any thread
 * starts, and takes the next root action from an atomic counter until
 * none is left, so threads that draw small subtrees simply take more of
 * them. The largest subtrees are handed out first, so that no thread is
 * left with a big one at the end while the others wait: from depth 4 on,
 * a first pass of the same kind counts each root action's subtree two
 * plies short (perft DEPTH-3 after it: 0.3-0.6% of the work from the
 * start), and the root actions are taken in decreasing order of that
 * estimate, ties in list order (docs/performance.md, "Threads"). Each
 * root action's count is written by the one thread that took it; errors
 * stay in the thread's own record; an atomic flag tells the others to
 * stop early. Everything is read after the threads are joined. */

/* From this depth on, the root actions are ordered by an estimate. */
#define ESTIMATE_MIN_DEPTH 4

struct perft_shared {
    const ball_action *acts; /* the root decisions */
    const int *order;        /* the order in which they are taken */
    uint64_t *counts;        /* their counts */
    int n;
    int depth;
    atomic_int next;
    atomic_int done;
    atomic_int failed;
    /* progress on standard error, when it is a terminal */
    const char *label;       /* NULL: none */
    struct timespec start;
    atomic_int shown;
};

struct perft_worker {
    struct perft_shared *shared;
    ball_game *game; /* this worker's own clone */
    pthread_t thread;
    int rc;          /* BALL_OK or the first error of this worker */
    char err[ERR_MAX];
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "ball: perft 9: 12/55 root decisions, 3.2 s", rewritten in place; only
 * after the first second, so that quick runs print nothing. */
static void show_progress(struct perft_shared *sh, int done)
{
    double s = seconds_since(&sh->start);
    if (!sh->label || s < 1.0)
        return;
    atomic_store(&sh->shown, 1);
    fprintf(stderr, "\rball: %s: %d/%d root decisions, %.1f s", sh->label, done, sh->n, s);
    fflush(stderr);
}

static void *perft_work(void *arg)
{
    struct perft_worker *w = arg;
    struct perft_shared *sh = w->shared;
    while (!atomic_load(&sh->failed)) {
        int j = atomic_fetch_add(&sh->next, 1);
        if (j >= sh->n)
            break;
        int i = sh->order[j];
        int rc = ball_apply(w->game, sh->acts[i]);
        if (rc == BALL_OK) {
            rc = ball_perft(w->game, sh->depth - 1, &sh->counts[i]);
            int undo = ball_undo(w->game);
            if (rc == BALL_OK && undo < 0)
                rc = undo;
        }
        if (rc < 0) {
            char text[BALL_ACTION_TEXT_MAX];
            if (ball_action_to_text(sh->acts[i], text, sizeof text) < 0)
                strcpy(text, "?");
            w->rc = rc;
            snprintf(w->err, sizeof w->err, "after %s: %s", text,
                     *ball_errmsg(w->game) ? ball_errmsg(w->game) : ball_strerror(rc));
            atomic_store(&sh->failed, 1);
            break;
        }
        show_progress(sh, atomic_fetch_add(&sh->done, 1) + 1);
    }
    return NULL;
}

/* The perft counts at @p depth - 1 after each of the @p n root decisions
 * @p acts of @p g, into @p counts, with @p threads threads taking them in
 * the order @p order; progress on standard error under @p label (NULL:
 * none) when it is a terminal. On failure the message is in @p err. */
static int run_roots(ball_game *g, const ball_action *acts, const int *order, int n, int depth,
                     int threads, uint64_t *counts, const char *label, char *err, size_t errlen)
{
    struct perft_shared *sh;
    struct perft_worker *w;
    int started = 0, workers, rc = BALL_OK;

    *err = '\0';
    sh = calloc(1, sizeof *sh);
    if (sh == NULL)
        return BALL_E_NOMEM;
    sh->acts = acts;
    sh->order = order;
    sh->counts = counts;
    sh->n = n;
    sh->depth = depth;
    sh->label = isatty(fileno(stderr)) ? label : NULL;
    clock_gettime(CLOCK_MONOTONIC, &sh->start);
    atomic_init(&sh->next, 0);
    atomic_init(&sh->done, 0);
    atomic_init(&sh->failed, 0);
    atomic_init(&sh->shown, 0);
    workers = threads < n ? threads : n;
    if (workers < 1)
        workers = 1;
    w = calloc((size_t)workers, sizeof *w);
    if (w == NULL) {
        free(sh);
        return BALL_E_NOMEM;
    }
    /* All clones first: no thread runs while the game is read. */
    for (int t = 0; t < workers && rc == BALL_OK; t++) {
        w[t].shared = sh;
        rc = ball_game_clone(&w[t].game, g);
    }
    if (rc == BALL_OK) {
        /* the calling thread is worker 0 */
        while (started + 1 < workers &&
               pthread_create(&w[started + 1].thread, NULL, perft_work, &w[started + 1]) == 0)
            started++;
        perft_work(&w[0]);
        for (int t = 1; t <= started; t++)
            pthread_join(w[t].thread, NULL);
        for (int t = 0; t < workers && rc == BALL_OK; t++) {
            if (w[t].rc < 0) {
                rc = w[t].rc;
                snprintf(err, errlen, "%s", w[t].err);
            }
        }
    }
    if (atomic_load(&sh->shown))
        fputs("\r\033[K", stderr); /* clear the progress line */
    for (int t = 0; t < workers; t++)
        ball_game_free(w[t].game);
    free(w);
    free(sh);
    return rc;
}

/* run_roots() over the @p n root decisions @p acts, the largest subtrees
 * first when there are several threads and @p depth is at least
 * ESTIMATE_MIN_DEPTH: their order comes from a first pass two plies
 * shallower. The counts are those of run_roots() in list order. */
static int count_roots(ball_game *g, const ball_action *acts, int n, int depth, int threads,
                       uint64_t *counts, const char *label, char *err, size_t errlen)
{
    int order[BALL_MAX_ACTIONS];
    uint64_t size[BALL_MAX_ACTIONS];
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (threads > 1 && n > 1 && depth >= ESTIMATE_MIN_DEPTH) {
        int rc = run_roots(g, acts, order, n, depth - 2, threads, size, NULL, err, errlen);
        if (rc < 0)
            return rc;
        for (int i = 1; i < n; i++) { /* insertion sort: stable, n is small */
            int j = i, v = order[i];
            for (; j > 0 && size[order[j - 1]] < size[v]; j--)
                order[j] = order[j - 1];
            order[j] = v;
        }
    }
    return run_roots(g, acts, order, n, depth, threads, counts, label, err, errlen);
}

/* perft of @p g with @p threads threads; on failure the message is in @p err. */
static int parallel_perft(ball_game *g, int depth, int threads, uint64_t *count, char *err,
                          size_t errlen)
{
    ball_action acts[BALL_MAX_ACTIONS];
    uint64_t counts[BALL_MAX_ACTIONS];
    char label[32];
    int rc, n;

    *err = '\0';
    if (depth < 2) {
        rc = ball_perft(g, depth, count);
        if (rc < 0)
            snprintf(err, errlen, "%s", ball_errmsg(g));
        return rc;
    }
    n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n < 0) {
        snprintf(err, errlen, "%s", ball_errmsg(g));
        return n;
    }
    snprintf(label, sizeof label, "perft %d", depth);
    rc = count_roots(g, acts, n, depth, threads, counts, label, err, errlen);
    *count = 0;
    for (int i = 0; i < n && rc == BALL_OK; i++)
        *count += counts[i];
    return rc;
}

/* ---------------------------------------------------------------- commands */

static int cmd_perft(ball_game *g, const struct settings *set, int argc, char **argv)
{
    char err[ERR_MAX];
    int depth, rc;
    uint64_t count = 0;
    if (argc < 1 || argc > 2)
        return usage_error("perft");
    if ((rc = parse_depth("perft", argv[0], &depth)) != 0)
        return rc;
    if ((rc = load_bpn(g, argc > 1 ? argv[1] : NULL)) != 0)
        return rc;
    rc = parallel_perft(g, depth, set->threads > 0 ? (int)set->threads : 1, &count, err, sizeof err);
    if (rc < 0)
        return report("perft", err, rc);
    printf("%llu\n", (unsigned long long)count);
    return 0;
}

static int cmd_divide(ball_game *g, const struct settings *set, int argc, char **argv)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    ball_action roots[BALL_MAX_ACTIONS];
    uint64_t counts[BALL_MAX_ACTIONS];
    uint64_t total = 0;
    char err[ERR_MAX], label[32];
    int depth, n, rc;
    if (argc < 1 || argc > 2)
        return usage_error("divide");
    if ((rc = parse_depth("divide", argv[0], &depth)) != 0)
        return rc;
    if (depth < 1) {
        fputs("ball: divide: bad depth '0': divide needs a depth of at least 1\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argc > 1 ? argv[1] : NULL)) != 0)
        return rc;
    n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    for (int i = 0; i < n; i++)
        roots[i] = acts[i].action;
    /* Count everything first so that nothing is printed on failure. */
    snprintf(label, sizeof label, "divide %d", depth);
    rc = count_roots(g, roots, n, depth, set->threads > 0 ? (int)set->threads : 1, counts, label, err,
                     sizeof err);
    if (rc < 0)
        return report("divide", err, rc);
    for (int i = 0; i < n; i++) {
        printf("%s %llu\n", acts[i].text, (unsigned long long)counts[i]);
        total += counts[i];
    }
    printf("total %llu\n", (unsigned long long)total);
    return 0;
}

static int cmd_legal(ball_game *g, const struct settings *set, int argc, char **argv)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    int n, rc;
    (void)set;
    if (argc > 1)
        return usage_error("legal");
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    for (int i = 0; i < n; i++)
        puts(acts[i].text);
    return 0;
}

static int cmd_apply(ball_game *g, const struct settings *set, int argc, char **argv)
{
    char bpn[BALL_BPN_MAX];
    int rc;
    (void)set;
    if (argc < 1)
        return usage_error("apply");
    if ((rc = load_bpn(g, argv[0])) != 0)
        return rc;
    for (int i = 1; i < argc; i++)
        if ((rc = apply_text(g, argv[i], "action", (unsigned long)i)) != 0)
            return rc;
    rc = ball_position_to_text(g, bpn, sizeof bpn);
    if (rc < 0)
        return fail(g, "BPN", rc);
    puts(bpn);
    return 0;
}

/* Prints "BPN<TAB>actions" for the current position and flushes. */
static int trace_line(ball_game *g)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    char bpn[BALL_BPN_MAX];
    int rc = ball_position_to_text(g, bpn, sizeof bpn);
    if (rc < 0)
        return fail(g, "BPN", rc);
    int n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    fputs(bpn, stdout);
    putchar('\t');
    for (int i = 0; i < n; i++) {
        if (i > 0)
            putchar(' ');
        fputs(acts[i].text, stdout);
    }
    putchar('\n');
    if (fflush(stdout) != 0) {
        perror("ball: standard output");
        return EXIT_INTERNAL;
    }
    return 0;
}

enum { LINE_EOF = -1, LINE_TOO_LONG = -2, LINE_NUL = -3, LINE_ERROR = -4 };

/* Reads one line of @p in into @p buf (@p cap bytes) without its newline.
 * Returns its length, or LINE_EOF at the end of the input, LINE_TOO_LONG,
 * LINE_NUL (the line holds a NUL byte) or LINE_ERROR (read error). */
static long read_line(FILE *in, char *buf, size_t cap)
{
    size_t len = 0;
    int c, nul = 0, any = 0;
    while ((c = getc(in)) != EOF) {
        any = 1;
        if (c == '\n')
            break;
        if (c == '\0')
            nul = 1;
        if (len + 1 >= cap)
            return LINE_TOO_LONG;
        buf[len++] = (char)c;
    }
    if (ferror(in))
        return LINE_ERROR;
    if (!any)
        return LINE_EOF;
    buf[len] = '\0';
    return nul ? LINE_NUL : (long)len;
}

static int cmd_trace(ball_game *g, const struct settings *set, int argc, char **argv)
{
    char line[TRACE_LINE_MAX + 1];
    unsigned long lineno = 0;
    long len;
    int rc;
    (void)set;
    if (argc > 1)
        return usage_error("trace");
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    if ((rc = trace_line(g)) != 0)
        return rc;
    while ((len = read_line(stdin, line, sizeof line)) != LINE_EOF) {
        lineno++;
        if (len == LINE_ERROR) {
            perror("ball: trace: standard input");
            return EXIT_USAGE;
        }
        if (len == LINE_TOO_LONG) {
            fprintf(stderr, "ball: trace: line %lu too long (more than %d characters)\n", lineno,
                    TRACE_LINE_MAX);
            return EXIT_USAGE;
        }
        if (len == LINE_NUL) {
            fprintf(stderr, "ball: trace: NUL byte in line %lu\n", lineno);
            return EXIT_USAGE;
        }
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if (strspn(line, " \t") == (size_t)len)
            continue; /* blank line */
        if ((rc = apply_text(g, line, "line", lineno)) != 0)
            return rc;
        if ((rc = trace_line(g)) != 0)
            return rc;
    }
    return 0;
}

/* ---------------------------------------------------------------- show */

static const char *team_name(int team)
{
    return team == BALL_ATK ? "ATK" : "DEF";
}

/* Card mode (R10): PE and the cards still in each hand. */
static void show_cards(const ball_game *g, const ball_cardset *cards)
{
    for (int team = BALL_ATK; team <= BALL_DEF; team++) {
        int hand = ball_hand(g, team), size = ball_cardset_hand_size(cards, team), shown = 0;
        printf("%s: %d PE; cards:", team_name(team), ball_pe(g, team));
        for (int k = 0; k < size && k < BALL_MAX_HAND; k++) {
            const char *name = ball_cardset_card_name(cards, team, k);
            if (hand < 0 || !(hand >> k & 1))
                continue;
            printf(" card%d %s (%d PE, ", k + 1, name ? name : "?",
                   ball_cardset_card_value(cards, team, k, BALL_CARD_COST));
            if (ball_cardset_card_value(cards, team, k, BALL_CARD_EFFECT) == BALL_EFFECT_GAIN_PA)
                printf("+%d PA)", ball_cardset_card_value(cards, team, k, BALL_CARD_AMOUNT));
            else
                printf("a restricted piece acts again)");
            shown++;
        }
        printf(shown ? "\n" : " none\n");
    }
}

static int cmd_show(ball_game *g, const struct settings *set, int argc, char **argv)
{
    ball_rules rules;
    char bpn[BALL_BPN_MAX], name[BALL_SQUARE_TEXT_MAX];
    int rc;
    (void)set;
    if (argc > 1)
        return usage_error("show");
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    if ((rc = ball_position_to_text(g, bpn, sizeof bpn)) < 0)
        return fail(g, "BPN", rc);
    ball_rules_init(&rules, sizeof rules);
    if ((rc = ball_game_rules(g, &rules)) < 0)
        return fail(g, "rules", rc);

    board_print(g, NULL, stdout);
    board_print_legend(stdout);

    int result = ball_result(g);
    int ball_sq = ball_square_of_ball(g);
    int have_ball = ball_sq >= 0 && ball_sq < BALL_NUM_SQUARES &&
                    ball_square_to_text(ball_sq, name, sizeof name) > 0;
    if (result == BALL_ONGOING) {
        printf("%s to act, %s phase, PA %d%s, turn %d", team_name(ball_side(g)),
               ball_phase(g) == BALL_PHASE_RELEASE ? "release" : "action", ball_pa(g),
               ball_handoff_last(g) == 1 ? " (after a hand-off)" : "", ball_turn(g));
        if (rules.turn_limit > 0)
            printf(" of %u", rules.turn_limit);
    } else if (result == BALL_DRAW) {
        printf("game over, turn limit %u reached", rules.turn_limit);
    } else {
        printf("game over by a touchdown at turn %d", ball_turn(g));
    }
    printf("; result: %s\n",
           result == BALL_ATK_WON ? "ATK won" :
           result == BALL_DEF_WON ? "DEF won" :
           result == BALL_DRAW ? "draw" : "ongoing");
    if (have_ball) {
        int st = ball_square_state(g, ball_sq);
        printf("ball: %s on %s\n", st >= 0 && (st & BALL_SQ_LOOSE_BALL) ? "loose" : "held", name);
    }
    if (rules.cards)
        show_cards(g, rules.cards);
    printf("BPN: %s\n", bpn);
    return 0;
}

/* ---------------------------------------------------------------- records */

/* Writes the record of @p g to standard output. */
static int print_record(ball_game *g)
{
    int n = ball_record_write(g, NULL, 0);
    if (n < 0)
        return fail(g, "record", n);
    char *text = malloc((size_t)n + 1);
    if (text == NULL)
        return report("record", NULL, BALL_E_NOMEM);
    int rc = ball_record_write(g, text, (size_t)n + 1);
    if (rc >= 0)
        fputs(text, stdout);
    free(text);
    return rc < 0 ? fail(g, "record", rc) : 0;
}

static int cmd_record(ball_game *g, const struct settings *set, int argc, char **argv)
{
    char line[TRACE_LINE_MAX + 1];
    unsigned long lineno = 0;
    long len;
    int rc;
    if (argc > 1)
        return usage_error("record");
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    for (int t = 0; t < BALL_TAG_COUNT; t++) {
        static const char *const names[BALL_TAG_COUNT] = {"--event", "--site", "--date", "--atk", "--def"};
        if (set->tags[t] && (rc = ball_game_set_tag(g, t, set->tags[t])) < 0)
            return fail(g, names[t], rc);
    }
    while ((len = read_line(stdin, line, sizeof line)) != LINE_EOF) {
        lineno++;
        if (len == LINE_ERROR) {
            perror("ball: record: standard input");
            return EXIT_USAGE;
        }
        if (len == LINE_TOO_LONG || len == LINE_NUL) {
            fprintf(stderr, "ball: record: line %lu %s\n", lineno,
                    len == LINE_NUL ? "holds a NUL byte" : "is too long");
            return EXIT_USAGE;
        }
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if (strspn(line, " \t") == (size_t)len)
            continue; /* blank line */
        if ((rc = apply_text(g, line, "line", lineno)) != 0)
            return rc;
    }
    return print_record(g);
}

/* The whole of @p path ("-": standard input) in a malloc'd buffer. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *buf = f ? malloc(cap) : NULL;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap *= 2);
        if (bigger == NULL) {
            free(buf);
            buf = NULL;
        }
        buf = bigger;
    }
    if (f && (ferror(f) || buf == NULL)) {
        free(buf);
        buf = NULL;
    }
    if (f && f != stdin)
        fclose(f);
    *len = n;
    return buf;
}

static const char *result_text(int result)
{
    return result == BALL_ATK_WON ? "1-0" : result == BALL_DEF_WON ? "0-1" :
           result == BALL_DRAW ? "1/2-1/2" : "*";
}

static int cmd_replay(ball_game *g, const struct settings *set, int argc, char **argv)
{
    size_t len = 0, at = 0;
    char err[ERR_MAX], bpn[BALL_BPN_MAX], what[96];
    int rc, games = 0;
    (void)g;
    if (argc != 1)
        return usage_error("replay");
    char *text = read_file(argv[0], &len);
    if (text == NULL) {
        fprintf(stderr, "ball: replay: cannot read '%.200s'\n", argv[0]);
        return EXIT_USAGE;
    }
    ball_game *r = NULL;
    /* check every game first, so that nothing is printed for a bad file */
    while ((rc = ball_record_read(&r, text, len, &at, err, sizeof err)) == 1) {
        games++;
        if (set->ply > ball_history_length(r)) {
            fprintf(stderr, "ball: replay: %.200s: game %d has %d decisions, fewer than --ply %ld\n",
                    argv[0], games, ball_history_length(r), set->ply);
            ball_game_free(r);
            free(text);
            return EXIT_USAGE;
        }
        ball_game_free(r);
    }
    if (rc < 0) {
        snprintf(what, sizeof what, "replay: %.40s: game %d", argv[0], games + 1);
        free(text);
        return report(what, err, rc);
    }
    if (games == 0) {
        fprintf(stderr, "ball: replay: %.200s: no game record\n", argv[0]);
        free(text);
        return EXIT_USAGE;
    }
    at = 0;
    while (ball_record_read(&r, text, len, &at, err, sizeof err) == 1) {
        int ply = set->ply >= 0 ? (int)set->ply : ball_history_length(r);
        rc = ball_history_position(r, ply, bpn, sizeof bpn);
        if (rc >= 0 && set->ply >= 0)
            printf("%s\n", bpn);
        else if (rc >= 0)
            printf("%s\t%s\n", bpn, result_text(ball_result(r)));
        ball_game_free(r);
        if (rc < 0) {
            free(text);
            return report("replay", NULL, rc);
        }
    }
    free(text);
    return 0;
}

/* ---------------------------------------------------------------- svg */

static int cmd_svg(ball_game *g, const struct settings *set, int argc, char **argv)
{
    int squares[BALL_NUM_SQUARES];
    size_t n = 0;
    ball_action a = BALL_ACTION_NONE;
    int rc;
    if (argc > 1)
        return usage_error("svg");
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    for (const char *s = set->highlight; s && *s;) {
        char name[8];
        size_t k = strcspn(s, ",");
        snprintf(name, sizeof name, "%.*s", (int)(k < 7 ? k : 7), s);
        int sq = k < 4 ? ball_square_from_text(name) : BALL_E_NOTATION;
        if (sq < 0 || n >= BALL_NUM_SQUARES) {
            fprintf(stderr, "ball: svg: --highlight: '%.*s' is not a playable square (e.g. G5)\n",
                    (int)(k < 40 ? k : 40), s);
            return EXIT_USAGE;
        }
        squares[n++] = sq;
        s += k + (s[k] == ',');
    }
    if (set->action && (rc = ball_action_from_text(g, set->action, &a)) < 0)
        return fail(g, "svg: --action", rc);
    rc = ball_position_to_svg(g, squares, n, a, 0, NULL, 0);
    if (rc < 0)
        return fail(g, "svg", rc);
    char *text = malloc((size_t)rc + 1);
    if (text == NULL)
        return report("svg", NULL, BALL_E_NOMEM);
    rc = ball_position_to_svg(g, squares, n, a, 0, text, (size_t)rc + 1);
    if (rc >= 0)
        fputs(text, stdout);
    free(text);
    return rc < 0 ? fail(g, "svg", rc) : 0;
}

/* ---------------------------------------------------------------- main */

/* The game under the ruleset of the options: the --rules text first, then
 * --depth-zone and --turn-limit over it. */
static int make_game(const struct settings *set, ball_game **g)
{
    ball_rules rules;
    ball_cardset *cards = NULL;
    char err[ERR_MAX] = "";
    int rc;
    ball_rules_init(&rules, sizeof rules);
    if (set->rules_text) {
        rc = ball_rules_from_text(&rules, &cards, set->rules_text, err, sizeof err);
        if (rc < 0)
            return report("--rules", err, rc);
    }
    if (set->depth_zone >= 0)
        rules.end_zone_depth = (int)set->depth_zone;
    if (set->turn_limit >= 0)
        rules.turn_limit = (unsigned)set->turn_limit;
    rc = ball_game_new(g, &rules, err, sizeof err);
    ball_cardset_free(cards); /* the game has its own copy */
    if (rc < 0)
        return report("bad ruleset", err, rc);
    return 0;
}

int main(int argc, char **argv)
{
    struct settings set = {0, 0, NULL, -1, -1, -1, {NULL}, -1, NULL, NULL};
    unsigned char given[N_OPTIONS] = {0};
    const struct command *cmd = NULL;
    ball_game *g = NULL;
    int i = 1, rc;

    if (argc < 2) {
        short_usage(stderr);
        return EXIT_USAGE;
    }
    if ((rc = parse_options(argc, argv, &i, NULL, &set, given)) != 0)
        return rc;
    if (set.help) {
        usage(stdout);
        return fflush(stdout) == 0 ? 0 : EXIT_INTERNAL;
    }
    if (set.version) {
        printf("ball (libball) %s\n", ball_version_string());
        if (ball_version_number() != BALL_VERSION_NUMBER)
            fprintf(stderr, "ball: warning: built against libball %s\n", BALL_VERSION_STRING);
        return fflush(stdout) == 0 ? 0 : EXIT_INTERNAL;
    }
    if (i >= argc) {
        fputs("ball: missing command (see ball --help)\n", stderr);
        return EXIT_USAGE;
    }
    for (size_t k = 0; k < N_COMMANDS; k++)
        if (strcmp(argv[i], COMMANDS[k].name) == 0)
            cmd = &COMMANDS[k];
    if (cmd == NULL) {
        const char *guess = suggest_command(argv[i]);
        if (guess != NULL)
            fprintf(stderr, "ball: unknown command '%.40s'; did you mean '%s'?\n", argv[i], guess);
        else
            fprintf(stderr, "ball: unknown command '%.40s' (see ball --help)\n", argv[i]);
        return EXIT_USAGE;
    }
    i++;
    if (cmd->run == cmd_engine || cmd->run == cmd_match) /* they read their own options */
        return cmd->run(NULL, &set, argc - i, argv + i);
    if ((rc = parse_options(argc, argv, &i, cmd->name, &set, given)) != 0)
        return rc;
    if ((rc = make_game(&set, &g)) != 0)
        return rc;
    rc = cmd->run(g, &set, argc - i, argv + i);
    ball_game_free(g);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("ball: standard output");
        return rc ? rc : EXIT_INTERNAL;
    }
    return rc;
}

/* ---------------------------------------------------------------- engines */

/* tools/engine.c and tools/match.c; they take no global option. */
static int cmd_engine(ball_game *g, const struct settings *set, int argc, char **argv)
{
    (void)g;
    (void)set;
    return tool_engine_main(argc, argv);
}

static int cmd_match(ball_game *g, const struct settings *set, int argc, char **argv)
{
    (void)g;
    (void)set;
    return tool_match_main(argc, argv);
}
