// SPDX-License-Identifier: MIT
// Type declarations of libball.mjs, the JavaScript binding of libball
// (docs/web.md). Checked by `tsc --strict` in make check-web
// (tests/web/types.check.mts). The raw declarations (the numbers of ball.h,
// the module's `_ball_...` functions) are generated: _api.d.mts.

import type { BallExports, CONSTANTS } from './_api.mjs';

export type Team = 'ATK' | 'DEF';
export type Phase = 'action' | 'release';
export type Result = 'ongoing' | 'atk_won' | 'def_won' | 'draw';
export type PieceType = 'X' | 'O' | 'S';
export type ActionKind = 'move' | 'dodge' | 'tactical_dodge' | 'block' | 'protect' | 'handoff' |
  'short_pass' | 'long_pass' | 'end' | 'stand_up' | 'unblock' | 'unprotect' | 'convert_pa' |
  'play_card';
export type Keeper = 'none' | 'upper' | 'lower';
/** The verbs of a selection's step 2, by their N2 separator. */
export type Verb = '-' | '=' | '^' | '^^' | 'card';
export type VerbName = 'move' | 'handoff' | 'short_pass' | 'long_pass' | 'card';
/** A square by name ("G5") or index (0-110). */
export type SquareLike = string | number;
export type ErrorCodeName = 'arg' | 'nomem' | 'bpn' | 'notation' | 'illegal' | 'buffer' | 'range' |
  'no_history' | 'rules' | 'limit' | 'record' | 'unknown';
/** The tags of a record by their names in it (Ball.TAGS). */
export interface RecordTags { Event: string; Site: string; Date: string; ATK: string; DEF: string }
/** A record tag's name (enum ball_tag), in any case, or its index 0-4. */
export type TagName = 'event' | 'site' | 'date' | 'atk' | 'def' | string | number;

export declare const ErrorCode: Readonly<{
  OK: 0; ARG: -1; NOMEM: -2; BPN: -3; NOTATION: -4; ILLEGAL: -5; BUFFER: -6; RANGE: -7;
  NO_HISTORY: -8; RULES: -9; LIMIT: -10; RECORD: -11;
}>;

/** What every failing call throws. */
/**
 * What every failing call throws; also for arguments of the wrong type
 * ('arg'), integers outside the C type ('range'), texts with a NUL or a
 * lone surrogate (the code of what the text is), and for an exception
 * thrown by the caller's own getters, proxies or iterators while an
 * argument is read ('arg', with that exception as `cause`).
 */
export declare class BallError extends Error {
  constructor(code: number, message: string, options?: { cause?: unknown });
  readonly name: 'BallError';
  /** The library's negative ball_error code. */
  readonly code: number;
  readonly codeName: ErrorCodeName;
}

/** The numbers of ball.h (BALL_ prefix dropped) and the standard start's BPN. */
export declare const constants: Readonly<Record<string, number> & typeof CONSTANTS & { START_BPN: string }>;
export declare const START_BPN: string;

/** xorshift64 random numbers in [0, 2^64) from a non-zero seed. */
export declare function xorshift64(seed?: bigint | number): () => bigint;
/** The order of the `ball` tool's action lists, as an Array#sort comparator. */
export declare function compareActionTexts(a: string | Action, b: string | Action): number;

export interface LoadOptions {
  /** The module factory (the default export of wasm/ball.mjs). */
  factory?: (moduleArg?: object) => Promise<EmscriptenModule>;
  /** Where wasm/ball.mjs is, when it is not next to libball.mjs. */
  url?: string | URL;
  /** Passed to the factory. */
  moduleArg?: object;
}

/** The emscripten module: every C function as `_ball_...` (BallExports,
 *  generated from ball.h), the heap views. */
export interface EmscriptenModule extends BallExports {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  [name: string]: unknown;
}

/** Loads the WebAssembly module; each call is a separate instance. */
export declare function load(options?: LoadOptions): Promise<Ball>;
export default load;
/** The API over an instantiated module. */
export declare function bind(module: EmscriptenModule): Ball;

export interface Card {
  readonly index: number;
  readonly name: string;
  readonly cost: number;
  /** 'pa+N' or 'again'. */
  readonly effect: string;
  readonly amount: number;
}

