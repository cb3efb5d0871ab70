/* SPDX-License-Identifier: MIT */
/* Position notation N1: strict parsing with messages that say what is
 * wrong and where, and canonical formatting. */
#include <stdarg.h>
#include <string.h>

#include "bpn.h"
#include "release.h"
#include "err_text.h"
#include "text_reader.h"

typedef struct parser {
    const char *s;  /* next character of the placement field */
    char *err;
    size_t errlen;
    int row;        /* row being read */
} parser;

/* A message "BPN: ..." (err_text.h); -1. The formats are literals. */
#define fail(err, errlen, ...) err_text(err, errlen, -1, "BPN: " __VA_ARGS__)

/* Squares of a row: odd rows A C E G I K M, even rows B D F H J L. */
static int row_length(int row) { return row % 2 ? 7 : 6; }
static int row_square(int row, int i) { return square_at(row % 2 ? 2 * i + 1 : 2 * i + 2, row); }

/* Marks read after a piece letter (N1 order: * _ !). */
typedef struct marks { int ball, down, restricted; } marks;

static int read_piece(parser *ps, int sq, uint8_t *code, marks *m)
{
    char name[4];
    square_format(sq, name);
    switch (*ps->s) {
    case 'X': *code = TYPE_X; break;
    case 'O': *code = TYPE_O; break;
    case 'S': *code = TYPE_S; break;
    case 'x': *code = TYPE_X | PC_DEF; break;
    case 'o': *code = TYPE_O | PC_DEF; break;
    case 's': *code = TYPE_S | PC_DEF; break;
    default:
        return fail(ps->err, ps->errlen, "row %d, square %s: expected a piece letter (X O S x o s), found '%c'",
                    ps->row, name, *ps->s ? *ps->s : ' ');
    }
    ps->s++;
    m->ball = *ps->s == '*' ? (ps->s++, 1) : 0;
    m->down = *ps->s == '_' ? (ps->s++, 1) : 0;
    m->restricted = *ps->s == '!' ? (ps->s++, 1) : 0;
    if (*ps->s == '*' || *ps->s == '_' || *ps->s == '!')
        return fail(ps->err, ps->errlen, "row %d, square %s: marks repeated or out of order (the order is * _ !)",
                    ps->row, name);
    if (m->down)
        *code |= PC_DOWN;
    if (m->ball && m->down)
        return fail(ps->err, ps->errlen, "row %d, square %s: a knocked-down piece cannot hold the ball", ps->row, name);
    return 0;
}

/* One square's token: a single piece or a stack. */
static int read_occupant(parser *ps, pos *p, int sq, int *balls, int *restricted_sq)
{
    char name[4];
    marks m, lm;
    square_format(sq, name);
    if (*ps->s != '[') {
        if (read_piece(ps, sq, &p->top[sq], &m) < 0)
            return -1;
        if (m.restricted && !m.ball)
            return fail(ps->err, ps->errlen, "row %d, square %s: '!' on a piece that does not hold the ball", ps->row, name);
        if (m.restricted)
            *restricted_sq = sq;
        if (m.ball) {
            (*balls)++;
            p->st.ball = (int8_t)sq;
        }
        return 0;
    }
    ps->s++;
    if (read_piece(ps, sq, &p->top[sq], &m) < 0 || read_piece(ps, sq, &p->low[sq], &lm) < 0)
        return -1;
    if (*ps->s != ']')
        return fail(ps->err, ps->errlen, "row %d, square %s: a stack holds two pieces then ']'", ps->row, name);
    ps->s++;
    if (*ps->s == '+') {
        ps->s++;
        set_fresh(p, sq);
    }
    if (m.down)
        return fail(ps->err, ps->errlen, "row %d, square %s: the upper piece of a stack cannot be knocked down", ps->row, name);
    if (m.restricted || lm.restricted)
        return fail(ps->err, ps->errlen, "row %d, square %s: a stacked piece cannot be restricted", ps->row, name);
    if (lm.ball)
        return fail(ps->err, ps->errlen, "row %d, square %s: the lower piece of a stack cannot hold the ball", ps->row, name);
    if (m.ball) {
        (*balls)++;
        p->st.ball = (int8_t)sq;
    }
    return 0;
}

