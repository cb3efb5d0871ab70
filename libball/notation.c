/* SPDX-License-Identifier: MIT */
/* Action notation N2: canonical text of an action, and the syntax check
 * used before an action text is matched against the legal actions. */
#include <stdio.h>
#include <string.h>

#include "action.h"
#include "geometry.h"
#include "notation.h"
#include "err_text.h"
#include "text_reader.h"

int action_format(uint32_t a, char *buf)
{
    int kind = act_kind(a), n = 0;
    if (kind == K_END) {
        memcpy(buf, "end", 4);
        return 3;
    }
    if (kind == K_CONVERT)
        return sprintf(buf, "pe+%d", act_value(a));
    if (kind == K_CARD) { /* R10.4: the project's text, cardN[@target] */
        n = sprintf(buf, "card%d", act_value(a) + 1);
        if (act_from(a) >= 0) {
            buf[n++] = '@';
            n += square_format(act_from(a), buf + n);
        }
        return n;
    }
    n += square_format(act_from(a), buf + n);
    switch (kind) {
    case K_HANDOFF: buf[n++] = '='; break;
    case K_SHORT_PASS: buf[n++] = '^'; break;
    case K_LONG_PASS: buf[n++] = '^'; buf[n++] = '^'; break;
    default: buf[n++] = '-'; break;
    }
    n += square_format(act_to(a), buf + n);
    if (act_opt(a) >= 0) {
        buf[n++] = '/';
        n += square_format(act_opt(a), buf + n);
    }
    if (act_keeper(a) != KEEP_NONE) {
        buf[n++] = '=';
        n += square_format(act_keeper(a) == KEEP_UPPER ? act_to(a) : act_opt(a), buf + n);
    }
    buf[n] = '\0';
    return n;
}

static int bad(char *err, size_t errlen, const char *text, size_t at, const char *what)
{
    return err_text(err, errlen, -1, "action '%s': %s at character %zu", text, what, at + 1);
}

/* N2 grammar: "end" | "pe+" k | "card" N ["@" SQ] | SQ ("-" SQ ["/" SQ ["=" SQ]] | "=" SQ | "^" SQ | "^^" SQ) */
int action_syntax(const char *text, char *err, size_t errlen)
{
    const char *s = text;
    if (strcmp(text, "end") == 0)
        return 0;
    if (strncmp(text, "pe+", 3) == 0) { /* R10.2 conversion, k >= 1 */
        s = text + 3;
        if (*s < '1' || *s > '9')
            return bad(err, errlen, text, 3, "expected the number of PA to convert");
        while (*s >= '0' && *s <= '9')
            s++;
        return *s ? bad(err, errlen, text, (size_t)(s - text), "unexpected text") : 0;
    }
    if (strncmp(text, "card", 4) == 0) { /* hand index 1-9, then a target */
        s = text + 4;
        if (*s < '1' || *s > '9')
            return bad(err, errlen, text, 4, "expected the card's hand number 1-9");
        s++;
        if (*s == '@') {
            s++;
            if (square_scan(&s) == NO_SQ)
                return bad(err, errlen, text, (size_t)(s - text), "expected the target square after '@'");
        }
        return *s ? bad(err, errlen, text, (size_t)(s - text), "unexpected text") : 0;
    }
    if (square_scan(&s) == NO_SQ)
        return bad(err, errlen, text, 0, "expected a square such as G5");
    char sep = *s;
    if (sep != '-' && sep != '=' && sep != '^')
        return bad(err, errlen, text, (size_t)(s - text), "expected '-', '=', '^' or '^^' after the first square");
    s++;
    if (sep == '^' && *s == '^')
        s++;
    if (square_scan(&s) == NO_SQ)
        return bad(err, errlen, text, (size_t)(s - text), "expected a square");
    if (sep == '-' && *s == '/') {
        s++;
        if (square_scan(&s) == NO_SQ)
            return bad(err, errlen, text, (size_t)(s - text), "expected a square after '/'");
        if (*s == '=') {
            s++;
            if (square_scan(&s) == NO_SQ)
                return bad(err, errlen, text, (size_t)(s - text), "expected the keeper's square after '='");
        }
    }
    if (*s)
        return bad(err, errlen, text, (size_t)(s - text), "unexpected text");
    return 0;
}
