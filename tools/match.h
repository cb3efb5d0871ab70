/* SPDX-License-Identifier: MIT */
/*
 * match — the parts of `ball match` (docs/match.md): match.c (main, the
 * openings), match_args.c (the arguments), match_engines.c (engines as
 * child processes), match_play.c (the workers and one game),
 * match_records.c (the records file), match_report.c (the statistics and
 * the result). The tool's own header, not the library's.
 */
#ifndef TOOLS_MATCH_H
#define TOOLS_MATCH_H

#include "ball.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

#define EXIT_USAGE 2
#define MAX_OPTIONS 32
#define REASON_MAX 200
#define MAX_DECISIONS_DEFAULT 5000

enum limit_kind { LIM_NODES, LIM_PLAYOUTS, LIM_MOVETIME, LIM_TC };

struct engine_spec {
    const char *cmd;
    const char *name;
    int n_options;
    const char *opt_name[MAX_OPTIONS];
    const char *opt_value[MAX_OPTIONS];
    int limit_kind; /* its own nodes=, playouts= or movetime=, or -1 */
    long limit;
};

struct config {
    struct engine_spec eng[2];
    int n_engines;
    long games;
    int limit_kind;
    long limit;     /* nodes, playouts, movetime ms, or tc base ms */
    long tc_inc;    /* tc increment ms */
    int concurrency;
    const char *openings_path;
    const char *records_path;
    const char *json_path;
    const char *rules_text;
    long margin_ms;
    long max_decisions;
    int sprt;
    double elo0, elo1, alpha, beta;
    char limit_text[200];
};

/* A running engine process. */
struct proc {
    pid_t pid; /* 0: none */
    int in, out, err;
    char buf[16384];
    size_t len;
    char errtail[256]; /* the end of its stderr: a ring, errpos the next byte */
    size_t errpos, errlen;
    int out_eof, err_eof;
    int slot; /* its entry in children[] */
    char said[160]; /* its last "info string error: " line, without those words */
};

struct match {
    struct config cfg;
    char **openings;
    int n_openings;
    ball_rules rules;
    ball_cardset *cards;
    pthread_mutex_t lock;
    /* guarded by lock */
    unsigned char *done; /* per game index: played (in the records or now) */
    signed char *a_score; /* per game: engine 1's score x2 (0,1,2), -1 unknown */
    long next;
    long played, w, d, l;
    long forfeits[2];
    long term_touchdown, term_turnlimit, term_forfeit, term_adjudicated;
    double pairs[5];
    int stop;
    double llr, llr_penta, lower, upper;
    /* the SPRT's decision where the LLR first reached a bound (1 H1, -1
     * H0, 0 none yet), the games then counted and the LLR then: the
     * games still running are finished and counted after it and may move
     * the LLR back inside, but the test decided at its stopping time */
    int verdict;
    long decided_at;
    double llr_decided;
    FILE *records;
    int workers;
    int tty;
    int failed; /* an I/O error */
};

struct player {
    struct proc proc;
    const struct engine_spec *spec;
    const char *rules_text;
};

struct outcome {
    int result;         /* ball_result(), or for a forfeit the winner's */
    int forfeit_side;   /* -1, or the team that forfeited */
    char reason[REASON_MAX + 320]; /* "forfeit DEF (NAME): " WHY " (it said: " ... ")" */
};

/* match_engines.c */
double now_ms(void);
/* Before the first engine: the signals, and on Linux the match made the
 * subreaper of what its engines leave behind. */
void engines_init(void);
/* Kills and reaps the match's children that are no engines: what an
 * engine left behind outside its process group (a setsid grandchild),
 * adopted by the match when the engine ended (Linux; elsewhere nothing). */
void reap_orphans(void);
/* Kills the engines' process groups and ends the process with @p sig. */
void on_signal(int sig);
/* Sends one line; 0 or -1. */
int proc_send(struct proc *p, const char *line);
/* Reads one line into @p line before @p deadline (ms, now_ms()). Returns 0;
 * -1 timeout; -2 end of output. */
int proc_readline(struct proc *p, char *line, size_t cap, double deadline);
/* Why the process ended (after its output closed), into @p why. */
void proc_death(struct proc *p, char *why, size_t whylen);
/* Ends the process (killed unless already reaped) and closes its pipes. */
void proc_close(struct proc *p);
/* A `newgame` (the engine started first when it is not running); 0, or -1
 * with the reason in @p why. */
int player_newgame(struct player *pl, long margin, char *why, size_t whylen);
/* Asks the engine to quit, then kills what is left of it. */
void player_quit(struct player *pl);

/* match_play.c: a worker thread, playing games until none is left. */
void *worker(void *arg);

/* match_records.c */
/* The limit's text ("nodes 1000", "tc 400+5") into @p buf. */
const char *limit_of(const struct config *c, char *buf, size_t len);
/* Tags game @p idx (0-based) and appends its record to the records file. */
int write_record(struct match *m, ball_game *g, long idx, const struct outcome *o,
                 const char *atk, const char *def);
/* Opens the records file (created when missing): a regular file, locked
 * against a second match (flock, without waiting), the games of this match
 * already in it counted; m->records then appends. 0, or -1 after the
 * message. */
int open_records(struct match *m);

/* match_report.c */
/* Counts game @p idx (0-based), engine 1 playing team @p a_side: its
 * result (a forfeit's included), and the team that forfeited or -1. */
void count_game(struct match *m, long idx, int a_side, int result, int forfeit_side);
/* The status line on standard error. */
void status_line(struct match *m);
/* The result as text, and as JSON into @p path (0 or -1). */
void report_text(const struct match *m, FILE *f);
int report_json(const struct match *m, const char *path);

/* match_args.c */
/* Reads the arguments into @p c: 0, -1 (--help printed), or an exit status. */
int parse_args(int argc, char **argv, struct config *c);
/* "ball: match: MESSAGE (ball match --help)" on standard error; EXIT_USAGE. */
int bad(const char *fmt, ...);

#endif
