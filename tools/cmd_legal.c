/* SPDX-License-Identifier: MIT */
/* ball legal, ball apply and ball trace: the legal decisions, and the
 * positions after decisions. */
#include "action_order.h"
#include "tool.h"

#include <string.h>

int cmd_legal(ball_game *g, const struct settings *set, int argc, char **argv)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    int n, rc;
    (void)set;
    if ((rc = optional_bpn(g, "legal", argc, argv)) != 0)
        return rc;
    n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    for (int i = 0; i < n; i++)
        puts(acts[i].text);
    return 0;
}

int cmd_apply(ball_game *g, const struct settings *set, int argc, char **argv)
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

int cmd_trace(ball_game *g, const struct settings *set, int argc, char **argv)
{
    int rc;
    (void)set;
    if ((rc = optional_bpn(g, "trace", argc, argv)) != 0)
        return rc;
    if ((rc = trace_line(g)) != 0)
        return rc;
    return apply_lines(g, "trace", trace_line);
}
