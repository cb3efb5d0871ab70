/* SPDX-License-Identifier: MIT */
/* What the text readers share: see text_reader.h. */
#include <string.h>

#include "text_reader.h"

int decimal_read(const char *s, size_t len, uint32_t *out)
{
    if (len == 0 || len > 9 || (s[0] == '0' && len > 1))
        return -1;
    uint32_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (uint32_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

void text_where(const char *text, size_t at, unsigned long *line, size_t *column)
{
    unsigned long l = 1;
    size_t start = 0;
    for (const char *p = text, *stop = text + at; (p = memchr(p, '\n', (size_t)(stop - p))) != NULL; p++) {
        l++;
        start = (size_t)(p - text) + 1;
    }
    *line = l;
    *column = at - start + 1;
}

/* The length of the well-formed sequence at s[0..n), or 0. The second
 * byte's range depends on the first (RFC 3629, section 4): E0 A0-BF
 * (no overlong), ED 80-9F (no surrogate), F0 90-BF (no overlong), F4
 * 80-8F (nothing above U+10FFFF); the later ones are 80-BF. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xbf;
    if (c < 0x80)
        return 1;
    if (c < 0xc2) /* a continuation byte, or C0/C1: overlong */
        return 0;
    if (c < 0xe0)
        len = 2;
    else if (c < 0xf0) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f;
    } else if (c < 0xf5) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return len;
}

size_t utf8_invalid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_sequence(u + i, n - i);
        if (!len)
            return i;
        i += len;
    }
    return n;
}
