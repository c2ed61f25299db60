// How SMS and push adapters talk to their providers: one POST with a timeout, and the two ways
// it can fail. A provider that is down or slow is retried by the delivery job; a provider that
// answered "this cannot succeed" (bad number, no credit, bad token) is not.
import { PermanentJobError } from '../jobs/jobs';

/** The provider refused the message for good; `reason` is the provider's own words, never the text. */
export class ProviderRefusal extends PermanentJobError {
  override name = 'ProviderRefusal';
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(`${provider} refused the message: ${reason}`);
  }
}

/** The provider did not answer, or answered "try later": the delivery job retries. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
  constructor(
    readonly provider: string,
    readonly reason: string,
  ) {
    super(`${provider} is unavailable: ${reason}`);
  }
}

export interface ProviderAnswer {
  status: number;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
}

/**
 * POSTs to a provider and reads its answer. Network errors and timeouts become
 * `ProviderUnavailable`; the caller decides what the status and body mean.
 */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string | URLSearchParams },
  timeoutMs: number,
): Promise<ProviderAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : `request failed (${error instanceof Error ? error.message : String(error)})`;
    throw new ProviderUnavailable(provider, reason);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new ProviderUnavailable(provider, `the answer was cut off (HTTP ${response.status})`);
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

/** Form bodies in UTF-8, as both Nepali SMS providers take them (Devanagari included). */
const FORM_UTF8 = 'application/x-www-form-urlencoded; charset=utf-8';

/** POSTs `fields` as a UTF-8 form (the Nepali SMS providers, OAuth token endpoints). */
export const postForm = (provider: string, url: string, fields: Record<string, string>, timeoutMs: number) =>
  postToProvider(
    provider,
    url,
    { headers: { 'content-type': FORM_UTF8, accept: 'application/json' }, body: new URLSearchParams(fields) },
    timeoutMs,
  );

/** 429 and 5xx: the provider asks to be tried later. */
export const isRetryableStatus = (status: number) => status === 429 || status >= 500;
