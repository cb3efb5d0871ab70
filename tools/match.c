/* SPDX-License-Identifier: MIT */
#include "engine.h"

#include <stdio.h>

int tool_match_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("ball: match: not built yet\n", stderr);
    return 2;
}
