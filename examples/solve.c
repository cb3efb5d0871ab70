/* SPDX-License-Identifier: MIT */
/*
 * solve — can the side to move force a touchdown within N of its own
 * turns? An example of game-tree search with ball_apply / ball_undo.
 *
 *   solve [--turns N] [--depth-zone D] [--max-nodes M] [--tt-bits B]
 *         [--threads T] BPN
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
 * With --threads T (T > 1) each budget's search splits the root: T
 * threads, each with its own clone of the game and its own ply buffers,
 * take the root decisions one at a time from a shared counter, the
 * largest first (by the nodes each took in the previous budget's search;
 * for the first budget, a decision that scores at once first, then by the
 * number of decisions that follow it), and search each with the same
 * sequential code. They share the transposition table: an entry is one
 * 64-bit atomic word (the key's high bits and both budgets) updated by
 * compare-and-swap, so whatever a thread reads is an entry some thread
 * wrote whole, and a proof found by one thread serves the others. The
 * first thread to prove a win raises a stop flag that every thread checks
 * at each node. A verdict within k turns is a fact about the position,
 * whichever thread proves it, and the line is built from these facts by a
 * fixed rule (the evaluations of each step's decisions are shared out
 * among the threads too, the choice is made in list order), so the text
 * and the exit status are those of one thread, node counts apart. The node
 * limit counts the nodes of all threads together (each thread adds its
 * count every NODE_BATCH nodes, so it may be passed by that much a
 * thread); near the limit, a parallel run may stop where one thread would
 * not, or the other way round. T = 1 runs the search as before, in the
 * calling thread, with an exact node limit.
 *
 * Exit status (also in --help): 0 a forced touchdown exists, 1 none within
 * N turns, 2 bad input, 3 the node limit stopped the search, 4 out of
 * memory, 5 / 6 / 7 the game is already over: ATK won / DEF won / drawn.
 */
#define _POSIX_C_SOURCE 200809L /* pthreads under -std=c11 */

#include "args.h"
#include "ball.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TURNS 8
/* Decisions per turn are few (2 PA of actions, hand-offs, `end`, at most
 * 14 release tasks): 40 plies per turn is plenty. */
#define PLIES_PER_TURN 40
#define MAX_THREADS 64
/* A thread adds its node count to the shared one every NODE_BATCH nodes. */
#define NODE_BATCH 1024
#define CACHE_LINE 64

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

#define NO_WIN 127   /* no budget proven to win */
#define NO_FAIL (-1) /* no budget proven to fail */

/*
 * A transposition-table entry is one 64-bit word, so that threads share
 * the table without a lock and never read half an entry: the key's bits
 * 8-63, and in bits 0-7 the smallest budget proven to win (low 4 bits, 15:
 * none) and the largest proven to fail plus one (high 4 bits, 0: none).
 * Budgets are 1 to MAX_TURNS (8). The key's bits 0-7 need not be stored:
 * they are part of the slot's index (the table has at least 2^10 slots), so
 * a word matches its key exactly. A stored entry's low byte is never 0
 * (its win nibble is 1-8 or 15), so 0 marks an empty slot.
 */
typedef _Atomic uint64_t tt_word;
#define TT_DATA ((uint64_t)0xff)
#define TT_NO_WIN 15u

/* What all threads share. The plain fields change only while no worker
 * runs (thread creation and join order them). */
struct shared {
    int side;           /* S, the side that wants to score */
    int won;            /* BALL_ATK_WON or BALL_DEF_WON for S */
    int max_ply;
    uint64_t max_nodes;
    tt_word *tt;
    size_t tt_mask;
    atomic_uint_fast64_t nodes; /* the nodes the threads have added */
    atomic_int stop;    /* every thread returns as soon as it sees it */
    atomic_int limit;   /* the node limit (or the ply bound) stopped a search */
    atomic_int nomem;   /* ... and it was memory */
};

struct phase;

/* One thread's search; aligned to a cache line so that the counters one
 * thread writes at every node do not share a line with another thread's. */
struct search {
    _Alignas(CACHE_LINE) struct shared *sh;
    ball_game *g;                          /* this thread's own game */
    ball_action (*acts)[BALL_MAX_ACTIONS]; /* one buffer per ply */
    uint64_t nodes;   /* this thread's nodes, all searches */
    uint64_t pending; /* ... not yet added to sh->nodes */
    int aborted;      /* this thread's search was stopped: it proves nothing */
    struct phase *phase;
    pthread_t thread;
};

