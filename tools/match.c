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

static int load_openings(struct match *m)
{
    ball_game *g = NULL;
    char err[256];
    if (ball_game_new(&g, &m->rules, err, sizeof err) < 0)
        return bad("--rules: %s", err);
    if (m->cfg.openings_path == NULL) {
        char bpn[BALL_BPN_MAX];
        ball_position_to_text(g, bpn, sizeof bpn);
        ball_game_free(g);
        m->openings = malloc(sizeof *m->openings);
        if (m->openings == NULL || (m->openings[0] = strdup(bpn)) == NULL)
            return bad("out of memory");
        m->n_openings = 1;
        return 0;
    }
    FILE *f = fopen(m->cfg.openings_path, "r");
    if (f == NULL) {
        ball_game_free(g);
        return bad("--openings %s: %s", m->cfg.openings_path, strerror(errno));
    }
    char *line = NULL;
    size_t cap = 0, lno = 0;
    ssize_t len;
    int rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        if (ball_position_from_text(g, s) < 0) {
            rc = bad("--openings %s: line %zu: %s", m->cfg.openings_path, lno, ball_errmsg(g));
            break;
        }
        if (ball_result(g) != BALL_ONGOING) {
            rc = bad("--openings %s: line %zu: the game is already over", m->cfg.openings_path, lno);
            break;
        }
        char **o = realloc(m->openings, sizeof *o * (size_t)(m->n_openings + 1));
        if (o == NULL || (o[m->n_openings] = strdup(s)) == NULL) {
            if (o)
                m->openings = o;
            rc = bad("out of memory");
            break;
        }
        m->openings = o;
        m->n_openings++;
    }
    free(line);
    fclose(f);
    ball_game_free(g);
    if (rc == 0 && m->n_openings == 0)
        rc = bad("--openings %s: no position in the file", m->cfg.openings_path);
    return rc;
}

int tool_match_main(int argc, char **argv)
{
    struct match m;
    char err[256];
    int rc;
    memset(&m, 0, sizeof m);
    if ((rc = parse_args(argc, argv, &m.cfg)) != 0)
        return rc < 0 ? 0 : rc;
    ball_rules_init(&m.rules, sizeof m.rules);
    if (ball_rules_from_text(&m.rules, &m.cards, m.cfg.rules_text, err, sizeof err) < 0)
        return bad("--rules: %s", err);
    if ((rc = load_openings(&m)) != 0)
        goto out;
    engines_init();
    m.done = calloc((size_t)m.cfg.games, 1);
    m.a_score = malloc((size_t)m.cfg.games);
    if (m.done == NULL || m.a_score == NULL) {
        rc = bad("out of memory");
        goto out;
    }
    memset(m.a_score, -1, (size_t)m.cfg.games);
    pthread_mutex_init(&m.lock, NULL);
    m.tty = isatty(2);
    if (m.cfg.sprt)
        sprt_bounds(m.cfg.alpha, m.cfg.beta, &m.lower, &m.upper);
    if (m.cfg.records_path && open_records(&m) < 0) {
        rc = EXIT_USAGE;
        goto out;
    }
    pthread_t th[64];
    int n_th = 0;
    for (int i = 0; i < m.cfg.concurrency; i++)
        if (pthread_create(&th[n_th], NULL, worker, &m) == 0)
            n_th++;
    if (n_th == 0) {
        rc = bad("cannot start a thread");
        goto out;
    }
    for (int i = 0; i < n_th; i++)
        pthread_join(th[i], NULL);
    reap_orphans(); /* what the engines that quit left behind */
    if (m.tty)
        fputc('\n', stderr);
    report_text(&m, stdout);
    if (m.cfg.json_path && report_json(&m, m.cfg.json_path) < 0) {
        fprintf(stderr, "ball: match: --json %s: %s\n", m.cfg.json_path, strerror(errno));
        m.failed = 1;
    }
    rc = m.failed ? 1 : 0;
out:
    if (m.records)
        fclose(m.records);
    for (int i = 0; i < m.n_openings; i++)
        free(m.openings[i]);
    free(m.openings);
    free(m.done);
    free(m.a_score);
    ball_cardset_free(m.cards);
    return rc;
}