static int read_group(parser *ps, pos *p, int *balls, int *restricted_sq)
{
    int len = row_length(ps->row), i = 0, last_digit = 0;
    while (*ps->s && *ps->s != '/') {
        char c = *ps->s;
        if (i >= len)
            return fail(ps->err, ps->errlen, "row %d: more than the %d squares of the row", ps->row, len);
        int sq = row_square(ps->row, i);
        if (c >= '0' && c <= '9') {
            if (last_digit)
                return fail(ps->err, ps->errlen, "row %d: touching digits (runs of vacant squares are written as one digit)", ps->row);
            if (c == '0' || c > '7')
                return fail(ps->err, ps->errlen, "row %d: bad run length '%c' (1-7)", ps->row, c);
            if (i + (c - '0') > len)
                return fail(ps->err, ps->errlen, "row %d: more than the %d squares of the row", ps->row, len);
            i += c - '0';
            ps->s++;
            last_digit = 1;
            continue;
        }
        last_digit = 0;
        if (c == '@') {
            (*balls)++;
            p->st.ball = (int8_t)sq;
            ps->s++;
        } else if (read_occupant(ps, p, sq, balls, restricted_sq) < 0) {
            return -1;
        }
        i++;
    }
    if (i != len)
        return fail(ps->err, ps->errlen, "row %d: %d squares given, the row has %d", ps->row, i, len);
    return 0;
}

static int read_placement(parser *ps, pos *p, int *restricted_sq)
{
    int balls = 0;
    for (ps->row = 17; ps->row >= 1; ps->row--) {
        if (read_group(ps, p, &balls, restricted_sq) < 0)
            return -1;
        if (ps->row > 1 && *ps->s++ != '/')
            return fail(ps->err, ps->errlen, "placement has %d groups, needs 17", 18 - ps->row);
    }
    if (*ps->s == '/')
        return fail(ps->err, ps->errlen, "placement has more than 17 groups");
    if (*ps->s)
        return fail(ps->err, ps->errlen, "unexpected '%c' after row 1", *ps->s);
    if (balls != 1)
        return balls ? fail(ps->err, ps->errlen, "%d balls, there must be exactly one", balls)
                     : fail(ps->err, ps->errlen, "no ball, there must be exactly one");
    int count[2] = {0, 0};
    for (int sq = 0; sq < NSQ; sq++) {
        if (p->top[sq]) count[pc_team(p->top[sq])]++;
        if (p->low[sq]) count[pc_team(p->low[sq])]++;
    }
    if (count[ATK] > 7 || count[DEF] > 7)
        return fail(ps->err, ps->errlen, "%s has %d pieces, at most 7", count[ATK] > 7 ? "ATK" : "DEF",
                    count[ATK] > 7 ? count[ATK] : count[DEF]);
    return 0;
}

static int field_is(const char *f, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(f, word, len) == 0;
}

/* Card mode's field 8: the hand indices (from 1) still held, `-` for
 * none, as <ATK>/<DEF> in increasing order. */
static int read_hand(const char *s, size_t len, int size, uint16_t *hand)
{
    *hand = 0;
    if (len == 1 && s[0] == '-')
        return 0;
    int last = 0;
    for (size_t i = 0; i < len; i++) {
        int index = s[i] - '0';
        if (index <= last || index > size)
            return -1;
        *hand |= (uint16_t)(1u << (index - 1));
        last = index;
    }
    return len > 0 ? 0 : -1;
}

static int read_hands(const char *f, size_t len, pos *p, char *err, size_t errlen)
{
    const char *slash = memchr(f, '/', len);
    if (!slash || read_hand(f, (size_t)(slash - f), p->cards.hand_size[ATK], &p->st.hand[ATK]) < 0
        || read_hand(slash + 1, len - (size_t)(slash - f) - 1, p->cards.hand_size[DEF], &p->st.hand[DEF]) < 0)
        return fail(err, errlen, "field 8 (cards): '%.*s', expected <ATK cards>/<DEF cards>: hand "
                    "numbers 1-%d/1-%d in increasing order, or -", (int)len, f,
                    p->cards.hand_size[ATK], p->cards.hand_size[DEF]);
    return 0;
}

