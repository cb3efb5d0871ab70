/* SPDX-License-Identifier: MIT */
/* Zobrist-style position hash. Every key is the splitmix64 finaliser of a
 * small index: the square keys sit in a constant table the compiler
 * builds, the few scalar keys are computed when the hash is read. */
#ifndef BALL_HASH_H
#define BALL_HASH_H

#include <stdint.h>

/* The splitmix64 increment (the golden ratio in 64 bits). */
#define SPLITMIX64_GAMMA 0x9E3779B97F4A7C15ull

static inline uint64_t mix64(uint64_t z)
{
    z += SPLITMIX64_GAMMA;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The next output of the splitmix64 generator with state @p state
 * (docs/learning.md): mix64() of the state, which then moves on. */
static inline uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = mix64(*state);
    *state += SPLITMIX64_GAMMA;
    return z;
}

/* ZOBRIST[sq][code] keys a top piece code, ZOBRIST[sq][16 + code] a lower
 * one; code 0 (no piece) has key 0, so vacant squares cost nothing. Built
 * by the compiler (hash.c) from the same finaliser. */
extern const uint64_t ZOBRIST[][32];

static inline uint64_t square_key(int sq, uint8_t top, uint8_t low)
{
    return ZOBRIST[sq][top] ^ ZOBRIST[sq][16 + low];
}

/* Index space above all square keys for the scalar fields. */
#define KEY_STATE (1ull << 32)

/* mix64() as a constant expression, for the table. */
#define MIX_1(z) ((z) + SPLITMIX64_GAMMA)
#define MIX_2(z) (((z) ^ ((z) >> 30)) * 0xBF58476D1CE4E5B9ull)
#define MIX_3(z) (((z) ^ ((z) >> 27)) * 0x94D049BB133111EBull)
#define MIX_4(z) ((z) ^ ((z) >> 31))
#define MIX64_CONST(x) MIX_4(MIX_3(MIX_2(MIX_1((uint64_t)(x)))))

#endif
