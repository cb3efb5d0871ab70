/* SPDX-License-Identifier: MIT */
/* CRC-32 of IEEE 802.3 (zlib's crc32()), bitwise, for the programs that
 * build network files (docs/network-format.md) to feed the loader: the
 * Check programs, tests/malloc_fail.c, the fuzz targets and bench/net.c,
 * which link no common object, so it is a function in a header. The tests' own, written
 * apart from the library's (libball/nnue/net.c). */
#ifndef BALL_TESTS_CRC32_H
#define BALL_TESTS_CRC32_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t test_crc32(const unsigned char *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    while (n--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
}

#endif
