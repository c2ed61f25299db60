// Start-up allocates far more than the server keeps: loading the bundle, building ~7,900 zod
// schemas and compiling ~900 routes' validators, opening the database. V8 grows its young
// generation to the largest it allows for that (two 64 MB semi-spaces on a machine with plenty of
// memory) and keeps every page it touched, and no garbage collection that would give them back
// runs while the server waits for its first request: an idle server on PostgreSQL + Redis stayed
// at ~265 MB resident, ~135 MB of it start-up's garbage and empty heap pages (bench/README.md,
// "Issue 33, round seven"). One collection that reduces the footprint, the kind V8's memory
// reducer runs for an idle page, gives them back once, before the server listens, so no request
// waits for it. Under load the young generation grows again as far as it needs.
import v8 from 'node:v8';
import vm from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/** Collects everything start-up left behind and returns the emptied pages to the system. */
export function releaseStartupMemory(): void {
  collector()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

// V8's `gc` function exists only under `--expose-gc`, which a server is not started with. The
// flag can be turned on for a moment: a context created meanwhile gets the function, and the flag
// is turned off again so no later context (or code of the shop's) sees it.
function collector(): Collect {
  const exposed = (globalThis as { gc?: Collect }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  try {
    return vm.runInNewContext('gc') as Collect;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
