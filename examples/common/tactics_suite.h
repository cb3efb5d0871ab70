/* SPDX-License-Identifier: MIT */
/*
 * tactics_suite — the line format of the tactics suite
 * (tests/tactics/suite.txt, docs/yardsticks.md), shared by its generator
 * (examples/tactics_gen.c) and its runner (examples/tactics.c).
 */
#ifndef EXAMPLES_TACTICS_SUITE_H
#define EXAMPLES_TACTICS_SUITE_H

/** Splits @p line in place at '|' into its 5 fields (a line end ends the
 *  last one); 0, or -1 when the line has not exactly 5 fields. */
int suite_split(char *line, char *field[5]);

#endif
