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
 * This file is the dispatcher: the option and command tables, the help,
 * main. The commands are in tools/cmd_*.c (tool.h), engine and match in
 * engine.c and match*.c. Only the public API of ball.h is used.
 */
#define _POSIX_C_SOURCE 200809L

#include "engine.h"
#include "options.h"
#include "tool.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- options
 * Every option is one row of OPTIONS: its name, the kind of its argument,
 * where the value goes (a field of struct settings), its range and its
 * help text. Global options come before the command; an option with a
 * command name comes right after that command. --help is generated from
 * the table. */

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
    const char *best = options_nearest(word, COMMANDS, N_COMMANDS, sizeof COMMANDS[0]);
    size_t lw = strlen(word);
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

/* 1 when option @p k belongs to @p command (NULL: the global ones). */
static int option_of(size_t k, const char *command)
{
    const char *cmd = OPTIONS[k].command;
    return cmd == NULL ? command == NULL : command != NULL && strcmp(cmd, command) == 0;
}

/* The getopt_long table of the options of @p command, the index of each
 * in OPTIONS in @p row; ended by a zero entry. */
static void long_options(const char *command, struct option *out, size_t *row)
{
    size_t n = 0;
    for (size_t k = 0; k < N_OPTIONS; k++) {
        if (!option_of(k, command))
            continue;
        out[n] = (struct option){OPTIONS[k].name + 2,
                                 OPTIONS[k].kind == ARG_FLAG ? no_argument : required_argument,
                                 NULL, 0};
        row[n++] = k;
    }
    out[n] = (struct option){NULL, 0, NULL, 0};
}

/* After "unknown option '--threads'": " (an option of perft, divide: give
 * it after the command)" when @p text is a command's option, " (an option
 * of ball: give it before the command)" when it is a global one, else
 * " (see ball --help)". */
static void other_command_hint(const char *text, char *buf, size_t len)
{
    size_t name = strcspn(text, "="), n = 0;
    for (size_t k = 0; k < N_OPTIONS && n < len; k++) {
        if (strlen(OPTIONS[k].name) != name || strncmp(OPTIONS[k].name, text, name) != 0)
            continue;
        if (OPTIONS[k].command == NULL) {
            snprintf(buf, len, " (an option of ball: give it before the command)");
            return;
        }
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : " (an option of ",
                              OPTIONS[k].command);
    }
    if (n < len)
        snprintf(buf + n, len - n, "%s", n ? ": give it after the command)" : " (see ball --help)");
}

/* Stores the value @p value of option @p o into @p set; 0 or EXIT_USAGE. */
static int store_option(const struct option_spec *o, const char *value, const char *where,
                        struct settings *set)
{
    long v = 0;
    if (o->kind == ARG_FLAG) {
        *(int *)((char *)set + o->target) = 1;
        return 0;
    }
    if (o->kind == ARG_TEXT) {
        *(const char **)((char *)set + o->target) = value;
        return 0;
    }
    if (parse_number(value, o->max, &v) != 0 || v < o->min) {
        fprintf(stderr, "ball: %sbad value '%.40s' for %s: expected an integer from %ld to %ld\n",
                where, value, o->name, o->min, o->max);
        return EXIT_USAGE;
    }
    *(long *)((char *)set + o->target) = v;
    return 0;
}

/* Reads the options of @p command (NULL: the global ones) from argv[1...]
 * (argv[0] is the command's name, or the tool's), with getopt_long
 * (options.h); optind is then the first other argument. Returns 0 or an
 * exit status after printing the error. */
static int parse_options(int argc, char **argv, const char *command, struct settings *set,
                         unsigned char given[N_OPTIONS])
{
    struct option longopts[N_OPTIONS + 1];
    size_t row[N_OPTIONS];
    char where[32], msg[160], hint[96] = "", *value;
    int k;
    /* messages start "ball: " or "ball: perft: " */
    snprintf(where, sizeof where, "%s%s", command ? command : "", command ? ": " : "");
    long_options(command, longopts, row);
    optind = 0;
    for (;;) {
        int at = optind > 0 ? optind : 1; /* the argument read next */
        if ((k = options_next(argc, argv, longopts, &value, msg, sizeof msg)) == OPT_END)
            break;
        if (k == OPT_ERROR) {
            if (strstr(msg, "did you mean") == NULL && strncmp(msg, "unknown", 7) == 0)
                other_command_hint(argv[at], hint, sizeof hint);
            fprintf(stderr, "ball: %s%s%s\n", where, msg, hint);
            return EXIT_USAGE;
        }
        const struct option_spec *o = &OPTIONS[row[k]];
        if (given[row[k]]++) {
            fprintf(stderr, "ball: %soption %s given twice\n", where, o->name);
            return EXIT_USAGE;
        }
        if (store_option(o, value, where, set) != 0)
            return EXIT_USAGE;
    }
    return 0;
}

int usage_error(const char *command)
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

/* --help or --version: prints it; the exit status. */
static int help_or_version(const struct settings *set)
{
    if (set->help) {
        usage(stdout);
    } else {
        printf("ball (libball) %s\n", ball_version_string());
        if (ball_version_number() != BALL_VERSION_NUMBER)
            fprintf(stderr, "ball: warning: built against libball %s\n", BALL_VERSION_STRING);
    }
    return fflush(stdout) == 0 ? 0 : EXIT_INTERNAL;
}

/* The command named @p name; NULL after the error, with a suggestion. */
static const struct command *find_command(const char *name)
{
    for (size_t k = 0; k < N_COMMANDS; k++)
        if (strcmp(name, COMMANDS[k].name) == 0)
            return &COMMANDS[k];
    const char *guess = suggest_command(name);
    if (guess != NULL)
        fprintf(stderr, "ball: unknown command '%.40s'; did you mean '%s'?\n", name, guess);
    else
        fprintf(stderr, "ball: unknown command '%.40s' (see ball --help)\n", name);
    return NULL;
}

/* Runs @p cmd with its arguments (argv[0] its name): its options, the
 * game of the global ones, the command; the exit status. */
static int run_command(const struct command *cmd, struct settings *set, unsigned char *given,
                       int argc, char **argv)
{
    ball_game *g = NULL;
    int rc;
    if (cmd->run == cmd_engine || cmd->run == cmd_match) /* they read their own options */
        return cmd->run(NULL, set, argc, argv);
    if ((rc = parse_options(argc, argv, cmd->name, set, given)) != 0)
        return rc;
    int i = optind;
    if ((rc = make_game(set, &g)) != 0)
        return rc;
    rc = cmd->run(g, set, argc - i, argv + i);
    ball_game_free(g);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("ball: standard output");
        return rc ? rc : EXIT_INTERNAL;
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct settings set = {0, 0, NULL, -1, -1, -1, {NULL}, -1, NULL, NULL};
    unsigned char given[N_OPTIONS] = {0};
    const struct command *cmd;
    int rc;

    if (argc < 2) {
        short_usage(stderr);
        return EXIT_USAGE;
    }
    if ((rc = parse_options(argc, argv, NULL, &set, given)) != 0)
        return rc;
    if (set.help || set.version)
        return help_or_version(&set);
    if (optind >= argc) {
        fputs("ball: missing command (see ball --help)\n", stderr);
        return EXIT_USAGE;
    }
    if ((cmd = find_command(argv[optind])) == NULL)
        return EXIT_USAGE;
    return run_command(cmd, &set, given, argc - optind, argv + optind);
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