/* Fields 2-7 (8 in card mode): side, phase, pa, handoff, pe, turn, cards. */
static int read_fields(const char *const *f, const size_t *len, pos *p, char *err, size_t errlen)
{
    if (field_is(f[1], len[1], "ATK")) p->st.side = ATK;
    else if (field_is(f[1], len[1], "DEF")) p->st.side = DEF;
    else return fail(err, errlen, "field 2 (side): '%.*s', expected ATK or DEF", (int)len[1], f[1]);
    if (field_is(f[2], len[2], "a")) p->st.phase = PHASE_ACTION;
    else if (field_is(f[2], len[2], "r")) p->st.phase = PHASE_RELEASE;
    else return fail(err, errlen, "field 3 (phase): '%.*s', expected a or r", (int)len[2], f[2]);
    uint32_t pa;
    if (decimal_read(f[3], len[3], &pa) < 0 || pa > (p->cards.on ? MAX_PA : 2))
        return fail(err, errlen, "field 4 (pa): '%.*s', expected 0-%d", (int)len[3], f[3],
                    p->cards.on ? MAX_PA : 2);
    p->st.pa = (uint8_t)pa;
    if (field_is(f[4], len[4], "h")) p->st.handoff = 1;
    else if (!field_is(f[4], len[4], "-"))
        return fail(err, errlen, "field 5 (handoff): '%.*s', expected h or -", (int)len[4], f[4]);
    const char *slash = memchr(f[5], '/', len[5]);
    uint32_t pe_atk, pe_def;
    if (!slash || decimal_read(f[5], (size_t)(slash - f[5]), &pe_atk) < 0
        || decimal_read(slash + 1, len[5] - (size_t)(slash - f[5]) - 1, &pe_def) < 0)
        return fail(err, errlen, "field 6 (pe): '%.*s', expected <ATK PE>/<DEF PE>", (int)len[5], f[5]);
    if (!p->cards.on && (pe_atk || pe_def))
        return fail(err, errlen, "field 6 (pe): '%.*s', PE must be 0/0 outside card mode", (int)len[5], f[5]);
    p->st.pe[ATK] = pe_atk;
    p->st.pe[DEF] = pe_def;
    if (decimal_read(f[6], len[6], &p->st.turn) < 0 || p->st.turn == 0)
        return fail(err, errlen, "field 7 (turn): '%.*s', expected a turn number from 1", (int)len[6], f[6]);
    if (p->cards.on && read_hands(f[7], len[7], p, err, errlen) < 0)
        return -1;
    if (p->st.phase == PHASE_RELEASE && p->st.pa)
        return fail(err, errlen, "field 4 (pa): PA must be 0 in the release phase");
    if (p->st.phase == PHASE_RELEASE && p->st.handoff)
        return fail(err, errlen, "field 5 (handoff): 'h' in the release phase");
    return 0;
}

/* Rules that link the placement to the other fields. */
static int check_consistency(pos *p, int restricted_sq, char *err, size_t errlen)
{
    char name[4];
    if (restricted_sq != NO_SQ) {
        square_format(restricted_sq, name);
        if (p->st.phase == PHASE_RELEASE)
            return fail(err, errlen, "square %s: '!' in the release phase", name);
        if (pc_down(p->top[restricted_sq]))
            return fail(err, errlen, "square %s: a restricted piece must be active", name);
        if (pc_team(p->top[restricted_sq]) != p->st.side)
            return fail(err, errlen, "square %s: '!' on a piece of the side not to act", name);
        p->st.restricted = 1;
    }
    for (int sq = 0; sq < NSQ; sq++)
        if (is_fresh(p, sq) && pc_team(p->top[sq]) != p->st.side) {
            square_format(sq, name);
            return fail(err, errlen, "square %s: a fresh stack whose upper piece is not the side to act's", name);
        }
    p->st.result = (uint8_t)touchdown_result(p);
    if (p->st.result == ONGOING && p->turn_limit && p->st.turn > p->turn_limit)
        p->st.result = DRAWN;
    if (p->st.result == ONGOING && p->st.phase == PHASE_RELEASE && !release_has_solution(p))
        return fail(err, errlen, "release phase in which no task has a solution");
    return 0;
}

