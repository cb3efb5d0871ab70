/* SPDX-License-Identifier: MIT */
/* The suite line format of tactics_suite.h. */
#include "tactics_suite.h"

int suite_split(char *line, char *field[5])
{
    int i = 0;
    field[0] = line;
    for (char *p = line; *p; p++) {
        if (*p == '\n' || *p == '\r') {
            *p = '\0';
            break;
        }
        if (*p == '|') {
            if (++i >= 5)
                return -1;
            *p = '\0';
            field[i] = p + 1;
        }
    }
    return i == 4 ? 0 : -1;
}
