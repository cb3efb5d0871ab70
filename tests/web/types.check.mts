// Compiled (not run) by `tsc -p tests/web` in make check-web: the type
// declarations of the binding (bindings/js/libball.d.mts) describe the API
// the way the node tests use it.
import load, { BallError, ErrorCode, START_BPN, compareActionTexts, xorshift64 } from '../../bindings/js/libball.mjs';
import type { Action, Ball, Game, MCTS, MCTSStats, Net, Piece, SelectResult, Task, TurnSearch,
  TurnSearchEvaluation, TurnSearchLine, TurnSearchResult } from '../../bindings/js/libball.mjs';

async function main(): Promise<void> {
  const ball: Ball = await load();
  const game: Game = new ball.Game({ rules: { endZoneDepth: 2, turnLimit: 60 } });
  const other = new ball.Game('7/6/7/6/7/6/7/6/3X*3/6/7/6/7/6/7/6/7 ATK a 2 - 0/0 2');
  const cards = ball.Game.fromBpn(START_BPN, 'earn.move=1 atk=Sprint:2:pa+1');
  const side: 'ATK' | 'DEF' = game.side;
  const count: bigint = game.perft(3);
  const hash: bigint = game.hash;
  const actions: Action[] = game.legalActions({ sorted: true });
  const first: Action = game.apply(actions[0]);
  game.apply('end');
  game.undo();
  const text: string = first.text + first.kind + (first.from ?? '') + String(first.value ?? '');
  const piece: Piece | null = game.piece('G5', 'lower');
  const tasks: Task[] = game.releaseTasks();
  const sel: SelectResult = game.select(['G11', '-']);
  const next = game.selection().choose('G11').choose('-');
  const random: Action = game.randomAction(xorshift64(7n)());
  const sorted = ['G9-G11', 'end'].sort(compareActionTexts);
  const hands = cards.hands.ATK.map((c) => `${c.number}:${c.name}:${c.held}`);
  try {
    game.bpn = 'bad';
  } catch (e) {
    if (e instanceof BallError && e.code === ErrorCode.BPN)
      console.log(e.codeName, e.message);
  }
  const mcts: MCTS = new ball.MCTS({ playouts: 200, seed: 7n, playoutTurns: 2, exploration: 0.7 });
  const chosen: Action = mcts.seed(3).choose(game);
  const stats: MCTSStats | null = mcts.stats;
  const seed: bigint = mcts.config.seed;
  mcts.free();
  const search: TurnSearch = new ball.TurnSearch({ nodes: 2000n, depth: 3, seed: 2, multipv: 2, hashMb: 2 });
  const analysis: TurnSearchResult = search.clear().analyse(game);
  const line: TurnSearchLine | undefined = analysis.lines[0];
  const best: Action = search.choose(game);
  console.log(analysis.value, analysis.bestTurnText, line?.pvText, line?.pv.length, best.text,
    search.config.nodes + search.config.hashMb, search.freed);
  search.free();
  const net: Net = new ball.Net(new Uint8Array(0));
  const bytes: Net = new ball.Net(new ArrayBuffer(8));
  const value: number = net.evaluate(game);
  const learned: TurnSearch = new ball.TurnSearch({ nodes: 2000, eval: net });
  const used: Net | TurnSearchEvaluation = learned.eval;
  const hand = new ball.TurnSearch({ nodes: 2000, eval: 'hand' });
  const chose: TurnSearchEvaluation = hand.config.eval;
  // @ts-expect-error: the evaluations are named 'network' and 'hand'
  new ball.TurnSearch({ eval: 'Hand' });
  console.log(value, typeof used === 'string' ? used : used.size, net.users, bytes.freed, ball.liveNets,
    new ball.TurnSearch({ eval: null }).eval, new ball.TurnSearch({ eval: 'network' }).eval, chose);
  hand.free();
  learned.free();
  net.free();
  game.setTag('event', 'type check');
  const record: string = game.record;
  const replayed: Game[] = ball.readRecords(record);
  const again: Game = ball.Game.fromRecord(record);
  const decisions: Action[] = again.history();
  console.log(chosen.text, stats?.playouts, seed, replayed.length, decisions.length, again.tags.event,
    again.historyPosition(0), ball.liveSearchers, ErrorCode.RECORD);
  for (const g of [...replayed, again])
    g.free();
  console.log(side, count + hash, text, piece?.team, tasks.length, sel.choices, next.complete, random.code,
    sorted, hands, ball.memory().allocated, ball.liveGames, ball.squareIndex('G9'), game.rules.text);
  for (const g of [game, other, cards])
    g.free();
}

void main();
