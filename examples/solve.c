/*
 * solve — can the side to move force a touchdown within N of its own
 * turns? An example of game-tree search with ball_apply / ball_undo.
 *
 *   solve [--turns N] [--depth-zone D] [--max-nodes M] [--tt-bits B] BPN
 *
 * The side to move (S) wins a line when one of its pieces scores (R11.1).
 * S chooses its decisions (an OR node); the opponent's decisions must all
 * lose (an AND node), the opponent's release phase included. A turn is a
 * whole sequence of decisions — actions, `end`, release tasks — and the
 * hand-over happens inside ball_apply(), so the search simply walks the
 * decisions and notices when the coach to act changes.
 *
 * Iterative deepening: budgets of 1, 2, ... N own turns, each search
 * reusing what the previous ones proved in a transposition table keyed by
 * ball_hash() (64-bit, turn number left out — exactly what a table wants).
 * An entry remembers the smallest budget proven to win and the largest
 * proven to fail, since a win within k turns is a win within k + 1.
 *
 * N counts S's own turns, the current one included (even when only its
 * release phase is left), so `--turns 1` asks for a touchdown in this turn.
 *
 * On success the line of play is printed turn by turn: a shortest win for
 * S (fewest own turns; a touchdown at once when there is one), and for the
 * opponent the defence that holds out longest. The line is always printed
 * to the touchdown (the node limit does not apply to it); should it stop
 * early all the same (out of memory), it says so ("line cut").
 *
 * Exit status (also in --help): 0 a forced touchdown exists, 1 none within
 * N turns, 2 bad input, 3 the node limit stopped the search, 4 out of
 * memory, 5 / 6 / 7 the game is already over: ATK won / DEF won / drawn.
 */
#include "args.h"
#include "ball.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TURNS 8
/* Decisions per turn are few (2 PA of actions, hand-offs, `end`, at most
 * 14 release tasks): 40 plies per turn is plenty. */
#define PLIES_PER_TURN 40

/* Exit statuses. */
enum {
    EXIT_WIN = 0,       /* a forced touchdown exists */
    EXIT_NO_WIN = 1,    /* none within N turns */
    EXIT_USAGE = 2,     /* bad input */
    EXIT_NODES = 3,     /* the node limit stopped the search */
    EXIT_NOMEM = 4,     /* out of memory */
    EXIT_OVER_ATK = 5,  /* the game is over: ATK won */
    EXIT_OVER_DEF = 6,  /* the game is over: DEF won */
    EXIT_OVER_DRAW = 7  /* the game is over: drawn */
};

#define NO_WIN 127  /* tt_entry.win: no budget proven to win */
#define NO_FAIL (-1) /* tt_entry.fail: no budget proven to fail */

struct tt_entry {
    uint64_t key;  /* ball_hash of the position; 0 marks an empty slot */
    int8_t win;    /* smallest budget proven to win */
    int8_t fail;   /* largest budget proven to fail */
};

struct search {
    ball_game *g;
    int side;                 /* S, the side that wants to score */
    int won;                  /* BALL_ATK_WON or BALL_DEF_WON for S */
    uint64_t nodes, max_nodes;
    int aborted;              /* the node limit (or memory) stopped the search */
    int nomem;                /* ... and it was memory */
    struct tt_entry *tt;
    size_t tt_mask;
    ball_action (*acts)[BALL_MAX_ACTIONS]; /* one buffer per ply */
    int max_ply;
};

static struct tt_entry *tt_slot(struct search *s, uint64_t key)
{
    return &s->tt[key & s->tt_mask];
}

/* The budget left after decision @p a was played by @p mover: one turn of
 * S's ends when the coach to act changes. */
static int budget_after(struct search *s, int mover, int budget)
{
    if (ball_result(s->g) != BALL_ONGOING)
        return budget;
    return (mover == s->side && ball_side(s->g) != mover) ? budget - 1 : budget;
}

/*
 * 1 if S can force a touchdown with at most @p budget more turns of its own
 * (the current one counts when S is to act), else 0.
 */
static int wins(struct search *s, int budget, int ply)
{
    int result = ball_result(s->g);
    if (result != BALL_ONGOING)
        return result == s->won;
    if (budget <= 0 || s->aborted)
        return 0;
    if (++s->nodes > s->max_nodes || ply >= s->max_ply) {
        s->aborted = 1;
        return 0;
    }

    uint64_t key = ball_hash(s->g);
    struct tt_entry *e = tt_slot(s, key);
    if (e->key == key) {
        if (e->win <= budget)
            return 1;
        if (e->fail >= budget)
            return 0;
    }

    int mover = ball_side(s->g);
    int or_node = mover == s->side; /* S picks one; the opponent must fail all */
    ball_action *acts = s->acts[ply];
    int n = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
    int value = or_node ? 0 : 1;
    for (int i = 0; i < n && value == !or_node; i++) {
        int rc = ball_apply_unchecked(s->g, acts[i]);
        if (rc != BALL_OK) {
            s->aborted = 1; /* out of memory (or the turn bound): give up */
            s->nomem = rc == BALL_E_NOMEM;
            return 0;
        }
        int w = wins(s, budget_after(s, mover, budget), ply + 1);
        ball_undo(s->g);
        value = or_node ? w : (value && w);
    }
    if (s->aborted)
        return 0; /* an unfinished search proves nothing */

    if (e->key != key) { /* replace whatever was there */
        e->key = key;
        e->win = NO_WIN;
        e->fail = NO_FAIL;
    }
    if (value && budget < e->win)
        e->win = (int8_t)budget;
    if (!value && budget > e->fail)
        e->fail = (int8_t)budget;
    return value;
}