/* The decisions of one position shared out among the threads: the root's
 * in the search (PHASE_ROOT) or one step's while the line is built
 * (PHASE_LINE). Each decision's result is written by the one thread that
 * took it and read after the threads are joined. */
enum phase_kind { PHASE_ROOT, PHASE_LINE };

struct phase {
    enum phase_kind kind;
    const ball_action *acts;
    const int *order; /* the order in which the decisions are taken */
    int n;
    int mover;        /* the coach who plays them */
    int budget;       /* S's turns left before they are played */
    atomic_int next;  /* the next index into order */
    atomic_int found; /* PHASE_ROOT: a decision was proven to win */
    uint64_t *subtree; /* PHASE_ROOT: the nodes each decision's search took */
    int *k;            /* PHASE_LINE: each decision's value (print_line) */
};

static void stop_search(struct search *s, int nomem)
{
    s->aborted = 1;
    atomic_store(nomem ? &s->sh->nomem : &s->sh->limit, 1);
    atomic_store(&s->sh->stop, 1);
}

static void flush_nodes(struct search *s)
{
    atomic_fetch_add_explicit(&s->sh->nodes, s->pending, memory_order_relaxed);
    s->pending = 0;
}

/* Counts a node; 0 when the search must stop (the node limit counts the
 * nodes of all threads; with one thread it is exact). */
static int count_node(struct search *s)
{
    struct shared *sh = s->sh;
    s->nodes++;
    if (++s->pending >= NODE_BATCH)
        flush_nodes(s);
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
        s->aborted = 1;
        return 0;
    }
    if (atomic_load_explicit(&sh->nodes, memory_order_relaxed) + s->pending > sh->max_nodes) {
        stop_search(s, 0);
        return 0;
    }
    return 1;
}

static tt_word *tt_slot(const struct shared *sh, uint64_t key)
{
    return &sh->tt[key & sh->tt_mask];
}

/* The budgets stored in @p word if it holds @p key, else none. */
static void tt_decode(uint64_t word, uint64_t key, int *win, int *fail)
{
    *win = NO_WIN;
    *fail = NO_FAIL;
    if (word != 0 && (word & ~TT_DATA) == (key & ~TT_DATA)) {
        unsigned w = (unsigned)(word & 15u), f = (unsigned)(word >> 4 & 15u);
        if (w != TT_NO_WIN)
            *win = (int)w;
        *fail = (int)f - 1;
    }
}

/* Records that @p key wins (@p value 1) or fails within @p budget, merged
 * with what its slot holds for the same key; another key's entry is
 * replaced. */
static void tt_store(const struct shared *sh, uint64_t key, int value, int budget)
{
    tt_word *slot = tt_slot(sh, key);
    uint64_t old = atomic_load_explicit(slot, memory_order_relaxed), word;
    do {
        int win, fail;
        tt_decode(old, key, &win, &fail);
        if (value && budget < win)
            win = budget;
        if (!value && budget > fail)
            fail = budget;
        word = (key & ~TT_DATA) | (uint64_t)(fail + 1) << 4 |
               (win == NO_WIN ? TT_NO_WIN : (unsigned)win);
        if (word == old)
            return;
    } while (!atomic_compare_exchange_weak_explicit(slot, &old, word, memory_order_relaxed,
                                                    memory_order_relaxed));
}

/* The budget left after decision @p a was played by @p mover: one turn of
 * S's ends when the coach to act changes. */
static int budget_after(struct search *s, int mover, int budget)
{
    if (ball_result(s->g) != BALL_ONGOING)
        return budget;
    return (mover == s->sh->side && ball_side(s->g) != mover) ? budget - 1 : budget;
}

/*
 * 1 if S can force a touchdown with at most @p budget more turns of its own
 * (the current one counts when S is to act), else 0.
 */