int bpn_parse(const char *text, pos *out, int zone_depth, uint32_t turn_limit,
              const card_rules *cards, char *err, size_t errlen)
{
    const char *f[8];
    size_t len[8];
    const int want = cards->on ? 8 : 7;
    int nf = 0;
    const char *s = text;
    for (;;) {
        const char *sp = strchr(s, ' ');
        size_t l = sp ? (size_t)(sp - s) : strlen(s);
        if (l == 0)
            return fail(err, errlen, "empty field %d (fields are separated by single spaces)", nf + 1);
        if (nf == want)
            return fail(err, errlen, "more than %d fields%s", want, cards->on ? "" : " (8 only in card mode)");
        f[nf] = s;
        len[nf++] = l;
        if (!sp)
            break;
        s = sp + 1;
    }
    if (nf != want)
        return fail(err, errlen, "%d field%s, expected %d%s", nf, nf == 1 ? "" : "s", want,
                    cards->on ? " (card mode adds the cards field)" : "");

    pos p;
    memset(&p, 0, sizeof p);
    p.zone_depth = (uint8_t)zone_depth;
    p.turn_limit = turn_limit;
    p.cards = *cards;
    char placement[BPN_MAX];
    if (len[0] >= sizeof placement)
        return fail(err, errlen, "placement field too long");
    memcpy(placement, f[0], len[0]);
    placement[len[0]] = '\0';
    parser ps = {placement, err, errlen, 17};
    int restricted_sq = NO_SQ;
    if (read_placement(&ps, &p, &restricted_sq) < 0 || read_fields(f, len, &p, err, errlen) < 0)
        return -1;
    pos_rehash(&p);
    if (check_consistency(&p, restricted_sq, err, errlen) < 0)
        return -1;
    *out = p;
    return 0;
}

static char piece_letter(uint8_t code)
{
    static const char letters[2][4] = {{'?', 'X', 'O', 'S'}, {'?', 'x', 'o', 's'}};
    return letters[pc_team(code)][pc_type(code)];
}

static int format_square(const pos *p, int sq, char *o)
{
    int n = 0;
    uint8_t top = p->top[sq];
    if (p->low[sq])
        o[n++] = '[';
    o[n++] = piece_letter(top);
    if (p->st.ball == sq) o[n++] = '*';
    if (pc_down(top)) o[n++] = '_';
    if (p->st.ball == sq && p->st.restricted && !p->low[sq]) o[n++] = '!';
    if (p->low[sq]) {
        o[n++] = piece_letter(p->low[sq]);
        if (pc_down(p->low[sq])) o[n++] = '_';
        o[n++] = ']';
        if (is_fresh(p, sq)) o[n++] = '+';
    }
    return n;
}

/* The decimal digits of v at o (no NUL); returns how many. */
static int put_uint(char *o, uint32_t v)
{
    char digits[10];
    int k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < k; i++)
        o[i] = digits[k - 1 - i];
    return k;
}

static int format_hands(const pos *p, char *o)
{
    int n = 0;
    o[n++] = ' ';
    for (int team = ATK; team <= DEF; team++) {
        if (team == DEF)
            o[n++] = '/';
        if (!p->st.hand[team])
            o[n++] = '-';
        for (int i = 0; i < HAND_MAX; i++)
            if (p->st.hand[team] >> i & 1)
                o[n++] = (char)('1' + i);
    }
    o[n] = '\0';
    return n;
}

int bpn_format(const pos *p, char *buf)
{
    int n = 0;
    for (int row = 17; row >= 1; row--) {
        int run = 0;
        for (int i = 0; i < row_length(row); i++) {
            int sq = row_square(row, i);
            if (!p->top[sq] && p->st.ball != sq) {
                run++;
                continue;
            }
            if (run)
                buf[n++] = (char)('0' + run);
            run = 0;
            if (p->top[sq])
                n += format_square(p, sq, buf + n);
            else
                buf[n++] = '@';
        }
        if (run)
            buf[n++] = (char)('0' + run);
        if (row > 1)
            buf[n++] = '/';
    }
    /* " %s %c %d %c %u/%u %u" by hand: snprintf() took half the time of
     * the whole text (the game server writes one BPN a decision) */
    char *o = buf + n;
    memcpy(o, p->st.side == ATK ? " ATK " : " DEF ", 5);
    o += 5;
    *o++ = p->st.phase == PHASE_ACTION ? 'a' : 'r';
    *o++ = ' ';
    o += put_uint(o, p->st.pa);
    *o++ = ' ';
    *o++ = p->st.handoff ? 'h' : '-';
    *o++ = ' ';
    o += put_uint(o, p->st.pe[ATK]);
    *o++ = '/';
    o += put_uint(o, p->st.pe[DEF]);
    *o++ = ' ';
    o += put_uint(o, p->st.turn);
    *o = '\0';
    n = (int)(o - buf);
    if (p->cards.on)
        n += format_hands(p, buf + n);
    return n;
}