/* The smallest budget <= @p budget with which S wins from here, or 0. */
static int smallest_win(struct search *s, int budget)
{
    for (int k = 1; k <= budget; k++)
        if (wins(s, k, 0))
            return k;
    return 0;
}

/* Prints the line of play from a position S wins within @p budget turns.
 * S plays a decision that wins soonest (fewest own turns counted from the
 * current one, a touchdown at once first); the opponent the one that holds
 * out longest. The node limit is lifted while the line is built, so the
 * line reaches the touchdown; if it stops early anyway (out of memory) it
 * says so. Plays the line on the game and takes it back. Returns 1 when
 * the line was cut. */
static int print_line(struct search *s, int budget)
{
    int turn = 0, cut = 0;
    size_t played = 0;
    ball_action acts[BALL_MAX_ACTIONS];
    uint64_t saved_max = s->max_nodes;

    s->max_nodes = UINT64_MAX;
    while (ball_result(s->g) == BALL_ONGOING && !s->aborted) {
        int mover = ball_side(s->g);
        int n = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
        int best_i = -1, best_k = 0;
        for (int i = 0; i < n && !s->aborted; i++) {
            /* k: 2 x the turns of S needed after acts[i], counted from S's
             * current (or next) turn, minus 1 for a touchdown at once;
             * -1: no win. Units are the same for all decisions of one
             * mover, so `end` no longer ties with a move that scores now. */
            int k, w;
            if (ball_apply(s->g, acts[i]) != BALL_OK) {
                cut = 1;
                break;
            }
            if (ball_result(s->g) == s->won) {
                k = 1;
            } else if (mover == s->side && ball_side(s->g) != mover) {
                w = smallest_win(s, budget - 1); /* S's turn is over */
                k = w > 0 ? 2 * (1 + w) : -1;
            } else {
                w = smallest_win(s, budget_after(s, mover, budget));
                k = w > 0 ? 2 * w : -1;
            }
            ball_undo(s->g);
            if (mover == s->side ? k >= 0 && (best_i < 0 || k < best_k)
                                 : best_i < 0 || k > best_k) {
                best_i = i;
                best_k = k;
            }
        }
        if (best_i < 0 || s->aborted) {
            cut = 1; /* cannot happen from a won position, but for memory */
            break;
        }
        if (ball_turn(s->g) != turn) {
            turn = ball_turn(s->g);
            printf("%s  turn %d, %s%s:", played ? "\n" : "", turn,
                   mover == BALL_ATK ? "ATK" : "DEF",
                   mover == s->side ? "" : " (longest defence)");
        }
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_to_text(acts[best_i], text, sizeof text);
        printf(" %s", text);
        if (ball_apply(s->g, acts[best_i]) != BALL_OK)
            break;
        played++;
        budget = budget_after(s, mover, budget);
    }
    printf("\n");
    cut = ball_result(s->g) != s->won;
    if (!cut)
        printf("  touchdown by %s at turn %d\n", s->side == BALL_ATK ? "ATK" : "DEF",
               ball_turn(s->g));
    else
        printf("  (line cut after %zu decision%s: %s; the verdict above stands)\n", played,
               played == 1 ? "" : "s", s->nomem ? "out of memory" : "search stopped");
    while (played-- > 0)
        ball_undo(s->g);
    s->max_nodes = saved_max;
    s->aborted = 0;
    return cut;
}

static void usage(FILE *out)
{
    fputs("usage: solve [--turns N] [--depth-zone D] [--max-nodes M] [--tt-bits B] 'BPN'\n"
          "Can the side to move force a touchdown within N of its own turns?\n"
          "  N: the side's own turns, 1-8 (default 2), counting the current one,\n"
          "     even when only its release phase is left: --turns 1 means this turn;\n"
          "  D: end-zone depth 1-3 (default 1);\n"
          "  M: node limit of the search (default 50000000); the winning line is\n"
          "     printed to the touchdown whatever M is;\n"
          "  B: log2 of transposition-table entries, 10-28 (default 20).\n"
          "  BPN has spaces: quote it as one argument.\n"
          "The line printed is a shortest win (fewest own turns) against the\n"
          "longest defence.\n"
          "exit status: 0 forced touchdown found; 1 none within N turns;\n"
          "  2 bad input; 3 node limit reached (verdict unknown); 4 out of memory;\n"
          "  5 the game is already over, ATK won; 6 ... DEF won; 7 ... drawn\n",
          out);
}

