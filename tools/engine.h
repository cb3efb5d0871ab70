/* SPDX-License-Identifier: MIT */
/*
 * The `ball engine` and `ball match` commands (tools/engine.c,
 * tools/match*.c), called by tools/ball.c with the command's arguments,
 * argv[0] being the command's name. Each returns the tool's exit status.
 */
#ifndef TOOLS_ENGINE_H
#define TOOLS_ENGINE_H

/** ball engine [--log FILE]: BEP on standard input/output (docs/protocol.md). */
int tool_engine_main(int argc, char **argv);

/** ball match --engine ... (docs/match.md). */
int tool_match_main(int argc, char **argv);

#endif
