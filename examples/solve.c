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
 * On success the line of play is printed turn by turn: S's decisions, and
 * for the opponent the defence that holds out longest.
 *
 * Exit status: 0 a forced touchdown exists, 1 none within N turns, 2 bad
 * input, 3 the node limit stopped the search.
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
    int aborted;              /* the node limit was reached */
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
        if (ball_apply_unchecked(s->g, acts[i]) != BALL_OK) {
            s->aborted = 1; /* out of memory: give up */
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
 * S plays a decision that wins soonest; the opponent the one that holds
 * out longest. Plays the line on the game and takes it back. */
static void print_line(struct search *s, int budget)
{
    unsigned turn = 0;
    size_t played = 0;
    ball_action acts[BALL_MAX_ACTIONS];

    while (ball_result(s->g) == BALL_ONGOING && !s->aborted) {
        int mover = ball_side(s->g);
        int n = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
        int best_i = -1, best_k = 0;
        for (int i = 0; i < n; i++) {
            int k; /* S's turns still needed after acts[i]; -1: no win */
            if (ball_apply(s->g, acts[i]) != BALL_OK)
                return;
            if (ball_result(s->g) == s->won)
                k = 0;
            else
                k = smallest_win(s, budget_after(s, mover, budget)) - 1;
            ball_undo(s->g);
            if (mover == s->side ? k >= 0 && (best_i < 0 || k < best_k)
                                 : best_i < 0 || k > best_k) {
                best_i = i;
                best_k = k;
            }
        }
        if (best_i < 0)
            break; /* cannot happen from a won position */
        if (ball_turn(s->g) != turn) {
            turn = ball_turn(s->g);
            printf("%s  turn %u, %s%s:", played ? "\n" : "", turn,
                   mover == BALL_ATK ? "ATK" : "DEF",
                   mover == s->side ? "" : " (longest defence)");
        }
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_text(acts[best_i], text, sizeof text);
        printf(" %s", text);
        if (ball_apply(s->g, acts[best_i]) != BALL_OK)
            break;
        played++;
        budget = budget_after(s, mover, budget);
    }
    printf("\n");
    if (ball_result(s->g) == s->won)
        printf("  touchdown by %s at turn %u\n", s->side == BALL_ATK ? "ATK" : "DEF",
               ball_turn(s->g));
    while (played-- > 0)
        ball_undo(s->g);
}

static void usage(FILE *out)
{
    fputs("usage: solve [--turns N] [--depth-zone D] [--max-nodes M] [--tt-bits B] BPN\n"
          "  N: own turns, 1-8 (default 2); D: end-zone depth 1-3 (default 1);\n"
          "  M: node limit (default 50000000); B: log2 of table entries, 10-28 (default 20)\n",
          out);
}

int main(int argc, char **argv)
{
    long turns = 2, depth_zone = 1, max_nodes = 50000000L, tt_bits = 20;
    const char *bpn = NULL;
    struct search s;
    ball_rules rules;
    int rc, found = 0;

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
            usage(stderr);
            return 2;
        }
        if (i + 1 >= argc || (*target = parse_number(argv[i + 1], min, max)) < 0) {
            fprintf(stderr, "solve: %s needs a number from %ld to %ld\n", argv[i], min, max);
            return 2;
        }
        i++;
    }
    if (bpn == NULL) {
        usage(stderr);
        return 2;
    }

    memset(&s, 0, sizeof s);
    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = (int)depth_zone;
    rc = ball_game_new(&s.g, &rules);
    if (rc == BALL_OK)
        rc = ball_set_bpn(s.g, bpn);
    if (rc != BALL_OK) {
        fprintf(stderr, "solve: %s\n", s.g ? ball_errmsg(s.g) : ball_strerror(rc));
        ball_game_free(s.g);
        return 2;
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
        fputs("solve: out of memory\n", stderr);
        free(s.tt);
        free(s.acts);
        ball_game_free(s.g);
        return 1;
    }

    printf("position: %s\n", bpn);
    if (ball_result(s.g) != BALL_ONGOING) {
        printf("the game is already over\n");
        found = 0;
    } else {
        const char *name = s.side == BALL_ATK ? "ATK" : "DEF";
        printf("side to move: %s\n", name);
        for (long k = 1; k <= turns && !found && !s.aborted; k++) {
            found = wins(&s, (int)k, 0);
            printf("within %ld turn%s: %s (%llu nodes)\n", k, k > 1 ? "s" : "",
                   s.aborted ? "unknown, node limit reached" : found ? "yes" : "no",
                   (unsigned long long)s.nodes);
            if (found) {
                printf("%s forces a touchdown within %ld turn%s:\n", name, k, k > 1 ? "s" : "");
                print_line(&s, (int)k);
            }
        }
        if (!found && !s.aborted)
            printf("no forced touchdown for %s within %ld turn%s\n", name, turns,
                   turns > 1 ? "s" : "");
    }
    free(s.tt);
    free(s.acts);
    ball_game_free(s.g);
    return found ? 0 : s.aborted ? 3 : 1;
}
