/* SPDX-License-Identifier: MIT */
#include "geometry.h"
#include "square_table.h"

const uint8_t SQ_COL[NSQ] = { ALL_SQUARES(COL_OF) };
const uint8_t SQ_ROW[NSQ] = { ALL_SQUARES(ROW_OF) };

int square_at(int col, int row)
{
    if (!ON_BOARD(col, row) || (col + row) % 2 != 0)
        return NO_SQ;
    return DENSE(col, row);
}

int square_format(int sq, char *buf)
{
    int row = SQ_ROW[sq], n = 0;
    buf[n++] = (char)('A' + SQ_COL[sq] - 1);
    if (row >= 10)
        buf[n++] = (char)('0' + row / 10);
    buf[n++] = (char)('0' + row % 10);
    buf[n] = '\0';
    return n;
}

int square_scan(const char **s)
{
    const char *p = *s;
    if (*p < 'A' || *p > 'M')
        return NO_SQ;
    int col = *p++ - 'A' + 1;
    if (*p < '1' || *p > '9')
        return NO_SQ;
    int row = *p++ - '0';
    if (*p >= '0' && *p <= '9') {
        row = row * 10 + (*p++ - '0');
        if (*p >= '0' && *p <= '9')
            return NO_SQ;
    }
    int sq = square_at(col, row);
    if (sq != NO_SQ)
        *s = p;
    return sq;
}

