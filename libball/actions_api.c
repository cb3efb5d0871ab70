/* Public actions: accessors, generation, apply/undo, release tasks,
 * perft. Thin checks over rules.h. */
#include <string.h>

#include "action.h"
#include "game.h"
#include "notation.h"

int ball_action_kind(ball_action a) { return act_well_formed(a) ? act_kind(a) : 0; }
int ball_action_from(ball_action a) { return act_well_formed(a) ? act_from(a) : -1; }
int ball_action_to(ball_action a) { return act_well_formed(a) && !act_has_value(a) ? act_to(a) : -1; }
int ball_action_value(ball_action a) { return act_well_formed(a) && act_has_value(a) ? act_value(a) : -1; }
int ball_action_option(ball_action a) { return act_well_formed(a) ? act_opt(a) : -1; }
int ball_action_keeper(ball_action a) { return act_well_formed(a) ? act_keeper(a) : 0; }
int ball_action_flags(ball_action a) { return act_well_formed(a) ? act_flags(a) : 0; }
int ball_action_cost(ball_action a) { return act_well_formed(a) ? act_cost(a) : -1; }

/* Copies n items (actions or tasks, `size` bytes each) to the caller's
 * buffer; with out NULL and cap 0 only returns n. */
static int deliver_items(ball_game *g, const void *items, size_t size, const char *what, int n,
                         void *out, size_t cap)
{
    if (!out && cap == 0)
        return n;
    if (!out)
        return game_error(g, BALL_E_ARG, "NULL buffer with capacity %zu", cap);
    if ((size_t)n > cap)
        return game_error(g, BALL_E_BUFFER, "buffer holds %zu %s, %d needed", cap, what, n);
    memcpy(out, items, (size_t)n * size);
    game_ok(g);
    return n;
}

/* Copies n generated actions to the caller's buffer. */
static int deliver(ball_game *g, const uint32_t *acts, int n, ball_action *out, size_t cap)
{
    return deliver_items(g, acts, sizeof *out, "actions", n, out, cap);
}

int ball_legal_actions(ball_game *g, ball_action *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    if ((out && cap >= MAX_ACTIONS) || (!out && cap == 0)) { /* in place, or only counted */
        game_ok(g);
        return gen_actions(&g->p, out);
    }
    uint32_t acts[MAX_ACTIONS];
    return deliver(g, acts, gen_actions(&g->p, acts), out, cap);
}

/* A NULL game or output pointer. */
static int null_output(ball_game *g)
{
    return g ? game_error(g, BALL_E_ARG, "NULL output") : BALL_E_ARG;
}

int ball_legal_action_at(ball_game *g, int index, ball_action *out)
{
    if (!g || !out)
        return null_output(g);
    uint32_t a;
    if (!gen_action_at(&g->p, index, &a)) {
        int n = gen_actions(&g->p, NULL);
        if (n == 0)
            return game_error(g, BALL_E_RANGE, "action index %d: no legal action, the game is over", index);
        return game_error(g, BALL_E_RANGE, "action index %d out of range 0-%d", index, n - 1);
    }
    *out = a;
    return game_ok(g);
}

int ball_random_action(ball_game *g, uint64_t random, ball_action *out)
{
    if (!g || !out)
        return null_output(g);
    uint32_t a;
    if (!gen_random_action(&g->p, random, &a))
        return game_error(g, BALL_E_RANGE, "no legal action: the game is over");
    *out = a;
    return game_ok(g);
}

static int legal(const pos *p, uint32_t a)
{
    uint32_t acts[MAX_ACTIONS];
    int n = gen_actions(p, acts);
    for (int i = 0; i < n; i++)
        if (acts[i] == a)
            return 1;
    return 0;
}

int ball_is_legal(ball_game *g, ball_action a)
{
    if (!g)
        return BALL_E_ARG;
    return act_well_formed(a) && legal(&g->p, a);
}

int ball_apply_unchecked(ball_game *g, ball_action a)
{
    if (!g)
        return BALL_E_ARG;
    if (g->nhist == g->cap) {
        size_t more = g->cap ? g->cap : 16; /* amortised doubling */
        int rc = ball_history_reserve(g, more);
        if (rc != BALL_OK)
            return rc;
    }
    pos_do(&g->p, a, &g->hist[g->nhist++]);
    return BALL_OK;
}

int ball_apply(ball_game *g, ball_action a)
{
    if (!g)
        return BALL_E_ARG;
    if (g->p.st.result != ONGOING)
        return game_error(g, BALL_E_ILLEGAL, "the game is over");
    if (!act_well_formed(a))
        return game_error(g, BALL_E_ILLEGAL, "0x%08x is not an action", (unsigned)a);
    if (!legal(&g->p, a)) {
        char text[ACTION_TEXT_MAX];
        action_format(a, text);
        return game_error(g, BALL_E_ILLEGAL, "%s is not legal in this position", text);
    }
    int rc = ball_apply_unchecked(g, a);
    return rc == BALL_OK ? game_ok(g) : rc;
}

int ball_undo(ball_game *g)
{
    if (!g)
        return BALL_E_ARG;
    if (g->nhist == 0)
        return game_error(g, BALL_E_NO_HISTORY, "no decision to take back");
    pos_undo(&g->p, &g->hist[--g->nhist]);
    return game_ok(g);
}

int ball_release_tasks(ball_game *g, int *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    int tasks[MAX_TASKS];
    return deliver_items(g, tasks, sizeof *out, "tasks", release_tasks(&g->p, tasks), out, cap);
}

int ball_task_square(int task)
{
    int sq = task & 0xff, kind = (task >> 8) & 0xf;
    if (task < 0 || task >> 13 || sq >= NSQ || (kind != TASK_STAND_UP && kind != TASK_RELEASE))
        return -1;
    return sq;
}

int ball_task_kind(int task) { return ball_task_square(task) < 0 ? 0 : (task >> 8) & 0xf; }
int ball_task_solvable(int task) { return ball_task_square(task) < 0 ? 0 : (task >> 12) & 1; }

int ball_task_solutions(ball_game *g, int sq, ball_action *out, size_t cap)
{
    if (!g)
        return BALL_E_ARG;
    if (sq < 0 || sq >= NSQ)
        return game_error(g, BALL_E_RANGE, "square %d out of range 0-%d", sq, NSQ - 1);
    int tasks[MAX_TASKS], n = release_tasks(&g->p, tasks), found = 0;
    for (int i = 0; i < n; i++)
        found |= (tasks[i] & 0xff) == sq;
    if (!found) {
        char name[4];
        square_format(sq, name);
        return game_error(g, BALL_E_ILLEGAL, "no release task on %s", name);
    }
    uint32_t acts[MAX_ACTIONS];
    return deliver(g, acts, gen_task_solutions(&g->p, sq, acts), out, cap);
}

uint64_t ball_hash(const ball_game *g) { return g ? pos_hash(&g->p) : 0; }

int ball_perft(ball_game *g, int depth, uint64_t *count)
{
    if (!g || !count)
        return BALL_E_ARG;
    if (depth < 0 || depth > 64)
        return game_error(g, BALL_E_RANGE, "perft depth %d out of range 0-64", depth);
    pos copy = g->p; /* the game itself stays untouched */
    *count = pos_perft(&copy, depth);
    return game_ok(g);
}
