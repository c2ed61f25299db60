// Operator commands: `npm run cli -- <command> [options]` (or `node dist/cli.js …`).
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from './config';
import { createAdmin } from './modules/identity';
import { openDatabase } from './platform/db/database';

const usage = `Usage:
  cli admin:create --email <email> --password <password> [--name <name>] [--role <role>]
      Creates an admin (a superadmin unless --role names another role).
  cli db:migrate
      Applies pending database migrations.`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const log = pino({ level: config.LOG_LEVEL });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    poolSize: 2,
    dataDir: config.DATA_DIR,
  });
  try {
    switch (command) {
      case 'db:migrate':
        await database.migrate();
        log.info({ driver: database.driver }, 'migrations applied');
        return 0;
      case 'admin:create': {
        const { values } = parseArgs({
          args: rest,
          options: {
            email: { type: 'string' },
            password: { type: 'string' },
            name: { type: 'string' },
            role: { type: 'string' },
          },
        });
        if (!values.email || !values.password) throw new UsageError('--email and --password are required');
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) throw new UsageError('--email is not an email');
        if (values.password.length < 8 || values.password.length > 128) {
          throw new UsageError('--password must have 8 to 128 characters');
        }
        await database.migrate();
        const admin = await createAdmin({
          db: database.db,
          ...values,
          email: values.email,
          password: values.password,
        });
        log.info({ id: admin.id, email: admin.email, role: admin.role }, 'admin created');
        return 0;
      }
      default:
        throw new UsageError(command ? `Unknown command ${command}` : 'No command given');
    }
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
    else if (error instanceof Error && 'errorCode' in error)
      console.error(`${error.errorCode}: ${error.message}`);
    else console.error(error);
    process.exit(1);
  },
);
