// The mail and SMS ports: the dev outbox (what a developer reads codes and links from), the
// memory sinks the API tests read, and SMTP delivery to a real SMTP server on a local port.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createMemoryMailer,
  createOutboxMailer,
  createSmtpMailer,
  type MailMessage,
} from '../../src/platform/mail/mailer';
import type { OutboxLog } from '../../src/platform/outbox';
import { createMemorySms, createOutboxSms } from '../../src/platform/sms/sms';

const FROM = 'Pasal <no-reply@pasal.test>';

interface LogLine {
  fields: Record<string, unknown>;
  msg: string;
}
function logRecorder(): { log: OutboxLog; lines: LogLine[] } {
  const lines: LogLine[] = [];
  return { lines, log: (fields, msg) => lines.push({ fields, msg }) };
}

const outboxFiles = (dataDir: string, kind: 'mail' | 'sms') => {
  const dir = path.join(dataDir, 'outbox', kind);
  return readdirSync(dir)
    .sort()
    .map((name) => path.join(dir, name));
};
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

describe('outbox mailer and SMS', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-outbox-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes one JSON file a message under DATA_DIR/outbox/mail, and logs where', async () => {
    const { log, lines } = logRecorder();
    const mailer = createOutboxMailer({ dataDir, from: FROM, log });
    expect(mailer.driver).toBe('outbox');

    const message: MailMessage = {
      to: 'buyer@example.com',
      subject: 'Your sign-in code',
      text: 'Your code is 482913.',
      html: '<p>Your code is <b>482913</b>.</p>',
    };
    await mailer.send(message);

    const files = outboxFiles(dataDir, 'mail');
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.json$/);
    expect(readJson(files[0]!)).toEqual({ from: FROM, ...message });
    expect(lines).toEqual([
      { fields: { to: 'buyer@example.com', file: files[0] }, msg: 'mail written to the outbox' },
    ]);
    await mailer.close();
  });

  it('makes the outbox folder again when it was removed while the server runs', async () => {
    const { log } = logRecorder();
    const mailer = createOutboxMailer({ dataDir, from: FROM, log });
    await mailer.send({ to: 'a@example.com', subject: 'First', text: 'one' });
    rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true });
    await mailer.send({ to: 'b@example.com', subject: 'Second', text: 'two' });
    const files = outboxFiles(dataDir, 'mail');
    expect(files.map((file) => (readJson(file) as { to: string }).to)).toEqual(['b@example.com']);
  });

  it('keeps every message, even ones sent at the same moment, in a file of its own', async () => {
    const { log, lines } = logRecorder();
    const mailer = createOutboxMailer({ dataDir, from: FROM, log });
    const recipients = ['a', 'b', 'c', 'd', 'e'].map((n) => `${n}@example.com`);
    await Promise.all(recipients.map((to) => mailer.send({ to, subject: `For ${to}`, text: 'hello' })));

    const files = outboxFiles(dataDir, 'mail');
    expect(files).toHaveLength(5);
    const written = files.map((file) => readJson(file) as Record<string, unknown>);
    expect(written.map((m) => m.to).sort()).toEqual(recipients);
    // A message without html has no html in its file.
    expect(written.every((m) => !('html' in m) && m.from === FROM && m.text === 'hello')).toBe(true);
    expect(lines).toHaveLength(5);
  });

  it('writes SMS to DATA_DIR/outbox/sms, apart from mail', async () => {
    const { log, lines } = logRecorder();
    const sms = createOutboxSms({ dataDir, log });
    expect(sms.driver).toBe('outbox');

    await sms.send({ to: '+9779812345678', text: 'Pasal code: 482913' });

    const files = outboxFiles(dataDir, 'sms');
    expect(files).toHaveLength(1);
    expect(readJson(files[0]!)).toEqual({ to: '+9779812345678', text: 'Pasal code: 482913' });
    expect(lines).toEqual([
      { fields: { to: '+9779812345678', file: files[0] }, msg: 'sms written to the outbox' },
    ]);
    expect(() => outboxFiles(dataDir, 'mail')).toThrow(/ENOENT/);
  });

  it('fails the send, and logs nothing, when the outbox cannot be written', async () => {
    const { log, lines } = logRecorder();
    // A data dir that is a regular file: no outbox can be made below it, and the caller
    // (a job, which then retries) must hear of it instead of the code being lost.
    const file = path.join(dataDir, 'not-a-directory');
    writeFileSync(file, '');
    const mailer = createOutboxMailer({ dataDir: file, from: FROM, log });
    await expect(mailer.send({ to: 'y@example.com', subject: 's', text: 't' })).rejects.toThrow(/ENOTDIR/);
    expect(lines).toEqual([]);
  });
});

describe('memory mailer and SMS', () => {
  it('keep what was sent, in order', async () => {
    const mailer = createMemoryMailer();
    const sms = createMemorySms();
    expect(mailer.driver).toBe('memory');
    expect(sms.driver).toBe('memory');

    await mailer.send({ to: 'a@example.com', subject: 'First', text: 'one' });
    await mailer.send({ to: 'b@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    await sms.send({ to: '+9779800000001', text: 'code 1' });

    expect(mailer.sent).toEqual([
      { to: 'a@example.com', subject: 'First', text: 'one' },
      { to: 'b@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' },
    ]);
    expect(sms.sent).toEqual([{ to: '+9779800000001', text: 'code 1' }]);
    await mailer.close();
  });
});

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

describe('SMTP mailer', () => {
  let server: SMTPServer;
  let url: string;
  const received: Received[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        // Like a real server refusing an unknown mailbox.
        if (address.address.startsWith('nobody@')) callback(new Error('550 no such mailbox'));
        else callback();
      },
      onData(stream, session: SMTPServerSession, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received.length = 0;
  });

  it('delivers a message with its sender, recipient, subject, text and html', async () => {
    const mailer = createSmtpMailer({ url, from: FROM });
    expect(mailer.driver).toBe('smtp');
    try {
      await mailer.send({
        to: 'buyer@example.com',
        subject: 'Your order PSL-1042 is confirmed',
        text: 'Thank you for your order PSL-1042.',
        html: '<p>Thank you for your order <b>PSL-1042</b>.</p>',
      });
    } finally {
      await mailer.close();
    }

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.from).toBe('no-reply@pasal.test');
    expect(mail!.to).toEqual(['buyer@example.com']);
    expect(mail!.raw).toMatch(/^Subject: Your order PSL-1042 is confirmed\r?$/m);
    expect(mail!.raw).toMatch(/^To: buyer@example\.com\r?$/m);
    expect(mail!.raw).toMatch(/^From: Pasal <no-reply@pasal\.test>\r?$/m);
    expect(mail!.raw).toContain('Thank you for your order PSL-1042.');
    expect(mail!.raw).toContain('<b>PSL-1042</b>');
  });

  it('rejects the send when the server refuses the recipient, so the caller can retry', async () => {
    const mailer = createSmtpMailer({ url, from: FROM });
    try {
      await expect(mailer.send({ to: 'nobody@example.com', subject: 'Hi', text: 'Hello' })).rejects.toThrow(
        /no such mailbox/,
      );
    } finally {
      await mailer.close();
    }
    expect(received).toEqual([]);
  });
});
