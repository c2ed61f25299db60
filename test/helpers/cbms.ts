// A small fake of the IRD's CBMS API (`POST /api/bill`, `POST /api/billreturn`): it checks that
// every field of the IRD's published model is present with its type, keeps what it received,
// and answers the replies a test queues (default 200). A malformed post gets 104, wrapped as
// HTTP 400 `{"message":"104"}` the way CBMS does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const COMMON: Record<string, 'string' | 'number' | 'boolean'> = {
  username: 'string',
  password: 'string',
  seller_pan: 'string',
  buyer_pan: 'string',
  fiscal_year: 'string',
  buyer_name: 'string',
  total_sales: 'number',
  taxable_sales_vat: 'number',
  vat: 'number',
  excisable_amount: 'number',
  excise: 'number',
  taxable_sales_hst: 'number',
  hst: 'number',
  amount_for_esf: 'number',
  esf: 'number',
  export_sales: 'number',
  tax_exempted_sales: 'number',
  isrealtime: 'boolean',
  datetimeClient: 'string',
};
const FIELDS: Record<string, Record<string, 'string' | 'number' | 'boolean'>> = {
  '/api/bill': { ...COMMON, invoice_number: 'string', invoice_date: 'string' },
  '/api/billreturn': {
    ...COMMON,
    ref_invoice_number: 'string',
    credit_note_number: 'string',
    credit_note_date: 'string',
    reason_for_return: 'string',
  },
};

export interface CbmsPost {
  path: string;
  body: Record<string, unknown>;
  problems: string[];
}

export interface FakeCbms {
  url: string;
  posts: CbmsPost[];
  /** Replies for the next posts, in order: `{ status, body }`; then 200 / `200`. */
  replies: Array<{ status: number; body: string }>;
  /** Holds every reply until the returned function is called (a sync that has not answered yet). */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startFakeCbms(): Promise<FakeCbms> {
  const fake = { posts: [] as CbmsPost[], replies: [] as Array<{ status: number; body: string }> };
  let gate: Promise<void> = Promise.resolve();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', async () => {
      await gate;
      const path = req.url ?? '';
      const model = FIELDS[path];
      let body: Record<string, unknown> = {};
      const problems: string[] = [];
      try {
        body = JSON.parse(raw);
      } catch {
        problems.push('body is not JSON');
      }
      if (!model || req.method !== 'POST') problems.push(`unknown route ${req.method} ${path}`);
      for (const [field, type] of Object.entries(model ?? {})) {
        if (!(field in body)) problems.push(`${field} missing`);
        else if (typeof body[field] !== type) problems.push(`${field} is ${typeof body[field]}, not ${type}`);
      }
      fake.posts.push({ path, body, problems });
      const reply = problems.length
        ? { status: 400, body: '{"message":"104"}' }
        : (fake.replies.shift() ?? { status: 200, body: '200' });
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get posts() {
      return fake.posts;
    },
    get replies() {
      return fake.replies;
    },
    set replies(next) {
      fake.replies = next;
    },
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return release;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
