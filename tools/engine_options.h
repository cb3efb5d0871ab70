/* SPDX-License-Identifier: MIT */
/*
 * engine_options — reading a `setoption` value against an option's line
 * (engine_searcher.h's engine_option), shared by the searchers behind
 * `ball engine`, so that every searcher refuses a bad value with the same
 * words.
 */
#ifndef TOOLS_ENGINE_OPTIONS_H
#define TOOLS_ENGINE_OPTIONS_H

#include "engine_searcher.h"

#include <stddef.h>

/** The index of option @p name among the @p n options @p opts; -1 with
 *  "unknown option ..." in @p err when there is none. */
int engine_option_find(const engine_option *opts, size_t n, const char *name, char *err,
                       size_t errlen);

/** Reads @p value for the spin option @p o: a decimal integer without
 *  sign within the option's min and max, into @p *out; 0, or -1 with a
 *  message naming the option in @p err. */
int engine_option_spin(const engine_option *o, const char *value, unsigned long long *out,
                       char *err, size_t errlen);

/** The same for a real option: a finite decimal number within min and max. */
int engine_option_real(const engine_option *o, const char *value, double *out, char *err,
                       size_t errlen);

/** Reads @p value for the combo option @p o: one of the words of its vars
 *  (exactly, case included), whose position among them (from 0) goes to
 *  @p *out; 0, or -1 with a message naming the option and the words. */
int engine_option_combo(const engine_option *o, const char *value, unsigned long long *out,
                        char *err, size_t errlen);

#endif
