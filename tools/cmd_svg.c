/* SPDX-License-Identifier: MIT */
/* ball svg: the SVG picture of a position. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

int cmd_svg(ball_game *g, const struct settings *set, int argc, char **argv)
{
    int squares[BALL_NUM_SQUARES];
    size_t n = 0;
    ball_action a = BALL_ACTION_NONE;
    int rc;
    if ((rc = optional_bpn(g, "svg", argc, argv)) != 0)
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
