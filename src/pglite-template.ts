// Bundled into dist/ for the build alone (scripts/build.mjs imports it): the migrated PGlite data
// folder that a shop's first start copies instead of running initdb (see createPgliteDataDir).
export { defaultPgliteTemplate, refreshPgliteTemplate } from './platform/db/pglite-data-dir';
