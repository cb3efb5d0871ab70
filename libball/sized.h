/* SPDX-License-Identifier: MIT */
/* Size-tagged public structs (ball_rules, ball_allocator): how the library
 * reads a caller's struct whatever 1.x header it was compiled with.
 *
 * A struct's `size` must be one of its published sizes: the sizeof of
 * each released layout, each a prefix of the next (docs/abi.md). The
 * library starts from its own defaults and copies the caller's `size`
 * bytes over them, so fields the caller's header did not have keep their
 * defaults. Any other size (a struct compiled under `#pragma pack`, a
 * garbage field) is refused before a byte is read past the size field. */
#ifndef BALL_SIZED_H
#define BALL_SIZED_H

#include <stddef.h>
#include <string.h>

/* The sizeof of a layout that ends with `field` of `type`, with the tail
 * padding the compiler adds: what sizeof(type) was in the release whose
 * last field this is. */
#define SIZED_LAYOUT(type, field) \
    ((offsetof(type, field) + sizeof(((type *)0)->field) + _Alignof(type) - 1) \
     / _Alignof(type) * _Alignof(type))

/* 1 when `size` is one of the n published sizes. */
static inline int sized_published(size_t size, const size_t *published, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (size == published[i])
            return 1;
    return 0;
}

/* Copies the first `size` bytes of a full struct into the caller's struct
 * of `size` bytes (no more than the full struct has). */
static inline void sized_write(void *dst, size_t size, const void *full, size_t full_size)
{
    memcpy(dst, full, size < full_size ? size : full_size);
}

/* The _init() of a struct the caller fills: the library's @p defaults (a
 * full struct of `full_size` bytes) into the caller's struct of `size`
 * bytes (no more than the full struct's), its leading size field set to
 * the bytes written. */
static inline void sized_defaults_init(void *dst, size_t size, const void *defaults, size_t full_size)
{
    size_t n = size < full_size ? size : full_size;
    memcpy(dst, defaults, n);
    memcpy(dst, &n, n < sizeof n ? n : sizeof n);
}

/* The _init() of a struct the library writes: zeroes the caller's struct
 * of `size` bytes (no more than the full struct's `full_size`) and sets its
 * leading size field to the bytes zeroed. */
static inline void sized_zero_init(void *dst, size_t size, size_t full_size)
{
    size_t n = size < full_size ? size : full_size;
    memset(dst, 0, n);
    if (n >= sizeof n)
        memcpy(dst, &n, sizeof n);
}

#endif
