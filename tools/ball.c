/*
 * ball — command-line front end of libball.
 *
 *   ball [OPTIONS] perft DEPTH [BPN]    number of decision sequences (N3)
 *   ball [OPTIONS] divide DEPTH [BPN]   perft split by first decision
 *   ball [OPTIONS] legal [BPN]          legal decisions, byte order
 *   ball [OPTIONS] apply BPN ACTION...  BPN after the given decisions
 *   ball [OPTIONS] trace [BPN]          BPN and legal decisions after each
 *                                       decision read from standard input
 *   ball [OPTIONS] show [BPN]           board diagram
 *
 * The output formats are parsed by other programs; keep them stable. Every
 * error goes to standard error and exits with status 2 (1 for internal
 * failures such as running out of memory or a failed write).
 *
 * Only the public API of ball.h is used.
 */
#include "ball.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2    /* bad input: usage, BPN, action, depth, options */
#define EXIT_INTERNAL 1 /* out of memory, write error */
#define MAX_THREADS 256

/* One legal action and its N2 text, for sorting by text. */
struct action_text {
    ball_action action;
    char text[BALL_ACTION_TEXT_MAX];
};

static void usage(FILE *out)
{
    fputs("usage: ball [--rules TEXT] [--depth-zone N] [--turn-limit N] COMMAND [ARGS]\n"
          "\n"
          "commands (BPN defaults to the standard start; quote it, it has spaces):\n"
          "  perft [--threads N] DEPTH [BPN]\n"
          "                        number of decision sequences of DEPTH decisions,\n"
          "                        the root actions shared out among N threads\n"
          "  divide DEPTH [BPN]    'ACTION COUNT' per legal action, then 'total N'\n"
          "  legal [BPN]           legal actions, one per line, in byte order\n"
          "  apply BPN ACTION...   apply the actions in order, print the final BPN\n"
          "  trace [BPN]           read actions from standard input, one per line;\n"
          "                        print 'BPN<TAB>legal actions' before and after each\n"
          "  show [BPN]            board diagram and game state\n"
          "\n"
          "options (before the command):\n"
          "  --rules TEXT          whole ruleset in the text form of ball_rules_parse,\n"
          "                        e.g. 'zone=2 turns=100 earn.dodge=1 atk=Sprint:2:pa+1'\n"
          "  --depth-zone N        end zone depth in rows, 1-3 (default 1)\n"
          "  --turn-limit N        last turn that may be played, 0 = none (default 0)\n"
          "  --help                this text\n"
          "  --version             version of the library in use\n",
          out);
}

/* Parses a non-negative decimal number made of digits only; -1 on error
 * or when it exceeds max. */
static long parse_count(const char *s, long max)
{
    long v = 0;
    if (s == NULL || *s == '\0')
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
        if (v > max)
            return -1;
    }
    return v;
}

static int cmp_action_text(const void *a, const void *b)
{
    const struct action_text *x = a, *y = b;
    return strcmp(x->text, y->text);
}

/* Writes the legal actions of @p g, sorted by text, into @p out (room for
 * BALL_MAX_ACTIONS). Returns their number or a negative ball_error. */
static int sorted_legal(ball_game *g, struct action_text *out)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        int rc = ball_action_text(acts[i], out[i].text, sizeof out[i].text);
        if (rc < 0)
            return rc;
        out[i].action = acts[i];
    }
    qsort(out, (size_t)n, sizeof *out, cmp_action_text);
    return n;
}