static int wins(struct search *s, int budget, int ply)
{
    struct shared *sh = s->sh;
    int result = ball_result(s->g);
    if (result != BALL_ONGOING)
        return result == sh->won;
    if (budget <= 0 || s->aborted)
        return 0;
    if (!count_node(s))
        return 0;
    if (ply >= sh->max_ply) {
        stop_search(s, 0);
        return 0;
    }

    uint64_t key = ball_hash(s->g);
    int win, fail;
    tt_decode(atomic_load_explicit(tt_slot(sh, key), memory_order_relaxed), key, &win, &fail);
    if (win <= budget)
        return 1;
    if (fail >= budget)
        return 0;

    int mover = ball_side(s->g);
    int or_node = mover == sh->side; /* S picks one; the opponent must fail all */
    ball_action *acts = s->acts[ply];
    int n = ball_legal_actions(s->g, acts, BALL_MAX_ACTIONS);
    int value = or_node ? 0 : 1;
    for (int i = 0; i < n && value == !or_node; i++) {
        int rc = ball_apply_unchecked(s->g, acts[i]);
        if (rc != BALL_OK) {
            stop_search(s, rc == BALL_E_NOMEM); /* out of memory (or the turn bound): give up */
            return 0;
        }
        int w = wins(s, budget_after(s, mover, budget), ply + 1);
        ball_undo(s->g);
        value = or_node ? w : (value && w);
    }
    if (s->aborted)
        return 0; /* an unfinished search proves nothing */
    tt_store(sh, key, value, budget);
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

/* PHASE_ROOT: searches root decision @p i. A win stops every thread. */
static void root_decision(struct search *s, struct phase *p, int i)
{
    uint64_t before = s->nodes;
    int rc = ball_apply_unchecked(s->g, p->acts[i]);
    if (rc != BALL_OK) {
        stop_search(s, rc == BALL_E_NOMEM);
        return;
    }
    int w = wins(s, budget_after(s, p->mover, p->budget), 1);
    ball_undo(s->g);
    p->subtree[i] = s->nodes - before;
    if (w) { /* a proof, even if another thread has stopped meanwhile */
        atomic_store(&p->found, 1);
        atomic_store(&s->sh->stop, 1);
    }
}

/* PHASE_LINE: the value of decision @p i for print_line(): 2 x the turns
 * of S needed after it, counted from S's current (or next) turn, minus 1
 * for a touchdown at once; -1: no win. Units are the same for all
 * decisions of one mover, so `end` no longer ties with a move that scores
 * now. */
static void line_decision(struct search *s, struct phase *p, int i)
{
    struct shared *sh = s->sh;
    int k, w, rc = ball_apply(s->g, p->acts[i]);
    if (rc != BALL_OK) {
        stop_search(s, rc == BALL_E_NOMEM);
        return;
    }
    if (ball_result(s->g) == sh->won) {
        k = 1;
    } else if (p->mover == sh->side && ball_side(s->g) != p->mover) {
        w = smallest_win(s, p->budget - 1); /* S's turn is over */
        k = w > 0 ? 2 * (1 + w) : -1;
    } else {
        w = smallest_win(s, budget_after(s, p->mover, p->budget));
        k = w > 0 ? 2 * w : -1;
    }
    ball_undo(s->g);
    p->k[i] = k;
}

/* A worker: takes the next decision of its phase until none is left or
 * the search is stopped. */
static void run_phase(struct search *s)
{
    struct phase *p = s->phase;
    while (!s->aborted && !atomic_load(&s->sh->stop)) {
        int j = atomic_fetch_add(&p->next, 1);
        if (j >= p->n)
            break;
        if (p->kind == PHASE_ROOT)
            root_decision(s, p, p->order[j]);
        else
            line_decision(s, p, p->order[j]);
    }
    flush_nodes(s);
}

static void *phase_thread(void *arg)
{
    run_phase(arg);
    return NULL;
}

/* Runs phase @p p on up to @p threads workers @p w (never more than it has
 * decisions); the calling thread is worker 0. Should a thread fail to
 * start, the others take its share. */
static void run_workers(struct search *w, int threads, struct phase *p)
{
    int workers = threads < p->n ? threads : p->n, started = 0;
    if (workers < 1)
        workers = 1;
    atomic_store(&w[0].sh->stop, 0);
    atomic_store(&p->next, 0);
    for (int t = 0; t < workers; t++) {
        w[t].phase = p;
        w[t].aborted = 0;
    }
    while (started + 1 < workers &&
           pthread_create(&w[started + 1].thread, NULL, phase_thread, &w[started + 1]) == 0)
        started++;
    run_phase(&w[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(w[t].thread, NULL);
}

/* The root decisions of the search, in the order the threads take them. */
struct root {
    ball_action acts[BALL_MAX_ACTIONS];
    int order[BALL_MAX_ACTIONS];
    uint64_t size[BALL_MAX_ACTIONS]; /* the estimate of each one's search */
    int n;
};

/* Lists the root decisions and estimates their searches before the first
 * budget: one that scores at once first, then by the decisions that
 * follow each. */
static int root_init(struct root *r, ball_game *g, int won)
{
    ball_action next[BALL_MAX_ACTIONS];
    r->n = ball_legal_actions(g, r->acts, BALL_MAX_ACTIONS);
    for (int i = 0; i < r->n; i++) {
        int rc = ball_apply_unchecked(g, r->acts[i]);
        if (rc != BALL_OK)
            return rc;
        int result = ball_result(g);
        r->size[i] = result == won              ? UINT64_MAX
                     : result != BALL_ONGOING ? 0
                                              : (uint64_t)ball_legal_actions(g, next, BALL_MAX_ACTIONS);
        ball_undo(g);
    }
    return BALL_OK;
}

/* Orders the root decisions by size, the largest first, ties in list order. */
static void root_sort(struct root *r)
{
    for (int i = 0; i < r->n; i++) {
        int j = i, v = i;
        for (; j > 0 && r->size[r->order[j - 1]] < r->size[v]; j--)
            r->order[j] = r->order[j - 1];
        r->order[j] = v;
    }
}

/* wins(root, @p budget) split over @p threads threads. */
static int parallel_wins(struct search *w, int threads, struct root *r, int budget)
{
    struct shared *sh = w[0].sh;
    struct phase p;
    uint64_t key = ball_hash(w[0].g);
    int found;

    if (atomic_fetch_add(&sh->nodes, 1) + 1 > sh->max_nodes) { /* the root */
        atomic_store(&sh->limit, 1);
        return 0;
    }
    root_sort(r);
    memset(&p, 0, sizeof p);
    p.kind = PHASE_ROOT;
    p.acts = r->acts;
    p.order = r->order;
    p.n = r->n;
    p.mover = sh->side;
    p.budget = budget;
    p.subtree = r->size;
    atomic_init(&p.next, 0);
    atomic_init(&p.found, 0);
    run_workers(w, threads, &p);
    found = atomic_load(&p.found);
    if (found || !atomic_load(&sh->stop))
        tt_store(sh, key, found, budget); /* a finished search */
    return found;
}

/* Prints the line of play from a position S wins within @p budget turns.
 * S plays a decision that wins soonest (fewest own turns counted from the
 * current one, a touchdown at once first); the opponent the one that holds
 * out longest; ties go to the first in list order. The node limit is
 * lifted while the line is built, so the line reaches the touchdown; if it
 * stops early anyway (out of memory) it says so. The decisions of each
 * step are valued by the @p threads workers @p w (line_decision()); the
 * chosen one is played on every worker's game, and the line is taken back
 * at the end. Returns 1 when the line was cut. */
static int print_line(struct search *w, int threads, int budget)
{
    struct shared *sh = w[0].sh;
    ball_game *g = w[0].g;
    int turn = 0, cut;
    size_t played = 0;
    ball_action acts[BALL_MAX_ACTIONS];
    int order[BALL_MAX_ACTIONS], ks[BALL_MAX_ACTIONS];
    uint64_t saved_max = sh->max_nodes;

    sh->max_nodes = UINT64_MAX;
    while (ball_result(g) == BALL_ONGOING) {
        struct phase p;
        int mover = ball_side(g);
        int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
        int best_i = -1, best_k = 0, t;
        for (int i = 0; i < n; i++) {
            order[i] = i;
            ks[i] = -1;
        }
        memset(&p, 0, sizeof p);
        p.kind = PHASE_LINE;
        p.acts = acts;
        p.order = order;
        p.n = n;
        p.mover = mover;
        p.budget = budget;
        p.k = ks;
        atomic_init(&p.next, 0);
        atomic_init(&p.found, 0);
        run_workers(w, threads, &p);
        if (atomic_load(&sh->stop))
            break; /* cannot happen from a won position, but for memory */
        for (int i = 0; i < n; i++) {
            if (mover == sh->side ? ks[i] >= 0 && (best_i < 0 || ks[i] < best_k)
                                  : best_i < 0 || ks[i] > best_k) {
                best_i = i;
                best_k = ks[i];
            }
        }
        if (best_i < 0)
            break;
        if (ball_turn(g) != turn) {
            turn = ball_turn(g);
            printf("%s  turn %d, %s%s:", played ? "\n" : "", turn,
                   mover == BALL_ATK ? "ATK" : "DEF",
                   mover == sh->side ? "" : " (longest defence)");
        }
        char text[BALL_ACTION_TEXT_MAX];
        ball_action_to_text(acts[best_i], text, sizeof text);
        printf(" %s", text);
        for (t = 0; t < threads; t++) {
            int rc = ball_apply(w[t].g, acts[best_i]);
            if (rc != BALL_OK) {
                if (rc == BALL_E_NOMEM)
                    atomic_store(&sh->nomem, 1);
                break;
            }
        }
        if (t < threads) { /* the games must agree: take it back */
            while (t-- > 0)
                ball_undo(w[t].g);
            break;
        }
        played++;
        budget = budget_after(&w[0], mover, budget);
    }
    printf("\n");
    cut = ball_result(g) != sh->won;
    if (!cut)
        printf("  touchdown by %s at turn %d\n", sh->side == BALL_ATK ? "ATK" : "DEF",
               ball_turn(g));
    else
        printf("  (line cut after %zu decision%s: %s; the verdict above stands)\n", played,
               played == 1 ? "" : "s",
               atomic_load(&sh->nomem) ? "out of memory" : "search stopped");
    while (played-- > 0)
        for (int t = 0; t < threads; t++)
            ball_undo(w[t].g);
    sh->max_nodes = saved_max;
    return cut;
}

static void usage(FILE *out)
{
    fputs("usage: solve [--turns N] [--depth-zone D] [--max-nodes M] [--tt-bits B]\n"
          "             [--threads T] 'BPN'\n"
          "Can the side to move force a touchdown within N of its own turns?\n"
          "  N: the side's own turns, 1-8 (default 2), counting the current one,\n"
          "     even when only its release phase is left: --turns 1 means this turn;\n"
          "  D: end-zone depth 1-3 (default 1);\n"
          "  M: node limit of the search (default 50000000), all threads together;\n"
          "     the winning line is printed to the touchdown whatever M is;\n"
          "  B: log2 of transposition-table entries, 10-28 (default 20; 8 bytes each,\n"
          "     one table shared by all threads);\n"
          "  T: threads, 1-64 (default 1): they share out the first decisions,\n"
          "     the largest searches first, and stop when one proves a win; the\n"
          "     verdict, the line and the exit status are those of one thread\n"
          "     (the node counts differ).\n"
          "  BPN has spaces: quote it as one argument.\n"
          "The line printed is a shortest win (fewest own turns) against the\n"
          "longest defence.\n"
          "exit status: 0 forced touchdown found; 1 none within N turns;\n"
          "  2 bad input; 3 node limit reached (verdict unknown); 4 out of memory;\n"
          "  5 the game is already over, ATK won; 6 ... DEF won; 7 ... drawn\n",
          out);
}

/* Frees the workers' buffers and games (worker 0's game is the caller's). */
static void free_workers(struct search *w, int threads)
{
    for (int t = 0; w != NULL && t < threads; t++) {
        free(w[t].acts);
        if (t > 0)
            ball_game_free(w[t].g);
    }
    free(w);
}

/* Sets up @p threads workers on @p g: buffers, clones of @p g with room
 * in their history. BALL_E_NOMEM when memory runs out. */
static int make_workers(struct search **out, int threads, ball_game *g, struct shared *sh)
{
    size_t size = (size_t)threads * sizeof **out;
    struct search *w = aligned_alloc(CACHE_LINE, size); /* size: a multiple of the line */
    *out = w;
    if (w == NULL)
        return BALL_E_NOMEM;
    memset(w, 0, size);
    for (int t = 0; t < threads; t++) {
        w[t].sh = sh;
        w[t].acts = malloc((size_t)sh->max_ply * sizeof *w[t].acts);
        if (w[t].acts == NULL)
            return BALL_E_NOMEM;
        if (t == 0)
            w[t].g = g;
        else if (ball_game_clone(&w[t].g, g) != BALL_OK)
            return BALL_E_NOMEM;
        /* Apply never allocates while the history has room (ball.h). */
        if (ball_history_reserve(w[t].g, (size_t)sh->max_ply + 1) != BALL_OK)
            return BALL_E_NOMEM;
    }
    return BALL_OK;
}

int main(int argc, char **argv)
{
    long turns = 2, depth_zone = 1, max_nodes = 50000000L, tt_bits = 20, threads = 1;
    const char *bpn = NULL;
    int extra = 0; /* positional arguments after the BPN */
    struct shared sh;
    struct search *w = NULL;
    struct root *root = NULL;
    ball_game *g = NULL;
    ball_rules rules;
    char err[256] = "";
    int rc, found = 0, stopped = 0, status;

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
        } else if (strcmp(argv[i], "--threads") == 0) {
            target = &threads, min = 1, max = MAX_THREADS;
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
            fprintf(stderr, "solve: %s needs a number from %ld to %ld%s%s%s\n", argv[i], min, max,
                    i + 1 < argc ? ", not '" : "", i + 1 < argc ? argv[i + 1] : "",
                    i + 1 < argc ? "'" : "");
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

    ball_rules_init(&rules, sizeof rules);
    rules.end_zone_depth = (int)depth_zone;
    rc = ball_game_new(&g, &rules, err, sizeof err);
    if (rc == BALL_OK)
        rc = ball_position_from_text(g, bpn);
    if (rc != BALL_OK) {
        const char *msg = g ? ball_errmsg(g) : err;
        fprintf(stderr, "solve: %s%s\n", g ? "bad BPN: " : "", *msg ? msg : ball_strerror(rc));
        ball_game_free(g);
        return rc == BALL_E_NOMEM ? EXIT_NOMEM : EXIT_USAGE;
    }
    memset(&sh, 0, sizeof sh);
    sh.side = ball_side(g);
    sh.won = sh.side == BALL_ATK ? BALL_ATK_WON : BALL_DEF_WON;
    sh.max_nodes = (uint64_t)max_nodes;
    sh.max_ply = (int)(2 * turns + 1) * PLIES_PER_TURN;
    sh.tt_mask = ((size_t)1 << tt_bits) - 1;
    sh.tt = calloc(sh.tt_mask + 1, sizeof *sh.tt); /* all-zero words: empty slots */
    atomic_init(&sh.nodes, 0);
    atomic_init(&sh.stop, 0);
    atomic_init(&sh.limit, 0);
    atomic_init(&sh.nomem, 0);
    rc = sh.tt == NULL ? BALL_E_NOMEM : make_workers(&w, (int)threads, g, &sh);
    if (rc == BALL_OK && threads > 1) {
        root = malloc(sizeof *root);
        rc = root == NULL ? BALL_E_NOMEM : root_init(root, g, sh.won);
    }
    if (rc != BALL_OK) {
        fputs("solve: out of memory (try a smaller --tt-bits or fewer --threads)\n", stderr);
        free(root);
        free_workers(w, (int)threads);
        free(sh.tt);
        ball_game_free(g);
        return EXIT_NOMEM;
    }

    printf("position: %s\n", bpn);
    if (ball_result(g) != BALL_ONGOING) {
        int result = ball_result(g);
        printf("the game is already over: %s\n", result == BALL_ATK_WON   ? "ATK won"
                                                  : result == BALL_DEF_WON ? "DEF won"
                                                                           : "drawn");
        status = result == BALL_ATK_WON   ? EXIT_OVER_ATK
                 : result == BALL_DEF_WON ? EXIT_OVER_DEF
                                          : EXIT_OVER_DRAW;
    } else {
        const char *name = sh.side == BALL_ATK ? "ATK" : "DEF";
        printf("side to move: %s\n", name);
        for (long k = 1; k <= turns && !found && !stopped; k++) {
            if (threads > 1) {
                found = parallel_wins(w, (int)threads, root, (int)k);
            } else {
                found = wins(&w[0], (int)k, 0);
                flush_nodes(&w[0]);
            }
            /* a win proven by one thread stands whatever stopped another */
            stopped = !found && (atomic_load(&sh.limit) || atomic_load(&sh.nomem));
            printf("within %ld turn%s: %s (%llu nodes)\n", k, k > 1 ? "s" : "",
                   !stopped                   ? (found ? "yes" : "no")
                   : atomic_load(&sh.nomem) ? "unknown, out of memory"
                                              : "unknown, node limit reached",
                   (unsigned long long)atomic_load(&sh.nodes));
            if (found) {
                atomic_store(&sh.limit, 0);
                atomic_store(&sh.nomem, 0);
                printf("%s forces a touchdown within %ld turn%s:\n", name, k, k > 1 ? "s" : "");
                print_line(w, (int)threads, (int)k);
            }
        }
        if (!found && !stopped)
            printf("no forced touchdown for %s within %ld turn%s\n", name, turns,
                   turns > 1 ? "s" : "");
        status = found                     ? EXIT_WIN
                 : !stopped                ? EXIT_NO_WIN
                 : atomic_load(&sh.nomem) ? EXIT_NOMEM
                                            : EXIT_NODES;
        if (status == EXIT_NOMEM)
            fputs("solve: out of memory\n", stderr);
    }
    free(root);
    free_workers(w, (int)threads);
    free(sh.tt);
    ball_game_free(g);
    return status;
}
