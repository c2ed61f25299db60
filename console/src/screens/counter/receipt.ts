// Printing the counter's receipt: the API's 80 mm PDF, fetched with the session, loaded into an
// invisible frame and handed to the browser's print dialog (the till's thermal printer is
// chosen there once and remembered by the browser). Where a browser refuses to print a PDF
// from a frame, the PDF opens in a new tab, where its own print button is.
import type { PasalClient } from '@pasal/client';
import { fetchReceipt } from './counter-api';

const KEEP_FRAME_MS = 60_000;

export async function printReceipt(client: PasalClient, orderId: number, frameTitle: string): Promise<void> {
  const { blob } = await fetchReceipt(client, orderId);
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  const frame = document.createElement('iframe');
  frame.title = frameTitle;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  Object.assign(frame.style, {
    position: 'fixed',
    right: '0',
    bottom: '0',
    width: '0',
    height: '0',
    border: '0',
  });
  frame.onload = () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      window.open(url, '_blank', 'noopener');
    }
  };
  frame.src = url;
  document.body.appendChild(frame);
  setTimeout(() => {
    frame.remove();
    URL.revokeObjectURL(url);
  }, KEEP_FRAME_MS);
}

/** Hands a file (the CSV export) to the browser as a download. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
