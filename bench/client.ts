// What the bench's scenarios share: a JSON call that must succeed, response-time percentiles, and
// the choice of scenarios (BENCH_ONLY).

/**
 * `BENCH_ONLY=health,cart`: only the scenarios whose name holds one of these words (any case),
 * besides the bare hello every ratio needs; unset runs them all.
 */
const onlyWords = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((w) => w.trim().toLowerCase())
  .filter(Boolean);
export const selected = (name: string): boolean =>
  !onlyWords.length || name === 'bare Fastify hello' || onlyWords.some((w) => name.toLowerCase().includes(w));

/** Sends a JSON request and answers its parsed body; anything but 2xx stops the bench. */
export async function sendJson(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  // biome-ignore lint/suspicious/noExplicitAny: the bench reads a few known fields of the answers
): Promise<any> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** Response times in ms, as measured by autocannon for each response (its own histogram keeps whole ms). */
export class Latencies {
  private values = new Float64Array(1 << 16);
  private size = 0;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = ms;
  }

  /** Nearest-rank percentiles, e.g. [50, 99]. */
  percentiles(ps: number[]): number[] {
    const sorted = this.values.subarray(0, this.size).sort();
    return ps.map((p) =>
      this.size ? sorted[Math.min(this.size - 1, Math.ceil((p / 100) * this.size) - 1)]! : 0,
    );
  }
}
