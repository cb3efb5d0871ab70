// SPDX-License-Identifier: MIT
// The learning interface of libball for JavaScript (ball.h section
// "Learning interface", docs/learning.md), the counterpart of Python's
// libball.learn and LuaJIT's ball_learn: a fixed action space of 7,990
// indices, legal masks, observation tensors, the left-right mirror,
// returns, and batches of games stepped by one call.
//
//   import { load } from 'libball';
//   import { bindLearn } from 'libball/learn';
//   const ball = await load();
//   const learn = bindLearn(ball);
//   const game = new ball.Game();
//   const mask = learn.legalMask(game);           // Uint8Array(7990), 55 ones here
//   const obs = learn.observation(game);          // Float32Array(3171)
//   const i = learn.actionToIndex(game, 'E11-F10');
//   learn.actionFromIndex(game, i).text;          // 'E11-F10'
//
// Arrays are typed arrays of their own (Float32Array for observations and
// rewards, Uint8Array for masks, packed bits, done and side, Int32Array for
// actions and permutations), copied out of the WebAssembly memory: they
// stay valid whatever the library does next (the memory can grow, a batch
// can be freed). `out` options take a typed array of the right type and
// at least the right length to write into instead of a new one.
//
// Indices and observations are in the frame of the coach to act (the rows
// flipped for DEF): see docs/learning.md. Failures throw the binding's
// BallError with the library's message: 'range' for an index outside
// 0-7,989, 'illegal' for an index or action not legal here, 'buffer' for
// an array of the wrong length, 'arg' for a value of the wrong type.

import { CONSTANTS } from './_api.mjs';
import { BallError, ErrorCode } from './libball.mjs';

const INTERNALS = Symbol.for('libball.internals');

/** Number of distinct action indices (BALL_ACTION_SPACE). */
export const ACTION_SPACE = CONSTANTS.ACTION_SPACE;
/** Bytes of a legal mask in bits (BALL_ACTION_MASK_BYTES). */
export const ACTION_MASK_BYTES = CONSTANTS.ACTION_MASK_BYTES;
/** Index of `end`; `pe+k` is INDEX_END + k (card mode). */
export const INDEX_END = CONSTANTS.INDEX_END;
/** The play of the card of hand index i is INDEX_CARD + i. */
export const INDEX_CARD = CONSTANTS.INDEX_CARD;
/** Planes of the spatial part of the action space (71 x 111 squares). */
export const INDEX_PLANES = CONSTANTS.INDEX_PLANES;
/** Spatial planes and scalar features of an observation. */
export const OBS_PLANES = CONSTANTS.OBS_PLANES;
export const OBS_SCALARS = CONSTANTS.OBS_SCALARS;
/** Cells of a plane with ObsFlag.GRID (17 x 13). */
export const OBS_GRID_CELLS = CONSTANTS.OBS_GRID_CELLS;
/** Most games in one Batch. */
export const BATCH_MAX = CONSTANTS.BATCH_MAX;
/** The turn limit (R11.2) of a Batch when none is given (as Python's
 *  learn.AUTO_TURN_LIMIT): without a limit a random game lasts thousands
 *  of decisions. `turnLimit: 0` asks for none. */
export const AUTO_TURN_LIMIT = 100;

/** enum ball_index_plane: the first plane of each kind of decision. */
export const IndexPlane = Object.freeze({
  STEP: 0, JUMP: 4, DODGE: 12, RELEASE: 44, HANDOFF: 68, SHORT_PASS: 69, LONG_PASS: 70,
});
/** enum ball_obs_flags: the layout of an observation (they combine). */
export const ObsFlag = Object.freeze({ SQUARES: 0, GRID: 1, SCALAR_PLANES: 2 });
/** enum ball_terminal: how a game ended (the codes of Batch's `done`). */
export const Terminal = Object.freeze({ NOT_TERMINAL: 0, TOUCHDOWN: 1, TURN_LIMIT: 2, TRUNCATED: 3 });
const TERMINAL_NAMES = ['not_terminal', 'touchdown', 'turn_limit', 'truncated'];
/** enum ball_batch_output: the arrays a Batch writes. */
export const Output = Object.freeze({
  OBS: 0, OBS_BITS: 1, MASK: 2, MASK_BITS: 3, REWARDS: 4, DONE: 5, ACTIONS: 6, SIDE: 7,
});
/** The outputs' names, in Output order: the Batch getters of these names. */
const OUTPUT_NAMES = ['obs', 'obsBits', 'mask', 'maskBits', 'rewards', 'done', 'actions', 'side'];
/** The outputs a Batch binds unless told otherwise (Python's DEFAULT_OUTPUTS). */
export const DEFAULT_OUTPUTS = Object.freeze(['obs', 'mask', 'rewards', 'done', 'actions', 'side']);

