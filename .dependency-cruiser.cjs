// The boundaries of ARCHITECTURE.md, checked by `npm run lint` (and so by CI):
// modules talk through each other's index.ts, the platform knows no module, and a
// module's tables and SQL stay its own.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-through-index',
      comment: "A module uses another module only through that module's index.ts.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.table\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'tables-reference-tables',
      comment: "A *.table.ts may import another module's *.table.ts (foreign keys), and nothing else of it.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/.+\\.table\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '\\.table\\.ts$'] },
    },
    {
      name: 'platform-knows-no-module',
      comment: 'platform/ is infrastructure: it imports no module and not the app that composes them.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules/|db/|app\\.ts$|main\\.ts$|cli\\.ts$)' },
    },
    {
      name: 'repository-stays-in-module',
      comment: "Only a module's own files import its *.repository.ts.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'tables-stay-in-module',
      comment: 'Outside modules, only src/db/schema.ts (for drizzle-kit) imports *.table.ts files.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/modules/', '^src/db/schema\\.ts$'] },
      to: { path: '\\.table\\.ts$' },
    },
    {
      name: 'sql-in-repositories',
      comment:
        'Queries live in repositories: only *.repository.ts, *.table.ts and platform/db import drizzle-orm ' +
        '(ARCHITECTURE.md: "every Drizzle query of the module" is in its repository).',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: ['\\.repository\\.ts$', '\\.table\\.ts$', '^src/platform/db/'],
      },
      to: { path: '(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
