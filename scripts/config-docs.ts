// Writes the configuration documentation from the settings in src/config.ts, so the README
// table and .env.example never drift from the code (test/platform/config.test.ts checks it):
//   npm run docs:config
import { readFileSync, writeFileSync } from 'node:fs';
import { settings } from '../src/config';

const entries = Object.entries(settings) as [string, { doc: string; default?: string; example?: string }][];

const table = [
  '| Variable | Default | What it does |',
  '|---|---|---|',
  ...entries.map(([name, s]) => {
    const value = s.default !== undefined ? `\`${s.default}\`` : '(unset)';
    return `| \`${name}\` | ${value} | ${s.doc.replaceAll('|', '\\|')} |`;
  }),
].join('\n');

const envExample = [
  '# Pasal configuration. Every variable is optional outside production; the values',
  '# below are the defaults (commented out) or examples. See README.md, "Configuration".',
  ...entries.flatMap(([name, s]) => [
    '',
    `# ${s.doc.replaceAll('`', '')}`,
    `# ${name}=${s.default ?? s.example ?? ''}`,
  ]),
  '',
].join('\n');

const START = '<!-- config:start -->';
const END = '<!-- config:end -->';
const readme = readFileSync('README.md', 'utf8');
const from = readme.indexOf(START);
const to = readme.indexOf(END);
if (from < 0 || to < from) throw new Error(`README.md needs the ${START} and ${END} markers`);
writeFileSync('README.md', `${readme.slice(0, from + START.length)}\n${table}\n${readme.slice(to)}`);
writeFileSync('.env.example', envExample);
console.log(`Documented ${entries.length} settings in README.md and .env.example`);
