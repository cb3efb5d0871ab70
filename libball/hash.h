/* Zobrist-style position hash. Keys are computed, not stored: each is the
 * splitmix64 finaliser of a small index, which costs a few multiplications
 * and needs no table (and so no start-up code or global state). */
#ifndef BALL_HASH_H
#define BALL_HASH_H

#include <stdint.h>

static inline uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Key of a square's contents (top and lower piece codes); 0 when empty,
 * so vacant squares cost nothing. */
static inline uint64_t square_key(int sq, uint8_t top, uint8_t low)
{
    if (!top)
        return 0;
    return mix64((uint64_t)sq << 16 | (uint64_t)top << 8 | low);
}

/* Key space above all square keys for the scalar fields. */
#define KEY_STATE (1ull << 32)

#endif
