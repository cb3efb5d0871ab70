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

/* Checks every game of the records @p text (@p len bytes) of @p path,
 * and that each has --ply decisions; 0 or an exit status after the
 * error. Nothing is printed for a bad file. */
static int check_records(const char *path, const char *text, size_t len, long ply)
{
    size_t at = 0;
    char err[ERR_MAX], what[96];
    int rc, games = 0;
    ball_game *r = NULL;
    while ((rc = ball_record_read(&r, text, len, &at, err, sizeof err)) == 1) {
        int n = ball_history_length(r);
        ball_game_free(r);
        games++;
        if (ply > n) {
            fprintf(stderr, "ball: replay: %.200s: game %d has %d decisions, fewer than --ply %ld\n",
                    path, games, n, ply);
            return EXIT_USAGE;
        }
    }
    if (rc < 0) {
        snprintf(what, sizeof what, "replay: %.40s: game %d", path, games + 1);
        return report(what, err, rc);
    }
    if (games == 0) {
        fprintf(stderr, "ball: replay: %.200s: no game record\n", path);
        return EXIT_USAGE;
    }
    return 0;
}

/* Prints each game's position after --ply decisions, or its final one
 * and its result; 0 or an exit status. */
static int print_records(const char *text, size_t len, long ply)
{
    size_t at = 0;
    char err[ERR_MAX], bpn[BALL_BPN_MAX];
    ball_game *r = NULL;
    while (ball_record_read(&r, text, len, &at, err, sizeof err) == 1) {
        int rc = ball_history_position(r, ply >= 0 ? (int)ply : ball_history_length(r), bpn, sizeof bpn);
        if (rc >= 0 && ply >= 0)
            printf("%s\n", bpn);
        else if (rc >= 0)
            printf("%s\t%s\n", bpn, result_text(ball_result(r)));
        ball_game_free(r);
        if (rc < 0)
            return report("replay", NULL, rc);
    }
    return 0;
}

int cmd_replay(ball_game *g, const struct settings *set, int argc, char **argv)
{
    size_t len = 0;
    char why[128];
    (void)g;
    if (argc != 1)
        return usage_error("replay");
    char *text = read_file(argv[0], &len, why, sizeof why);
    if (text == NULL) {
        fprintf(stderr, "ball: replay: cannot read '%.200s': %s\n", argv[0], why);
        return EXIT_USAGE;
    }
    int rc = check_records(argv[0], text, len, set->ply);
    if (rc == 0)
        rc = print_records(text, len, set->ply);
    free(text);
    return rc;
}
