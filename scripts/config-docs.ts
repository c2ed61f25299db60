// Prints the configuration as documentation, from the settings in src/config.ts:
//   npx tsx scripts/config-docs.ts table   → the README's Markdown table
//   npx tsx scripts/config-docs.ts env     → the content of .env.example
import { settings } from '../src/config';

const mode = process.argv[2] ?? 'table';
const entries = Object.entries(settings) as [string, { doc: string; default?: string; example?: string }][];

if (mode === 'table') {
  console.log('| Variable | Default | What it does |');
  console.log('|---|---|---|');
  for (const [name, s] of entries) {
    const value = s.default !== undefined ? `\`${s.default}\`` : '(unset)';
    console.log(`| \`${name}\` | ${value} | ${s.doc.replaceAll('|', '\\|')} |`);
  }
} else {
  console.log('# Pasal configuration. Every variable is optional outside production; the values');
  console.log('# below are the defaults (commented out) or examples. See README.md, "Configuration".');
  for (const [name, s] of entries) {
    console.log('');
    console.log(`# ${s.doc.replaceAll('`', '')}`);
    console.log(`# ${name}=${s.default ?? s.example ?? ''}`);
  }
}