export interface HandCard extends Card {
  /** index + 1, as in `cardN`. */
  readonly number: number;
  /** Not played yet. */
  readonly held: boolean;
}

export interface CardRules {
  readonly earn: Readonly<Record<string, number>>;
  readonly atk: readonly Card[];
  readonly def: readonly Card[];
}

export interface Rules {
  readonly endZoneDepth: number;
  readonly turnLimit: number;
  readonly cards: CardRules | null;
  /** The rules text (ball_rules_to_text). */
  readonly text: string;
}

export interface CardSpec {
  name: string;
  cost: number;
  /** 'pa+N' (N 1-9) or 'again'. */
  effect: string;
}

export interface RulesSpec {
  endZoneDepth?: number;
  turnLimit?: number;
  cards?: {
    earn?: Partial<Record<string, number>>;
    atk?: CardSpec[];
    def?: CardSpec[];
  } | null;
}

export interface GameOptions extends RulesSpec {
  /** A position (N1); default the standard start. */
  bpn?: string | null;
  /** A rules text ('zone=2 turns=60 atk=Sprint:2:pa+1') or object. */
  rules?: string | RulesSpec | null;
}

export interface Piece {
  readonly code: number;
  readonly team: Team;
  readonly type: PieceType;
  readonly down: boolean;
  readonly restricted: boolean;
  readonly hasBall: boolean;
  readonly stacked: boolean;
  readonly active: boolean;
  /** BPN letter and marks: 'X*', 'o_', 'S*!'. */
  readonly text: string;
}

export interface SquareContents {
  readonly square: string;
  readonly index: number;
  readonly upper: Piece | null;
  readonly lower: Piece | null;
  readonly looseBall: boolean;
  readonly fresh: boolean;
  readonly stack: boolean;
  readonly open: boolean;
  readonly vacant: boolean;
  readonly hasBall: boolean;
  /** As `ball show` writes it: '.', '@', 'X*', '[Xo]+'. */
  readonly text: string;
}

export interface Task {
  readonly square: string;
  readonly kind: 'stand_up' | 'release';
  readonly solvable: boolean;
}

export type ActionLike = Action | string | number;
export type Choice = string | number;

export interface SelectResult {
  /** Square names; verbs at step 2; hand indices after 'card'. */
  choices: Choice[];
  action: Action | null;
}

export declare class Action {
  private constructor();
  /** The library's 32-bit code. */
  readonly code: number;
  /** The N2 text. */
  readonly text: string;
  static fromCode(code: number | Action): Action;
  readonly kind: ActionKind;
  readonly from: string | null;
  readonly to: string | null;
  readonly option: string | null;
  readonly keeper: Keeper;
  readonly flags: number;
  readonly pickup: boolean;
  readonly forcedFumble: boolean;
  readonly fumble: boolean;
  readonly cost: number;
  readonly value: number | null;
  equals(other: ActionLike): boolean;
  toString(): string;
  toJSON(): string;
}

export declare class Selection {
  private constructor();
  readonly game: Game;
  readonly chosen: readonly Choice[];
  readonly choices: readonly Choice[];
  readonly action: Action | null;
  readonly step: number;
  readonly complete: boolean;
  choose(choice: Choice): Selection;
  back(): Selection;
  cancel(): Selection;
}

