// SPDX-License-Identifier: MIT
// libball for JavaScript: the rules engine of BALL compiled to WebAssembly,
// with an API in the spirit of the Python binding. One ES module for node
// (18+) and for pages; the WebAssembly module is wasm/ball.mjs next to this
// file (`make wasm` builds it). See docs/web.md.
//
//   import { load } from './libball.mjs';
//   const ball = await load();
//   const game = new ball.Game();            // the standard start, DEF to act
//   game.apply('E11-F10');
//   console.log(game.bpn, game.side, game.pa);
//   game.free();                             // or leave it to the collector
//
// Squares are given as names ("G5") or indices (0-110) and returned as
// names; teams are 'ATK' / 'DEF'; 64-bit values (hash, perft counts, the
// random numbers of randomAction) are BigInts. Failures throw BallError,
// an Error carrying the library's code and message.

import { CONSTANTS, LAYOUTS, STRINGS } from './_api.mjs';

/** Error codes of ball.h (enum ball_error). */
export const ErrorCode = Object.freeze({
  OK: 0, ARG: -1, NOMEM: -2, BPN: -3, NOTATION: -4, ILLEGAL: -5, BUFFER: -6,
  RANGE: -7, NO_HISTORY: -8, RULES: -9, LIMIT: -10, RECORD: -11,
});

const CODE_NAMES = Object.freeze({
  [-1]: 'arg', [-2]: 'nomem', [-3]: 'bpn', [-4]: 'notation', [-5]: 'illegal', [-6]: 'buffer',
  [-7]: 'range', [-8]: 'no_history', [-9]: 'rules', [-10]: 'limit', [-11]: 'record',
});

/**
 * What every failing call throws: `code` is the library's negative
 * ball_error code, `codeName` its short name ('bpn', 'notation',
 * 'illegal', 'no_history', 'range', 'rules', 'record', 'arg', ...), `message` the
 * library's message (what is wrong and where) or the code's description.
 */
export class BallError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'BallError';
    this.code = code;
    this.codeName = CODE_NAMES[code] ?? 'unknown';
  }
}

// ------------------------------------------------------------ constants

const TEAMS = ['ATK', 'DEF'];
const PHASES = ['action', 'release'];
const RESULTS = ['ongoing', 'atk_won', 'def_won', 'draw'];
const PIECE_TYPES = [null, 'X', 'O', 'S'];
const ACTION_KINDS = [null, 'move', 'dodge', 'tactical_dodge', 'block', 'protect', 'handoff',
  'short_pass', 'long_pass', 'end', 'stand_up', 'unblock', 'unprotect', 'convert_pa',
  'play_card'];
const KEEPERS = ['none', 'upper', 'lower'];
const TASK_KINDS = [null, 'stand_up', 'release'];
/** The verbs of a selection's step 2, by their N2 separator (R12). */
const VERB_TEXT = [null, '-', '=', '^', '^^', 'card'];
const VERB_NAMES = [null, 'move', 'handoff', 'short_pass', 'long_pass', 'card'];
/** Earning-table entries in ball_earn order, by their rules-text names. */
const EARN_NAMES = ['move', 'pickup', 'dodge', 'fumble', 'tactical', 'block', 'protect',
  'handoff', 'short', 'long', 'standup', 'unblock', 'unprotect'];

/** The numbers of ball.h, for code that speaks the C API's language: every
 *  integer constant (BALL_ prefix dropped) and the standard start's BPN,
 *  from the generated _api.mjs (scripts/api-generate.py). */
export const constants = Object.freeze({ ...CONSTANTS, START_BPN: STRINGS.START_BPN });

/** The BPN of the standard start (N1). */
export const START_BPN = constants.START_BPN;

// The structs the binding fills and reads, as the wasm32 build lays them out
// (_api.mjs, generated from ball.h: `sizeof` and each field's byte offset
// under its C name). All are size-tagged: the library accepts the size of
// the header they were generated from.
const RULES = LAYOUTS.ball_rules;
const MCTS_CONFIG = LAYOUTS.ball_mcts_config;
const MCTS_STATS = LAYOUTS.ball_mcts_stats;
const SEARCH_CONFIG = LAYOUTS.ball_search_config;
const SEARCH_RESULT = LAYOUTS.ball_search_result;
const SEARCH_LINE = LAYOUTS.ball_search_line;
// The most decisions reserveHistory() asks the library for: 2^24 undo
// records of well under 256 bytes each stay below the 2 GiB of wasm memory
// and far from the 4 GiB where a 32-bit size_t wraps.
const MAX_HISTORY = 2 ** 24;

/** The record tags (enum ball_tag) in lower case, as tag() and setTag()
 *  also take them. */
const TAG_NAMES = ['event', 'site', 'date', 'atk', 'def'];
/** The record tags by their names in a record (docs/records.md): the keys
 *  of a game's `tags`, as Python's libball.TAGS and Game.tags. */
const TAGS = Object.freeze(['Event', 'Site', 'Date', 'ATK', 'DEF']);

// ------------------------------------------------------------ arguments
//
// Every argument is checked and turned into a plain value (a number, a
// string, a BigInt) before the binding touches wasm memory or a handle.
// Numbers, texts and BigInts must be primitives of that type: objects are
// refused, never coerced, so no valueOf() or toString() of the caller's
// runs inside a call. Option objects (their own properties), arrays and
// iterables are read once, all of them, before anything else (their
// getters, proxy traps and iterators run there; what they throw comes out
// as BallError 'arg' with the thrown value as its `cause`, a BallError of
// a nested call as it is); after that no code of the caller's runs until
// the call returns. Wrong types throw
// BallError 'arg', values outside the C type's range BallError 'range'
// (as the Python binding does), texts with a NUL character or a lone
// surrogate the error of what the text is ('bpn', 'notation', 'rules',
// 'record', ...): C would end the text at the NUL, and a lone surrogate
// has no UTF-8 form.

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const U32_MAX = 2 ** 32 - 1;

/** A short description of a value for a message, without running any of its code. */
function describe(v) {
  switch (typeof v) {
    case 'string': return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v);
    case 'bigint': return `${v}n`;
    case 'number': return Object.is(v, -0) ? '-0' : String(v);
    case 'symbol': return 'a symbol';
    case 'function': return 'a function';
    case 'undefined':
    case 'boolean': return String(v);
    default:
      if (v === null)
        return 'null';
      return isArray(v) ? 'an array' : 'an object';
  }
}

// The intrinsic getters of ArrayBuffer, typed arrays and DataView: their
// brand checks tell what an object is without running any code of the
// caller's (a getter, a proxy's trap), and they read it the same way.
const intrinsicGetter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const AB_BYTE_LENGTH = intrinsicGetter(ArrayBuffer.prototype, 'byteLength');
const TA_PROTO = Object.getPrototypeOf(Uint8Array.prototype);
const VIEW_GETTERS = [TA_PROTO, DataView.prototype].map((proto) =>
  ['buffer', 'byteOffset', 'byteLength'].map((name) => intrinsicGetter(proto, name)));

/** Is v an ArrayBuffer (of any realm; not a proxy of one)? Never throws. */
function isArrayBuffer(v) {
  try {
    AB_BYTE_LENGTH.call(v);
    return true;
  } catch {
    return false;
  }
}

/** The bytes a typed array or a DataView covers, as a Uint8Array over its
 *  buffer; a TypeError for a detached buffer. */
function viewBytes(v) {
  const [getters] = VIEW_GETTERS.filter(([buffer]) => {
    try {
      buffer.call(v);
      return true;
    } catch {
      return false;
    }
  });
  const [buffer, offset, length] = getters.map((get) => get.call(v));
  return new Uint8Array(buffer, offset, length);
}

// Array.isArray, which throws for a revoked proxy.
function isArray(v) {
  try {
    return Array.isArray(v);
  } catch {
    return false;
  }
}

/** An integer of lo .. hi: BallError 'arg' for anything but an integral
 *  number, 'range' outside the bounds. -0 is 0. */
