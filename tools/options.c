/* SPDX-License-Identifier: MIT */
/* The tool's command lines through getopt_long; see options.h. */
#define _GNU_SOURCE /* getopt_long */

#include "options.h"

#include "edit_distance.h"

#include <stdio.h>
#include <string.h>

const char *options_nearest(const char *word, const void *table, size_t n, size_t stride)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t k = 0; k < n; k++) {
        const char *name = *(const char *const *)(const void *)((const char *)table + k * stride);
        size_t d = edit_distance(word, name);
        if (d < best_d) {
            best_d = d;
            best = name;
        }
    }
    return best;
}

static size_t count_options(const struct option *longopts)
{
    size_t n = 0;
    while (longopts[n].name != NULL)
        n++;
    return n;
}

/* The index of the option named exactly @p name (@p len bytes), or -1. */
static int exact_option(const struct option *longopts, const char *name, size_t len)
{
    for (int k = 0; longopts[k].name != NULL; k++)
        if (strlen(longopts[k].name) == len && strncmp(longopts[k].name, name, len) == 0)
            return k;
    return -1;
}

/* "unknown option 'TEXT'", with the nearest name when one is near. */
static int unknown(const struct option *longopts, const char *text, char *msg, size_t msglen)
{
    char name[64];
    const char *guess = NULL;
    if (strncmp(text, "--", 2) == 0) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(text + 2, "="), text + 2);
        guess = options_nearest(name, longopts, count_options(longopts), sizeof *longopts);
    }
    if (guess != NULL)
        snprintf(msg, msglen, "unknown option '%.40s'; did you mean '--%s'?", text, guess);
    else
        snprintf(msg, msglen, "unknown option '%.40s'", text);
    return OPT_ERROR;
}

int options_next(int argc, char **argv, const struct option *longopts, char **value,
                 char *msg, size_t msglen)
{
    int index = -1, at = optind > 0 ? optind : 1;
    opterr = 0; /* the messages are ours */
    int c = getopt_long(argc, argv, "+:", longopts, &index);
    const char *text = at < argc ? argv[at] : "";
    *value = optarg;
    if (c == -1)
        return OPT_END;
    size_t len = strncmp(text, "--", 2) == 0 ? strcspn(text + 2, "=") : 0;
    int exact = len > 0 ? exact_option(longopts, text + 2, len) : -1;
    if (c == ':' && exact >= 0) {
        snprintf(msg, msglen, "option --%s needs a value", longopts[exact].name);
        return OPT_ERROR;
    }
    if (c == '?' && exact >= 0 && longopts[exact].has_arg == no_argument) {
        snprintf(msg, msglen, "option --%s takes no value", longopts[exact].name);
        return OPT_ERROR;
    }
    if (c == '?' || c == ':' || exact < 0 || exact != index)
        return unknown(longopts, text, msg, msglen); /* also an abbreviation */
    return index;
}