const MASK_BITS = CONSTANTS.MASK_BITS;
const MAX_ACTIONS = CONSTANTS.MAX_ACTIONS;
const BPN_MAX = CONSTANTS.BPN_MAX;
const ERR_MAX = 256;
const INT_MAX = 2 ** 31 - 1;
const INT_MIN = -(2 ** 31);
const U64 = 2n ** 64n;
const MASK64 = U64 - 1n;

// ------------------------------------------------------------ typed arrays
//
// The caller's typed arrays are read through the intrinsic getters,
// captured here, so that no property of theirs (an own `length`, a
// subclass's `set`) runs: a typed array's element type is its brand, not
// its prototype.
const TA_PROTO = Object.getPrototypeOf(Uint8Array.prototype);
const taGet = (name) => Object.getOwnPropertyDescriptor(TA_PROTO, name).get;
const TA_TAG = taGet(Symbol.toStringTag);
const TA_LENGTH = taGet('length');
const TA_BUFFER = taGet('buffer');
const TA_SET = TA_PROTO.set;
const TA_SLICE = TA_PROTO.slice;

const typeOf = (v) => (ArrayBuffer.isView(v) ? TA_TAG.call(v) : undefined);

// A copy of the caller's typed array; BallError 'buffer' when its buffer
// is detached (transferred away).
function copyOf(v, what) {
  try {
    return TA_SLICE.call(v);
  } catch {
    throw new BallError(ErrorCode.BUFFER, `${what}: its buffer is detached`);
  }
}

/** splitmix64 of docs/learning.md: [new state, output], BigInts. */
export function splitmix64(state) {
  if (typeof state !== 'bigint')
    throw new BallError(ErrorCode.ARG, 'splitmix64(state): state is a BigInt');
  let s = BigInt.asUintN(64, state + 0x9E3779B97F4A7C15n);
  let z = s;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK64;
  return [s, z ^ (z >> 31n)];
}

const bound = new WeakMap();

/**
 * The learning interface over an instance of the binding (what load()
 * returns): an object with the functions and the Batch class below, bound
 * to that instance's memory. The same instance gives the same object.
 */
export function bindLearn(ball) {
  let I;
  try {
    I = ball !== null && typeof ball === 'object' ? Object.getOwnPropertyDescriptor(ball, INTERNALS)?.value : undefined;
  } catch {
    I = undefined;
  }
  if (!I)
    throw new BallError(ErrorCode.ARG, 'bindLearn(ball): ball is what load() of libball.mjs returns');
  let api = bound.get(ball);
  if (!api) {
    api = makeApi(ball, I);
    bound.set(ball, api);
  }
  return api;
}

export default bindLearn;

