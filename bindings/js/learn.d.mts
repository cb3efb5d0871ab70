// SPDX-License-Identifier: MIT
// Type declarations of learn.mjs, the learning interface of the JavaScript
// binding (docs/web.md, docs/learning.md). Checked by `tsc --strict` in
// make check-web (tests/web/learn.check.mts).

import type { CONSTANTS } from './_api.mjs';
import type { Action, Ball, Game, RulesSpec } from './libball.mjs';

export declare const ACTION_SPACE: typeof CONSTANTS.ACTION_SPACE;
export declare const ACTION_MASK_BYTES: typeof CONSTANTS.ACTION_MASK_BYTES;
export declare const INDEX_END: typeof CONSTANTS.INDEX_END;
export declare const INDEX_CARD: typeof CONSTANTS.INDEX_CARD;
export declare const INDEX_PLANES: typeof CONSTANTS.INDEX_PLANES;
export declare const OBS_PLANES: typeof CONSTANTS.OBS_PLANES;
export declare const OBS_SCALARS: typeof CONSTANTS.OBS_SCALARS;
export declare const OBS_GRID_CELLS: typeof CONSTANTS.OBS_GRID_CELLS;
export declare const BATCH_MAX: typeof CONSTANTS.BATCH_MAX;
/** The turn limit of a Batch when no turnLimit is given. */
export declare const AUTO_TURN_LIMIT: 100;

export declare const IndexPlane: Readonly<{
  STEP: 0; JUMP: 4; DODGE: 12; RELEASE: 44; HANDOFF: 68; SHORT_PASS: 69; LONG_PASS: 70;
}>;
/** Observation layouts; GRID and SCALAR_PLANES combine (flags 0-3). */
export declare const ObsFlag: Readonly<{ SQUARES: 0; GRID: 1; SCALAR_PLANES: 2 }>;
export declare const Terminal: Readonly<{ NOT_TERMINAL: 0; TOUCHDOWN: 1; TURN_LIMIT: 2; TRUNCATED: 3 }>;
export declare const Output: Readonly<{
  OBS: 0; OBS_BITS: 1; MASK: 2; MASK_BITS: 3; REWARDS: 4; DONE: 5; ACTIONS: 6; SIDE: 7;
}>;
export type OutputName = 'obs' | 'obsBits' | 'mask' | 'maskBits' | 'rewards' | 'done' | 'actions' | 'side' |
  'obs_bits' | 'mask_bits';
export declare const DEFAULT_OUTPUTS: readonly OutputName[];
export type TerminalName = 'not_terminal' | 'touchdown' | 'turn_limit' | 'truncated';

/** splitmix64 of docs/learning.md: [new state, output]. */
export declare function splitmix64(state: bigint): [bigint, bigint];

/** What returns() gives. */
export interface Returns {
  readonly terminal: TerminalName;
  /** The same as a Terminal code. */
  readonly terminalCode: number;
  /** +1 the winner, -1 the loser, 0 for a draw or a game going on. */
  readonly atk: number;
  readonly def: number;
  /** [atk, def], indexed by ATK = 0, DEF = 1. */
  readonly values: readonly [number, number];
}

export interface MaskOptions {
  /** 999 bytes, one bit an index, instead of 7,990 bytes. */
  bits?: boolean;
  /** Written into instead of a new array (at least as long). */
  out?: Uint8Array;
}
export interface ObservationOptions<T> {
  /** ObsFlag values combined (0-3). */
  flags?: number;
  out?: T;
}

export interface BatchOptions extends RulesSpec {
  /** The outputs bound from the start (default DEFAULT_OUTPUTS). */
  outputs?: Iterable<OutputName | number>;
  obsFlags?: number;
  /** The seed of the first reset (default 0); null: no reset. */
  seed?: bigint | number | null;
  /** The start position (a BPN; default the standard start). */
  start?: string | null;
  /** A rules text or object, instead of endZoneDepth / turnLimit / cards. */
  rules?: string | RulesSpec | null;
}