function intArg(v, what, lo, hi) {
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw new BallError(ErrorCode.ARG, `${what} is an integer, not ${describe(v)}`);
  if (v < lo || v > hi)
    throw new BallError(ErrorCode.RANGE, `${what} ${v} out of range (${lo} to ${hi})`);
  return v + 0;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A string for a `const char *` of C: BallError 'arg' when not a string,
 *  `code` when it holds a NUL character (C would stop there) or a lone
 *  surrogate (which has no UTF-8 form). */
function textArg(v, what, code = ErrorCode.ARG) {
  if (typeof v !== 'string')
    throw new BallError(ErrorCode.ARG, `${what} is a string, not ${describe(v)}`);
  const nul = v.indexOf('\0');
  if (nul >= 0)
    throw new BallError(code, `${what} contains a NUL character at index ${nul}`);
  if (typeof v.isWellFormed !== 'function' || !v.isWellFormed()) {
    const m = LONE_SURROGATE.exec(v);
    if (m)
      throw new BallError(code, `${what} is not well-formed Unicode: a lone surrogate ` +
        `U+${m[0].charCodeAt(0).toString(16).toUpperCase()} at index ${m.index}`);
  }
  return v;
}

// An own property of the caller's object (an inherited one, such as a
// getter of a class of ours, is not an option).
const own = (obj, k) => (Object.hasOwn(obj, k) ? obj[k] : undefined);

/**
 * Runs fn, which reads the caller's objects: what their code throws comes
 * out as BallError 'arg' (`cause` the thrown value), a BallError as it is.
 */
function readCaller(what, fn) {
  try {
    return fn();
  } catch (e) {
    let ours = false;
    try {
      ours = e instanceof BallError;
    } catch {
      // a proxy's getPrototypeOf trap threw: not ours
    }
    if (ours)
      throw e;
    throw new BallError(ErrorCode.ARG, `${what}: reading it threw (the error is the cause)`, { cause: e });
  }
}

/**
 * The own fields `names` of an options object, each read once, as a plain
 * object (absent ones undefined); BallError 'arg' when `obj` is not an
 * object or (if `strict`) for an own enumerable key that is not one of them.
 */
function readOptions(obj, names, what, strict = true) {
  if (obj === null || typeof obj !== 'object' || isArray(obj))
    throw new BallError(ErrorCode.ARG, `${what} is an object { ${names.join(', ')} }, not ${describe(obj)}`);
  for (const k of strict ? Object.keys(obj) : [])
    if (!names.includes(k))
      throw new BallError(ErrorCode.ARG, `unknown ${what} field '${k}' (${names.join(', ')})`);
  const out = {};
  for (const k of names)
    out[k] = own(obj, k);
  return out;
}

/**
 * The elements of an array (holes refused: BallError 'arg') or of an
 * iterable (if `iterables`), at most `max` (BallError 'range' beyond),
 * copied into a plain array.
 */
function listArg(v, what, max, iterables = false) {
  const out = [];
  if (isArray(v)) {
    const n = v.length;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
      throw new BallError(ErrorCode.ARG, `${what}: not an array with a length`);
    if (n > max)
      throw new BallError(ErrorCode.RANGE, `${what}: ${n} elements, at most ${max}`);
    for (let i = 0; i < n; i++) {
      if (!(i in v))
        throw new BallError(ErrorCode.ARG, `${what}: element ${i} is a hole (a sparse array)`);
      out.push(v[i]);
    }
    return out;
  }
  if (iterables && v !== null && typeof v === 'object' && typeof v[Symbol.iterator] === 'function') {
    for (const x of v) {
      if (out.length === max)
        throw new BallError(ErrorCode.RANGE, `${what}: more than ${max} elements`);
      out.push(x);
    }
    return out;
  }
  throw new BallError(ErrorCode.ARG, `${what} is an array${iterables ? ' or an iterable' : ''}, not ${describe(v)}`);
}

// ------------------------------------------------------------ helpers without a module

/**
 * xorshift64 random numbers as BigInts in [0, 2^64), from a non-zero seed:
 * `const next = xorshift64(7n); game.randomAction(next())`.
 */
export function xorshift64(seed = 0x9E3779B97F4A7C15n) {
  if (typeof seed !== 'bigint' && !(typeof seed === 'number' && Number.isSafeInteger(seed)))
    throw new BallError(ErrorCode.ARG, `xorshift64(seed): seed is a BigInt or a safe integer, not ${describe(seed)}`);
  let s = BigInt.asUintN(64, BigInt(seed)) || 0x9E3779B97F4A7C15n;
  return () => {
    s ^= BigInt.asUintN(64, s << 13n);
    s ^= s >> 7n;
    s ^= BigInt.asUintN(64, s << 17n);
    return s;
  };
}

/** 64 random bits from the platform's cryptographic generator, drawn
 *  RANDOM_BATCH at a time: one getRandomValues() call costs node about
 *  5 µs, 100 times the rest of a randomAction() (bench/crossings.mjs). */
const RANDOM_BATCH = 256;
const randomPool = new BigUint64Array(RANDOM_BATCH);
let randomNext = RANDOM_BATCH;
function random64() {
  const c = globalThis.crypto;
  if (c && typeof c.getRandomValues === 'function') {
    if (randomNext === RANDOM_BATCH) {
      c.getRandomValues(randomPool);
      randomNext = 0;
    }
    return randomPool[randomNext++];
  }
  return BigInt(Math.floor(Math.random() * 2 ** 32)) << 32n |
    BigInt(Math.floor(Math.random() * 2 ** 32));
}

const FILE_OF = 'ABCDEFGHIJKLM';

/** The square index (0-110) of a playable square name, or -1. */
function indexOfName(name) {
  const m = /^([A-M])([1-9]|1[0-7])$/.exec(name);
  if (!m)
    return -1;
  const col = FILE_OF.indexOf(m[1]) + 1;
  const row = Number(m[2]);
  return (col + row) % 2 === 0 ? (13 * (row - 1) + (col - 1)) / 2 : -1;
}

// A square name at the start of s (letter, up to two digits, a playable
// square): [index, length], or null. As tools/ball.c reads them.
function squareAtText(s, i) {
  if (i >= s.length || s[i] < 'A' || s[i] > 'M')
    return null;
  let n = 1;
  while (n < 3 && i + n < s.length && s[i + n] >= '0' && s[i + n] <= '9')
    n++;
  const sq = indexOfName(s.slice(i, i + n));
  return sq < 0 ? null : [sq, n];
}

const isDigit = (c) => c >= '0' && c <= '9';

// The text of an action text or of an Action (anything with a text of its
// own that is a string, read once; the objects of bind() are frozen).
function actionText(v, what) {
  if (typeof v === 'string')
    return v;
  if (v !== null && typeof v === 'object') {
    const d = Object.getOwnPropertyDescriptor(v, 'text');
    if (d && 'value' in d && typeof d.value === 'string')
      return d.value;
  }
  throw new BallError(ErrorCode.ARG, `${what} is an action text or an Action, not ${describe(v)}`);
}

/**
 * The order in which the `ball` tool lists actions (legal, divide, trace):
 * square names by their index (row by row: G9 before G13 before A15), runs
 * of digits by value, anything else by byte; bytes break ties. A
 * comparator for Array.prototype.sort on action texts.
 */
export function compareActionTexts(a, b) {
  a = readCaller('compareActionTexts(a, b): a', () => actionText(a, 'compareActionTexts(a, b): a'));
  b = readCaller('compareActionTexts(a, b): b', () => actionText(b, 'compareActionTexts(a, b): b'));
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const sa = squareAtText(a, i);
    const sb = squareAtText(b, j);
    if (sa && sb) {
      if (sa[0] !== sb[0])
        return sa[0] < sb[0] ? -1 : 1;
      i += sa[1];
      j += sb[1];
      continue;
    }
    if (isDigit(a[i]) && isDigit(b[j])) {
      let ea = i;
      let eb = j;
      while (ea < a.length && isDigit(a[ea])) ea++;
      while (eb < b.length && isDigit(b[eb])) eb++;
      let da = i;
      let db = j;
      while (ea - da > 1 && a[da] === '0') da++;
      while (eb - db > 1 && b[db] === '0') db++;
      if (ea - da !== eb - db)
        return ea - da < eb - db ? -1 : 1;
      const x = a.slice(da, ea);
      const y = b.slice(db, eb);
      if (x !== y)
        return x < y ? -1 : 1;
      i = ea;
      j = eb;
      continue;
    }
    if (a[i] !== b[j])
      return a.charCodeAt(i) < b.charCodeAt(j) ? -1 : 1;
    i++;
    j++;
  }
  if (i < a.length || j < b.length)
    return i < a.length ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ------------------------------------------------------------ loading

/**
 * Loads the WebAssembly module and returns the API bound to it (an object
 * with Game, Action, the square helpers, ...). Each call makes a separate
 * instance with its own memory. Options:
 *  - `factory`: the module factory (the default export of wasm/ball.mjs),
 *    for bundlers that import it themselves;
 *  - `url`: where wasm/ball.mjs is, when it is not next to this file;
 *  - `moduleArg`: passed to the factory (emscripten's Module object).
 */
export async function load(options = {}) {
  let factory = options.factory;
  if (!factory) {
    const url = String(options.url ?? new URL('./wasm/ball.mjs', import.meta.url));
    let mod;
    try {
      mod = await import(url);
    } catch (e) {
      throw new Error(`libball: cannot load the WebAssembly module ${url} (build it with ` +
        `\`make wasm\`): ${e.message}`, { cause: e });
    }
    factory = mod.default;
  }
  return bind(await factory(options.moduleArg ?? {}));
}

export default load;

/**
 * The API over an instantiated emscripten module (what load() returns).
 * Exported for code that instantiates the module itself.
 */
export function bind(M) {
  // --------------------------------------------------------- memory
  // Scratch buffers, allocated once: JavaScript runs one call at a time, so
  // they are never used by two calls at once. The heap views are read anew
  // at each use because the memory may grow (and replace them).
  const SCRATCH = {
    actions: M._malloc(4 * constants.MAX_ACTIONS),
    ints: M._malloc(4 * constants.NUM_SQUARES),
    chosen: M._malloc(4 * constants.SELECT_STEPS),
    text: M._malloc(constants.BPN_MAX),
    err: M._malloc(256),
    out: M._malloc(8),
    rules: M._malloc(RULES.sizeof + 12),
    mallinfo: M._malloc(64),
    mcts: M._malloc(MCTS_CONFIG.sizeof),
    stats: M._malloc(MCTS_STATS.sizeof),
  };
  const u8 = () => M.HEAPU8;
  const i32 = (ptr) => M.HEAP32[ptr >> 2];
  const u32 = (ptr) => M.HEAPU32[ptr >> 2];
  const setI32 = (ptr, v) => { M.HEAP32[ptr >> 2] = v; };
  const setU32 = (ptr, v) => { M.HEAPU32[ptr >> 2] = v; };
  const u64 = (ptr) => new DataView(u8().buffer).getBigUint64(ptr, true);
  const f64 = (ptr) => new DataView(u8().buffer).getFloat64(ptr, true);
  const setU64 = (ptr, v) => new DataView(u8().buffer).setBigUint64(ptr, v, true);
  const setF64 = (ptr, v) => new DataView(u8().buffer).setFloat64(ptr, v, true);
  const str = (ptr) => (ptr ? M.UTF8ToString(ptr) : '');

  // A NUL-terminated copy of s (a string checked by textArg) in wasm
  // memory, for the duration of fn.
  function withString(s, fn) {
    if (typeof s !== 'string')
      throw new BallError(ErrorCode.ARG, `expected a string, not ${describe(s)}`);
    const n = M.lengthBytesUTF8(s) + 1;
    const ptr = M._malloc(n);
    if (!ptr)
      throw new BallError(ErrorCode.NOMEM, 'out of memory');
    try {
      M.stringToUTF8(s, ptr, n);
      return fn(ptr);
    } finally {
      M._free(ptr);
    }
  }

  const strerror = (code) => str(M._ball_strerror(intArg(code, 'strerror(code): code', INT_MIN, INT_MAX)));
  const fail = (rc, message) => new BallError(rc, message || strerror(rc));

  // --------------------------------------------------------- squares

  const SQUARES = Object.freeze(Array.from({ length: constants.NUM_SQUARES }, (_, i) => {
    const rc = M._ball_square_to_text(i, SCRATCH.text, 8);
    if (rc < 0)
      throw fail(rc);
    return str(SCRATCH.text);
  }));

  /** The index (0-110) of a square given by name or index. */
  function squareIndex(square) {
    if (typeof square === 'string') {
      const i = indexOfName(square);
      if (i < 0)
        throw new BallError(ErrorCode.NOTATION, `not a playable square: ${describe(square)}`);
      return i;
    }
    if (typeof square !== 'number' || !Number.isInteger(square))
      throw new BallError(ErrorCode.ARG, `a square is a name or an index, not ${describe(square)}`);
    if (square < 0 || square >= constants.NUM_SQUARES)
      throw new BallError(ErrorCode.RANGE, `no square ${square} (0-110)`);
    return square + 0;
  }
  const squareName = (square) => SQUARES[squareIndex(square)];
  const nameOrNull = (i) => (i >= 0 && i < constants.NUM_SQUARES ? SQUARES[i] : null);

  function squareAt(col, row) {
    col = intArg(col, 'squareAt(col, row): col', INT_MIN, INT_MAX);
    row = intArg(row, 'squareAt(col, row): row', INT_MIN, INT_MAX);
    const rc = M._ball_square_at(col, row);
    if (rc < 0)
      throw new BallError(rc, `no playable square at column ${col}, row ${row}`);
    return SQUARES[rc];
  }
  const squareCol = (square) => M._ball_square_col(squareIndex(square));
  const squareRow = (square) => M._ball_square_row(squareIndex(square));
  const distance = (a, b) => {
    const i = squareIndex(a);
    return M._ball_square_distance(i, squareIndex(b));
  };

  // --------------------------------------------------------- actions

  const interned = new Map();
  const MAKE = Symbol('make');
  let isAction;

  /**
   * One whole decision. Actions are interned: the same decision is the
   * same object, so `===` and Map keys work. `String(action)` is its N2
   * text; `equals()` also accepts a text or a code. `new Action(code)` is
   * Action.fromCode(code) (with a text, it must be the library's text of
   * the code): the code is checked when the Action is made, and an
   * Action's code is a plain number that no later call reads anew.
   */
  class Action {
    #code;

    static {
      isAction = (v) => v !== null && typeof v === 'object' && #code in v;
    }

    constructor(code, text, token) {
      if (token !== MAKE) {
        const a = Action.fromCode(code);
        if (text !== undefined && text !== a.text)
          throw new BallError(ErrorCode.ARG, `new Action(code, text): ${describe(text)} is not ` +
            `the text of action ${a.code} ('${a.text}')`);
        return a;
      }
      this.#code = code;
      this.code = code;
      this.text = text;
      Object.freeze(this);
    }

    /** The Action of a library code (a 32-bit integer). */
    static fromCode(code) {
      if (isAction(code))
        return code;
      if (typeof code !== 'number' || !Number.isInteger(code) || code <= 0 || code > U32_MAX)
        throw new BallError(ErrorCode.ARG, `not an action code: ${describe(code)}`);
      let a = interned.get(code);
      if (a)
        return a;
      const rc = M._ball_action_to_text(code, SCRATCH.text, constants.ACTION_TEXT_MAX);
      if (rc < 0)
        throw new BallError(rc, `not an action code: ${code}`);
      a = new Action(code, str(SCRATCH.text), MAKE);
      if (interned.size > 200000)
        interned.clear();
      interned.set(code, a);
      return a;
    }

    /** 'move', 'dodge', 'tactical_dodge', 'block', 'protect', 'handoff',
     *  'short_pass', 'long_pass', 'end', 'stand_up', 'unblock', 'unprotect',
     *  'convert_pa' or 'play_card'. */
    get kind() { return ACTION_KINDS[M._ball_action_kind(this.#code)]; }
    /** The mover, carrier, knocked-down piece, stack or card target; null
     *  for end, pe+k and cards without a target. */
    get from() { return nameOrNull(M._ball_action_from(this.#code)); }
    /** Destination, dodge target, landing square, receiver, ball square,
     *  stand-up square or the upper piece's square U of a release. */
    get to() { return nameOrNull(M._ball_action_to(this.#code)); }
    /** Dodge exit, push square, or the lower piece's square W of a release. */
    get option() { return nameOrNull(M._ball_action_option(this.#code)); }
    /** Who keeps the ball after a release: 'none', 'upper' or 'lower'. */
    get keeper() { return KEEPERS[M._ball_action_keeper(this.#code)]; }
    /** The ball_action_flags bits. */
    get flags() { return M._ball_action_flags(this.#code); }
    get pickup() { return (this.flags & constants.FLAG_PICKUP) !== 0; }
    get forcedFumble() { return (this.flags & constants.FLAG_FORCED_FUMBLE) !== 0; }
    get fumble() { return (this.flags & constants.FLAG_FUMBLE) !== 0; }
    /** PA cost (R4.3). */
    get cost() { return M._ball_action_cost(this.#code); }
    /** k of `pe+k`, the 0-based hand index of a card play; null otherwise. */
    get value() {
      const v = M._ball_action_value(this.#code);
      return v < 0 ? null : v;
    }

    equals(other) {
      if (isAction(other))
        return other.code === this.#code;
      if (typeof other === 'string')
        return other === this.text;
      return other === this.#code;
    }

    toString() { return this.text; }
    toJSON() { return this.text; }
  }

  // --------------------------------------------------------- rules

  // Reads a ruleset object of ours from the ball_rules at p.
  function readRules(p) {
    const cardsPtr = u32(p + RULES.cards);
    const rules = {
      endZoneDepth: i32(p + RULES.end_zone_depth),
      turnLimit: u32(p + RULES.turn_limit),
      cards: cardsPtr ? readCards(cardsPtr) : null,
      text: '',
    };
    const rc = M._ball_rules_to_text(p, SCRATCH.text, constants.RULES_TEXT_MAX);
    if (rc < 0)
      throw fail(rc);
    rules.text = str(SCRATCH.text);
    return Object.freeze(rules);
  }

  function readCards(cs) {
    const earn = {};
    EARN_NAMES.forEach((name, i) => { earn[name] = M._ball_cardset_earn(cs, i); });
    const hand = (team) => {
      const cards = [];
      const n = M._ball_cardset_hand_size(cs, team);
      for (let i = 0; i < n; i++) {
        const effect = M._ball_cardset_card_value(cs, team, i, constants.CARD_EFFECT);
        const amount = M._ball_cardset_card_value(cs, team, i, constants.CARD_AMOUNT);
        cards.push(Object.freeze({
          index: i,
          name: str(M._ball_cardset_card_name(cs, team, i)),
          cost: M._ball_cardset_card_value(cs, team, i, constants.CARD_COST),
          effect: effect === constants.EFFECT_GAIN_PA ? `pa+${amount}` : 'again',
          amount,
        }));
      }
      return Object.freeze(cards);
    };
    return Object.freeze({ earn: Object.freeze(earn), atk: hand(0), def: hand(1) });
  }

  const RULE_FIELDS = ['endZoneDepth', 'turnLimit', 'cards', 'text'];
  const CARD_FIELDS = ['earn', 'atk', 'def'];

  /**
   * A rules text or object as plain values, read once and checked (no
   * wasm memory touched): null (the default rules), { text } or
   * { endZoneDepth, turnLimit, cards } with cards null or { earn: [[entry,
   * pe]...], hands: [[{ name, cost, gain }...] x2] }. `text` of an object
   * (what parseRules() and game.rules give) is ignored: the fields say it.
   */
  function rulesSpec(rules) {
    if (rules === undefined || rules === null)
      return null;
    if (typeof rules === 'string')
      return { text: textArg(rules, 'the rules text', ErrorCode.RULES) };
    if (typeof rules !== 'object' || isArray(rules))
      throw new BallError(ErrorCode.ARG, `rules are a text or an object, not ${describe(rules)}`);
    for (const k of Object.keys(rules))
      if (!RULE_FIELDS.includes(k))
        throw new BallError(ErrorCode.ARG, `unknown rule '${k}' (endZoneDepth, turnLimit, cards)`);
    const [endZoneDepth, turnLimit, cards] = ['endZoneDepth', 'turnLimit', 'cards'].map((k) => own(rules, k));
    return {
      endZoneDepth: endZoneDepth === undefined ? undefined : intArg(endZoneDepth, 'endZoneDepth', 0, INT_MAX),
      turnLimit: turnLimit === undefined ? undefined : intArg(turnLimit, 'turnLimit', 0, U32_MAX),
      cards: cards === undefined || cards === null || cards === false ? null : cardsSpec(cards),
    };
  }

  // { earn: { dodge: 1, ... }, atk: [card...], def: [card...] }, a card
  // being { name, cost, effect: 'pa+N' | 'again' }, as plain values.
  function cardsSpec(cards) {
    const c = readOptions(cards, CARD_FIELDS, 'cards');
    const earn = [];
    if (c.earn !== undefined && c.earn !== null) {
      if (typeof c.earn !== 'object' || isArray(c.earn))
        throw new BallError(ErrorCode.ARG, `cards.earn is an object { dodge: 1, ... }, not ${describe(c.earn)}`);
      for (const name of Object.keys(c.earn)) {
        const entry = EARN_NAMES.indexOf(name);
        if (entry < 0)
          throw new BallError(ErrorCode.RULES,
            `unknown earning entry '${name}' (one of ${EARN_NAMES.join(' ')})`);
        earn.push([entry, intArg(own(c.earn, name), `earning entry '${name}'`, 0, INT_MAX)]);
      }
    }
    const hands = ['atk', 'def'].map((team) => {
      const v = c[team];
      if (v === undefined || v === null)
        return [];
      // One more than a hand holds, so that the library says what is wrong.
      return listArg(v, `cards.${team}`, constants.MAX_HAND + 1, true).map((card, i) => {
        const what = `card ${i} of ${team.toUpperCase()}`;
        const { name, cost, effect } = readOptions(card, ['name', 'cost', 'effect'], what, false);
        const nameText = textArg(name, `${what}: name`);
        const m = typeof effect === 'string' ? /^(?:pa\+([1-9])|again)$/.exec(effect) : null;
        if (!m)
          throw new BallError(ErrorCode.RULES,
            `card ${describe(nameText)}: effect ${describe(effect)} is not 'pa+N' (N 1-9) or 'again'`);
        return {
          name: nameText,
          cost: intArg(cost, `card ${describe(nameText)}: cost`, 0, INT_MAX),
          effect: m[1] ? constants.EFFECT_GAIN_PA : constants.EFFECT_UNRESTRICT,
          amount: m[1] ? Number(m[1]) : 0,
        };
      });
    });
    return { earn, hands };
  }

  /**
   * Sets up a ball_rules in SCRATCH.rules from a rulesSpec(); returns the
   * card set to free (0 if none) once the game is made. Runs no code of
   * the caller's: the scratch memory cannot change under it.
   */
  function buildRules(spec) {
    const p = SCRATCH.rules;
    M._ball_rules_init(p, RULES.sizeof);
    if (spec === null)
      return 0;
    if (spec.text !== undefined) {
      const rc = withString(spec.text, (t) =>
        M._ball_rules_from_text(p, SCRATCH.out, t, SCRATCH.err, 256));
      if (rc < 0)
        throw fail(rc, str(SCRATCH.err));
      return u32(SCRATCH.out);
    }
    if (spec.endZoneDepth !== undefined)
      setI32(p + RULES.end_zone_depth, spec.endZoneDepth);
    if (spec.turnLimit !== undefined)
      setU32(p + RULES.turn_limit, spec.turnLimit);
    let cs = 0;
    if (spec.cards) {
      cs = makeCardset(spec.cards);
      setU32(p + RULES.cards, cs);
    }
    const rc = M._ball_rules_check(p, SCRATCH.err, 256);
    if (rc < 0) {
      M._ball_cardset_free(cs);
      throw fail(rc, str(SCRATCH.err));
    }
    return cs;
  }

  // A ball_cardset from the cards of a rulesSpec().
  function makeCardset(cards) {
    let rc = M._ball_cardset_new(SCRATCH.out);
    if (rc < 0)
      throw fail(rc);
    const cs = u32(SCRATCH.out);
    try {
      for (const [entry, pe] of cards.earn) {
        if (M._ball_cardset_set_earn(cs, entry, pe) < 0)
          throw new BallError(ErrorCode.RANGE,
            `earning entry '${EARN_NAMES[entry]}': ${pe} is not 0-${constants.MAX_CARD_PE}`);
      }
      cards.hands.forEach((hand, team) => {
        for (const card of hand) {
          rc = withString(card.name, (t) =>
            M._ball_cardset_add_card(cs, team, t, card.cost, card.effect, card.amount));
          if (rc < 0)
            throw new BallError(ErrorCode.RANGE,
              `card ${describe(card.name)} of ${TEAMS[team]}: a hand holds at most ` +
              `${constants.MAX_HAND} cards, a name 1-23 letters, digits, _ or -, ` +
              `a cost 0-${constants.MAX_CARD_PE}`);
        }
      });
    } catch (e) {
      M._ball_cardset_free(cs);
      throw e;
    }
    return cs;
  }

  /** The ruleset of a rules text or object, as an object with its text. */
  function parseRules(rules) {
    const cs = buildRules(readCaller('parseRules(rules): rules', () => rulesSpec(rules)));
    try {
      return readRules(SCRATCH.rules);
    } finally {
      M._ball_cardset_free(cs);
    }
  }

  // --------------------------------------------------------- board contents

  function pieceOf(code) {
    if (code <= 0)
      return null;
    const team = code & constants.PIECE_DEF ? 'DEF' : 'ATK';
    const type = PIECE_TYPES[code & constants.PIECE_TYPE_MASK];
    const p = {
      code,
      team,
      type,
      down: (code & constants.PIECE_DOWN) !== 0,
      restricted: (code & constants.PIECE_RESTRICTED) !== 0,
      hasBall: (code & constants.PIECE_BALL) !== 0,
      stacked: (code & constants.PIECE_STACKED) !== 0,
    };
    p.active = !p.down && !p.stacked;
    p.text = (team === 'ATK' ? type : type.toLowerCase()) + (p.hasBall ? '*' : '') +
      (p.down ? '_' : '') + (p.restricted ? '!' : '');
    return Object.freeze(p);
  }

  // --------------------------------------------------------- games

  let live = 0;
  let gamePointer;
  let adoptGame;
  let selectIn;
  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((ptr) => { M._ball_game_free(ptr); live--; })
    : null;

  /**
   * A game of BALL: a position, its ruleset and the undo history, in wasm
   * memory. Free it with free() (or `using`); a game that is collected
   * without free() is freed by a FinalizationRegistry, later.
   *
   *   new Game()                          the standard start
   *   new Game(bpn)                       a position (N1)
   *   new Game({ bpn, rules })            rules: a rules text
   *                                       ('zone=2 turns=60 atk=Sprint:2:pa+1') or
   *                                       { endZoneDepth, turnLimit, cards }
   */
  const GAME_OPTIONS = ['bpn', 'rules', 'endZoneDepth', 'turnLimit', 'cards'];

  class Game {
    #ptr = 0;

    static {
      // For the searcher and the record reader, which live outside the class.
      gamePointer = (game) => {
        if (game === null || typeof game !== 'object' || !(#ptr in game))
          throw new BallError(ErrorCode.ARG, `expected a Game, not ${game === null ? 'null' : typeof game}`);
        return game.#g;
      };
      selectIn = (game, chosen) => Game.prototype.select.call(game, chosen);
      adoptGame = (ptr) => {
        const game = new Game(ADOPT);
        game.#adopt(ptr);
        return game;
      };
    }

    constructor(options = {}) {
      if (options === ADOPT)
        return;
      if (typeof options === 'string')
        options = { bpn: options };
      if (options === null || typeof options !== 'object' || isArray(options))
        throw new BallError(ErrorCode.ARG, 'new Game(bpn) or new Game({ bpn, rules })');
      // Everything the caller gives is read and checked first (getters,
      // proxies and iterators run here), then the game is made.
      const { bpnText, spec } = readCaller('new Game(options): options', () => {
        const keys = Object.keys(options);
        for (const k of keys)
          if (!GAME_OPTIONS.includes(k))
            throw new BallError(ErrorCode.ARG, `unknown option '${k}' (${GAME_OPTIONS.join(', ')})`);
        const [bpn, rules, endZoneDepth, turnLimit, cards] = GAME_OPTIONS.map((k) => own(options, k));
        let spec;
        if (keys.some((k) => k !== 'bpn' && k !== 'rules')) {
          if (rules !== undefined && rules !== null)
            throw new BallError(ErrorCode.ARG, 'give either rules or endZoneDepth / turnLimit / cards, not both');
          spec = rulesSpec({ endZoneDepth, turnLimit, cards });
        } else {
          spec = rulesSpec(rules);
        }
        return { spec, bpnText: bpn === undefined || bpn === null ? null : textArg(bpn, 'the BPN', ErrorCode.BPN) };
      });
      const cs = buildRules(spec);
      const rc = M._ball_game_new(SCRATCH.out, SCRATCH.rules, SCRATCH.err, 256);
      M._ball_cardset_free(cs);
      if (rc < 0)
        throw fail(rc, str(SCRATCH.err));
      this.#adopt(u32(SCRATCH.out));
      if (bpnText !== null) {
        try {
          this.bpn = bpnText;
        } catch (e) {
          this.free();
          throw e;
        }
      }
    }

    /** A game from the BPN `bpn` under `rules` (a text or an object). */
    static fromBpn(bpn, rules) {
      return new Game({ bpn, rules });
    }

    #adopt(ptr) {
      this.#ptr = ptr;
      live++;
      registry?.register(this, ptr, this);
    }

    get #g() {
      if (!this.#ptr)
        throw new BallError(ErrorCode.ARG, 'the game has been freed');
      return this.#ptr;
    }

    #check(rc) {
      if (rc < 0)
        throw fail(rc, str(M._ball_errmsg(this.#ptr)));
      return rc;
    }

    /** Frees the game's memory now; using it afterwards throws. Twice is harmless. */
    free() {
      if (!this.#ptr)
        return;
      registry?.unregister(this);
      M._ball_game_free(this.#ptr);
      this.#ptr = 0;
      live--;
    }

    get freed() { return this.#ptr === 0; }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.free(); }

    /** An independent copy: position, ruleset and undo history. */
    clone() {
      const rc = M._ball_game_clone(SCRATCH.out, this.#g);
      if (rc < 0)
        throw fail(rc);
      const copy = new Game(ADOPT);
      copy.#adopt(u32(SCRATCH.out));
      return copy;
    }

    /** The ruleset: { endZoneDepth, turnLimit, cards, text }; cards is
     *  null or { earn, atk, def } with the hands as created. */
    get rules() {
      M._ball_rules_init(SCRATCH.rules, RULES.sizeof);
      this.#check(M._ball_game_rules(this.#g, SCRATCH.rules));
      return readRules(SCRATCH.rules);
    }

    // ------------------------------------------------- position

    /** The position as BPN (N1); assigning one sets the position and
     *  clears the undo history (BallError 'bpn' with what is wrong, game
     *  unchanged). */
    get bpn() {
      this.#check(M._ball_position_to_text(this.#g, SCRATCH.text, constants.BPN_MAX));
      return str(SCRATCH.text);
    }

    set bpn(text) {
      text = textArg(text, 'the BPN', ErrorCode.BPN);
      const g = this.#g;
      this.#check(withString(text, (t) => M._ball_position_from_text(g, t)));
    }

    /** The coach to act, 'ATK' or 'DEF' (after a touchdown: the coach
     *  who made the last decision). */
    get side() { return TEAMS[this.#check(M._ball_side(this.#g))]; }
    /** 'action' or 'release'. */
    get phase() { return PHASES[this.#check(M._ball_phase(this.#g))]; }
    /** PA left in this action phase. */
    get pa() { return this.#check(M._ball_pa(this.#g)); }
    /** True when the last decision of this action phase was a hand-off. */
    get handoffLast() { return this.#check(M._ball_handoff_last(this.#g)) === 1; }
    get turn() { return this.#check(M._ball_turn(this.#g)); }
    /** 'ongoing', 'atk_won', 'def_won' or 'draw'. */
    get result() { return RESULTS[this.#check(M._ball_result(this.#g))]; }
    get isOver() { return this.result !== 'ongoing'; }
    /** 'ATK' or 'DEF' after a touchdown, else null. */
    get winner() {
      const r = this.result;
      return r === 'atk_won' ? 'ATK' : r === 'def_won' ? 'DEF' : null;
    }
    /** The square of the ball, loose or held. */
    get ballSquare() { return SQUARES[this.#check(M._ball_square_of_ball(this.#g))]; }
    /** The square of the restricted piece of the coach to act, or null. */
    get restrictedSquare() {
      return nameOrNull(this.#check(M._ball_restricted_square(this.#g)));
    }
    /** Card mode: the PE of each coach, { ATK, DEF } (0 outside card mode). */
    get pe() {
      return { ATK: this.#check(M._ball_pe(this.#g, 0)), DEF: this.#check(M._ball_pe(this.#g, 1)) };
    }
    /** Card mode: the cards of each coach's hand, { ATK: [...], DEF: [...] },
     *  each { index, number, name, cost, effect, amount, held } (number =
     *  index + 1, as in `cardN`; held: not played yet). */
    get hands() {
      const cards = this.rules.cards;
      const out = { ATK: [], DEF: [] };
      if (!cards)
        return out;
      for (const [team, hand] of [['ATK', cards.atk], ['DEF', cards.def]]) {
        const mask = this.#check(M._ball_hand(this.#g, team === 'ATK' ? 0 : 1));
        out[team] = hand.map((c) => ({ ...c, number: c.index + 1, held: (mask >> c.index & 1) === 1 }));
      }
      return out;
    }

    /** The piece on `square` at `level` ('upper', the default, or 'lower'),
     *  or null: { team, type ('X' 'O' 'S'), down, restricted, hasBall,
     *  stacked, active, text, code }. */
    piece(square, level = 'upper') {
      const lv = level === 'upper' || level === 0 ? 0 : level === 'lower' || level === 1 ? 1 : -1;
      if (lv < 0)
        throw new BallError(ErrorCode.ARG, `level is 'upper' or 'lower', not ${describe(level)}`);
      const sq = squareIndex(square);
      return pieceOf(this.#check(M._ball_piece(this.#g, sq, lv)));
    }

    /** What is on a square: { square, index, upper, lower, looseBall,
     *  fresh, stack, open, vacant, hasBall, text } (text as `ball show`
     *  writes it: '.', '@', 'X*', '[Xo]+' ...). */
    square(square) {
      const index = squareIndex(square);
      const g = this.#g;
      const state = this.#check(M._ball_square_state(g, index));
      const upper = state & constants.SQ_PIECE ? pieceOf(this.#check(M._ball_piece(g, index, 0))) : null;
      const lower = state & constants.SQ_STACK ? pieceOf(this.#check(M._ball_piece(g, index, 1))) : null;
      const looseBall = (state & constants.SQ_LOOSE_BALL) !== 0;
      const fresh = (state & constants.SQ_FRESH) !== 0;
      let text = upper ? upper.text : looseBall ? '@' : '.';
      if (lower)
        text = `[${upper.text}${lower.text}]${fresh ? '+' : ''}`;
      return Object.freeze({
        square: SQUARES[index], index, upper, lower, looseBall, fresh, stack: lower !== null,
        open: upper === null, vacant: upper === null && !looseBall,
        hasBall: (state & constants.SQ_BALL) !== 0, text,
      });
    }

    /** The 111 squares' contents in index order (A1, C1, ..., M17). */
    board() {
      return SQUARES.map((_, i) => this.square(i));
    }

    /** The board as text, row 17 at the top. */
    diagram() {
      const lines = ['    ' + [...FILE_OF].join('     ')];
      for (let row = 17; row >= 1; row--) {
        let line = String(row).padStart(2) + '  ';
        for (let col = 1; col <= 13; col++) {
          const i = (col + row) % 2 === 0 ? (13 * (row - 1) + (col - 1)) / 2 : -1;
          line += (i >= 0 ? this.square(i).text : '').padEnd(6);
        }
        lines.push(line.trimEnd());
      }
      return lines.join('\n');
    }

    toString() { return this.diagram(); }

    // ------------------------------------------------- playing

    #list(n) {
      const out = new Array(n);
      const base = SCRATCH.actions >> 2;
      for (let i = 0; i < n; i++)
        out[i] = Action.fromCode(M.HEAPU32[base + i]);
      return out;
    }

    /** The legal decisions in the library's order (none once the game is
     *  over); `{ sorted: true }` gives the order of the `ball` tool. */
    legalActions(options = {}) {
      const { sorted } = readCaller('legalActions(options)', () =>
        readOptions(options ?? {}, ['sorted'], 'legalActions(options)'));
      const n = this.#check(M._ball_legal_actions(this.#g, SCRATCH.actions, constants.MAX_ACTIONS));
      const list = this.#list(n);
      return sorted ? list.sort((a, b) => compareActionTexts(a.text, b.text)) : list;
    }

    /** The number of legal decisions, counted without listing them. */
    countLegalActions() { return this.#check(M._ball_legal_actions(this.#g, 0, 0)); }

    /** legalActions()[index], found without listing the others. */
    legalAction(index) {
      index = intArg(index, 'legalAction(index): index', 0, INT_MAX);
      this.#check(M._ball_legal_action_at(this.#g, index, SCRATCH.out));
      return Action.fromCode(u32(SCRATCH.out));
    }

    /**
     * A legal decision drawn with the 64-bit BigInt `random` (default: 64
     * bits from crypto.getRandomValues), uniform when `random` is; throws
     * BallError 'range' when the game is over.
     */
    randomAction(random = random64()) {
      if (typeof random !== 'bigint' || random < 0n || random >= 2n ** 64n)
        throw new BallError(ErrorCode.ARG, 'random is a BigInt in 0 .. 2n ** 64n - 1n');
      this.#check(M._ball_random_action(this.#g, random, SCRATCH.out));
      return Action.fromCode(u32(SCRATCH.out));
    }

    /**
     * Plays legalActions()[index] in one call, without the legality check
     * of apply() (ball_apply_index(), experimental); BallError 'range'
     * (game unchanged) for an index out of range, the game over included.
     * Returns nothing: the history gives the decision played.
     */
    applyIndex(index) {
      index = intArg(index, 'applyIndex(index): index', 0, INT_MAX);
      this.#check(M._ball_apply_index(this.#g, index));
    }

    /**
     * Plays the decision randomAction(random) draws, in one call and
     * without the legality check of apply() (ball_random_apply(),
     * experimental), and returns it; BallError 'range' (game unchanged)
     * when there is no legal decision.
     */
    randomApply(random = random64()) {
      if (typeof random !== 'bigint' || random < 0n || random >= 2n ** 64n)
        throw new BallError(ErrorCode.ARG, 'random is a BigInt in 0 .. 2n ** 64n - 1n');
      this.#check(M._ball_random_apply(this.#g, random, SCRATCH.out));
      return Action.fromCode(u32(SCRATCH.out));
    }

    /**
     * Plays random decisions until the game ends or `maxDecisions`
     * (default: no limit) have been played, in one call
     * (ball_random_playout(), experimental), and returns how many it
     * played (0 when the game is already over). Decision k is the one
     * randomAction() draws with output k of a splitmix64 generator started
     * at the BigInt `seed` (default: 64 random bits), so a seed repeats its
     * playout; each decision is one history entry (undo() takes it back).
     */
    randomPlayout(seed = random64(), maxDecisions = INT_MAX) {
      if (typeof seed !== 'bigint' || seed < 0n || seed >= 2n ** 64n)
        throw new BallError(ErrorCode.ARG, 'seed is a BigInt in 0 .. 2n ** 64n - 1n');
      maxDecisions = intArg(maxDecisions, 'randomPlayout(seed, maxDecisions): maxDecisions', 0, INT_MAX);
      return this.#check(M._ball_random_playout(this.#g, seed, maxDecisions));
    }

    /** The action written `text` (N2) here; BallError 'notation'
     *  (malformed) or 'illegal' (no such decision), with the reason. */
    parseAction(text) {
      text = textArg(text, 'the action text', ErrorCode.NOTATION);
      const g = this.#g;
      this.#check(withString(text, (t) => M._ball_action_from_text(g, t, SCRATCH.out)));
      return Action.fromCode(u32(SCRATCH.out));
    }

    // The code (a plain number) of an Action, a text or a code.
    #code(action) {
      if (isAction(action))
        return action.code;
      if (typeof action === 'string')
        return this.parseAction(action).code;
      if (typeof action === 'number' && Number.isInteger(action) && action > 0 && action <= U32_MAX)
        return action;
      throw new BallError(ErrorCode.ARG, `not an action: ${describe(action)}`);
    }

    /** Whether an action (Action, text or code) is legal here. */
    isLegal(action) {
      let code;
      try {
        code = this.#code(action);
      } catch (e) {
        // A text that is not one (a NUL, a lone surrogate) is refused.
        if (e instanceof BallError && (e.code === ErrorCode.NOTATION || e.code === ErrorCode.ILLEGAL) &&
            !/NUL character|lone surrogate/.test(e.message))
          return false;
        throw e;
      }
      return this.#check(M._ball_is_legal(this.#g, code)) === 1;
    }

    /** Plays a decision (an Action, its N2 text or its code) and returns
     *  it as an Action; BallError 'illegal' (game unchanged) if it is not
     *  legal here. */
    apply(action) {
      const code = this.#code(action);
      this.#check(M._ball_apply(this.#g, code));
      return Action.fromCode(code);
    }

    /** Takes back the last decision; BallError 'no_history' if none. */
    undo() { this.#check(M._ball_undo(this.#g)); }

    /** How many decisions undo() can take back. */
    get historyLength() { return this.#check(M._ball_history_length(this.#g)); }

    /** Makes room for n more decisions in the undo history. */
    reserveHistory(n) {
      n = intArg(n, 'reserveHistory(n): n', 0, U32_MAX);
      // Beyond this the wasm memory (2 GiB) could not hold the records
      // anyway, and on wasm32 the library's byte count (n times the size
      // of a record, in a 32-bit size_t) could wrap to a small block.
      if (n > MAX_HISTORY)
        throw new BallError(ErrorCode.NOMEM, `reserveHistory(n): ${n} decisions do not fit in the ` +
          `WebAssembly memory (at most ${MAX_HISTORY})`);
      this.#check(M._ball_history_reserve(this.#g, n));
    }

    /** The number of decision sequences of exactly `depth` decisions (N3), a BigInt. */
    perft(depth) {
      depth = intArg(depth, 'perft(depth): depth', INT_MIN, INT_MAX);
      this.#check(M._ball_perft(this.#g, depth, SCRATCH.out));
      return u64(SCRATCH.out);
    }

    /** A 64-bit hash of the position (not of the turn number), a BigInt. */
    get hash() { return BigInt.asUintN(64, M._ball_hash(this.#g)); }

    // ------------------------------------------------- release phase (R9)

    /** The tasks of the release phase in square order, solvable or not:
     *  [{ square, kind: 'stand_up' | 'release', solvable }]. */
    releaseTasks() {
      const n = this.#check(M._ball_release_tasks(this.#g, SCRATCH.ints, constants.MAX_TASKS));
      const tasks = [];
      for (let i = 0; i < n; i++) {
        const t = i32(SCRATCH.ints + 4 * i);
        tasks.push(Object.freeze({
          square: SQUARES[M._ball_task_square(t)],
          kind: TASK_KINDS[M._ball_task_kind(t)],
          solvable: M._ball_task_solvable(t) === 1,
        }));
      }
      return tasks;
    }

    /** The solutions of the task on `square`; BallError 'illegal' when
     *  there is no task there. */
    taskSolutions(square) {
      const n = this.#check(M._ball_task_solutions(this.#g, squareIndex(square), SCRATCH.actions,
        constants.MAX_ACTIONS));
      return this.#list(n);
    }

    // ------------------------------------------------- selection (R12)

    /**
     * One step of the step-by-step selection: given the choices so far (a
     * square; a verb '-', '=', '^', '^^' or 'card' (or 'move', 'handoff',
     * 'short_pass', 'long_pass'); a square, or a hand index after 'card';
     * a square; the keeper's square), returns { choices, action }: the
     * next step's choices (square names, verb texts at step 2, hand
     * indices after 'card') and the whole action once the choices form one
     * (else null). BallError 'illegal' when they lead to no legal action.
     * The game never changes.
     */
    select(chosen = []) {
      const items = choicesArg(chosen, 'select(chosen)');
      const values = [];
      for (const [i, c] of items.entries()) {
        if (i === 1) {
          values.push(verbOf(c));
        } else if (i === 2 && values[1] === constants.VERB_CARD) {
          if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c >= constants.MAX_HAND)
            throw new BallError(ErrorCode.ARG, `after 'card' comes a hand index (0-8), not ${describe(c)}`);
          values.push(c + 0);
        } else {
          values.push(squareIndex(c));
        }
      }
      values.forEach((v, i) => setI32(SCRATCH.chosen + 4 * i, v));
      setU32(SCRATCH.out, 0);
      const n = this.#check(M._ball_select(this.#g, SCRATCH.chosen, values.length, SCRATCH.ints,
        constants.NUM_SQUARES, SCRATCH.out));
      const code = u32(SCRATCH.out);
      const choices = [];
      for (let i = 0; i < n; i++) {
        const v = i32(SCRATCH.ints + 4 * i);
        choices.push(values.length === 1 ? VERB_TEXT[v] :
          values.length === 2 && values[1] === constants.VERB_CARD ? v : SQUARES[v]);
      }
      return { choices, action: code ? Action.fromCode(code) : null };
    }

    /** An empty Selection, to build an action one choice at a time. */
    selection() { return new Selection(this, []); }

    // ------------------------------------------------- whole games (records)

    /** The decision number `i` (from 0, the oldest) of the history: the
     *  one undo() takes back after historyLength - 1 - i undos. */
    historyAction(i) {
      i = intArg(i, 'historyAction(i): i', INT_MIN, INT_MAX);
      this.#check(M._ball_history_action(this.#g, i, SCRATCH.out));
      return Action.fromCode(u32(SCRATCH.out));
    }

    /** The BPN of the position decision `i` of the history was played
     *  from: 0 is the position the game started from, historyLength the
     *  current one. */
    historyPosition(i) {
      i = intArg(i, 'historyPosition(i): i', INT_MIN, INT_MAX);
      this.#check(M._ball_history_position(this.#g, i, SCRATCH.text, constants.BPN_MAX));
      return str(SCRATCH.text);
    }

    /** The decisions of the history, oldest first (Actions). */
    history() {
      const n = this.historyLength;
      return Array.from({ length: n }, (_, i) => this.historyAction(i));
    }

    /** The value of a record tag ('event', 'site', 'date', 'atk', 'def'),
     *  '' when unset. */
    tag(name) {
      const tag = tagIndex(name);
      this.#check(M._ball_game_tag(this.#g, tag, SCRATCH.text, constants.TAG_TEXT_MAX));
      return str(SCRATCH.text);
    }

    /** Sets a record tag (0-127 bytes of UTF-8 without control
     *  characters; '' or null clears it); BallError 'range' otherwise. */
    setTag(name, value) {
      const tag = tagIndex(name);
      const text = value === null || value === undefined ? null :
        textArg(value, `the value of tag ${TAG_NAMES[tag]}`, ErrorCode.RANGE);
      const g = this.#g;
      this.#check(text === null ? M._ball_game_set_tag(g, tag, 0) :
        withString(text, (t) => M._ball_game_set_tag(g, tag, t)));
    }

    /** All the record tags by their names in the record, as Python's
     *  `Game.tags`: { Event, Site, Date, ATK, DEF } ('' when unset). The
     *  lower-case names of 1.1's development (`tags.event`) still read, as
     *  properties that enumeration and JSON leave out (deprecated). */
    get tags() {
      const values = TAG_NAMES.map((name) => this.tag(name));
      const out = Object.fromEntries(TAGS.map((name, i) => [name, values[i]]));
      TAG_NAMES.forEach((name, i) => Object.defineProperty(out, name, { value: values[i] }));
      return out;
    }

    /** The game record (docs/records.md): tags, ruleset, start position,
     *  the decisions of the history, the result. A property holding a
     *  string, as Python's `game.record` (docs/bindings.md, "One shape for
     *  record"). */
    get record() {
      const g = this.#g;
      const n = this.#check(M._ball_record_write(g, 0, 0));
      const buf = M._malloc(n + 1);
      if (!buf)
        throw new BallError(ErrorCode.NOMEM, 'out of memory');
      try {
        this.#check(M._ball_record_write(g, buf, n + 1));
        return str(buf);
      } finally {
        M._free(buf);
      }
    }

    /**
     * The record with the tags `tags` for this record only, as Python's
     * `game.record(event=..., ATK=...)`: { Event, ATK, ... } (names in any
     * case; '' or null leaves a tag out). The game's own tags are
     * unchanged; BallError 'arg' for an unknown tag, 'range' for a value
     * setTag() refuses (nothing written).
     */
    recordWith(tags) {
      const given = readCaller('recordWith(tags)', () => {
        if (tags === null || typeof tags !== 'object' || isArray(tags))
          throw new BallError(ErrorCode.ARG, `recordWith(tags): tags are an object { ${TAGS.join(', ')} }, ` +
            `not ${describe(tags)}`);
        return Object.keys(tags).map((k) => [tagIndex(k), own(tags, k)]);
      });
      const g = this.#g;
      const saved = TAG_NAMES.map((name) => this.tag(name));
      try {
        for (const [tag, value] of given)
          this.setTag(tag, value === '' ? null : value);
        return this.record;
      } finally {
        // The saved values were the library's, so setting them back cannot fail.
        saved.forEach((value, tag) => {
          if (value === '')
            M._ball_game_set_tag(g, tag, 0);
          else
            withString(value, (t) => M._ball_game_set_tag(g, tag, t));
        });
      }
    }

    // The fields `names` of a drawing's options (inherited ones too), each
    // read once, and the highlight's elements copied: what reading them
    // throws (a getter, a proxy's trap, a revoked proxy) is BallError 'arg'.
    #drawOptions(options, names, what) {
      if (options === null || typeof options !== 'object')
        throw new BallError(ErrorCode.ARG, `${what}: options is an object, not ${describe(options)}`);
      return readCaller(what, () => {
        const o = Object.fromEntries(names.map((k) => [k, options[k]]));
        if (o.highlight !== undefined && o.highlight !== null) {
          if (!isArray(o.highlight) || o.highlight.length > constants.NUM_SQUARES)
            throw new BallError(ErrorCode.ARG, `${what}: highlight is an array of at most ` +
              `${constants.NUM_SQUARES} squares, not ${describe(o.highlight)}`);
          o.highlight = listArg(o.highlight, `${what}: highlight`, constants.NUM_SQUARES);
        }
        return o;
      });
    }

    // The squares of a highlight (a plain array), in SCRATCH.ints; their count.
    #highlight(squares) {
      if (squares === undefined || squares === null)
        return 0;
      const indices = squares.map((sq) => squareIndex(sq));
      indices.forEach((v, i) => setI32(SCRATCH.ints + 4 * i, v));
      return indices.length;
    }

    // A text of unbounded length written by fn(buf, len) (NULL, 0: its length).
    #longText(fn) {
      const n = this.#check(fn(0, 0));
      const buf = M._malloc(n + 1);
      if (!buf)
        throw new BallError(ErrorCode.NOMEM, 'out of memory');
      try {
        this.#check(fn(buf, n + 1));
        return str(buf);
      } finally {
        M._free(buf);
      }
    }

    /** The SVG picture of the position (ball_position_to_svg), the one of
     *  `ball svg`, Python's `_repr_svg_` and the docs' diagrams. Options:
     *  `highlight` (squares outlined), `arrow` (an action, its text or its
     *  code: its arrow), `coords` (false: no column letters and row
     *  numbers). */
    svg(options = {}) {
      const o = this.#drawOptions(options, ['highlight', 'arrow', 'coords'], 'svg(options)');
      const n = this.#highlight(o.highlight);
      const arrow = o.arrow === undefined || o.arrow === null ? constants.ACTION_NONE : this.#code(o.arrow);
      const flags = o.coords === false ? 2 : 0; // BALL_DRAW_NO_COORDS
      const g = this.#g;
      return this.#longText((buf, len) => M._ball_position_to_svg(g, SCRATCH.ints, n, arrow, flags, buf, len));
    }

    /** The text diagram of the position (ball_position_to_board_text), the
     *  one of the `ball` tool. Options: `highlight` (squares marked ">"),
     *  `legend` (true: the two lines of the legend of the letters). */
    boardText(options = {}) {
      const o = this.#drawOptions(options, ['highlight', 'legend'], 'boardText(options)');
      const n = this.#highlight(o.highlight);
      const flags = o.legend === true ? 1 : 0; // BALL_DRAW_LEGEND
      const g = this.#g;
      return this.#longText((buf, len) => M._ball_position_to_board_text(g, SCRATCH.ints, n, flags, buf, len));
    }

    /** The game of a text holding one game record (blank lines around it
     *  allowed), its decisions in its history, as Python's
     *  `Game.from_record()`; BallError 'record' (or 'rules', 'bpn',
     *  'notation', 'illegal') with the line and column of what is wrong,
     *  and for a text with no record or with more than one (readRecords()
     *  reads several). */
    static fromRecord(text) {
      const games = readRecords(text, 2);
      if (!games.length)
        throw new BallError(ErrorCode.RECORD, 'line 1, column 1: no game record in the text');
      if (games.length > 1) {
        games.forEach((game) => game.free());
        throw new BallError(ErrorCode.RECORD, 'the text holds more than one game record ' +
          '(readRecords() reads them all)');
      }
      return games[0];
    }
  }

  function tagIndex(name) {
    const i = typeof name === 'string' ? TAG_NAMES.indexOf(name.toLowerCase()) :
      typeof name === 'number' && Number.isInteger(name) && name >= 0 && name < constants.TAG_COUNT ? name + 0 : -1;
    if (i < 0)
      throw new BallError(ErrorCode.ARG, `not a record tag: ${typeof name === 'string' ? name : describe(name)} ` +
        `(${TAG_NAMES.join(', ')})`);
    return i;
  }

  /**
   * The games of the records in `text` (docs/records.md), at most `max`:
   * each a Game whose history holds the record's decisions. A bad record
   * throws a BallError with the line and column (counted from the start
   * of `text`) of what is wrong; the games read before it are freed.
   */
  function readRecords(text, max = Infinity) {
    text = textArg(text, 'the record text', ErrorCode.RECORD);
    const len = M.lengthBytesUTF8(text);
    const games = [];
    const err = M._malloc(512);
    const at = M._malloc(8);
    try {
      withString(text, (t) => {
        setU32(at, 0);
        while (games.length < max) {
          const rc = M._ball_record_read(SCRATCH.out, t, len, at, err, 512);
          if (rc < 0)
            throw fail(rc, str(err));
          if (rc === 0)
            break;
          games.push(adoptGame(u32(SCRATCH.out)));
        }
      });
    } catch (e) {
      for (const g of games)
        g.free();
      throw e;
    } finally {
      M._free(err);
      M._free(at);
    }
    return games;
  }

  // --------------------------------------------------------- search (MCTS)

  let liveSearchers = 0;
  const searchRegistry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((ptr) => { M._ball_mcts_free(ptr); liveSearchers--; })
    : null;

  const MCTS_OPTIONS = ['playouts', 'timeMs', 'maxNodes', 'playoutTurns', 'exploration', 'seed'];

  // A seed (a BigInt or a non-negative integer) as a BigInt in [0, 2^64).
  function seed64(seed) {
    if (typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0)
      return BigInt(seed + 0);
    if (typeof seed === 'bigint' && seed >= 0n && seed < 2n ** 64n)
      return seed;
    throw new BallError(ErrorCode.ARG, `a seed is a BigInt in 0 .. 2n ** 64n - 1n or a ` +
      `non-negative integer, not ${describe(seed)}`);
  }

  /**
   * The library's Monte-Carlo tree search player (ball_mcts_*, UCT; see
   * docs/players.md). The searcher owns its node pool in wasm memory:
   * free() it (or `using`), or the collector does, later.
   *
   *   new MCTS({ playouts: 2000, seed: 42 })   a budget in playouts: repeatable
   *   new MCTS({ timeMs: 100 })                a time budget (playouts 0: none)
   *
   * Options (the fields of ball_mcts_config; defaults of the library):
   * playouts (1000; 0 no limit), timeMs (0, no limit; with both, the first
   * reached stops), seed (1; BigInt or integer), playoutTurns (1; 0 plays
   * to the end), exploration (0.3), maxNodes (0: from the budget).
   * Bad settings throw BallError 'range' with the library's message.
   */
  class MCTS {
    #ptr = 0;
    #stats = null;

    constructor(options = {}) {
      if (options === null || typeof options !== 'object' || isArray(options))
        throw new BallError(ErrorCode.ARG, 'new MCTS({ playouts, timeMs, seed, playoutTurns, exploration, maxNodes })');
      // The options read once and checked before the scratch memory is used.
      const o = readCaller('new MCTS(options): options', () => {
        for (const k of Object.keys(options))
          if (!MCTS_OPTIONS.includes(k))
            throw new BallError(ErrorCode.ARG, `unknown MCTS option '${k}' (${MCTS_OPTIONS.join(', ')})`);
        return readOptions(options, MCTS_OPTIONS, 'MCTS options');
      });
      const int = (name) => (o[name] === undefined ? undefined : intArg(o[name], name, INT_MIN, INT_MAX));
      const ints = [['playouts', MCTS_CONFIG.playouts], ['timeMs', MCTS_CONFIG.time_ms], ['maxNodes', MCTS_CONFIG.max_nodes],
        ['playoutTurns', MCTS_CONFIG.playout_turns]].map(([name, offset]) => [int(name), offset]);
      if (o.exploration !== undefined && (typeof o.exploration !== 'number' || Number.isNaN(o.exploration)))
        throw new BallError(ErrorCode.ARG, `exploration is a number, not ${describe(o.exploration)}`);
      const seed = o.seed === undefined ? undefined : seed64(o.seed);
      const p = SCRATCH.mcts;
      M._ball_mcts_config_init(p, MCTS_CONFIG.sizeof);
      if (u32(p) !== MCTS_CONFIG.sizeof)
        throw new BallError(ErrorCode.ARG, 'mcts: this binding does not know the library\'s ball_mcts_config');
      for (const [v, offset] of ints)
        if (v !== undefined)
          setI32(p + offset, v);
      if (o.exploration !== undefined)
        setF64(p + MCTS_CONFIG.exploration, o.exploration);
      if (seed !== undefined)
        setU64(p + MCTS_CONFIG.seed, seed);
      // As the examples read "ms=T": a time budget alone means no playout limit.
      if (o.timeMs !== undefined && o.playouts === undefined)
        setI32(p + MCTS_CONFIG.playouts, 0);
      this.config = Object.freeze({
        playouts: i32(p + MCTS_CONFIG.playouts),
        timeMs: i32(p + MCTS_CONFIG.time_ms),
        maxNodes: i32(p + MCTS_CONFIG.max_nodes),
        playoutTurns: i32(p + MCTS_CONFIG.playout_turns),
        exploration: f64(p + MCTS_CONFIG.exploration),
        seed: u64(p + MCTS_CONFIG.seed),
      });
      const rc = M._ball_mcts_new(SCRATCH.out, p, SCRATCH.err, 256);
      if (rc < 0)
        throw fail(rc, str(SCRATCH.err));
      this.#ptr = u32(SCRATCH.out);
      liveSearchers++;
      searchRegistry?.register(this, this.#ptr, this);
    }

    get #m() {
      if (!this.#ptr)
        throw new BallError(ErrorCode.ARG, 'the searcher has been freed');
      return this.#ptr;
    }

    /**
     * Searches the position of `game` within the budget and returns the
     * chosen decision (an Action, legal there; not played). The game is
     * left as it was. An immediate touchdown, and the only legal
     * decision, are returned at once. BallError 'range' when the game is
     * over.
     */
    choose(game) {
      const m = this.#m;
      const g = gamePointer(game);
      setU32(SCRATCH.stats, MCTS_STATS.sizeof);
      const rc = M._ball_mcts_choose(m, g, SCRATCH.out, SCRATCH.stats);
      if (rc < 0) {
        if (rc === ErrorCode.RANGE)
          throw new BallError(rc, `mcts: the game is over (${RESULTS[M._ball_result(g)]})`);
        const msg = str(M._ball_errmsg(g));
        throw fail(rc, msg ? `mcts: ${msg}` : '');
      }
      const s = SCRATCH.stats;
      this.#stats = Object.freeze({
        playouts: Number(u64(s + MCTS_STATS.playouts)),
        nodes: Number(u64(s + MCTS_STATS.nodes)),
        maxDepth: i32(s + MCTS_STATS.max_depth),
        visits: u32(s + MCTS_STATS.visits),
        value: f64(s + MCTS_STATS.value),
        elapsedMs: f64(s + MCTS_STATS.elapsed_ms),
      });
      return Action.fromCode(u32(SCRATCH.out));
    }

    /** What the last choose() did: { playouts, nodes, maxDepth, visits,
     *  value (0-1, for the coach to act), elapsedMs }; null before. */
    get stats() { return this.#stats; }

    /** Restarts the random generator from `seed` (a BigInt or a
     *  non-negative integer); returns the searcher. */
    seed(seed) {
      const m = this.#m;
      const rc = M._ball_mcts_seed(m, seed64(seed));
      if (rc < 0)
        throw fail(rc);
      return this;
    }

    /** Frees the node pool now; using the searcher afterwards throws.
     *  Twice is harmless. */
    free() {
      if (!this.#ptr)
        return;
      searchRegistry?.unregister(this);
      M._ball_mcts_free(this.#ptr);
      this.#ptr = 0;
      liveSearchers--;
    }

    get freed() { return this.#ptr === 0; }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.free(); }
  }

  // --------------------------------------------------------- learned evaluation

  let liveNets = 0;
  const netRegistry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((ptr) => { M._ball_net_free(ptr); liveNets--; })
    : null;
  // The table index of ball_net_search_eval (bindings/js/emscripten/net.c:
  // the JavaScript export _ball_net_search_eval is not one), read once.
  let netEvalFn = 0;
  let netPointer;
  let netUse;
  const EVAL_USAGE = "eval is 'network' (the default), 'hand' or a Net";

  // The bytes of a network file: a Uint8Array (or another typed array or a
  // DataView: its bytes) or an ArrayBuffer, copied into a Uint8Array of
  // our own before any wasm memory is allocated (a view of the wasm
  // memory itself would be detached if it grew). A detached buffer is
  // BallError 'arg'.
  // No property, getter or proxy trap of the caller's object runs: the
  // kind of object is told by the intrinsic getters' brand checks (not
  // instanceof, which runs a proxy's getPrototypeOf trap and throws a
  // TypeError for a revoked one) and the bytes are read through them.
  function bytesArg(data, what) {
    const bytes = isArrayBuffer(data) ? () => new Uint8Array(data)
      : ArrayBuffer.isView(data) ? () => viewBytes(data) : null;
    if (bytes === null)
      throw new BallError(ErrorCode.ARG, `${what} takes the bytes of a network file (a Uint8Array ` +
        `or an ArrayBuffer), not ${describe(data)}`);
    try {
      return bytes().slice();
    } catch (e) {
      throw new BallError(ErrorCode.ARG, `${what}: the buffer cannot be read (detached?)`, { cause: e });
    }
  }

  /**
   * A learned evaluation (experimental: ball_net_*): a network file of
   * docs/network-format.md, loaded and evaluated by the library in wasm,
   * and usable as the turn search's evaluation of its leaves:
   *
   *   const net = new Net(new Uint8Array(await (await fetch('value.net')).arrayBuffer()));
   *   net.evaluate(game);                        // in [-1, 1], for the coach to act
   *   const search = new TurnSearch({ nodes: 20000, eval: net });
   *
   * A file the library refuses (truncated, corrupt, another version or
   * shape) throws BallError 'arg' with its message ("net: byte 8: format
   * version 3, this library reads 1 and 2"). The net keeps its own copy of the
   * weights in wasm memory: free() it (or `using`), or the collector does,
   * later. A TurnSearch that uses the net keeps it alive, and free()
   * throws BallError 'arg' while such a searcher is not freed (the C
   * searcher holds the net's pointer): free the searchers first.
   */
  class Net {
    #ptr = 0;
    #size = 0;
    // The TurnSearches made with this net (weak: a searcher the collector
    // takes no longer holds the net).
    #users = new Set();

    static {
      netPointer = (net) => {
        if (net === null || typeof net !== 'object' || !(#ptr in net))
          throw new BallError(ErrorCode.ARG, `${EVAL_USAGE}, not ${describe(net)}`);
        return net.#n;
      };
      // (Without WeakRef, a strong reference: free() the searcher.)
      netUse = (net, search) => {
        net.#users.add(typeof WeakRef === 'function' ? new WeakRef(search) : { deref: () => search });
      };
    }

    constructor(data) {
      const bytes = bytesArg(data, 'new Net(data)');
      const n = bytes.length;
      const buf = M._malloc(Math.max(n, 1));
      if (!buf)
        throw new BallError(ErrorCode.NOMEM, 'out of memory');
      try {
        u8().set(bytes, buf);
        const rc = M._ball_net_load(SCRATCH.out, buf, n, SCRATCH.err, 256);
        if (rc < 0)
          throw fail(rc, str(SCRATCH.err));
        this.#ptr = u32(SCRATCH.out);
      } finally {
        M._free(buf);
      }
      this.#size = n;
      liveNets++;
      netRegistry?.register(this, this.#ptr, this);
    }

    get #n() {
      if (!this.#ptr)
        throw new BallError(ErrorCode.ARG, 'the network has been freed');
      return this.#ptr;
    }

    /** The value of the position of `game` for the coach to act, in
     *  [-1, 1] (ball_net_evaluate()). */
    evaluate(game) {
      const n = this.#n;
      const g = gamePointer(game);
      const rc = M._ball_net_evaluate(n, g, SCRATCH.out);
      if (rc < 0)
        throw fail(rc, 'net: the library refused the game');
      return f64(SCRATCH.out);
    }

    /** The size in bytes of the file the net was loaded from. */
    get size() { return this.#size; }

    /** The TurnSearches that use the net and are not freed. */
    get users() {
      let n = 0;
      for (const ref of this.#users) {
        const s = ref.deref();
        if (s && !s.freed)
          n++;
        else
          this.#users.delete(ref);
      }
      return n;
    }

    /** Frees the weights now; using the net afterwards throws. Twice is
     *  harmless. BallError 'arg' (the net unchanged) while a TurnSearch
     *  made with it is not freed. */
    free() {
      if (!this.#ptr)
        return;
      const users = this.users;
      if (users > 0)
        throw new BallError(ErrorCode.ARG, `net.free(): ${users} TurnSearch${users > 1 ? 'es' : ''} ` +
          'made with eval: net still use the network (free them first)');
      netRegistry?.unregister(this);
      M._ball_net_free(this.#ptr);
      this.#ptr = 0;
      liveNets--;
    }

    get freed() { return this.#ptr === 0; }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.free(); }
  }

  // --------------------------------------------------------- turn search

  const turnRegistry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({ ptr, mem }) => { M._ball_search_free(ptr); M._free(mem); liveSearchers--; })
    : null;

  const SEARCH_OPTIONS = ['nodes', 'timeMs', 'depth', 'threads', 'seed', 'multipv', 'hashMb', 'eval'];
  // The evaluations `eval` names (ball_search_config::eval), by their
  // value in the config.
  const EVAL_NAMES = { [constants.EVAL_NETWORK]: 'network', [constants.EVAL_HAND]: 'hand' };
  const SEARCH_USAGE = `new TurnSearch({ ${SEARCH_OPTIONS.join(', ')} })`;
  const RESULT_TEXT = { atk_won: 'ATK won', def_won: 'DEF won', draw: 'a draw' };

  // A node budget (a BigInt or a non-negative safe integer) as a BigInt;
  // the library checks its range (0 to 10^12).
  function nodes64(v) {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)
      return BigInt(v + 0);
    if (typeof v === 'bigint' && v >= 0n && v < 2n ** 64n)
      return v;
    throw new BallError(ErrorCode.ARG, `nodes is a non-negative integer or BigInt, not ${describe(v)}`);
  }

  // The actions of `n` codes at p (u32 each).
  const actionsAt = (p, n) => Array.from({ length: n }, (_, i) => Action.fromCode(u32(p + 4 * i)));
  const lineText = (actions) => actions.map((a) => a.text).join(' ');

  /**
   * The library's turn search (ball_search_*: alpha-beta by whole turns
   * with a transposition table; the strongest player of docs/players.md).
   * The searcher owns its table in wasm memory: free() it (or `using`), or
   * the collector does, later.
   *
   *   new TurnSearch({ nodes: 20000 })        a budget in nodes: repeatable
   *   new TurnSearch({ timeMs: 500 })         a time budget (nodes 0: none)
   *
   * Options (the fields of ball_search_config; defaults of the library):
   * nodes (200000; 0 no limit; an integer or a BigInt), timeMs (0, no
   * limit), depth (0: up to 64 turns; a timeMs or a depth given without
   * nodes is the only budget, as `search:ms=T` of the examples), threads (1: this WebAssembly build has no threads, any other
   * value throws), seed (1; breaks ties), multipv (1; root decisions with
   * exact values), hashMb (16; the table's size in MiB), eval ('network',
   * the default: the learned network the library carries; 'hand': the
   * hand-written evaluation alone, ball_search_config::eval; or a Net,
   * experimental: the network's value replaces the evaluation at the
   * leaves, ball_search_set_eval() with ball_net_search_eval; the searcher
   * keeps the net alive, and net.free() throws until the searcher is
   * freed; null or undefined: the default). Bad settings throw BallError
   * 'arg' with the library's message.
   */
  class TurnSearch {
    #ptr = 0;
    #mem = 0;
    // The Net of `eval`, kept alive (for the collector) while the searcher is.
    #net = null;

    constructor(options = {}) {
      if (options === null || typeof options !== 'object' || isArray(options))
        throw new BallError(ErrorCode.ARG, SEARCH_USAGE);
      const o = readCaller('new TurnSearch(options): options', () => {
        for (const k of Object.keys(options))
          if (!SEARCH_OPTIONS.includes(k))
            throw new BallError(ErrorCode.ARG, `unknown TurnSearch option '${k}' (${SEARCH_OPTIONS.join(', ')})`);
        return readOptions(options, SEARCH_OPTIONS, 'TurnSearch options');
      });
      const int = (name) => (o[name] === undefined ? undefined : intArg(o[name], name, INT_MIN, INT_MAX));
      const ints = [['timeMs', SEARCH_CONFIG.time_ms], ['depth', SEARCH_CONFIG.depth], ['threads', SEARCH_CONFIG.threads],
        ['multipv', SEARCH_CONFIG.multipv], ['hashMb', SEARCH_CONFIG.hash_mb]].map(([name, offset]) => [int(name), offset]);
      const nodes = o.nodes === undefined ? undefined : nodes64(o.nodes);
      const named = o.eval === undefined || o.eval === null ? 'network' : typeof o.eval === 'string' ? o.eval : null;
      if (named !== null && named !== 'network' && named !== 'hand')
        throw new BallError(ErrorCode.ARG, `${EVAL_USAGE}, not ${describe(o.eval)}`);
      const net = named === null ? o.eval : null;
      const netPtr = net === null ? 0 : netPointer(net);
      const seed = o.seed === undefined ? undefined : seed64(o.seed);
      // The wasm build has no threads (mk/web.mk links without -pthread):
      // the library would accept 2-64 and search with one, silently.
      const threads = ints[2][0];
      if (threads !== undefined && threads > 1 && threads <= 64)
        throw new BallError(ErrorCode.ARG, `threads ${threads}: this WebAssembly build of libball ` +
          'searches with one thread only (threads must be 1)');
      // One block for the searcher's lifetime: the config, then the result.
      const mem = M._malloc(SEARCH_CONFIG.sizeof + SEARCH_RESULT.sizeof);
      if (!mem)
        throw new BallError(ErrorCode.NOMEM, 'out of memory');
      const p = mem;
      try {
        M._ball_search_config_init(p, SEARCH_CONFIG.sizeof);
        if (u32(p) !== SEARCH_CONFIG.sizeof)
          throw new BallError(ErrorCode.ARG, 'search: this binding does not know the library\'s ball_search_config');
        for (const [v, offset] of ints)
          if (v !== undefined)
            setI32(p + offset, v);
        if (nodes !== undefined)
          setU64(p + SEARCH_CONFIG.nodes, nodes);
        if (seed !== undefined)
          setU64(p + SEARCH_CONFIG.seed, seed);
        if (named === 'hand')
          setI32(p + SEARCH_CONFIG.eval, constants.EVAL_HAND);
        // As the examples read "search:ms=T" and "search:depth=D": a budget
        // named without nodes is the only budget.
        if ((o.timeMs !== undefined || o.depth !== undefined) && o.nodes === undefined)
          setU64(p + SEARCH_CONFIG.nodes, 0n);
        const n = u64(p + SEARCH_CONFIG.nodes); // at most 10^12 once the library accepts it
        this.config = Object.freeze({
          nodes: Number(n),
          timeMs: i32(p + SEARCH_CONFIG.time_ms),
          depth: i32(p + SEARCH_CONFIG.depth),
          threads: i32(p + SEARCH_CONFIG.threads),
          seed: u64(p + SEARCH_CONFIG.seed),
          multipv: i32(p + SEARCH_CONFIG.multipv),
          hashMb: i32(p + SEARCH_CONFIG.hash_mb),
          eval: EVAL_NAMES[i32(p + SEARCH_CONFIG.eval)],
        });
        const rc = M._ball_search_new(SCRATCH.out, p, SCRATCH.err, 256);
        if (rc < 0)
          throw fail(rc, str(SCRATCH.err));
        this.#ptr = u32(SCRATCH.out);
        if (net !== null) {
          netEvalFn ||= M._libball_js_net_search_eval();
          const erc = M._ball_search_set_eval(this.#ptr, netEvalFn, netPtr);
          if (erc < 0) {
            M._ball_search_free(this.#ptr);
            this.#ptr = 0;
            throw fail(erc, 'search: ball_search_set_eval refused the network');
          }
        }
      } catch (e) {
        M._free(mem);
        throw e;
      }
      this.#mem = mem;
      if (net !== null) {
        this.#net = net;
        netUse(net, this);
      }
      liveSearchers++;
      turnRegistry?.register(this, { ptr: this.#ptr, mem }, this);
    }

    get #s() {
      if (!this.#ptr)
        throw new BallError(ErrorCode.ARG, 'the searcher has been freed');
      return this.#ptr;
    }

    // Runs the search on game; returns the result struct's address.
    #run(game) {
      const s = this.#s;
      const g = gamePointer(game);
      const r = this.#mem + SEARCH_CONFIG.sizeof;
      M._ball_search_result_init(r, SEARCH_RESULT.sizeof);
      const rc = M._ball_search_run(s, g, r);
      if (rc < 0) {
        const result = RESULTS[M._ball_result(g)];
        if (rc === ErrorCode.RANGE && result !== 'ongoing')
          throw new BallError(rc, `search: the game is over (${RESULT_TEXT[result]}): there is no decision to search`);
        const msg = str(M._ball_errmsg(g));
        throw fail(rc, msg ? `search: ${msg}` : '');
      }
      return r;
    }

    /**
     * Searches the position of `game` within the budget and returns the
     * decision for the coach to act (an Action, legal there; not played).
     * The game is left exactly as it was. BallError 'range' when the game
     * has no legal decision (it is over).
     */
    choose(game) {
      return Action.fromCode(u32(this.#run(game) + SEARCH_RESULT.best));
    }

    /**
     * Searches as choose() does and returns all it found: { best, value,
     * proven, decisionsToEnd, depth, nodes, elapsedMs, stopped, lines,
     * bestTurn, bestTurnText }. `value` is for the coach to act, in
     * [-1, 1] (+1 a proven win, -1 a proven loss, 0 about even, about
     * +-0.5 the worth of holding the ball; with depth 0, the only legal
     * decision answered without search, it is 0 and says nothing);
     * `lines` are the root decisions best first, each { action, value,
     * bound, proven, depth, nodes, pv, pvText }; `bestTurn` is the best
     * turn as far as the run knows it: up to the hand-over, or shorter
     * after a single legal decision, a budget spent before depth 1 or a
     * lost table entry (libball.d.mts says when).
     */
    analyse(game) {
      const r = this.#run(game);
      const s = this.#ptr;
      const out = {
        best: Action.fromCode(u32(r + SEARCH_RESULT.best)),
        value: f64(r + SEARCH_RESULT.value),
        proven: i32(r + SEARCH_RESULT.proven),
        decisionsToEnd: i32(r + SEARCH_RESULT.decisions_to_end),
        depth: i32(r + SEARCH_RESULT.depth),
        nodes: Number(u64(r + SEARCH_RESULT.nodes)),
        elapsedMs: f64(r + SEARCH_RESULT.elapsed_ms),
        stopped: i32(r + SEARCH_RESULT.stopped) !== 0,
        lines: [],
        bestTurn: [],
        bestTurnText: '',
      };
      const n = M._ball_search_lines(s, 0, 0);
      if (n < 0)
        throw fail(n);
      if (n > 0) {
        const buf = M._malloc(n * SEARCH_LINE.sizeof);
        if (!buf)
          throw new BallError(ErrorCode.NOMEM, 'out of memory');
        try {
          for (let i = 0; i < n; i++)
            M._ball_search_line_init(buf + i * SEARCH_LINE.sizeof, SEARCH_LINE.sizeof);
          const got = M._ball_search_lines(s, buf, n);
          if (got < 0)
            throw fail(got);
          for (let i = 0; i < Math.min(n, got); i++) {
            const l = buf + i * SEARCH_LINE.sizeof;
            const pv = actionsAt(l + SEARCH_LINE.pv, Math.min(i32(l + SEARCH_LINE.pv_len), constants.SEARCH_PV_MAX));
            out.lines.push(Object.freeze({
              action: Action.fromCode(u32(l + SEARCH_LINE.action)),
              value: f64(l + SEARCH_LINE.value),
              bound: i32(l + SEARCH_LINE.bound) !== 0,
              proven: i32(l + SEARCH_LINE.proven),
              depth: i32(l + SEARCH_LINE.depth),
              nodes: Number(u64(l + SEARCH_LINE.nodes)),
              pv: Object.freeze(pv),
              pvText: lineText(pv),
            }));
          }
        } finally {
          M._free(buf);
        }
      }
      const m = M._ball_search_best_turn(s, SCRATCH.actions, constants.SEARCH_PV_MAX);
      if (m < 0)
        throw fail(m);
      out.bestTurn = actionsAt(SCRATCH.actions, m);
      out.bestTurnText = lineText(out.bestTurn);
      Object.freeze(out.lines);
      Object.freeze(out.bestTurn);
      return Object.freeze(out);
    }

    /** What evaluates the leaves: the Net of `eval`, else 'network' (the
     *  library's own network, the default) or 'hand' (the hand-written
     *  evaluation: config.eval). A freed searcher no longer holds its
     *  Net: then config.eval. */
    get eval() { return this.#net ?? this.config.eval; }

    /** Forgets what earlier runs stored in the table: the next run
     *  searches as a new searcher would. Returns the searcher. */
    clear() {
      const rc = M._ball_search_clear(this.#s);
      if (rc < 0)
        throw fail(rc);
      return this;
    }

    /** Frees the table now; using the searcher afterwards throws. Twice
     *  is harmless. */
    free() {
      if (!this.#ptr)
        return;
      turnRegistry?.unregister(this);
      M._ball_search_free(this.#ptr);
      M._free(this.#mem);
      this.#ptr = 0;
      this.#mem = 0;
      this.#net = null;
      liveSearchers--;
    }

    get freed() { return this.#ptr === 0; }

    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.free(); }
  }

  const ADOPT = Symbol('adopt');

  // The choices of a selection: a plain copy of an array of at most
  // SELECT_STEPS elements, no holes; BallError 'arg' otherwise.
  function choicesArg(chosen, what) {
    const usage = `${what}: an array of at most ${constants.SELECT_STEPS} choices`;
    if (!isArray(chosen))
      throw new BallError(ErrorCode.ARG, `${usage}, not ${describe(chosen)}`);
    try {
      return readCaller(what, () => listArg(chosen, what, constants.SELECT_STEPS));
    } catch (e) {
      throw e instanceof BallError && e.code === ErrorCode.RANGE ? new BallError(ErrorCode.ARG, usage) : e;
    }
  }

  function verbOf(v) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 5)
      return v;
    let i = typeof v === 'string' ? VERB_TEXT.indexOf(v) : -1;
    if (i < 0 && typeof v === 'string')
      i = VERB_NAMES.indexOf(v);
    if (i <= 0)
      throw new BallError(ErrorCode.NOTATION, `not a verb: ${describe(v)} (- = ^ ^^ card)`);
    return i;
  }

  /**
   * An action being chosen step by step (R12): piece, verb, destination,
   * exit / push / lower square, keeper. Immutable: choose() returns a new
   * Selection, back() and cancel() shorter ones; the game never changes
   * until the whole `action` is applied.
   */
  class Selection {
    constructor(game, chosen = []) {
      gamePointer(game);
      this.game = game;
      this.chosen = Object.freeze(choicesArg(chosen, 'new Selection(game, chosen)'));
      const { choices, action } = selectIn(game, this.chosen);
      this.choices = Object.freeze(choices);
      this.action = action;
      Object.freeze(this);
    }

    /** The selection with one more choice; BallError 'illegal' if it leads nowhere. */
    choose(choice) { return new Selection(this.game, [...this.chosen, choice]); }
    /** Without the last choice. */
    back() { return new Selection(this.game, this.chosen.slice(0, -1)); }
    /** Empty again (the ESC key of R12). */
    cancel() { return new Selection(this.game, []); }
    /** How many choices are made. */
    get step() { return this.chosen.length; }
    get complete() { return this.action !== null; }
  }

  // --------------------------------------------------------- the API object

  const api = {
    version: str(M._ball_version_string()),
    versionNumber: M._ball_version_number(),
    START_BPN,
    constants,
    ErrorCode,
    BallError,
    Game,
    Action,
    Selection,
    MCTS,
    TurnSearch,
    Net,
    readRecords: (text) => readRecords(text),
    TAGS,
    SQUARES,
    EARN_ENTRIES: Object.freeze([...EARN_NAMES]),
    squareIndex,
    squareName,
    squareAt,
    squareCol,
    squareRow,
    distance,
    strerror,
    parseRules,
    compareActionTexts,
    xorshift64,
    /** Games created and not freed yet (by free() or by the collector). */
    get liveGames() { return live; },
    /** Searchers (MCTS and TurnSearch) created and not freed yet. */
    get liveSearchers() { return liveSearchers; },
    /** Networks (Net) created and not freed yet. */
    get liveNets() { return liveNets; },
    /** The wasm memory: `heapSize` bytes in all, `allocated` in use by malloc. */
    memory() {
      M._mallinfo(SCRATCH.mallinfo);
      return { heapSize: M.HEAPU8.length, allocated: u32(SCRATCH.mallinfo + 28) };
    },
    /** The emscripten module itself: every C function as `_ball_...`. */
    native: M,
  };
  // What the learning module (learn.mjs) needs of this instance, under a
  // registered symbol that no enumeration shows: the module, the game
  // handles and the ruleset reader. Not an API: it may change in any release.
  Object.defineProperty(api, INTERNALS, {
    value: Object.freeze({
      M, gamePointer, adoptGame, Action, rulesSpec, buildRules, readCaller, readOptions, listArg,
      intArg, textArg, describe, isArray, withString, str, fail, rulesPtr: SCRATCH.rules,
      rulesTurnsOffset: RULES.turn_limit,
    }),
  });
  return Object.freeze(api);
}

/** The key of bind()'s internals for learn.mjs (Symbol.for: one key for
 *  every copy of this module). */
const INTERNALS = Symbol.for('libball.internals');