int main(int argc, char **argv)
{
    long turns = 2, depth_zone = 1, max_nodes = 50000000L, tt_bits = 20;
    const char *bpn = NULL;
    int extra = 0; /* positional arguments after the BPN */
    struct search s;
    ball_rules rules;
    char err[256] = "";
    int rc, found = 0, status;

    for (int i = 1; i < argc; i++) {
        long *target = NULL, min = 0, max = 0;
        if (strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--turns") == 0) {
            target = &turns, min = 1, max = MAX_TURNS;
        } else if (strcmp(argv[i], "--depth-zone") == 0) {
            target = &depth_zone, min = 1, max = 3;
        } else if (strcmp(argv[i], "--max-nodes") == 0) {
            target = &max_nodes, min = 1, max = 2000000000L;
        } else if (strcmp(argv[i], "--tt-bits") == 0) {
            target = &tt_bits, min = 10, max = 28;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "solve: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (bpn == NULL) {
            bpn = argv[i];
            continue;
        } else {
            extra++;
            continue;
        }
        if (i + 1 >= argc || (*target = parse_number(argv[i + 1], min, max)) < 0) {
            fprintf(stderr, "solve: %s needs a number from %ld to %ld\n", argv[i], min, max);
            return 2;
        }
        i++;
    }
    if (bpn == NULL) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (extra > 0 || strchr(bpn, ' ') == NULL) {
        /* A BPN has seven fields separated by spaces (N1): unquoted, the
         * shell splits it into several arguments. */
        fprintf(stderr, "solve: %s: a BPN is one argument with spaces in it; quote it, e.g.\n"
                        "  solve --turns 2 '7/6/7/6/3X*3/6/7/6/7/6/7/6/7/6/7/6/x6 ATK a 2 - 0/0 2'\n",
                extra > 0 ? "more than one position argument" : "this is not a whole BPN");
        return EXIT_USAGE;
    }

    memset(&s, 0, sizeof s);
    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = (int)depth_zone;
    rc = ball_game_new(&s.g, &rules, err, sizeof err);
    if (rc == BALL_OK)
        rc = ball_position_from_text(s.g, bpn);
    if (rc != BALL_OK) {
        const char *msg = s.g ? ball_errmsg(s.g) : err;
        fprintf(stderr, "solve: %s%s\n", s.g ? "bad BPN: " : "", *msg ? msg : ball_strerror(rc));
        ball_game_free(s.g);
        return rc == BALL_E_NOMEM ? EXIT_NOMEM : EXIT_USAGE;
    }
    s.side = ball_side(s.g);
    s.won = s.side == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON;
    s.max_nodes = (uint64_t)max_nodes;
    s.tt_mask = ((size_t)1 << tt_bits) - 1;
    s.tt = calloc(s.tt_mask + 1, sizeof *s.tt);
    s.max_ply = (int)(2 * turns + 1) * PLIES_PER_TURN;
    s.acts = malloc((size_t)s.max_ply * sizeof *s.acts);
    /* Apply never allocates while the history has room (ball.h). */
    if (s.tt == NULL || s.acts == NULL ||
        ball_history_reserve(s.g, (size_t)s.max_ply + 1) != BALL_OK) {
        fputs("solve: out of memory (try a smaller --tt-bits)\n", stderr);
        free(s.tt);
        free(s.acts);
        ball_game_free(s.g);
        return EXIT_NOMEM;
    }

    printf("position: %s\n", bpn);
    if (ball_result(s.g) != BALL_ONGOING) {
        int result = ball_result(s.g);
        printf("the game is already over: %s\n", result == BALL_ATK_WON   ? "ATK won"
                                                  : result == BALL_DEF_WON ? "DEF won"
                                                                           : "drawn");
        status = result == BALL_ATK_WON   ? EXIT_OVER_ATK
                 : result == BALL_DEF_WON ? EXIT_OVER_DEF
                                          : EXIT_OVER_DRAW;
    } else {
        const char *name = s.side == BALL_ATK ? "ATK" : "DEF";
        printf("side to move: %s\n", name);
        for (long k = 1; k <= turns && !found && !s.aborted; k++) {
            found = wins(&s, (int)k, 0);
            printf("within %ld turn%s: %s (%llu nodes)\n", k, k > 1 ? "s" : "",
                   s.nomem     ? "unknown, out of memory"
                   : s.aborted ? "unknown, node limit reached"
                   : found     ? "yes"
                               : "no",
                   (unsigned long long)s.nodes);
            if (found) {
                printf("%s forces a touchdown within %ld turn%s:\n", name, k, k > 1 ? "s" : "");
                print_line(&s, (int)k);
            }
        }
        if (!found && !s.aborted)
            printf("no forced touchdown for %s within %ld turn%s\n", name, turns,
                   turns > 1 ? "s" : "");
        status = found ? EXIT_WIN : s.nomem ? EXIT_NOMEM : s.aborted ? EXIT_NODES : EXIT_NO_WIN;
        if (status == EXIT_NOMEM)
            fputs("solve: out of memory\n", stderr);
    }
    free(s.tt);
    free(s.acts);
    ball_game_free(s.g);
    return status;
}