export declare class Game {
  constructor(options?: string | GameOptions);
  static fromBpn(bpn: string, rules?: string | RulesSpec | null): Game;
  free(): void;
  readonly freed: boolean;
  clone(): Game;
  readonly rules: Rules;
  bpn: string;
  readonly side: Team;
  readonly phase: Phase;
  readonly pa: number;
  readonly handoffLast: boolean;
  readonly turn: number;
  readonly result: Result;
  readonly isOver: boolean;
  readonly winner: Team | null;
  readonly ballSquare: string;
  readonly restrictedSquare: string | null;
  readonly pe: { ATK: number; DEF: number };
  readonly hands: { ATK: HandCard[]; DEF: HandCard[] };
  piece(square: SquareLike, level?: 'upper' | 'lower' | 0 | 1): Piece | null;
  square(square: SquareLike): SquareContents;
  board(): SquareContents[];
  diagram(): string;
  toString(): string;
  legalActions(options?: { sorted?: boolean } | null): Action[];
  countLegalActions(): number;
  legalAction(index: number): Action;
  randomAction(random?: bigint): Action;
  /** legalActions()[index] played without apply()'s check (ball_apply_index(), experimental). */
  applyIndex(index: number): void;
  /** randomAction(random) played without apply()'s check (ball_random_apply(), experimental). */
  randomApply(random?: bigint): Action;
  /** Random decisions from a splitmix64 seed until the game ends or maxDecisions
   *  (ball_random_playout(), experimental); returns how many were played.
   *  Without a turn limit a random game need not end: bound maxDecisions. */
  randomPlayout(seed?: bigint, maxDecisions?: number): number;
  parseAction(text: string): Action;
  isLegal(action: ActionLike): boolean;
  apply(action: ActionLike): Action;
  undo(): void;
  readonly historyLength: number;
  reserveHistory(n: number): void;
  perft(depth: number): bigint;
  readonly hash: bigint;
  releaseTasks(): Task[];
  taskSolutions(square: SquareLike): Action[];
  select(chosen?: readonly (Choice | Verb | VerbName)[]): SelectResult;
  selection(): Selection;
  /** Decision i (from 0, the oldest) of the history. */
  historyAction(i: number): Action;
  /** The BPN decision i was played from (historyLength: the current position). */
  historyPosition(i: number): string;
  /** The decisions of the history, oldest first. */
  history(): Action[];
  tag(name: TagName): string;
  /** '' or null clears the tag. */
  setTag(name: TagName, value: string | null): void;
  /** The tags by their names in the record, as Python's Game.tags. The
   *  lower-case names (`tags.event`) still read but are not enumerated
   *  (deprecated). */
  readonly tags: RecordTags & { readonly event: string; readonly site: string; readonly date: string;
    readonly atk: string; readonly def: string };
  /** The game record (docs/records.md), written when read: a property
   *  holding a string, the shape Python's `game.record` has too
   *  (docs/bindings.md, "One shape for record"). Tags for one record only:
   *  setTag() before, and back after. */
  readonly record: string;
  /** The record with these tags for this record only (names in any case;
   *  '' or null leaves one out), as Python's game.record(event=...). */
  recordWith(tags: Partial<Record<string, string | null>>): string;
  /** The SVG picture of the position (ball_position_to_svg): the one of
   *  `ball svg`, Python's `_repr_svg_` and the docs' diagrams. */
  svg(options?: SvgOptions): string;
  /** The text diagram of the position (ball_position_to_board_text). */
  boardText(options?: BoardTextOptions): string;
  /** The game of a text holding one record (two or more: BallError 'record'). */
  static fromRecord(text: string): Game;
}

/** The options of Game.svg(). */
export interface SvgOptions {
  /** Squares outlined (names or indices). */
  highlight?: SquareLike[] | null;
  /** An action (Action, text or code) drawn as an arrow. */
  arrow?: Action | string | number | null;
  /** false: no column letters and row numbers (BALL_DRAW_NO_COORDS). */
  coords?: boolean;
}

/** The options of Game.boardText(). */
export interface BoardTextOptions {
  /** Squares marked ">" (names or indices). */
  highlight?: SquareLike[] | null;
  /** true: the two lines of the legend of the letters (BALL_DRAW_LEGEND). */
  legend?: boolean;
}

/** The settings of a searcher (ball_mcts_config); all optional. */
export interface MCTSOptions {
  /** Playouts per decision, 0 for no limit; default 1000 (0 when only timeMs is given). */
  playouts?: number;
  /** Wall-clock milliseconds per decision, 0 for no limit; default 0. */
  timeMs?: number;
  /** The random generator's seed; default 1. */
  seed?: bigint | number;
  /** Playout length in hand-overs, 0 to the end of the game; default 1. */
  playoutTurns?: number;
  /** The UCB1 constant, 0-100; default 0.3. */
  exploration?: number;
  /** The node pool's size, 0 (default) sized from the budget. */
  maxNodes?: number;
}

/** The settings a searcher was created with, defaults filled in. */
export interface MCTSConfig {
  readonly playouts: number;
  readonly timeMs: number;
  readonly seed: bigint;
  readonly playoutTurns: number;
  readonly exploration: number;
  readonly maxNodes: number;
}