/* Reports a library error on standard error: "ball: WHAT: message". */
static int fail(ball_game *g, const char *what, int rc)
{
    const char *msg = g ? ball_errmsg(g) : "";
    if (msg == NULL || *msg == '\0')
        msg = ball_strerror(rc);
    fprintf(stderr, "ball: %s: %s\n", what, msg);
    return rc == BALL_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

/* Sets the position of @p g from the optional BPN argument. */
static int load_bpn(ball_game *g, const char *bpn)
{
    if (bpn == NULL)
        return 0;
    int rc = ball_set_bpn(g, bpn);
    if (rc < 0)
        return fail(g, "bad BPN", rc);
    return 0;
}

/* Parses and applies one action text; reports errors with its number. */
static int apply_text(ball_game *g, const char *text, unsigned long index)
{
    ball_action a = BALL_ACTION_NONE;
    char what[96];
    int rc = ball_action_parse(g, text, &a);
    if (rc >= 0)
        rc = ball_apply(g, a);
    if (rc < 0) {
        snprintf(what, sizeof what, "action %lu '%.40s'", index, text);
        return fail(g, what, rc);
    }
    return 0;
}

static int parse_depth(const char *s, int *depth)
{
    long d = parse_count(s, 64);
    if (d < 0) {
        fprintf(stderr, "ball: bad depth '%s': expected an integer from 0 to 64\n", s);
        return EXIT_USAGE;
    }
    *depth = (int)d;
    return 0;
}

/* ---------------------------------------------------------------- commands */

/* ---------------------------------------------------------------- perft
 * With --threads N the root actions are shared out among N threads: each
 * works on its own clone of the game, taking the next root action from a
 * shared counter until none is left, so threads that draw small subtrees
 * simply take more of them. */

struct perft_job {
    const ball_game *root;
    ball_action acts[BALL_MAX_ACTIONS];
    int n;
    int depth;
    atomic_int next;
    uint64_t counts[BALL_MAX_ACTIONS];
    int error;
};

static void *perft_worker(void *arg)
{
    struct perft_job *job = arg;
    ball_game *g = NULL;
    if (ball_game_clone(&g, job->root) != BALL_OK) {
        job->error = BALL_E_NOMEM;
        return NULL;
    }
    for (int i; (i = atomic_fetch_add(&job->next, 1)) < job->n;) {
        if (ball_apply(g, job->acts[i]) != BALL_OK || ball_perft(g, job->depth - 1, &job->counts[i]) != BALL_OK
            || ball_undo(g) != BALL_OK)
            job->error = BALL_E_ILLEGAL;
    }
    ball_game_free(g);
    return NULL;
}

static int parallel_perft(ball_game *g, int depth, int threads, uint64_t *count)
{
    if (threads <= 1 || depth < 2)
        return ball_perft(g, depth, count);
    struct perft_job *job = calloc(1, sizeof *job);
    pthread_t tid[MAX_THREADS];
    int started = 0;
    if (!job)
        return BALL_E_NOMEM;
    job->root = g;
    job->depth = depth;
    job->n = ball_legal_actions(g, job->acts, BALL_MAX_ACTIONS);
    atomic_init(&job->next, 0);
    while (started < threads && pthread_create(&tid[started], NULL, perft_worker, job) == 0)
        started++;
    if (started == 0)
        perft_worker(job); /* no thread could start: do it here */
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    *count = 0;
    for (int i = 0; i < job->n; i++)
        *count += job->counts[i];
    int rc = job->n < 0 ? job->n : job->error;
    free(job);
    return rc;
}

static int cmd_perft(ball_game *g, int argc, char **argv)
{
    int depth, rc, threads = 1;
    uint64_t count = 0;
    if (argc >= 2 && strcmp(argv[0], "--threads") == 0) {
        long t = parse_count(argv[1], MAX_THREADS);
        if (t < 1) {
            fprintf(stderr, "ball: bad thread count '%s': expected 1 to %d\n", argv[1], MAX_THREADS);
            return EXIT_USAGE;
        }
        threads = (int)t;
        argc -= 2;
        argv += 2;
    }
    if (argc < 1 || argc > 2) {
        fputs("ball: usage: ball perft [--threads N] DEPTH [BPN]\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = parse_depth(argv[0], &depth)) != 0)
        return rc;
    if ((rc = load_bpn(g, argc > 1 ? argv[1] : NULL)) != 0)
        return rc;
    rc = parallel_perft(g, depth, threads, &count);
    if (rc < 0)
        return fail(g, "perft", rc);
    printf("%llu\n", (unsigned long long)count);
    return 0;
}

static int cmd_divide(ball_game *g, int argc, char **argv)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    uint64_t counts[BALL_MAX_ACTIONS];
    uint64_t total = 0;
    int depth, n, rc;
    if (argc < 1 || argc > 2) {
        fputs("ball: usage: ball divide DEPTH [BPN]\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = parse_depth(argv[0], &depth)) != 0)
        return rc;
    if (depth < 1) {
        fputs("ball: bad depth '0': divide needs a depth of at least 1\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argc > 1 ? argv[1] : NULL)) != 0)
        return rc;
    n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    /* Count everything first so that nothing is printed on failure. */
    for (int i = 0; i < n; i++) {
        rc = ball_apply(g, acts[i].action);
        if (rc < 0)
            return fail(g, acts[i].text, rc);
        rc = ball_perft(g, depth - 1, &counts[i]);
        if (ball_undo(g) < 0 && rc >= 0)
            rc = BALL_E_NO_HISTORY;
        if (rc < 0)
            return fail(g, acts[i].text, rc);
        total += counts[i];
    }
    for (int i = 0; i < n; i++)
        printf("%s %llu\n", acts[i].text, (unsigned long long)counts[i]);
    printf("total %llu\n", (unsigned long long)total);
    return 0;
}

static int cmd_legal(ball_game *g, int argc, char **argv)
{
    struct action_text acts[BALL_MAX_ACTIONS];
    int n, rc;
    if (argc > 1) {
        fputs("ball: usage: ball legal [BPN]\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    n = sorted_legal(g, acts);
    if (n < 0)
        return fail(g, "legal actions", n);
    for (int i = 0; i < n; i++)
        puts(acts[i].text);
    return 0;
}

static int cmd_apply(ball_game *g, int argc, char **argv)
{
    char bpn[BALL_BPN_MAX];
    int rc;
    if (argc < 1) {
        fputs("ball: usage: ball apply BPN ACTION...\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argv[0])) != 0)
        return rc;
    for (int i = 1; i < argc; i++)
        if ((rc = apply_text(g, argv[i], (unsigned long)i)) != 0)
            return rc;
    rc = ball_get_bpn(g, bpn, sizeof bpn);
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
    int rc = ball_get_bpn(g, bpn, sizeof bpn);
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

static int cmd_trace(ball_game *g, int argc, char **argv)
{
    char line[256];
    unsigned long lineno = 0;
    int rc;
    if (argc > 1) {
        fputs("ball: usage: ball trace [BPN] < ACTIONS\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    if ((rc = trace_line(g)) != 0)
        return rc;
    while (fgets(line, sizeof line, stdin) != NULL) {
        size_t len = strlen(line);
        lineno++;
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        else if (!feof(stdin)) {
            fprintf(stderr, "ball: line %lu: line too long\n", lineno);
            return EXIT_USAGE;
        }
        if (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if (strspn(line, " \t") == len)
            continue; /* blank line */
        if ((rc = apply_text(g, line, lineno)) != 0)
            return rc;
        if ((rc = trace_line(g)) != 0)
            return rc;
    }
    if (ferror(stdin)) {
        perror("ball: standard input");
        return EXIT_USAGE;
    }
    return 0;
}

/* ---------------------------------------------------------------- show */

/* Appends the letter of piece code @p p and its single-piece marks. */
static size_t piece_text(int p, int with_marks, char *out)
{
    static const char letters[] = "?XOS";
    size_t n = 0;
    char c = letters[p & BALL_PIECE_TYPE_MASK];
    out[n++] = (p & BALL_PIECE_DEF) ? (char)(c - 'A' + 'a') : c;
    if (p & BALL_PIECE_BALL)
        out[n++] = '*';
    if (with_marks && (p & BALL_PIECE_DOWN))
        out[n++] = '_';
    if (with_marks && (p & BALL_PIECE_RESTRICTED))
        out[n++] = '!';
    return n;
}

/* Text of one playable square, at most 5 characters:
 *   "."      vacant          "@"      loose ball
 *   "X*!"    one piece with its marks (* ball, _ down, ! restricted)
 *   "X*o_+"  a stack: upper piece then lower piece, + when fresh. */
static void square_text(ball_game *g, int sq, char out[8])
{
    int st = ball_square_state(g, sq);
    size_t n = 0;
    if (st < 0 || !(st & BALL_SQ_PIECE)) {
        out[n++] = (st >= 0 && (st & BALL_SQ_LOOSE_BALL)) ? '@' : '.';
    } else if (st & BALL_SQ_STACK) {
        int up = ball_piece(g, sq, BALL_UPPER);
        int lo = ball_piece(g, sq, BALL_LOWER);
        n += piece_text(up < 0 ? 0 : up, 1, out + n);
        n += piece_text(lo < 0 ? 0 : lo, 1, out + n);
        if (st & BALL_SQ_FRESH)
            out[n++] = '+';
    } else {
        int p = ball_piece(g, sq, BALL_UPPER);
        n += piece_text(p < 0 ? 0 : p, 1, out + n);
    }
    out[n] = '\0';
}

static const char *team_name(int team)
{
    return team == BALL_ATK ? "ATK" : "DEF";
}

/* Card mode (R10): PE and the cards still in each hand. */
static void show_cards(const ball_game *g, const ball_cards *cards)
{
    for (int team = BALL_ATK; team <= BALL_DEF; team++) {
        int hand = ball_hand(g, team);
        printf("%s: %ld PE; cards:", team_name(team), ball_pe(g, team));
        for (int k = 0; k < cards->hand_size[team]; k++) {
            const ball_card *c = &cards->hand[team][k];
            if (!(hand >> k & 1))
                continue;
            printf(" card%d %s (%d PE, ", k + 1, c->name, c->cost);
            if (c->effect == BALL_EFFECT_GAIN_PA)
                printf("+%d PA)", c->amount);
            else
                printf("a restricted piece acts again)");
        }
        printf(hand ? "\n" : " none\n");
    }
}

static int cmd_show(ball_game *g, int argc, char **argv)
{
    ball_rules rules;
    char bpn[BALL_BPN_MAX], line[128], cell[8], name[8];
    int rc;
    if (argc > 1) {
        fputs("ball: usage: ball show [BPN]\n", stderr);
        return EXIT_USAGE;
    }
    if ((rc = load_bpn(g, argc > 0 ? argv[0] : NULL)) != 0)
        return rc;
    if ((rc = ball_get_bpn(g, bpn, sizeof bpn)) < 0)
        return fail(g, "BPN", rc);
    ball_rules_init(&rules, sizeof rules);
    if ((rc = ball_game_rules(g, &rules)) < 0)
        return fail(g, "rules", rc);

    const char *header = "   A     B     C     D     E     F     G     H     I     J     K     L     M";
    puts(header);
    for (int row = BALL_NUM_ROWS; row >= 1; row--) {
        size_t len;
        memset(line, ' ', sizeof line);
        snprintf(line, sizeof line, "%2d ", row);
        line[3] = ' ';
        for (int col = 1; col <= BALL_NUM_COLS; col++) {
            int sq = ball_square_at(col, row);
            if (sq < 0)
                continue; /* unplayable: left blank */
            square_text(g, sq, cell);
            memcpy(line + 3 + 6 * (col - 1), cell, strlen(cell));
        }
        len = 3 + 6 * BALL_NUM_COLS;
        while (len > 0 && line[len - 1] == ' ')
            len--;
        line[len] = '\0';
        fputs(line, stdout);
        if (row > BALL_NUM_ROWS - rules.end_zone_depth)
            fputs("   end zone: ATK scores", stdout);
        else if (row <= rules.end_zone_depth)
            fputs("   end zone: DEF scores", stdout);
        putchar('\n');
    }
    puts(header);

    puts("X O S = ATK, x o s = DEF; * ball, _ knocked down, ! restricted, @ loose ball;");
    puts("two letters = stack (upper then lower), + = fresh stack");

    int result = ball_result(g);
    int ball_sq = ball_ball_square(g);
    if (ball_sq >= 0 && ball_square_name(ball_sq, name, sizeof name) < 0)
        strcpy(name, "?");
    if (result == BALL_ONGOING) {
        printf("%s to act, %s phase, PA %d%s, turn %u",
               team_name(ball_side(g)),
               ball_phase(g) == BALL_PHASE_RELEASE ? "release" : "action",
               ball_pa(g), ball_handoff_last(g) == 1 ? " (after a hand-off)" : "",
               ball_turn(g));
        if (rules.turn_limit > 0)
            printf(" of %u", rules.turn_limit);
    } else if (result == BALL_DRAW) {
        printf("game over, turn limit %u reached", rules.turn_limit);
    } else {
        printf("game over by a touchdown at turn %u", ball_turn(g));
    }
    printf("; result: %s\n",
           result == BALL_ATK_WON ? "ATK won" :
           result == BALL_DEF_WON ? "DEF won" :
           result == BALL_DRAW ? "draw" : "ongoing");
    if (ball_sq >= 0) {
        int st = ball_square_state(g, ball_sq);
        printf("ball: %s on %s\n",
               st >= 0 && (st & BALL_SQ_LOOSE_BALL) ? "loose" : "held", name);
    }
    if (rules.cards)
        show_cards(g, rules.cards);
    printf("BPN: %s\n", bpn);
    return 0;
}

/* ---------------------------------------------------------------- main */

struct command {
    const char *name;
    int (*run)(ball_game *g, int argc, char **argv);
};

int main(int argc, char **argv)
{
    static const struct command commands[] = {
        {"perft", cmd_perft}, {"divide", cmd_divide}, {"legal", cmd_legal},
        {"apply", cmd_apply}, {"trace", cmd_trace},   {"show", cmd_show},
    };
    ball_rules rules;
    ball_cards cards;
    ball_game *g = NULL;
    int i = 1, rc;

    ball_rules_init(&rules, sizeof rules);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0) {
            usage(stdout);
            return fflush(stdout) == 0 ? 0 : EXIT_INTERNAL;
        }
        if (strcmp(opt, "--version") == 0) {
            printf("ball (libball) %s\n", ball_version_string());
            if (ball_version_number() != BALL_VERSION_NUMBER)
                fprintf(stderr, "ball: warning: built against libball %s\n",
                        BALL_VERSION_STRING);
            return fflush(stdout) == 0 ? 0 : EXIT_INTERNAL;
        }
        if (strcmp(opt, "--rules") == 0) {
            char err[256];
            if (i + 1 >= argc) {
                fputs("ball: --rules needs a ruleset text\n", stderr);
                return EXIT_USAGE;
            }
            if (ball_rules_parse(&rules, &cards, argv[++i], err, sizeof err) != BALL_OK) {
                fprintf(stderr, "ball: %s\n", err);
                return EXIT_USAGE;
            }
            continue;
        }
        if (strcmp(opt, "--depth-zone") == 0 || strcmp(opt, "--turn-limit") == 0) {
            long v = i + 1 < argc ? parse_count(argv[i + 1], 1000000000L) : -1;
            if (v < 0) {
                fprintf(stderr, "ball: %s needs a non-negative integer\n", opt);
                return EXIT_USAGE;
            }
            if (opt[2] == 'd')
                rules.end_zone_depth = (int)v;
            else
                rules.turn_limit = (unsigned)v;
            i++;
            continue;
        }
        fprintf(stderr, "ball: unknown option '%s'\n", opt);
        usage(stderr);
        return EXIT_USAGE;
    }
    if (i >= argc) {
        fputs("ball: missing command\n", stderr);
        usage(stderr);
        return EXIT_USAGE;
    }
    const struct command *cmd = NULL;
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (strcmp(argv[i], commands[k].name) == 0)
            cmd = &commands[k];
    if (cmd == NULL) {
        fprintf(stderr, "ball: unknown command '%s'\n", argv[i]);
        usage(stderr);
        return EXIT_USAGE;
    }

    rc = ball_game_new(&g, &rules);
    if (rc < 0) {
        char err[256];
        ball_rules_check(&rules, err, sizeof err);
        fprintf(stderr, "ball: bad ruleset: %s\n", rc == BALL_E_NOMEM ? ball_strerror(rc) : err);
        return rc == BALL_E_NOMEM ? EXIT_INTERNAL : EXIT_USAGE;
    }
    rc = cmd->run(g, argc - i - 1, argv + i + 1);
    ball_game_free(g);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("ball: standard output");
        return rc ? rc : EXIT_INTERNAL;
    }
    return rc;
}
