// The deployment recipe cannot run here (no container runtime), so it is read: every variable
// it sets must be a Pasal setting (a misspelt one would be silently ignored), the environment
// it gives the processes must pass loadConfig as production, and the processes, proxy and image
// must fit together. test/deploy/processes.test.ts starts the processes it describes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, settings } from '../../src/config';
import { interpolate, RECIPE_SECRETS, readCompose, recipeEnvironment, root } from '../helpers/recipe';

const compose = readCompose();
const pasalServices = Object.entries(compose.services).filter(([, s]) => s.image === 'pasal:latest');
const roleOf = (name: string) => compose.services[name]?.command?.[0];

describe('compose.yaml', () => {
  it('runs two api processes and one worker from the Pasal image, and a one-shot migration', () => {
    const roles = pasalServices.map(([name, s]) => [
      name,
      s.entrypoint?.join(' ') ?? 'main.js',
      roleOf(name),
    ]);
    expect(roles).toEqual(
      expect.arrayContaining([
        ['migrate', 'node dist/cli.js', 'db:migrate'],
        ['api-1', 'main.js', 'api'],
        ['api-2', 'main.js', 'api'],
        ['worker', 'main.js', 'worker'],
      ]),
    );
    expect(pasalServices).toHaveLength(4);
    // One image, built from this folder's Dockerfile, whichever service compose starts first.
    for (const [, service] of pasalServices) expect(service.build).toBe('.');
    for (const name of ['api-1', 'api-2', 'worker']) {
      expect(compose.services[name]!.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(compose.services.worker!.healthcheck).toEqual({ disable: true });
    for (const service of ['postgres', 'redis', 'minio', 'mailpit', 'proxy']) {
      expect(Object.keys(compose.services)).toContain(service);
    }
  });

  it('sets only variables that src/config.ts defines, the same ones for every Pasal process', () => {
    const known = new Set(Object.keys(settings));
    const [first, ...rest] = pasalServices.map(([name]) => recipeEnvironment(name, RECIPE_SECRETS));
    const unknown = Object.keys(first!).filter((name) => !known.has(name));
    expect(unknown).toEqual([]);
    expect(Object.keys(first!).length).toBeGreaterThan(20);
    for (const env of rest) expect(env).toEqual(first);
  });

  it('gives a configuration production accepts: Redis, PostgreSQL, S3, SMTP and the secrets', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pasal-recipe-'));
    try {
      const config = loadConfig({ ...recipeEnvironment('api-1', RECIPE_SECRETS), DATA_DIR: dataDir });
      expect(config).toMatchObject({
        NODE_ENV: 'production',
        DATABASE_URL: `postgres://pasal:${RECIPE_SECRETS.POSTGRES_PASSWORD}@postgres:5432/pasal`,
        REDIS_URL: 'redis://redis:6379',
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: 'http://minio:9000',
        S3_SECRET_ACCESS_KEY: RECIPE_SECRETS.MINIO_ROOT_PASSWORD,
        SMTP_URL: 'smtp://mailpit:1025',
        JWT_SECRET: RECIPE_SECRETS.JWT_SECRET,
        DIGITAL_KEYS_SECRET: RECIPE_SECRETS.DIGITAL_KEYS_SECRET,
        PUBLIC_BASE_URL: 'http://localhost:8080',
        STORAGE_PUBLIC_BASE_URL: 'http://localhost:8080/media',
      });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start without each secret, naming it', () => {
    for (const name of Object.keys(RECIPE_SECRETS)) {
      const vars: Record<string, string> = { ...RECIPE_SECRETS };
      delete vars[name];
      expect(() => recipeEnvironment('api-1', vars)).toThrow(`compose.yaml needs ${name}`);
    }
  });

  it('interpolates as Compose does', () => {
    // biome-ignore-start lint/suspicious/noTemplateCurlyInString: Compose's syntax, not a JS template
    expect(interpolate('${A:-x}/${B}/$$HOME', { A: '' })).toBe('x//$HOME');
    expect(interpolate('${A:-x}', { A: 'a' })).toBe('a');
    expect(() => interpolate('${A:?say A}', {})).toThrow('compose.yaml needs A: say A');
    // biome-ignore-end lint/suspicious/noTemplateCurlyInString: Compose's syntax
  });
});

describe('the proxy (deploy/Caddyfile)', () => {
  const caddyfile = readFileSync(path.join(root, 'deploy/Caddyfile'), 'utf8');

  it('balances over exactly the api processes, each handshake on one of them, ready ones only', () => {
    const upstreams = caddyfile
      .match(/reverse_proxy ((?:[\w-]+:\d+ ?)+) \{/)?.[1]
      ?.trim()
      .split(' ');
    const apis = pasalServices.filter(([name]) => roleOf(name) === 'api').map(([name]) => `${name}:3000`);
    expect(upstreams).toEqual(apis);
    expect(caddyfile).toMatch(/lb_policy ip_hash/);
    expect(caddyfile).toMatch(/health_uri \/ready/);
    expect(compose.services.proxy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('serves the public files under the STORAGE_PUBLIC_BASE_URL path, from the bucket', () => {
    const env = recipeEnvironment('api-1', RECIPE_SECRETS);
    const mediaPath = new URL(env.STORAGE_PUBLIC_BASE_URL!).pathname;
    expect(caddyfile).toContain(`handle_path ${mediaPath}/* {`);
    expect(caddyfile).toContain(`rewrite * /${env.S3_BUCKET}{uri}`);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds dist/ with scripts/build.mjs, installs run-time dependencies only, runs as node', () => {
    expect(dockerfile).toMatch(/RUN node scripts\/build\.mjs/);
    expect(dockerfile).toMatch(/RUN npm ci --omit=dev/);
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^COPY --from=build \/app\/dist dist$/m);
    // The admin console is built in the build stage and served from the image at /admin.
    expect(dockerfile).toMatch(/^COPY console console$/m);
    expect(finalStage).toMatch(/^COPY --from=build \/app\/console\/dist console\/dist$/m);
    expect(finalStage).toMatch(/^COPY drizzle drizzle$/m);
    expect(finalStage).toMatch(
      /^ENTRYPOINT \["node", "--enable-source-maps", "--max-semi-space-size=16", "dist\/main\.js"\]$/m,
    );
    expect(finalStage).toMatch(/^HEALTHCHECK .*\n.*\/health/m);
  });

  it('makes the embedded database template in the build stage, from the migrations, and ships it in dist/', () => {
    const buildStage = dockerfile.slice(0, dockerfile.indexOf('\nFROM ', dockerfile.indexOf(' AS build')));
    const copied = buildStage.search(/^COPY drizzle drizzle$/m);
    expect(copied).toBeGreaterThan(0);
    expect(copied).toBeLessThan(buildStage.search(/^RUN node scripts\/build\.mjs$/m));
    // The final stage runs dist/main.js as is: no second build.
    expect(finalStage).not.toMatch(/build\.mjs|npm (run )?(build|start)/);
  });

  it('uses the Node line package.json promises', () => {
    const engines = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
    const image = dockerfile.match(/^ARG NODE_IMAGE=node:(\d+)-/m)?.[1];
    expect(image).toBe('24');
    expect(engines).toContain('>=24');
  });
});
