/* SPDX-License-Identifier: MIT */
/*
 * options — the tool's command lines read with getopt_long(3), the same
 * way in every command (ball.c, engine.c, match_args.c): long options
 * only, given in full (getopt_long would take `--rule` for `--rules`;
 * here an abbreviation is refused with a suggestion, so that a script
 * never depends on a prefix that a new option could make ambiguous),
 * "--name VALUE" or "--name=VALUE", and the first word that is not an
 * option ends them ("+" mode: no reordering of the arguments).
 */
#ifndef TOOLS_OPTIONS_H
#define TOOLS_OPTIONS_H

#include <getopt.h>
#include <stddef.h>

enum { OPT_ERROR = -2, OPT_END = -1 };

/**
 * The next option of argv[1...] (argv[0] is the command's name) among
 * @p longopts (ended by a zero entry; their `flag` NULL): its index in
 * @p longopts, with its value (NULL for no_argument) in @p *value; OPT_END
 * after the last option ("--" is passed over), the first other argument
 * then at argv[optind]; OPT_ERROR with a message in @p msg ("unknown
 * option '--rule'; did you mean '--rules'?", "option --games needs a
 * value", ...). Start a new command line with optind = 0.
 */
int options_next(int argc, char **argv, const struct option *longopts, char **value,
                 char *msg, size_t msglen);

/** The name among the @p n entries of @p table (each @p stride bytes,
 *  beginning with a `const char *` name) nearest to @p word within edit
 *  distance 2, the first of equals; NULL when none is that near. */
const char *options_nearest(const char *word, const void *table, size_t n, size_t stride);

#endif