function makeApi(ball, I) {
  const { M, gamePointer, adoptGame, Action, intArg, describe, readCaller, readOptions, listArg, str, fail } = I;

  // Scratch memory of this module, allocated once (one call at a time):
  // the largest observation (20,111 floats), masks, indices, out-pointers
  // and error texts. Views on the heap are made anew at each use (the
  // memory may grow and replace its buffer).
  const OBS_MAX = (OBS_PLANES + OBS_SCALARS) * OBS_GRID_CELLS;
  const S = {
    obs: M._malloc(4 * OBS_MAX),
    mirror: M._malloc(4 * OBS_MAX),
    mask: M._malloc(ACTION_SPACE),
    ints: M._malloc(4 * MAX_ACTIONS),
    out: M._malloc(8),
    err: M._malloc(ERR_MAX),
    text: M._malloc(BPN_MAX),
  };
  for (const [k, p] of Object.entries(S))
    if (!p)
      throw new BallError(ErrorCode.NOMEM, `learn: out of memory (scratch ${k})`);

  const heap = () => M.HEAPU8.buffer;
  const u32 = (p) => M.HEAPU32[p >> 2];
  // A copy of `count` elements of type T at p.
  const copyOut = (T, p, count) => new T(heap(), p, count).slice();

  // The code of the caller's game's C object, or BallError 'arg'.
  const gptr = (game, what) => {
    try {
      return gamePointer(game);
    } catch (e) {
      if (e instanceof BallError)
        throw new BallError(e.code, `${what}: ${e.message}`);
      throw e;
    }
  };
  const gameCheck = (g, rc) => {
    if (rc < 0)
      throw fail(rc, str(M._ball_errmsg(g)));
    return rc;
  };

  function flagsArg(flags, what) {
    const v = intArg(flags ?? 0, `${what}: flags`, INT_MIN, INT_MAX);
    if (v & ~(ObsFlag.GRID | ObsFlag.SCALAR_PLANES))
      throw new BallError(ErrorCode.ARG, `${what}: unknown observation flags ${v} (GRID = 1, SCALAR_PLANES = 2)`);
    return v;
  }

  function indexArg(index, what) {
    const v = intArg(index, what, INT_MIN, INT_MAX);
    if (v < 0 || v >= ACTION_SPACE)
      throw new BallError(ErrorCode.RANGE, `${what} ${v} out of range 0-${ACTION_SPACE - 1}`);
    return v;
  }

  // Options { names... } of a function: an object (undefined / null: none).
  const opts = (o, names, what) =>
    (o === undefined || o === null ? {} : readCaller(what, () => readOptions(o, names, what)));

  // The caller's `out` (a typed array of `type`, at least `count` long, not
  // a view of the library's own memory), or a new one.
  function outArg(out, T, count, what) {
    if (out === undefined || out === null)
      return new T(count);
    if (typeOf(out) !== T.name)
      throw new BallError(ErrorCode.ARG, `${what}: out is a ${T.name}, not ${describe(out)}`);
    if (TA_BUFFER.call(out) === heap())
      throw new BallError(ErrorCode.ARG, `${what}: out is a view of the library's own memory`);
    const n = TA_LENGTH.call(out);
    if (n < count)
      throw new BallError(ErrorCode.BUFFER, `${what}: out holds ${n} ${T.name} elements, ` +
        `${count} are needed${n === 0 ? ' (or its buffer is detached)' : ''}`);
    return out;
  }

  // Copies `count` elements of T at p into out (from outArg).
  const fill = (out, T, p, count) => {
    TA_SET.call(out, new T(heap(), p, count));
    return out;
  };

  // The values of an input array: a typed array of type T (copied), or an
  // Array of numbers (holes and non-numbers refused).
  function inputArg(v, T, what) {
    if (typeOf(v) === T.name)
      return copyOf(v, what);
    if (ArrayBuffer.isView(v))
      throw new BallError(ErrorCode.ARG, `${what} is a ${T.name} or an array of numbers, not a ${typeOf(v) ?? 'DataView'}`);
    const list = readCaller(what, () => listArg(v, what, 2 ** 28));
    for (let i = 0; i < list.length; i++)
      if (typeof list[i] !== 'number')
        throw new BallError(ErrorCode.ARG, `${what}: element ${i} is ${describe(list[i])}, not a number`);
    return T.from(list);
  }

  // ---------------------------------------------------------- actions

  // Game's own parseAction (not a property of the caller's object).
  const parseAction = ball.Game.prototype.parseAction;

  /** The code of an Action, its N2 text (read in `game`, a Game) or a code. */
  function codeOf(game, action, what) {
    gptr(game, what);
    if (typeof action === 'string')
      return parseAction.call(game, action).code;
    try {
      return Action.fromCode(action).code;
    } catch (e) {
      if (e instanceof BallError)
        throw new BallError(ErrorCode.ARG, `${what}: not an action: ${describe(action)}`);
      throw e;
    }
  }

  /** The index (0-7,989) of the legal decision `action` (an Action, its N2
   *  text or its code) in the game's position; 'illegal' when it is not
   *  legal here (the game being over included). */
  function actionToIndex(game, action) {
    const what = 'actionToIndex(game, action)';
    const code = codeOf(game, action, what);
    const g = gptr(game, what);
    return gameCheck(g, M._ball_action_to_index(g, code));
  }

  /** The legal decision of index `index` here (an Action); 'range' outside
   *  0-7,989, 'illegal' when no legal decision has it (the message names
   *  the plane and square). */
  function actionFromIndex(game, index) {
    const what = 'actionFromIndex(game, index)';
    const g = gptr(game, what);
    index = intArg(index, `${what}: index`, INT_MIN, INT_MAX);
    gameCheck(g, M._ball_action_from_index(g, index, S.out));
    return Action.fromCode(u32(S.out));
  }

  /** The legal mask: 7,990 bytes, 1 for a legal index; with `bits`, 999
   *  bytes, index i being bit i % 8 of byte i / 8. Into `out` (a
   *  Uint8Array) when given. All 0 once the game is over. */
  function legalMask(game, options) {
    const what = 'legalMask(game, { bits, out })';
    const o = opts(options, ['bits', 'out'], what);
    const g = gptr(game, what);
    if (o.bits !== undefined && typeof o.bits !== 'boolean')
      throw new BallError(ErrorCode.ARG, `${what}: bits is a boolean, not ${describe(o.bits)}`);
    const size = o.bits ? ACTION_MASK_BYTES : ACTION_SPACE;
    const out = outArg(o.out, Uint8Array, size, what);
    gameCheck(g, M._ball_legal_mask(g, S.mask, size, o.bits ? MASK_BITS : 0));
    return fill(out, Uint8Array, S.mask, size);
  }

  /** The indices of the legal decisions in increasing order (an Array);
   *  empty once the game is over. */
  function legalIndices(game) {
    const g = gptr(game, 'legalIndices(game)');
    const n = gameCheck(g, M._ball_legal_indices(g, S.ints, MAX_ACTIONS));
    return Array.from(new Int32Array(heap(), S.ints, n));
  }

  /** The index of the left-right mirror image of decision `index` (column
   *  c read as 14 - c); an involution of 0-7,989. */
  function indexMirror(index) {
    const i = indexArg(index, 'indexMirror(index): index');
    const rc = M._ball_index_mirror(i);
    if (rc < 0)
      throw fail(rc);
    return rc;
  }

  let PERM = null;
  /** The 7,990 values indexMirror(i), an Int32Array (a new copy each call). */
  function mirrorPermutation() {
    if (!PERM) {
      PERM = new Int32Array(ACTION_SPACE);
      for (let i = 0; i < ACTION_SPACE; i++)
        PERM[i] = M._ball_index_mirror(i);
    }
    return PERM.slice();
  }

  /** A mask or policy over the 7,990 indices moved to the mirrored indices
   *  (the value at i goes to indexMirror(i)): a typed array gives one of
   *  its type, an Array an Array. */
  function policyMirror(values) {
    const what = 'policyMirror(values)';
    mirrorPermutation();
    const typed = ArrayBuffer.isView(values) && typeOf(values) !== undefined;
    const src = typed ? copyOf(values, what) : readCaller(what, () => listArg(values, what, ACTION_SPACE + 1));
    if (src.length !== ACTION_SPACE)
      throw new BallError(ErrorCode.BUFFER, `${what}: a policy has ${ACTION_SPACE} values, not ${src.length}`);
    const out = typed ? TA_SLICE.call(src) : new Array(ACTION_SPACE);
    for (let i = 0; i < ACTION_SPACE; i++)
      out[PERM[i]] = src[i];
    return out;
  }

  // ---------------------------------------------------------- observations

  /** Values of an observation written with `flags` (ObsFlag): 3,171,
   *  6,251 (GRID), 10,101 (SCALAR_PLANES) or 20,111 (both). */
  function observationSize(flags = 0) {
    const f = flagsArg(flags, 'observationSize(flags)');
    const n = M._ball_observation_size(f);
    if (n < 0)
      throw fail(n);
    return n;
  }

  /** Bytes of a packed observation: ceil(observationSize(flags) / 8). */
  const observationBytes = (flags = 0) => (observationSize(flags) + 7) >> 3;

  function observe(game, options, bits) {
    const what = bits ? 'observationBits(game, { flags, out })' : 'observation(game, { flags, out })';
    const o = opts(options, ['flags', 'out'], what);
    const g = gptr(game, what);
    const flags = flagsArg(o.flags, what);
    const T = bits ? Uint8Array : Float32Array;
    const size = bits ? observationBytes(flags) : observationSize(flags);
    const out = outArg(o.out, T, size, what);
    gameCheck(g, bits ? M._ball_observation_bits(g, flags, S.obs, size) :
      M._ball_observation(g, flags, S.obs, size));
    return fill(out, T, S.obs, size);
  }

  /** The observation of the position from the coach to act's point of
   *  view: observationSize(flags) values 0 or 1 (planes, then scalars;
   *  docs/learning.md), a Float32Array (or into `out`). */
  const observation = (game, options) => observe(game, options, false);
  /** observation() packed 8 values a byte, least significant bit first (a
   *  Uint8Array; unpackBits() gives the values back). */
  const observationBits = (game, options) => observe(game, options, true);

  function mirror(data, options, bits) {
    const what = bits ? 'observationBitsMirror(bits, { flags, out })' : 'observationMirror(obs, { flags, out })';
    const o = opts(options, ['flags', 'out'], what);
    const flags = flagsArg(o.flags, what);
    const T = bits ? Uint8Array : Float32Array;
    const size = bits ? observationBytes(flags) : observationSize(flags);
    const src = inputArg(data, T, `${what}: ${bits ? 'bits' : 'obs'}`);
    if (src.length === 0 || src.length % size)
      throw new BallError(ErrorCode.BUFFER, `${what}: ${src.length} values, not a positive multiple ` +
        `of ${size} (the ${bits ? 'bytes' : 'values'} of one observation with flags ${flags})`);
    const out = outArg(o.out, T, src.length, what);
    for (let k = 0; k < src.length; k += size) {
      TA_SET.call(new T(heap(), S.obs, size), src.subarray(k, k + size));
      const rc = bits ? M._ball_observation_bits_mirror(flags, S.obs, S.mirror, size) :
        M._ball_observation_mirror(flags, S.obs, S.mirror, size);
      if (rc < 0)
        throw fail(rc, `${what}: cannot mirror`);
      TA_SET.call(out, new T(heap(), S.mirror, size), k);
    }
    return out;
  }

  /** The left-right mirror image of one observation, or of several laid
   *  one after the other, written with `flags`: a new Float32Array, or
   *  into `out` (which may be `obs` itself). */
  const observationMirror = (obs, options) => mirror(obs, options, false);
  /** observationMirror() of packed observations (Uint8Array). */
  const observationBitsMirror = (bits, options) => mirror(bits, options, true);

  /** How the game ended and the returns of ATK and DEF (+1 the winner, -1
   *  the loser, 0 for a draw or a game going on): { terminal ('not_terminal',
   *  'touchdown' or 'turn_limit'), terminalCode (Terminal), atk, def,
   *  values: [atk, def] }. */
  function returns(game) {
    const g = gptr(game, 'returns(game)');
    const t = gameCheck(g, M._ball_returns(g, S.obs));
    const [atk, def] = new Float32Array(heap(), S.obs, 2);
    return Object.freeze({
      terminal: TERMINAL_NAMES[t], terminalCode: t, atk, def, values: Object.freeze([atk, def]),
    });
  }

  /** The first `count` values of packed bits (least significant bit
   *  first) as a Uint8Array of 0 and 1. */
  function unpackBits(data, count) {
    const what = 'unpackBits(data, count)';
    const src = inputArg(data, Uint8Array, `${what}: data`);
    count = intArg(count, `${what}: count`, 0, INT_MAX);
    if (count > 8 * src.length)
      throw new BallError(ErrorCode.BUFFER, `${what}: ${count} bits asked of ${src.length} bytes`);
    const out = new Uint8Array(count);
    for (let i = 0; i < count; i++)
      out[i] = (src[i >> 3] >> (i & 7)) & 1;
    return out;
  }

  // ---------------------------------------------------------- batches

  const batchRegistry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((held) => freeBatch(held))
    : null;
  let liveBatches = 0;

  function freeBatch(held) {
    if (!held.ptr)
      return;
    M._ball_batch_free(held.ptr);
    for (const b of held.bufs)
      if (b)
        M._free(b.ptr);
    M._free(held.indices);
    held.ptr = 0;
    held.bufs.fill(null);
    liveBatches--;
  }

  function outputArg(v, what) {
    if (typeof v === 'string') {
      const camel = v.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
      const i = OUTPUT_NAMES.indexOf(camel);
      if (i >= 0)
        return i;
    } else if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < OUTPUT_NAMES.length) {
      return v;
    }
    throw new BallError(ErrorCode.ARG, `${what}: no batch output ${describe(v)} (one of ${OUTPUT_NAMES.join(', ')})`);
  }

  const BATCH_OPTIONS = ['outputs', 'obsFlags', 'seed', 'start', 'rules', 'endZoneDepth', 'turnLimit', 'cards'];

  function seedArg(seed, what) {
    if (typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0)
      return BigInt(seed + 0);
    if (typeof seed === 'bigint' && seed >= 0n && seed < U64)
      return seed;
    throw new BallError(ErrorCode.ARG, `${what}: a seed is a BigInt in 0 .. 2n ** 64n - 1n or a ` +
      `non-negative integer, not ${describe(seed)}`);
  }

  /**
   * `n` games (1 to 1,048,576) under one ruleset, stepped together by one
   * call (ball_batch):
   *
   *   const batch = new learn.Batch(256, { outputs: ['obsBits', 'maskBits', 'rewards', 'done'] });
   *   for (let t = 0; t < 100; t++) {
   *     const ended = batch.step();      // random decisions; or step(indices)
   *     const done = batch.done;         // a copy: Uint8Array(256) of Terminal codes
   *   }
   *   batch.free();
   *
   * Options: outputs (names of Output: obs, obsBits, mask, maskBits,
   * rewards, done, actions, side; Python's snake_case names too; default
   * DEFAULT_OUTPUTS), obsFlags (ObsFlag), seed (0; null: no reset),
   * start (a BPN), and the ruleset as for Game (rules, or endZoneDepth /
   * turnLimit / cards), the turn limit being AUTO_TURN_LIMIT (100) unless
   * turnLimit (0 for none) is given. Each bound output is a getter of its
   * name giving a copy (null when not bound); read(name, out) copies into
   * an array of yours, row(name, i) game i's part.
   */
  class Batch {
    #held;
    #per;

    constructor(n, options) {
      const what = 'new Batch(n, options)';
      n = intArg(n, `${what}: n`, INT_MIN, INT_MAX);
      const o = opts(options, BATCH_OPTIONS, what);
      const flags = flagsArg(o.obsFlags, what);
      const outputs = o.outputs === undefined ? DEFAULT_OUTPUTS :
        readCaller(`${what}: outputs`, () => listArg(o.outputs, `${what}: outputs`, 64, true));
      const outs = outputs.map((v) => outputArg(v, what));
      const seed = o.seed === null ? null : seedArg(o.seed ?? 0, what);
      const start = o.start === undefined || o.start === null ? null :
        I.textArg(o.start, `${what}: start`, ErrorCode.BPN);
      const spec = readCaller(`${what}: rules`, () => {
        const split = o.endZoneDepth !== undefined || o.turnLimit !== undefined || o.cards !== undefined;
        if (split && o.rules !== undefined && o.rules !== null)
          throw new BallError(ErrorCode.ARG, `${what}: give either rules or endZoneDepth / turnLimit / cards, not both`);
        return split ? I.rulesSpec({ endZoneDepth: o.endZoneDepth, turnLimit: o.turnLimit, cards: o.cards }) :
          I.rulesSpec(o.rules);
      });
      // The limit asked for, if any: as Python's Batch, only an explicit
      // turnLimit (0 for none) keeps the batch from AUTO_TURN_LIMIT.
      const explicitLimit = o.turnLimit !== undefined;
      const cs = I.buildRules(spec);
      const rp = I.rulesPtr;
      if (!explicitLimit && u32(rp + I.rulesTurnsOffset) === 0)
        M.HEAPU32[(rp + I.rulesTurnsOffset) >> 2] = AUTO_TURN_LIMIT;
      const rc = M._ball_batch_new(S.out, n, rp, flags, S.err, ERR_MAX);
      M._ball_cardset_free(cs);
      if (rc < 0)
        throw fail(rc, str(S.err));
      const ptr = u32(S.out);
      const held = { ptr, bufs: new Array(OUTPUT_NAMES.length).fill(null), indices: 0 };
      liveBatches++;
      this.#held = held;
      try {
        held.indices = M._malloc(4 * n);
        if (!held.indices)
          throw new BallError(ErrorCode.NOMEM, `${what}: out of memory for ${n} indices`);
        this.n = M._ball_batch_size(ptr);
        this.obsFlags = flags;
        this.obsSize = M._ball_observation_size(flags);
        const bytes = (this.obsSize + 7) >> 3;
        this.#per = [this.obsSize, bytes, ACTION_SPACE, ACTION_MASK_BYTES, 2, 1, 1, 1];
        if (start !== null)
          this.setStart(start);
        for (const i of outs)
          this.bind(i);
        if (seed !== null)
          this.reset(seed);
      } catch (e) {
        freeBatch(held);
        throw e;
      }
      batchRegistry?.register(this, held, this);
      Object.freeze(this);
    }

    get #b() {
      if (!this.#held.ptr)
        throw new BallError(ErrorCode.ARG, 'the batch has been freed');
      return this.#held.ptr;
    }

    #check(rc) {
      if (rc < 0)
        throw fail(rc, str(M._ball_batch_errmsg(this.#held.ptr)));
      return rc;
    }

    /** The number of games (ball_batch_size). */
    get length() { return this.#check(M._ball_batch_size(this.#b)); }

    static #TYPES = [Float32Array, Uint8Array, Uint8Array, Uint8Array, Float32Array, Uint8Array, Int32Array, Uint8Array];

    /** Binds `output` (a name of Output, or its number): the batch writes
     *  it at each reset() and step(), into memory of its own. Not written
     *  until the next reset() or step(). Returns the batch. */
    bind(output) {
      const what = 'bind(output)';
      const b = this.#b;
      const o = outputArg(output, what);
      const T = Batch.#TYPES[o];
      const bytes = this.n * this.#per[o] * T.BYTES_PER_ELEMENT;
      const held = this.#held;
      if (held.bufs[o])
        return this;
      // Beyond 2 GiB the wasm memory cannot hold it, and a 32-bit size_t
      // would wrap.
      if (bytes > INT_MAX)
        throw new BallError(ErrorCode.NOMEM, `${what}: ${OUTPUT_NAMES[o]} of ${this.n} games needs ` +
          `${bytes} bytes, more than the WebAssembly memory holds`);
      const p = M._malloc(bytes);
      if (!p)
        throw new BallError(ErrorCode.NOMEM, `${what}: out of memory for ${OUTPUT_NAMES[o]} (${bytes} bytes)`);
      M.HEAPU8.fill(0, p, p + bytes);
      const rc = M._ball_batch_set_output(b, o, p, bytes);
      if (rc < 0) {
        M._free(p);
        this.#check(rc);
      }
      held.bufs[o] = { ptr: p, bytes };
      return this;
    }

    /** Stops writing `output` (its getter gives null). Returns the batch. */
    unbind(output) {
      const b = this.#b;
      const o = outputArg(output, 'unbind(output)');
      this.#check(M._ball_batch_set_output(b, o, 0, 0));
      const buf = this.#held.bufs[o];
      if (buf) {
        M._free(buf.ptr);
        this.#held.bufs[o] = null;
      }
      return this;
    }

    /** Whether `output` is bound. */
    isBound(output) {
      this.#b;
      return this.#held.bufs[outputArg(output, 'isBound(output)')] !== null;
    }

    /** A copy of the whole `output` (all games, game i's part at i times
     *  its size), into `out` (a typed array of the output's type) when
     *  given; null when the output is not bound. */
    read(output, out) {
      const what = 'read(output, out)';
      this.#b;
      const o = outputArg(output, what);
      const buf = this.#held.bufs[o];
      const T = Batch.#TYPES[o];
      if (!buf) {
        if (out !== undefined && out !== null)
          throw new BallError(ErrorCode.ARG, `${what}: output ${OUTPUT_NAMES[o]} is not bound`);
        return null;
      }
      const count = buf.bytes / T.BYTES_PER_ELEMENT;
      return fill(outArg(out, T, count, what), T, buf.ptr, count);
    }

    /** A copy of game i's part of `output`. */
    row(output, i) {
      const what = 'row(output, i)';
      this.#b;
      const o = outputArg(output, what);
      i = this.#game(i, what);
      const buf = this.#held.bufs[o];
      if (!buf)
        throw new BallError(ErrorCode.ARG, `${what}: output ${OUTPUT_NAMES[o]} is not bound`);
      const T = Batch.#TYPES[o];
      const per = this.#per[o];
      return copyOut(T, buf.ptr + i * per * T.BYTES_PER_ELEMENT, per);
    }

    get obs() { return this.read(0); }
    get obsBits() { return this.read(1); }
    get mask() { return this.read(2); }
    get maskBits() { return this.read(3); }
    get rewards() { return this.read(4); }
    get done() { return this.read(5); }
    get actions() { return this.read(6); }
    get side() { return this.read(7); }

    #game(i, what) {
      const v = intArg(i, `${what}: i`, INT_MIN, INT_MAX);
      if (v < 0 || v >= this.n)
        throw new BallError(ErrorCode.RANGE, `${what}: game index ${v} out of range 0-${this.n - 1}`);
      return v;
    }

    /** The position every game starts from at each reset (a BPN; null:
     *  the standard start). Games under way go on; reset() restarts them. */
    setStart(bpn) {
      const what = 'setStart(bpn)';
      const b = this.#b;
      if (bpn === null || bpn === undefined) {
        this.#check(M._ball_batch_set_start(b, 0));
        return;
      }
      const text = I.textArg(bpn, `${what}: bpn`, ErrorCode.BPN);
      this.#check(I.withString(text, (t) => M._ball_batch_set_start(b, t)));
    }

    /** Puts every game back at its start and seeds game i with output
     *  i + 1 of splitmix64(seed) (a BigInt or a non-negative integer);
     *  writes the bound outputs. */
    reset(seed = 0) {
      const b = this.#b;
      this.#check(M._ball_batch_reset(b, seedArg(seed, 'reset(seed)')));
    }

    /**
     * Plays one decision in every game and returns how many games ended
     * (and were reset). Without `indices`, each game plays a uniformly
     * random legal decision drawn by the library; else one action index
     * per game (an Int32Array or an Array of integers), each legal in its
     * game. All are checked before any game moves: 'buffer' for a count
     * other than the batch size, 'range', 'illegal' (naming the game and
     * the index).
     */
    step(indices) {
      const what = 'step(indices)';
      const b = this.#b;
      if (indices === undefined || indices === null)
        return this.#check(M._ball_batch_step(b, 0, 0));
      let src;
      if (typeOf(indices) === 'Int32Array') {
        src = copyOf(indices, `${what}: indices`);
      } else {
        if (ArrayBuffer.isView(indices))
          throw new BallError(ErrorCode.ARG, `${what}: indices are an Int32Array or an array of integers, ` +
            `not a ${typeOf(indices) ?? 'DataView'}`);
        const list = readCaller(what, () => listArg(indices, `${what}: indices`, BATCH_MAX + 1));
        src = new Int32Array(list.length);
        list.forEach((v, i) => {
          if (typeof v !== 'number' || !Number.isInteger(v))
            throw new BallError(ErrorCode.ARG, `${what}: index ${i} is ${describe(v)}, not an integer`);
          if (v < 0 || v >= ACTION_SPACE)
            throw new BallError(ErrorCode.RANGE, `${what}: game ${i}: action index ${v} out of range 0-${ACTION_SPACE - 1}`);
          src[i] = v;
        });
      }
      if (src.length !== this.n)
        throw new BallError(ErrorCode.BUFFER, `${what}: ${this.n} indices, one per game, not ${src.length}`);
      // Reading the caller's array may have run their code (a proxy, a
      // getter), which may have freed this batch: look again.
      const live = this.#b;
      TA_SET.call(new Int32Array(heap(), this.#held.indices, this.n), src);
      return this.#check(M._ball_batch_step(live, this.#held.indices, this.n));
    }

    /** The BPN of game i's current position. */
    position(i) {
      const b = this.#b;
      i = this.#game(i, 'position(i)');
      this.#check(M._ball_batch_position_to_text(b, i, S.text, BPN_MAX));
      return str(S.text);
    }

    /** A new, independent Game (same ruleset) at game i's current
     *  position, with an empty history; the caller frees it. */
    game(i) {
      const b = this.#b;
      i = this.#game(i, 'game(i)');
      this.#check(M._ball_batch_game_clone(b, i, S.out));
      return adoptGame(u32(S.out));
    }

    /** Frees the batch and its outputs now; using it afterwards throws.
     *  Twice is harmless. The arrays read from it stay valid. */
    free() {
      if (!this.#held.ptr)
        return;
      batchRegistry?.unregister(this);
      freeBatch(this.#held);
    }

    get freed() { return this.#held.ptr === 0; }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.free(); }
  }

  return Object.freeze({
    ACTION_SPACE, ACTION_MASK_BYTES, INDEX_END, INDEX_CARD, INDEX_PLANES, OBS_PLANES, OBS_SCALARS,
    OBS_GRID_CELLS, BATCH_MAX, AUTO_TURN_LIMIT, IndexPlane, ObsFlag, Terminal, Output, DEFAULT_OUTPUTS,
    actionToIndex,
    actionFromIndex,
    legalMask,
    legalIndices,
    indexMirror,
    mirrorPermutation,
    policyMirror,
    observationSize,
    observationBytes,
    observation,
    observationBits,
    observationMirror,
    observationBitsMirror,
    returns,
    unpackBits,
    splitmix64,
    Batch,
    /** Batches created and not freed yet (by free() or by the collector). */
    get liveBatches() { return liveBatches; },
  });
}
