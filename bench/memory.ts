// Memory and start-up figures of the Pasal server process: how long `node dist/main.js all` takes
// from spawn to its first healthy /health, and its resident memory (VmRSS) once idle, before the
// load and after it. A small shop runs this on a 1 GB VPS, so both are targets (bench/README.md).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Seconds the server is left alone before its idle memory is read. */
export const IDLE_SECONDS = 5;

export interface StartFigures {
  /** From spawning the process to the first 200 of GET /health. */
  startToHealthyMs: number;
  /** VmRSS right when /health first answered. */
  rssAtHealthyMb: number;
  /** VmRSS after IDLE_SECONDS of no requests. */
  idleRssMb: number;
}

export interface MemoryFigures {
  /** The server the bench measures, started on the already migrated and seeded database. */
  start: StartFigures;
  /** VmRSS after every scenario of the first server, then IDLE_SECONDS without requests. */
  idleRssAfterLoadMb?: number;
  /**
   * `node dist/main.js` with default settings on an empty DATA_DIR, as measured from outside (on
   * the embedded tier also a new shop's first `npm start`).
   */
  firstStart?: StartFigures;
}

/** Resident memory of a process in MB, from /proc (Linux); undefined elsewhere. */
export function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/**
 * Polls `url` every 10 ms from `spawnedAt` (a `performance.now()` taken right before the spawn)
 * until it answers 200, then reads the figures. `exited` is checked so a crash fails fast.
 */
export async function measureStart(
  name: string,
  pid: number | undefined,
  spawnedAt: number,
  url: string,
  exited: () => boolean,
  timeoutMs: number,
): Promise<StartFigures> {
  const deadline = spawnedAt + timeoutMs;
  while (performance.now() < deadline) {
    if (exited()) throw new Error(`${name} exited before answering ${url}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.ok) {
        const startToHealthyMs = Math.round(performance.now() - spawnedAt);
        const rssAtHealthyMb = rssMb(pid) ?? Number.NaN;
        await sleep(IDLE_SECONDS * 1000);
        return { startToHealthyMs, rssAtHealthyMb, idleRssMb: rssMb(pid) ?? Number.NaN };
      }
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  throw new Error(`${name} did not answer ${url} within ${timeoutMs / 1000} s`);
}

/** The idle memory after the load: a few quiet seconds first, as before it. */
export async function idleRssAfterLoad(pid: number | undefined): Promise<number | undefined> {
  await sleep(IDLE_SECONDS * 1000);
  return rssMb(pid);
}

const mb = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '–' : `${value} MB`);

export function formatMemory(figures: MemoryFigures): string {
  const lines = [
    `Start-up and memory of the server process (VmRSS, idle = ${IDLE_SECONDS} s without requests):`,
    `  start to healthy /health: ${(figures.start.startToHealthyMs / 1000).toFixed(2)} s` +
      ` (database already migrated and seeded)`,
    `  RSS at healthy: ${mb(figures.start.rssAtHealthyMb)}; idle before load: ${mb(figures.start.idleRssMb)};` +
      ` idle after load: ${mb(figures.idleRssAfterLoadMb)}`,
  ];
  if (figures.firstStart) {
    lines.push(
      `  node dist/main.js, default settings, fresh DATA_DIR (as measured from outside): healthy in ${(figures.firstStart.startToHealthyMs / 1000).toFixed(2)} s,` +
        ` RSS at healthy ${mb(figures.firstStart.rssAtHealthyMb)}, idle ${mb(figures.firstStart.idleRssMb)}`,
    );
  }
  return lines.join('\n');
}
