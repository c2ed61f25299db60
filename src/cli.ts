// Operator commands: `npm run cli -- <command> [options]` (or `node dist/cli.js …`).
import { type ParseArgsConfig, parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig, loadEnvFile } from './config';

const usage = `Usage:
  cli admin:create --email <email> --password <password> [--name <name>] [--role <role>]
      Creates an admin (a superadmin unless --role names another role).
  cli db:migrate
      Applies pending database migrations.
  cli db:backup [--out <file>] [--with-files]
      Writes a gzip SQL dump (BACKUP_DIR/pasal-YYYYMMDD-HHmmss.sql.gz); --with-files adds the
      local uploads as <dump>.files.tar.gz. Works while the server runs.
  cli db:restore <file> [--force] [--with-files]
      Loads a dump into the configured database (which must hold no Pasal tables unless
      --force), then migrates it forward; --with-files unpacks the uploads archive too.
  cli db:move-to-postgres --to <postgres://…>
      Copies the embedded database into an empty PostgreSQL database and compares them.`;

type Command =
  | { name: 'db:migrate' }
  | { name: 'db:backup'; out?: string; withFiles?: boolean }
  | { name: 'db:restore'; file: string; force?: boolean; withFiles?: boolean }
  | { name: 'db:move-to-postgres'; to: string }
  | { name: 'admin:create'; email: string; password: string; adminName?: string; role?: string };

/** Arguments are checked before the config is read or the database opened: a typo costs nothing. */
function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  switch (command) {
    case 'db:migrate':
      parseOptions(rest, {});
      return { name: 'db:migrate' };
    case 'db:backup': {
      const values = parseOptions(rest, { out: { type: 'string' }, 'with-files': { type: 'boolean' } });
      return { name: 'db:backup', out: values.out, withFiles: values['with-files'] };
    }
    case 'db:restore': {
      const [file, ...more] = rest;
      if (!file || file.startsWith('--')) throw new UsageError('db:restore needs the dump file');
      const values = parseOptions(more, { force: { type: 'boolean' }, 'with-files': { type: 'boolean' } });
      return { name: 'db:restore', file, force: values.force, withFiles: values['with-files'] };
    }
    case 'db:move-to-postgres': {
      const { to } = parseOptions(rest, { to: { type: 'string' } });
      if (!to || !/^postgres(ql)?:\/\//.test(to)) throw new UsageError('--to postgres://… is required');
      return { name: 'db:move-to-postgres', to };
    }
    case 'admin:create': {
      const values = parseOptions(rest, {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
        role: { type: 'string' },
      });
      const { email, password } = values;
      if (!email || !password) throw new UsageError('--email and --password are required');
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError('--email is not an email');
      if (password.length < 8 || password.length > 128) {
        throw new UsageError('--password must have 8 to 128 characters');
      }
      return { name: 'admin:create', email, password, adminName: values.name, role: values.role };
    }
    default:
      throw new UsageError(command ? `Unknown command ${command}` : 'No command given');
  }
}

function parseOptions<O extends ParseArgsConfig['options']>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    // An unknown option or a missing value: say so with the usage, not with a stack trace.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function run(argv: string[]): Promise<number> {
  const command = parseCommand(argv);
  loadEnvFile('.env');
  const config = loadConfig();
  const log = pino({ level: config.LOG_LEVEL });
  if (
    command.name === 'db:backup' ||
    command.name === 'db:restore' ||
    command.name === 'db:move-to-postgres'
  ) {
    const { runDbCommand } = await import('./platform/db/db-commands');
    return runDbCommand(config, command);
  }
  // Loaded only for a command that will run: from source (tsx), a usage error answers at once.
  const [{ createAdmin }, { openDatabase }] = await Promise.all([
    import('./modules/identity'),
    import('./platform/db/database'),
  ]);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: 2,
    dataDir: config.DATA_DIR,
  });
  try {
    await database.migrate();
    if (command.name === 'db:migrate') {
      log.info({ driver: database.driver }, 'migrations applied');
      return 0;
    }
    const admin = await createAdmin({
      db: database.db,
      email: command.email,
      password: command.password,
      name: command.adminName,
      role: command.role,
    });
    log.info({ id: admin.id, email: admin.email, role: admin.role }, 'admin created');
    return 0;
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
    else if (error instanceof Error && ['CommandRefused', 'BackupError'].includes(error.name))
      console.error(error.message);
    else if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof Error && 'errorCode' in error)
      console.error(`${error.errorCode}: ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
