// The committed migrations (`drizzle/`), which the database layer applies and the build's
// PGlite template is made from.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** `drizzle/` of the package, found from this file whether it runs from src/ or bundled in dist/. */
function findMigrationsFolder(): string {
  let dir = import.meta.dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('The drizzle/ migrations folder was not found');
}

let migrationsFolderPath: string | undefined;
export const migrationsFolder = () => {
  migrationsFolderPath ??= findMigrationsFolder();
  return migrationsFolderPath;
};
