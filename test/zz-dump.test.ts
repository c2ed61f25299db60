import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { createTestApp } from './helpers/app';
it('dump', async () => {
  const t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/docs/openapi.json' });
  writeFileSync('/tmp/oas/openapi.json', JSON.stringify(res.json(), null, 2));
  await t.close();
}, 60000);
