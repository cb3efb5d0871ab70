/* SPDX-License-Identifier: MIT */
/* ball record and ball replay: game records (docs/records.md). */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

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

int cmd_record(ball_game *g, const struct settings *set, int argc, char **argv)
{
    static const char *const names[BALL_TAG_COUNT] = {"--event", "--site", "--date", "--atk", "--def"};
    int rc;
    if ((rc = optional_bpn(g, "record", argc, argv)) != 0)
        return rc;
    for (int t = 0; t < BALL_TAG_COUNT; t++)
        if (set->tags[t] && (rc = ball_game_set_tag(g, t, set->tags[t])) < 0)
            return fail(g, names[t], rc);
    if ((rc = apply_lines(g, "record", NULL)) != 0)
        return rc;
    return print_record(g);
}

static const char *result_text(int result)
{
    return result == BALL_ATK_WON ? "1-0" : result == BALL_DEF_WON ? "0-1" :
           result == BALL_DRAW ? "1/2-1/2" : "*";
}

int cmd_replay(ball_game *g, const struct settings *set, int argc, char **argv)
{
    size_t len = 0, at = 0;
    char err[ERR_MAX], bpn[BALL_BPN_MAX], what[96];
    int rc, games = 0;
    (void)g;
    if (argc != 1)
        return usage_error("replay");
    char why[128];
    char *text = read_file(argv[0], &len, why, sizeof why);
    if (text == NULL) {
        fprintf(stderr, "ball: replay: cannot read '%.200s': %s\n", argv[0], why);
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