/** Games stepped together by one call (ball_batch): `new learn.Batch(n, options)`. */
export interface Batch {
  /** The number of games. */
  readonly n: number;
  readonly obsFlags: number;
  readonly obsSize: number;
  /** The number of games, asked of the library. */
  readonly length: number;
  bind(output: OutputName | number): this;
  unbind(output: OutputName | number): this;
  isBound(output: OutputName | number): boolean;
  /** A copy of a whole output (null when not bound), or into `out`. */
  read(output: OutputName | number, out?: Float32Array | Uint8Array | Int32Array | null):
    Float32Array | Uint8Array | Int32Array | null;
  /** A copy of game i's part of an output. */
  row(output: OutputName | number, i: number): Float32Array | Uint8Array | Int32Array;
  /** Copies of the bound outputs (null when not bound). */
  readonly obs: Float32Array | null;
  readonly obsBits: Uint8Array | null;
  readonly mask: Uint8Array | null;
  readonly maskBits: Uint8Array | null;
  /** ATK, DEF for each game, interleaved. */
  readonly rewards: Float32Array | null;
  /** The Terminal code of each game that ended in the last step. */
  readonly done: Uint8Array | null;
  /** The index each game played in the last step (-1 after reset). */
  readonly actions: Int32Array | null;
  /** The coach to act in each game (0 ATK, 1 DEF). */
  readonly side: Uint8Array | null;
  setStart(bpn: string | null): void;
  reset(seed?: bigint | number): void;
  /** Plays one decision in every game; returns how many ended. */
  step(indices?: Int32Array | readonly number[] | null): number;
  /** The BPN of game i. */
  position(i: number): string;
  /** A new Game at game i's position (the caller frees it). */
  game(i: number): Game;
  free(): void;
  readonly freed: boolean;
}

/** The learning interface bound to one instance of the binding. */
export interface Learn {
  readonly ACTION_SPACE: typeof ACTION_SPACE;
  readonly ACTION_MASK_BYTES: typeof ACTION_MASK_BYTES;
  readonly INDEX_END: typeof INDEX_END;
  readonly INDEX_CARD: typeof INDEX_CARD;
  readonly INDEX_PLANES: typeof INDEX_PLANES;
  readonly OBS_PLANES: typeof OBS_PLANES;
  readonly OBS_SCALARS: typeof OBS_SCALARS;
  readonly OBS_GRID_CELLS: typeof OBS_GRID_CELLS;
  readonly BATCH_MAX: typeof BATCH_MAX;
  readonly AUTO_TURN_LIMIT: typeof AUTO_TURN_LIMIT;
  readonly IndexPlane: typeof IndexPlane;
  readonly ObsFlag: typeof ObsFlag;
  readonly Terminal: typeof Terminal;
  readonly Output: typeof Output;
  readonly DEFAULT_OUTPUTS: typeof DEFAULT_OUTPUTS;
  /** The index (0-7,989) of a legal decision (an Action, its text or code). */
  actionToIndex(game: Game, action: Action | string | number): number;
  actionFromIndex(game: Game, index: number): Action;
  legalMask(game: Game, options?: MaskOptions): Uint8Array;
  legalIndices(game: Game): number[];
  indexMirror(index: number): number;
  mirrorPermutation(): Int32Array;
  policyMirror<T extends Float32Array | Float64Array | Uint8Array | Int32Array | number[]>(values: T): T;
  observationSize(flags?: number): number;
  observationBytes(flags?: number): number;
  observation(game: Game, options?: ObservationOptions<Float32Array>): Float32Array;
  observationBits(game: Game, options?: ObservationOptions<Uint8Array>): Uint8Array;
  /** One observation or several laid one after the other. */
  observationMirror(obs: Float32Array | readonly number[], options?: ObservationOptions<Float32Array>): Float32Array;
  observationBitsMirror(bits: Uint8Array | readonly number[], options?: ObservationOptions<Uint8Array>): Uint8Array;
  returns(game: Game): Returns;
  unpackBits(data: Uint8Array | readonly number[], count: number): Uint8Array;
  splitmix64(state: bigint): [bigint, bigint];
  readonly Batch: new (n: number, options?: BatchOptions) => Batch;
  /** Batches not freed yet. */
  readonly liveBatches: number;
}

/** The learning interface over what load() returned (the same object for
 *  the same instance). */
export declare function bindLearn(ball: Ball): Learn;
export default bindLearn;
