/* SPDX-License-Identifier: MIT */
/*
 * edit_distance — the Levenshtein distance between two short words, for the
 * "did you mean" of the tool's command line and of `ball engine`.
 */
#ifndef TOOLS_EDIT_DISTANCE_H
#define TOOLS_EDIT_DISTANCE_H

#include <stddef.h>

/** Insertions, deletions and substitutions that turn @p a into @p b;
 *  (size_t)-1 when a word has 40 characters or more. */
size_t edit_distance(const char *a, const char *b);

#endif
