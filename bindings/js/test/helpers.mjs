// SPDX-License-Identifier: MIT
// Shared by the node tests of the binding (node --test test/*.test.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { load } from '../libball.mjs';

/** One instance of the binding for a whole test file. */
export const ball = await load();

/** The native `ball` tool: $BALL_TOOL, else the repository's build/bin/ball. */
export const BALL_TOOL = process.env.BALL_TOOL ||
  fileURLToPath(new URL('../../../build/bin/ball', import.meta.url));
export const HAVE_TOOL = existsSync(BALL_TOOL);
export const NO_TOOL = HAVE_TOOL ? false :
  `no native tool at ${BALL_TOOL} (make tool, or set BALL_TOOL)`;

/** The native `selfplay` example (its MCTS decisions are the reference):
 *  $SELFPLAY, else examples/selfplay of the tool's build directory. */
export const SELFPLAY = process.env.SELFPLAY ||
  join(dirname(dirname(BALL_TOOL)), 'examples', 'selfplay');
export const NO_SELFPLAY = existsSync(SELFPLAY) ? false :
  `no native selfplay at ${SELFPLAY} (make examples, or set SELFPLAY)`;

/** Runs the native selfplay with `args`; returns { status, stdout, stderr }. */
export function selfplay(args) {
  const r = spawnSync(SELFPLAY, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error)
    throw r.error;
  return r;
}

/** Runs the native tool; returns { status, stdout, stderr }. */
export function tool(args, input = '') {
  const r = spawnSync(BALL_TOOL, args, { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error)
    throw r.error;
  return r;
}

/** A BPN with a dodge (G9 over H10 onto I11) and a tactical dodge for ATK
 *  (docs/guide.md's example position). */
export const DODGE_BPN = '7/6/7/6/7/6/4x2/6/3X3/6/7/6/7/6/7/6/@6 ATK a 2 - 0/0 1';
/** A non-fresh stack [X* o] on G9 that ATK must release (R9.3). */
export const RELEASE_BPN = '7/6/7/6/7/6/7/2OS2/3[X*o]3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2';
