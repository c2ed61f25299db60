// Packages that only some deployments use (Redis and BullMQ, the S3 SDK, SMTP) or that only a
// few requests need (image processing, PDF) are loaded on first use instead of at start-up: the
// embedded default then starts faster and smaller (a shop on a 1 GB VPS), and nothing changes for
// the deployments that use them. A CommonJS `require` keeps the factories synchronous.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** `() => the package`, loaded by the first call. Only for packages that ship CommonJS. */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= load(name) as T;
    return loaded;
  };
}
