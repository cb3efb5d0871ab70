// SPDX-License-Identifier: MIT
// The page's search worker (a module worker, started by search.mjs): its
// own instance of the engine, searching one request at a time, so that the
// page stays responsive while the turn search or MCTS thinks. Messages in:
// { type: 'search', id, epoch, side, kind, options, seed, start, moves,
// rules, evaluation } (evaluation: 'network', 'hand' or 'value.net', the
// network the worker fetches once, wasm/value.net: search.mjs) and
// { type: 'cancel', epoch } (skip the searches of older epochs
// not started yet); out: { type: 'ready' } once the engine is loaded,
// { type: 'result', id, action, stats, analysis }, { type: 'error', id,
// message, codeName }, and { type: 'fatal',
// message } when the engine does not load.
import { load } from './libball.mjs';
import { createSearchService } from './search.mjs';

const service = load().then((ball) => {
  self.postMessage({ type: 'ready' });
  return createSearchService(ball);
}, (e) => {
  self.postMessage({ type: 'fatal', message: `the engine did not load in the worker: ${e.message}` });
  return null;
});
let epoch = 0;

self.addEventListener('message', async ({ data }) => {
  if (data?.type === 'cancel') {
    epoch = Math.max(epoch, data.epoch);
    return;
  }
  if (data?.type !== 'search')
    return;
  const s = await service;
  if (!s || data.epoch < epoch)
    return;
  try {
    self.postMessage({ type: 'result', id: data.id, ...(await s.search(data)) });
  } catch (e) {
    self.postMessage({ type: 'error', id: data.id, message: e.message, codeName: e.codeName ?? 'unknown' });
  }
});
