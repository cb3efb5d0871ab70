/* SPDX-License-Identifier: MIT */
/* CRC-32 of IEEE 802.3 (zlib's crc32()), four bits at a time from a
 * constant table (a fuzz target seals files of megabytes at every run), for the programs that
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
    /* the reflected polynomial 0xEDB88320 applied to each 4-bit value */
    static const uint32_t nibble[16] = {
        0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
        0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
        0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};
    uint32_t c = 0xFFFFFFFFu;
    while (n--) {
        c ^= *p++;
        c = (c >> 4) ^ nibble[c & 15];
        c = (c >> 4) ^ nibble[c & 15];
    }
    return c ^ 0xFFFFFFFFu;
}

#endif
