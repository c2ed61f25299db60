// The collection the server runs once start-up is done (src/main.ts): it must give back the
// young generation start-up grew (an ordinary collection leaves it at its largest, which is what
// kept an idle server ~120 MB above what it holds), and must not leave V8's `gc` to later code.
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect, it } from 'vitest';
import { releaseStartupMemory } from '../../src/platform/startup-memory';

const MB = 1024 * 1024;
const newSpace = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size;

/** What start-up does to the young generation: objects that live a while, then are dropped. */
function growYoungGeneration() {
  let kept: object[] = [];
  for (let round = 0; round < 40; round++) {
    kept.push(Array.from({ length: 20_000 }, (_, i) => ({ round, i, label: `schema ${round}.${i}` })));
    if (kept.length > 8) kept = kept.slice(-4);
  }
  return kept.length;
}

it('gives back the young generation that start-up grew', () => {
  growYoungGeneration();
  const grown = newSpace();
  expect(grown, 'the allocations above grow the young generation').toBeGreaterThan(8 * MB);
  releaseStartupMemory();
  expect(newSpace()).toBeLessThan(grown / 2);
});

it('leaves no gc function behind', () => {
  releaseStartupMemory();
  expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
});