/** What a search did (ball_mcts_stats). */
export interface MCTSStats {
  readonly playouts: number;
  readonly nodes: number;
  readonly maxDepth: number;
  /** Visits of the chosen decision. */
  readonly visits: number;
  /** Mean reward of the chosen decision for the coach to act, 0-1. */
  readonly value: number;
  readonly elapsedMs: number;
}

/** The library's Monte-Carlo tree search player. */
export declare class MCTS {
  constructor(options?: MCTSOptions);
  readonly config: MCTSConfig;
  /** The decision for the coach to act (not played); the game is unchanged. */
  choose(game: Game): Action;
  /** What the last choose() did; null before. */
  readonly stats: MCTSStats | null;
  seed(seed: bigint | number): this;
  free(): void;
  readonly freed: boolean;
}

/** The evaluations a turn searcher is made with (ball_search_config::eval):
 *  'network', the learned network the library carries (the default), or
 *  'hand', the hand-written evaluation alone (1.0's). */
export type TurnSearchEvaluation = 'network' | 'hand';

/** The settings of a turn searcher (ball_search_config); all optional. */
export interface TurnSearchOptions {
  /** Nodes (decisions played) per run, 0 for no limit, at most 10^12;
   *  default 200000 (0 when timeMs or depth is given without nodes). */
  nodes?: number | bigint;
  /** Wall-clock milliseconds per run, 0 for no limit; default 0. */
  timeMs?: number;
  /** Deepest search in turns, 0 for no limit (64); default 0. */
  depth?: number;
  /** Search threads: 1 (the default) is the only value the WebAssembly
   *  build accepts; 2-64 throw BallError 'arg'. */
  threads?: number;
  /** Breaks ties between equal evaluations; default 1. */
  seed?: bigint | number;
  /** Root decisions whose value is searched exactly, 1-256; default 1. */
  multipv?: number;
  /** Size of the transposition table in MiB, 1-65536; default 16. */
  hashMb?: number;
  /** How the leaves are evaluated: 'network' (the default; also null)
   *  or 'hand' (ball_search_config::eval), or a Net whose value replaces
   *  the evaluation (experimental: ball_search_set_eval() with
   *  ball_net_search_eval; the searcher keeps it alive and Net.free()
   *  throws until it is freed). Anything else throws BallError 'arg'. */
  eval?: TurnSearchEvaluation | Net | null;
}

/** The settings a turn searcher was created with, defaults filled in. */
export interface TurnSearchConfig {
  readonly nodes: number;
  readonly timeMs: number;
  readonly depth: number;
  readonly threads: number;
  readonly seed: bigint;
  readonly multipv: number;
  readonly hashMb: number;
  /** The evaluation of the config (a Net given as `eval` replaces it:
   *  TurnSearch.eval). */
  readonly eval: TurnSearchEvaluation;
}

/** One root decision after a run (ball_search_line). */
export interface TurnSearchLine {
  readonly action: Action;
  /** Its value for the coach to act at the root, in [-1, 1]. */
  readonly value: number;
  /** false: `value` is exact at `depth`; true: an upper bound. */
  readonly bound: boolean;
  /** +1 proven win, -1 proven loss, 0 not proven. */
  readonly proven: number;
  /** The depth in turns of the search that gave `value`. */
  readonly depth: number;
  readonly nodes: number;
  /** The principal variation: `action`, the rest of its turn and the reply turn. */
  readonly pv: readonly Action[];
  /** The same as N2 texts separated by spaces. */
  readonly pvText: string;
}

