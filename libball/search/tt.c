/* SPDX-License-Identifier: MIT */
/* The transposition table (tt.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define BALL_EXPERIMENTAL       /* ball_search_set_eval(), ball_search_set_prior() */

#include "tt.h"

size_t tt_entries(int hash_mb)
{
    size_t entries = 2;
    while (entries * 2 * sizeof(struct tt_slot) <= (size_t)hash_mb << 20)
        entries *= 2;
    return entries;
}

void tt_clear(struct tt_slot *tt, size_t mask)
{
    for (size_t i = 0; i <= mask; i++) {
        atomic_store_explicit(&tt[i].check, 0, memory_order_relaxed);
        atomic_store_explicit(&tt[i].data, 0, memory_order_relaxed);
    }
}
