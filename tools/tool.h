/* SPDX-License-Identifier: MIT */
/*
 * tool — what the commands of the `ball` tool share. tools/ball.c is the
 * dispatcher (the option and command tables, the help, main); each
 * tools/cmd_*.c file holds commands, which read the settings of the
 * options and report errors through the helpers of tools/tool.c, so that
 * every command words its errors and exits the same way.
 */
#ifndef TOOLS_TOOL_H
#define TOOLS_TOOL_H

#include "ball.h"

#include <stddef.h>
#include <stdio.h>

#define EXIT_USAGE 2    /* bad input: usage, BPN, action, depth, options */
#define EXIT_INTERNAL 1 /* out of memory, write error */
#define MAX_THREADS 256
#define TRACE_LINE_MAX 255 /* longest line `trace` reads, without its newline */
#define ERR_MAX 256

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

/* A command: runs on a game made from the global options (NULL for the
 * commands that read their own options: engine, match), with the
 * arguments after its options. Returns the exit status. */
typedef int command_fn(ball_game *g, const struct settings *set, int argc, char **argv);

command_fn cmd_perft, cmd_divide;          /* cmd_perft.c */
command_fn cmd_legal, cmd_apply, cmd_trace; /* cmd_legal.c */
command_fn cmd_show;                       /* cmd_show.c */
command_fn cmd_record, cmd_replay;         /* cmd_record.c */
command_fn cmd_svg;                        /* cmd_svg.c */

/* ball.c: the usage line of @p command on standard error; EXIT_USAGE. */
int usage_error(const char *command);

/* tool.c: the helpers. */

/* Reads a decimal number made of digits only. Returns 0 and the value,
 * -1 when @p s is not such a number, -2 when it is above @p max. */
int parse_number(const char *s, long max, long *out);
/* Reads a perft/divide depth: 0 to BALL_MAX_PERFT_DEPTH. */
int parse_depth(const char *command, const char *s, int *depth);
/* Reports an error on standard error: "ball: WHAT: message", the message
 * being @p msg, else the game's, else the code's. Returns the exit status. */
int report(const char *what, const char *msg, int rc);
/* report() with the game's message. */
int fail(ball_game *g, const char *what, int rc);
/* Sets the position of @p g from the optional BPN argument. */
int load_bpn(ball_game *g, const char *bpn);
/* The arguments of a command that takes one optional BPN: the usage
 * error for more, else load_bpn(). */
int optional_bpn(ball_game *g, const char *command, int argc, char **argv);
/* Parses and applies one action text; errors name it as "@p where @p index". */
int apply_text(ball_game *g, const char *text, const char *where, unsigned long index);
/* Reads decisions from standard input, one per line (blank lines
 * skipped, a CR before the newline dropped), and applies them to @p g,
 * calling @p after (may be NULL) after each; 0 at the end of the input,
 * or an exit status after the error, which names the line. */
int apply_lines(ball_game *g, const char *command, int (*after)(ball_game *g));
/* The whole of @p path ("-": standard input), at most 256 MiB, in a
 * malloc'd buffer; NULL with the reason in @p why ("No such file or
 * directory"). */
char *read_file(const char *path, size_t *len, char *why, size_t whylen);

#endif
