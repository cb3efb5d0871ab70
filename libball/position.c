/* SPDX-License-Identifier: MIT */
/* The position functions of position.h: the standard start (R2.2), the
 * bitboards and board hash rebuilt from the squares, and the hash. */
#include <string.h>

#include "position.h"

void pos_start(pos *p, int zone_depth, uint32_t turn_limit, const card_rules *cards)
{
    /* R2.2: ATK's formation; DEF mirrors it across row 9. */
    static const struct { int col, row, type; } formation[7] = {
        {3, 7, TYPE_O}, {5, 7, TYPE_X}, {7, 7, TYPE_S}, {9, 7, TYPE_X},
        {7, 5, TYPE_X}, {11, 7, TYPE_O}, {7, 3, TYPE_S},
    };
    memset(p, 0, sizeof *p);
    for (int i = 0; i < 7; i++) {
        const int col = formation[i].col, row = formation[i].row;
        p->top[square_at(col, row)] = (uint8_t)formation[i].type;
        p->top[square_at(col, 18 - row)] = (uint8_t)(formation[i].type | PC_DEF);
    }
    p->st.ball = (int8_t)square_at(7, 5); /* X5 holds the ball */
    p->st.side = DEF;                     /* R2.3 */
    p->st.phase = PHASE_ACTION;
    p->st.pa = 2;
    p->st.turn = 1;
    p->zone_depth = (uint8_t)zone_depth;
    p->turn_limit = turn_limit;
    p->cards = *cards;
    for (int team = 0; team < 2; team++)
        p->st.hand[team] = (uint16_t)((1u << cards->hand_size[team]) - 1);
    p->st.result = ONGOING;
    pos_rehash(p);
}

void pos_rehash(pos *p)
{
    p->st.board_hash = 0;
    p->piece[0] = p->piece[1] = p->active[0] = p->active[1] = p->lower[0] = p->lower[1] = 0;
    p->typed[0] = p->typed[1] = p->typed[2] = 0;
    for (int sq = 0; sq < NSQ; sq++) {
        uint8_t top = p->top[sq], low = p->low[sq];
        p->top[sq] = p->low[sq] = 0;
        sq_set(p, sq, top, low);
    }
}

/* The scalar fields of the state in disjoint bit ranges, so that no two
 * states share a scalar key (PA take 7 bits: up to 99 in card mode). */
enum {
    SC_BALL = 0,        /* 8 bits */
    SC_SIDE = 8,        /* 1 bit */
    SC_PHASE = 9,       /* 1 bit */
    SC_PA = 10,         /* 7 bits */
    SC_HANDOFF = 17,    /* 1 bit */
    SC_RESTRICTED = 18, /* 1 bit */
};
_Static_assert(MAX_PA < 1 << (SC_HANDOFF - SC_PA), "PA overlap the next field of the hash");

uint64_t pos_hash(const pos *p)
{
    const pos_state *st = &p->st;
    uint64_t scalars = (uint64_t)(uint8_t)st->ball << SC_BALL | (uint64_t)st->side << SC_SIDE
                       | (uint64_t)st->phase << SC_PHASE | (uint64_t)st->pa << SC_PA
                       | (uint64_t)st->handoff << SC_HANDOFF | (uint64_t)st->restricted << SC_RESTRICTED;
    uint64_t h = st->board_hash ^ mix64(KEY_STATE | scalars) ^ mix64((uint64_t)st->fresh ^ mix64((uint64_t)(st->fresh >> 64)));
    if (p->cards.on)
        h ^= mix64(st->pe[0] ^ mix64(st->pe[1] ^ mix64((uint64_t)st->hand[0] << 16 | st->hand[1])));
    return h;
}
