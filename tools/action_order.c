/* SPDX-License-Identifier: MIT */
/* The square order of action texts; see action_order.h. */
#include "action_order.h"

#include <stdlib.h>
#include <string.h>

/* The square named at the start of @p s ("G9" in "G9-F10"): its index and
 * the name's length in @p *len, or -1 when no square name starts there. */
static int square_at_text(const char *s, size_t *len)
{
    char name[BALL_SQUARE_TEXT_MAX];
    size_t n = 1;
    if (s[0] < 'A' || s[0] > 'M')
        return -1;
    name[0] = s[0];
    while (n < BALL_SQUARE_TEXT_MAX - 1 && s[n] >= '0' && s[n] <= '9') {
        name[n] = s[n];
        n++;
    }
    name[n] = '\0';
    int sq = ball_square_from_text(name);
    if (sq < 0)
        return -1;
    *len = n;
    return sq;
}

/* One token of an action text for sorting: a square name (category 0,
 * by index), a run of digits (1, by value) or any other byte (2). */
struct sort_token {
    int category;
    int value;         /* square index or byte */
    const char *digits; /* category 1: the digits without leading zeros */
    size_t len;         /* category 1: their number */
};

/* Reads the token at @p *s and moves @p *s past it. */
static void next_token(const char **s, struct sort_token *t)
{
    size_t len = 0;
    int sq = square_at_text(*s, &len);
    if (sq >= 0) {
        *t = (struct sort_token){0, sq, NULL, 0};
        *s += len;
    } else if (**s >= '0' && **s <= '9') {
        len = strspn(*s, "0123456789");
        *t = (struct sort_token){1, 0, *s, len};
        *s += len;
        while (t->len > 1 && *t->digits == '0')
            t->digits++, t->len--;
    } else {
        *t = (struct sort_token){2, (unsigned char)**s, NULL, 0};
        (*s)++;
    }
}

/* Square order of action texts, token by token: squares first, by index
 * (row by row: G9 before G13 before A15), then numbers by value ("pe+2"
 * before "pe+10"), then other bytes by value; a text that is a prefix of
 * another comes first; bytes break the remaining ties. */
static int compare_action_texts(const char *a, const char *b)
{
    const char *a0 = a, *b0 = b;
    while (*a && *b) {
        struct sort_token x, y;
        next_token(&a, &x);
        next_token(&b, &y);
        if (x.category != y.category)
            return x.category < y.category ? -1 : 1;
        if (x.category == 1) {
            if (x.len != y.len)
                return x.len < y.len ? -1 : 1;
            int c = strncmp(x.digits, y.digits, x.len);
            if (c != 0)
                return c;
        } else if (x.value != y.value) {
            return x.value < y.value ? -1 : 1;
        }
    }
    if (*a || *b)
        return *a ? 1 : -1;
    return strcmp(a0, b0);
}

static int cmp_action_text(const void *a, const void *b)
{
    const struct action_text *x = a, *y = b;
    return compare_action_texts(x->text, y->text);
}

/* Writes the legal actions of @p g, in square order, into @p out (room
 * for BALL_MAX_ACTIONS). Returns their number or a negative ball_error. */
int sorted_legal(ball_game *g, struct action_text *out)
{
    ball_action acts[BALL_MAX_ACTIONS];
    int n = ball_legal_actions(g, acts, BALL_MAX_ACTIONS);
    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        int rc = ball_action_to_text(acts[i], out[i].text, sizeof out[i].text);
        if (rc < 0)
            return rc;
        out[i].action = acts[i];
    }
    qsort(out, (size_t)n, sizeof *out, cmp_action_text);
    return n;
}