/** What TurnSearch.analyse() found (ball_search_result, lines, best turn). */
export interface TurnSearchResult {
  /** The decision to play. */
  readonly best: Action;
  /** Its value for the coach to act, in [-1, 1]: +1 a proven win, -1 a
   *  proven loss, 0 about even, about +-0.5 the worth of holding the ball. */
  readonly value: number;
  /** +1 proven win, -1 proven loss, 0 not proven. */
  readonly proven: number;
  /** For a proven value: decisions (both coaches') to the touchdown; else 0. */
  readonly decisionsToEnd: number;
  /** The deepest search completed, in turns; 0 when the position has one
   *  legal decision, answered without search (`value` is then 0). */
  readonly depth: number;
  readonly nodes: number;
  readonly elapsedMs: number;
  /** The run was stopped before its budget (ball_search_stop()). */
  readonly stopped: boolean;
  /** The root decisions searched, best first (the first `multipv` exact). */
  readonly lines: readonly TurnSearchLine[];
  /** The best turn as far as the run knows it: `best` and the rest of its
   *  turn, up to the hand-over (or the touchdown). It ends earlier (the
   *  coach to act still to act after its last decision) when the position
   *  had a single legal decision (answered without a search, `depth` 0:
   *  that decision alone on a new or cleared searcher), when the budget or
   *  a stop ended the run before depth 1 (`depth` 0: the decisions searched
   *  so far, often `best` alone), or, rarely, when the searcher's table
   *  lost an entry of the turn (ball_search_best_turn()). Check
   *  `game.side` after playing it. */
  readonly bestTurn: readonly Action[];
  readonly bestTurnText: string;
}

/** The library's turn search (alpha-beta by whole turns). */
export declare class TurnSearch {
  constructor(options?: TurnSearchOptions);
  readonly config: TurnSearchConfig;
  /** The decision for the coach to act (not played); the game is unchanged. */
  choose(game: Game): Action;
  /** The search's value, lines and best turn; the game is unchanged. */
  analyse(game: Game): TurnSearchResult;
  /** What evaluates the leaves: the Net of `eval`, else config.eval
   *  ('network' or 'hand'); config.eval again once the searcher is freed. */
  readonly eval: TurnSearchEvaluation | Net;
  /** Forgets the table: the next run searches as a new searcher would. */
  clear(): this;
  free(): void;
  readonly freed: boolean;
}

/** A learned evaluation (experimental: ball_net_*): a network file of
 *  docs/network-format.md. A file the library refuses throws BallError
 *  'arg' with its message. */
export declare class Net {
  /** The bytes of a whole network file (copied into wasm memory). */
  constructor(data: ArrayBuffer | ArrayBufferView);
  /** The value of the position for the coach to act, in [-1, 1]. */
  evaluate(game: Game): number;
  /** The size in bytes of the file loaded. */
  readonly size: number;
  /** The TurnSearches made with this net that are not freed. */
  readonly users: number;
  /** Frees the weights; throws BallError 'arg' while `users` > 0. */
  free(): void;
  readonly freed: boolean;
}

export interface Ball {
  readonly version: string;
  readonly versionNumber: number;
  readonly START_BPN: string;
  readonly constants: typeof constants;
  readonly ErrorCode: typeof ErrorCode;
  readonly BallError: typeof BallError;
  readonly Game: typeof Game;
  readonly Action: typeof Action;
  readonly Selection: typeof Selection;
  readonly MCTS: typeof MCTS;
  readonly TurnSearch: typeof TurnSearch;
  readonly Net: typeof Net;
  /** The games of the records in a text, each with its decisions in its history. */
  readRecords(text: string): Game[];
  /** The record tags by their names in a record: Event, Site, Date, ATK, DEF. */
  readonly TAGS: readonly ['Event', 'Site', 'Date', 'ATK', 'DEF'];
  /** The 111 square names in index order. */
  readonly SQUARES: readonly string[];
  /** The earning-table entries in ball_earn order. */
  readonly EARN_ENTRIES: readonly string[];
  squareIndex(square: SquareLike): number;
  squareName(square: SquareLike): string;
  squareAt(col: number, row: number): string;
  squareCol(square: SquareLike): number;
  squareRow(square: SquareLike): number;
  distance(a: SquareLike, b: SquareLike): number;
  strerror(code: number): string;
  parseRules(rules: string | RulesSpec | null): Rules;
  compareActionTexts(a: string | Action, b: string | Action): number;
  xorshift64(seed?: bigint | number): () => bigint;
  readonly liveGames: number;
  /** Searchers (MCTS and TurnSearch) not freed yet. */
  readonly liveSearchers: number;
  /** Networks (Net) not freed yet. */
  readonly liveNets: number;
  memory(): { heapSize: number; allocated: number };
  readonly native: EmscriptenModule;
}
