/* SPDX-License-Identifier: MIT */
/* The transposition table of the turn search (search.h), shared by its
 * threads without a lock. */
#ifndef BALL_SEARCH_TT_H
#define BALL_SEARCH_TT_H

#include "search.h"
#include "compiler.h"

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

/* A table entry as two words that the threads read and write without a
 * lock: `check` is the key XOR `data`, so a pair torn by two writers does
 * not match its key and is ignored (the "lockless" table of chess
 * programs). data: move (bits 0-31), value (32-47), depth (48-55), flag
 * (56-57), the run's generation modulo 64 (58-63). */
struct tt_slot {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
};

/* An entry read from the table. */
struct tt_entry {
    ball_action move;
    int value;
    int depth;
    int flag;  /* TT_* */
    unsigned gen;
};

static inline uint64_t tt_pack(ball_action move, int value, int depth, int flag, unsigned gen)
{
    return (uint64_t)move | (uint64_t)(uint16_t)value << 32 | (uint64_t)(uint8_t)depth << 48 |
           (uint64_t)(flag & 3) << 56 | (uint64_t)(gen & 63) << 58;
}

static inline struct tt_entry tt_unpack(uint64_t d)
{
    struct tt_entry e;
    e.move = (ball_action)d;
    e.value = (int16_t)(d >> 32);
    e.depth = (int8_t)(d >> 48);
    e.flag = (int)(d >> 56) & 3;
    e.gen = (unsigned)(d >> 58);
    return e;
}

/* Reads the entry of @p key into @p out: 1, or 0 when there is none. Two
 * entries per bucket: the deeper one kept, the other always replaced. */
UNIT_LOCAL int tt_probe(struct worker *s, uint64_t key, struct tt_entry *out)
{
    struct tt_slot *b = &s->tt[key & s->tt_mask & ~(size_t)1];
    for (int i = 0; i < 2; i++) {
        uint64_t d = atomic_load_explicit(&b[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b[i].check, memory_order_relaxed);
        if ((c ^ d) == key && ((d >> 56) & 3) != TT_NONE) {
            *out = tt_unpack(d);
            return 1;
        }
    }
    return 0;
}

/* Mate values are stored relative to the node (distance from it). */
UNIT_LOCAL int to_tt(int v, int ply)
{
    return v > WIN_BOUND ? v + ply : v < -WIN_BOUND ? v - ply : v;
}
UNIT_LOCAL int from_tt(int v, int ply)
{
    return v > WIN_BOUND ? v - ply : v < -WIN_BOUND ? v + ply : v;
}

/* Stores the search of @p key (to @p depth, a value of @p flag). */
UNIT_LOCAL void tt_store(struct worker *s, uint64_t key, int depth, int flag, int value,
                            ball_action move, int ply)
{
    struct tt_slot *b = &s->tt[key & s->tt_mask & ~(size_t)1], *e;
    uint64_t d0 = atomic_load_explicit(&b[0].data, memory_order_relaxed);
    uint64_t d1 = atomic_load_explicit(&b[1].data, memory_order_relaxed);
    uint64_t k0 = atomic_load_explicit(&b[0].check, memory_order_relaxed) ^ d0;
    uint64_t k1 = atomic_load_explicit(&b[1].check, memory_order_relaxed) ^ d1;
    uint64_t old;
    struct tt_entry e0 = tt_unpack(d0);
    if (k0 == key)
        e = &b[0], old = d0;
    else if (k1 == key)
        e = &b[1], old = d1;
    else if (e0.gen != (s->gen & 63) || e0.depth <= depth)
        e = &b[0], old = 0;
    else
        e = &b[1], old = 0;
    if (old != 0 && move == BALL_ACTION_NONE)
        move = tt_unpack(old).move; /* keep the decision of an earlier search */
    {
        uint64_t d = tt_pack(move, to_tt(value, ply), depth, flag, s->gen);
        atomic_store_explicit(&e->data, d, memory_order_relaxed);
        atomic_store_explicit(&e->check, key ^ d, memory_order_relaxed);
    }
}

/* The entries of a table of @p hash_mb MiB (a power of two, at least 2). */
size_t tt_entries(int hash_mb);

/* Empties the table of @p mask + 1 entries. */
void tt_clear(struct tt_slot *tt, size_t mask);

#endif
