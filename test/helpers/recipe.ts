// The deployment recipe (compose.yaml) as data: its services, and the environment it gives the
// Pasal processes with Compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}` filled in,
// so tests check, and start processes with, exactly what the recipe says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const root = path.resolve(import.meta.dirname, '../..');

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { disable?: boolean };
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}

export function readCompose(): { services: Record<string, ComposeService> } {
  // merge: the recipe shares one service definition between the API processes with `<<:`.
  return parse(readFileSync(path.join(root, 'compose.yaml'), 'utf8'), { merge: true });
}

/** Compose's interpolation of one value; a `${VAR:?…}` whose VAR is not in `vars` throws. */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Z_][A-Z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g, (whole, name, op, arg) => {
    if (whole === '$$') return '$';
    const set = vars[name];
    if (set !== undefined && set !== '') return set;
    if (op === ':-') return arg;
    if (op === ':?') throw new Error(`compose.yaml needs ${name}: ${arg}`);
    return '';
  });
}

/** The environment compose.yaml gives `service`, interpolated with `vars` (the operator's .env). */
export function recipeEnvironment(service: string, vars: Record<string, string>): Record<string, string> {
  const definition = readCompose().services[service];
  if (!definition) throw new Error(`compose.yaml has no service ${service}`);
  return Object.fromEntries(
    Object.entries(definition.environment ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value ?? ''), vars),
    ]),
  );
}

/** What an operator puts in .env for the recipe: the secrets it refuses to start without. */
export const RECIPE_SECRETS = {
  JWT_SECRET: 'recipe-jwt-secret-that-is-long-enough-0123456789',
  URL_SIGNING_SECRET: 'recipe-url-signing-secret-long-enough-012345',
  DIGITAL_KEYS_SECRET: 'recipe-digital-keys-secret-long-enough-01234',
  POSTGRES_PASSWORD: 'recipe-postgres-password',
  MINIO_ROOT_PASSWORD: 'recipe-minio-password',
};
