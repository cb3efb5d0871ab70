// Compiled (not run) by `tsc -p tests/web` in make check-web: the type
// declarations of the learning interface (bindings/js/learn.d.mts) describe
// it the way bindings/js/test/learn.test.mjs uses it; and the record API in
// Python's shape (test/record.test.mjs).
import load from '../../bindings/js/libball.mjs';
import bindLearn, { ACTION_SPACE, ObsFlag, Terminal, splitmix64 } from '../../bindings/js/learn.mjs';
import type { Batch, Learn, Returns } from '../../bindings/js/learn.mjs';

async function main(): Promise<void> {
  const ball = await load();
  const learn: Learn = bindLearn(ball);
  const game = new ball.Game();
  const mask: Uint8Array = learn.legalMask(game, { bits: true });
  const again: Uint8Array = learn.legalMask(game, { out: new Uint8Array(ACTION_SPACE) });
  const obs: Float32Array = learn.observation(game, { flags: ObsFlag.GRID | ObsFlag.SCALAR_PLANES });
  const bits: Uint8Array = learn.observationBits(game);
  const mirrored: Float32Array = learn.observationMirror(obs, { flags: 3, out: obs });
  const unpacked: Uint8Array = learn.unpackBits(learn.observationBitsMirror(bits), learn.observationSize());
  const index: number = learn.actionToIndex(game, 'E11-F10');
  const action = learn.actionFromIndex(game, learn.indexMirror(index));
  const indices: number[] = learn.legalIndices(game);
  const policy: Float32Array = learn.policyMirror(new Float32Array(ACTION_SPACE));
  const perm: Int32Array = learn.mirrorPermutation();
  const r: Returns = learn.returns(game);
  const [state, out] = splitmix64(1n);
  const batch: Batch = new learn.Batch(8, { outputs: ['obsBits', 'done'], seed: 1n, turnLimit: 40 });
  const ended: number = batch.step(new Int32Array(0).length ? null : undefined);
  const done: Uint8Array | null = batch.done;
  batch.step(indices.slice(0, 0).length ? indices : null);
  const child = batch.game(0);
  const bpn: string = batch.position(0);
  batch.unbind('done').bind('side');
  batch.free();
  console.log(mask.length, again.length, mirrored.length, unpacked.length, action.text, perm.length,
    policy.length, r.terminal === 'touchdown', r.values[0], state + out, ended, done?.[0], bpn,
    Terminal.TOUCHDOWN, batch.freed, learn.liveBatches, child.bpn);
  child.free();
  game.free();
}

void main();

// Records in Python's shape (bindings/js/libball.d.mts).
async function records(): Promise<void> {
  const ball = await load();
  const game = new ball.Game();
  const tags: { Event: string; ATK: string } = game.tags;
  const old: string = game.tags.event;
  const text: string = game.recordWith({ Event: 'Final', atk: 'Ann', Site: null });
  const names: readonly string[] = ball.TAGS;
  console.log(tags.Event, old, text, names.length);
  game.free();
}

void records();
