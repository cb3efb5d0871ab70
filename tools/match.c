/* SPDX-License-Identifier: MIT */
/*
 * ball match — plays two BEP engines (docs/protocol.md) against each other,
 * in the spirit of cutechess-cli and fastchess (docs/match.md).
 *
 * Each engine is a child process (`sh -c CMD`) in a process group of its
 * own, talked to through pipes; every read has a deadline (poll), and an
 * engine that crashes, hangs past its time plus the margin, or answers a
 * malformed or illegal decision loses the game; it is then killed (its
 * whole process group) and started afresh for the next game. K worker
 * threads play K games at a time, each with its own pair of processes.
 * Games are numbered from 1; game 2k-1 and 2k start from opening k (in
 * the file's order, round and round), the first engine playing ATK in the
 * odd one and DEF in the even one. Every finished game is appended to the
 * --records file, whose games are counted again when a match is restarted
 * with it, so that only the games not yet in it are played.
 */
#define _POSIX_C_SOURCE 200809L

#include "engine.h"
#include "match.h"
#include "sprt.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The longest line of an openings file (a BPN is much shorter). */
#define LINE_MAX_OPENING 4096

/* Appends @p text (a BPN) to the openings; 0 or an exit status. */
static int append_opening(struct match *m, const char *text)
{
    char **o = realloc(m->openings, sizeof *o * (size_t)(m->n_openings + 1));
    if (o != NULL)
        m->openings = o;
    if (o == NULL || (o[m->n_openings] = strdup(text)) == NULL)
        return bad("out of memory");
    m->n_openings++;
    return 0;
}

/* Line @p lno of the openings file: blank or a comment, or a position of
 * a game still going on (checked on @p g), appended. 0 or an exit status. */
static int opening_line(struct match *m, ball_game *g, char *line, size_t lno)
{
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
        line[--len] = '\0';
    char *s = line + strspn(line, " \t");
    if (*s == '\0' || *s == '#')
        return 0;
    if (ball_position_from_text(g, s) < 0)
        return bad("--openings %s: line %zu: %s", m->cfg.openings_path, lno, ball_errmsg(g));
    if (ball_result(g) != BALL_ONGOING)
        return bad("--openings %s: line %zu: the game is already over", m->cfg.openings_path, lno);
    return append_opening(m, s);
}

/* The openings of --openings, or the standard start under the rules. */
static int load_openings(struct match *m)
{
    ball_game *g = NULL;
    char err[256], line[LINE_MAX_OPENING + 2];
    size_t lno = 0;
    int rc = 0;
    if (ball_game_new(&g, &m->rules, err, sizeof err) < 0)
        return bad("--rules: %s", err);
    if (m->cfg.openings_path == NULL) {
        ball_position_to_text(g, line, sizeof line);
        ball_game_free(g);
        return append_opening(m, line);
    }
    FILE *f = fopen(m->cfg.openings_path, "r");
    if (f == NULL) {
        ball_game_free(g);
        return bad("--openings %s: %s", m->cfg.openings_path, strerror(errno));
    }
    /* lines of a fixed size: a file without newlines (/dev/zero) cannot
     * grow one without end */
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        if (strchr(line, '\n') == NULL && !feof(f))
            rc = bad("--openings %s: line %zu: longer than %d bytes, or a NUL byte in it",
                     m->cfg.openings_path, lno + 1, LINE_MAX_OPENING);
        else
            rc = opening_line(m, g, line, ++lno);
    }
    fclose(f);
    ball_game_free(g);
    if (rc == 0 && m->n_openings == 0)
        rc = bad("--openings %s: no position in the file", m->cfg.openings_path);
    return rc;
}

/* Everything a match needs before its first game: the rules, the
 * openings, the signals and the subreaper, the per-game arrays, the SPRT
 * bounds and the records file. 0, or an exit status after the message. */
static int match_setup(struct match *m)
{
    char err[256];
    int rc;
    ball_rules_init(&m->rules, sizeof m->rules);
    if (ball_rules_from_text(&m->rules, &m->cards, m->cfg.rules_text, err, sizeof err) < 0)
        return bad("--rules: %s", err);
    if ((rc = load_openings(m)) != 0)
        return rc;
    engines_init();
    m->done = calloc((size_t)m->cfg.games, 1);
    m->a_score = malloc((size_t)m->cfg.games);
    if (m->done == NULL || m->a_score == NULL)
        return bad("out of memory");
    memset(m->a_score, -1, (size_t)m->cfg.games);
    m->tty = isatty(2);
    if (m->cfg.sprt)
        sprt_bounds(m->cfg.alpha, m->cfg.beta, &m->lower, &m->upper);
    if (m->cfg.records_path && open_records(m) < 0)
        return EXIT_USAGE;
    return 0;
}

/* Plays the games on --concurrency worker threads, then reports; the
 * exit status. */
static int match_run(struct match *m)
{
    pthread_t th[64];
    int n_th = 0;
    for (int i = 0; i < m->cfg.concurrency; i++)
        if (pthread_create(&th[n_th], NULL, worker, m) == 0)
            n_th++;
    if (n_th == 0)
        return bad("cannot start a thread");
    for (int i = 0; i < n_th; i++)
        pthread_join(th[i], NULL);
    reap_orphans(); /* what the engines that quit left behind */
    if (m->tty)
        fputc('\n', stderr);
    report_text(m, stdout);
    if (m->cfg.json_path && report_json(m, m->cfg.json_path) < 0) {
        fprintf(stderr, "ball: match: --json %s: %s\n", m->cfg.json_path, strerror(errno));
        m->failed = 1;
    }
    return m->failed ? 1 : 0;
}

int tool_match_main(int argc, char **argv)
{
    struct match m;
    int rc;
    memset(&m, 0, sizeof m);
    if ((rc = parse_args(argc, argv, &m.cfg)) != 0)
        return rc < 0 ? 0 : rc;
    pthread_mutex_init(&m.lock, NULL);
    if ((rc = match_setup(&m)) == 0)
        rc = match_run(&m);
    if (m.records)
        fclose(m.records);
    for (int i = 0; i < m.n_openings; i++)
        free(m.openings[i]);
    free(m.openings);
    free(m.done);
    free(m.a_score);
    ball_cardset_free(m.cards);
    pthread_mutex_destroy(&m.lock);
    return rc;
}
