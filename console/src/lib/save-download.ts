// Hands a fetched file (lib/downloads.ts) to the browser as a download: DOM code, kept apart so
// the API clients' helpers stay usable in Node tests.
import type { Download } from './downloads';

/** Hands a file to the browser as a download under its own name. */
export function saveDownload({ blob, fileName }: Download): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
