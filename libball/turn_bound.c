/* SPDX-License-Identifier: MIT */
/* The decisions refused at turn BALL_MAX_TURN (turn_bound.h). */
#include "action.h"
#include "release.h"
#include "turn_bound.h"

/* 1 when one of `tasks` has a solution with the squares of `vacant`
 * vacant: one vacant neighbour for a stand-up (R9.2), two for the
 * release of a stack of `releases` (R9.3). */
static int any_solvable(bb_t tasks, bb_t releases, bb_t vacant)
{
    int sq;
    for (BB_EACH(sq, tasks))
        if (bb_count_few(SQ_NEIGHBOURS[sq] & vacant) >= (bb_has(releases, sq) ? 2 : 1))
            return 1;
    return 0;
}

/* 1 when a piece of `team` holding the ball on sq scores (R11.1, as
 * touchdown_result()). */
static int scores(const pos *p, int team, int sq)
{
    return team == ATK ? SQ_ROW[sq] > 17 - p->zone_depth : SQ_ROW[sq] <= p->zone_depth;
}

/* The release phase: the task on `from` is resolved (R9.2, R9.3) and
 * the phase goes on while a task is left with a solution (R9.1, R9.4),
 * unless the game is won (R11.1). */
static int release_hands_over(const pos *p, uint32_t a)
{
    int from = act_from(a), to = act_to(a), kind = act_kind(a);
    bb_t stand_ups, releases;
    task_squares(p, &stand_ups, &releases);
    bb_t tasks = (stand_ups | releases) & ~SQ_BIT[from];
    bb_t filled = SQ_BIT[to];
    if (kind == K_UNBLOCK || kind == K_UNPROTECT) {
        int w = act_opt(a), keeper = act_keeper(a);
        uint8_t upper = p->top[from], lower = p->low[from];
        filled |= SQ_BIT[w];
        if (keeper == KEEP_UPPER && scores(p, pc_team(upper), to))
            return 0;
        if (keeper == KEEP_LOWER && scores(p, pc_team(lower), w))
            return 0;
        if (pc_team(lower) == p->st.side && pc_down(lower))
            tasks |= SQ_BIT[w]; /* R9.4: a new stand-up */
    }
    bb_t vacant = ((vacant_squares(p) | SQ_BIT[from]) & ~filled);
    return !any_solvable(tasks, releases & tasks, vacant);
}

int hands_over(const pos *p, uint32_t a)
{
    if (p->st.phase == PHASE_ACTION) /* only `end` closes the action phase (R4.2) */
        return act_kind(a) == K_END && (!has_tasks(p) || !release_has_solution(p));
    return release_hands_over(p, a);
}

int bound_keep(const pos *p, uint32_t *acts, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!hands_over(p, acts[i]))
            acts[kept++] = acts[i];
    return kept;
}
