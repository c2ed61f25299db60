// The dev outbox: where mail, SMS and push go when no provider is configured, one JSON file a
// message, so a developer (or a test) can read the codes and links that were sent.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { newUuid } from './ids';

export type OutboxLog = (fields: Record<string, unknown>, msg: string) => void;

export async function writeToOutbox(
  dataDir: string,
  kind: 'mail' | 'sms' | 'push',
  record: Record<string, unknown>,
  log: OutboxLog,
): Promise<void> {
  const dir = path.join(dataDir, 'outbox', kind);
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newUuid()}.json`);
  const text = `${JSON.stringify(record, null, 2)}\n`;
  // The folder is made when a write finds it missing, not before every message (a mkdir each
  // was a few per cent of a checkout's CPU with the outbox as the mailer).
  try {
    await writeFile(file, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    await writeFile(file, text);
  }
  log({ to: record.to, file }, `${kind} written to the outbox`);
}
