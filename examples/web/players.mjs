// The built-in players of the page, those of the terminal `play`
// (examples/common/players.c): a random one, and a greedy one that tries
// each legal decision (apply, score, undo) and keeps the first best.

export const PLAYERS = ['human', 'random', 'greedy'];

// Row of a square as seen by `team`: 17 is always the row it scores in.
function forwardRow(square, team) {
  const row = Number(square.slice(1));
  return team === 'ATK' ? row : 18 - row;
}

/** The score of the position for `team` (players.c, player_evaluate). */
export function evaluate(game, team) {
  const result = game.result;
  if (result === (team === 'ATK' ? 'atk_won' : 'def_won'))
    return 1000000;
  if (result === (team === 'ATK' ? 'def_won' : 'atk_won'))
    return -1000000;
  const ballSq = game.ballSquare;
  const carrier = game.piece(ballSq);
  const ballRow = forwardRow(ballSq, team);
  let score = 0;
  if (carrier && carrier.team === team)
    score += 1000 + 100 * ballRow;        // we hold it
  else if (carrier)
    score -= 1000 + 100 * (18 - ballRow); // they do
  else
    score += 50 * ballRow;                // loose ball
  for (const s of game.board()) {
    const p = s.upper;
    if (!p)
      continue;
    if (p.team !== team) {
      if (p.down)
        score += 20;                      // opponent down
    } else {
      if (p.down)
        score -= 20;
      score += forwardRow(s.square, team); // move up
    }
  }
  return score;
}

/** The decision of a built-in player ('random' or 'greedy'). */
export function choose(kind, game) {
  if (kind === 'random')
    return game.randomAction();
  const team = game.side;
  let best = null;
  let bestScore = 0;
  for (const action of game.legalActions()) {
    game.apply(action);
    const score = evaluate(game, team);
    game.undo();
    if (best === null || score > bestScore) {
      best = action;
      bestScore = score;
    }
  }
  return best;
}
