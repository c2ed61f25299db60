// A Google service account key (the JSON file the Firebase console downloads), read from
// FCM_SERVICE_ACCOUNT_FILE or FCM_SERVICE_ACCOUNT_JSON. Problems are reported without any of
// the file's content: it holds a private key.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const serviceAccountSchema = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  token_uri: z.url(),
});

export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

export function readServiceAccount(source: { file?: string; json?: string }): ServiceAccount {
  let text = source.json;
  if (!text && source.file) {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      throw new Error(`cannot read ${source.file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (!text) throw new Error('no service account given');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('is not JSON');
  }
  const result = serviceAccountSchema.safeParse(parsed);
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new Error(`is not a service account key (missing or bad: ${fields})`);
  }
  return result.data;
}
