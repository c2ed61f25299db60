// The code says why a rule is what it is by citing the decisions of the contract, as
// `docs/decisions.md "Real gateways"`. A citation is only worth something if a reader can open the
// file and find that heading, so every citation in the code must carry the `docs/` path and a
// topic that is a heading of docs/decisions.md; in the docs, where the file is a sibling, the
// bare name is fine but the topic (or a link's anchor) must still be a heading. The decisions'
// own links to the code must lead to files that exist, so moving a file means updating them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const decisionsFile = path.join(root, 'docs', 'decisions.md');
const CODE_FOLDERS = ['src', 'console/src', 'scripts', 'test', 'bench'];
const CODE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const NOT_SOURCE = new Set(['node_modules', 'dist', 'coverage', '.git']);
// This file names the decisions file in its own patterns and examples.
const THIS_FILE = path.relative(root, import.meta.filename);

function filesUnder(dir: string, wanted: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, wanted);
    return wanted.test(entry.name) ? [full] : [];
  });
}

/** The `##` and `###` headings of docs/decisions.md, as written. */
function headings(markdown: string): string[] {
  return [...markdown.matchAll(/^#{2,3} (.+)$/gm)].map((m) => (m[1] ?? '').trim());
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

type Citation =
  | { kind: 'topics'; path: string; topics: string[] }
  | { kind: 'anchor'; path: string; anchor: string }
  | { kind: 'link'; path: string }
  | { kind: 'bare'; path: string };

// After the file's name: an optional `'s`, `,` or `:`, an optional `(`, then one or more quoted
// topics joined by `,`, `and` or `or` (`"Realtime order" and "Realtime delivery"`).
const TOPICS_AFTER = /^(?:'s)?[,:]?\s*\(?\s*("[^"\n]+"(?:\s*(?:,|and|or)\s*"[^"\n]+")*)/;

/** Every mention of the decisions file in a text, with what follows it on its line. */
function citationsIn(text: string): { line: number; citation: Citation }[] {
  const found: { line: number; citation: Citation }[] = [];
  for (const match of text.matchAll(/[\w./-]*decisions\.md/g)) {
    const at = match.index;
    const line = text.slice(0, at).split('\n').length;
    const cited = match[0];
    const after = text.slice(at + cited.length).split('\n', 1)[0] ?? '';
    // A Markdown link's text (`[docs/decisions.md](…)`) is not a citation; its target is.
    if (after.startsWith('](')) continue;
    const linkTarget = text.slice(0, at).endsWith('](');
    const topics = TOPICS_AFTER.exec(after);
    const anchor = /^#([\w-]+)\)/.exec(after);
    let citation: Citation;
    if (linkTarget && anchor) citation = { kind: 'anchor', path: cited, anchor: anchor[1] ?? '' };
    else if (linkTarget && after.startsWith(')')) citation = { kind: 'link', path: cited };
    else if (topics)
      citation = {
        kind: 'topics',
        path: cited,
        topics: [...(topics[1] ?? '').matchAll(/"([^"]+)"/g)].map((t) => t[1] ?? ''),
      };
    else citation = { kind: 'bare', path: cited };
    found.push({ line, citation });
  }
  return found;
}

/** What is wrong with the citations of one file; `pathsAllowed` are the ways it may name the file. */
function problemsOf(
  file: string,
  text: string,
  pathsAllowed: string[],
  known: Set<string>,
  anchors: Set<string>,
) {
  const problems: string[] = [];
  for (const { line, citation } of citationsIn(text)) {
    const where = `${file}:${line}`;
    if (!pathsAllowed.includes(citation.path)) {
      problems.push(`${where}: cites "${citation.path}"; write ${pathsAllowed.join(' or ')}`);
      continue;
    }
    if (citation.kind === 'bare')
      problems.push(`${where}: cites ${citation.path} without a topic ("…" after it)`);
    if (citation.kind === 'anchor' && !anchors.has(citation.anchor))
      problems.push(`${where}: #${citation.anchor} is no heading of docs/decisions.md`);
    if (citation.kind === 'topics')
      for (const topic of citation.topics)
        if (!known.has(topic)) problems.push(`${where}: "${topic}" is no heading of docs/decisions.md`);
  }
  return problems;
}

const decisions = readFileSync(decisionsFile, 'utf8');
const known = new Set(headings(decisions));
const anchors = new Set([...known].map(anchorOf));

describe('citations of docs/decisions.md', () => {
  it('reads the forms the code writes', () => {
    const forms = [
      'x (docs/decisions.md, "Real gateways"): y',
      'x docs/decisions.md "Real gateways" y',
      'x docs/decisions.md: "Passwords" y',
      'x docs/decisions.md ("Accounts and sessions") y',
      'x docs/decisions.md\'s "Repair statuses" y',
      'x (docs/decisions.md, "Realtime order" and "Realtime delivery") y',
      'x [decisions](decisions.md#masked-name) y',
      'x [docs/decisions.md](docs/decisions.md) y',
      'x (decisions.md) y',
      'x docs/decisions.md: 8 to 128 characters',
      'x decisions.md "Masked name"',
    ].join('\n');
    expect(citationsIn(forms).map((c) => c.citation)).toEqual([
      { kind: 'topics', path: 'docs/decisions.md', topics: ['Real gateways'] },
      { kind: 'topics', path: 'docs/decisions.md', topics: ['Real gateways'] },
      { kind: 'topics', path: 'docs/decisions.md', topics: ['Passwords'] },
      { kind: 'topics', path: 'docs/decisions.md', topics: ['Accounts and sessions'] },
      { kind: 'topics', path: 'docs/decisions.md', topics: ['Repair statuses'] },
      { kind: 'topics', path: 'docs/decisions.md', topics: ['Realtime order', 'Realtime delivery'] },
      { kind: 'anchor', path: 'decisions.md', anchor: 'masked-name' },
      { kind: 'link', path: 'docs/decisions.md' },
      { kind: 'bare', path: 'decisions.md' },
      { kind: 'bare', path: 'docs/decisions.md' },
      { kind: 'topics', path: 'decisions.md', topics: ['Masked name'] },
    ]);
    const allowed = ['docs/decisions.md'];
    expect(problemsOf('a.ts', 'x decisions.md "Masked name"', allowed, known, anchors)).toEqual([
      'a.ts:1: cites "decisions.md"; write docs/decisions.md',
    ]);
    expect(problemsOf('a.ts', 'x docs/decisions.md "Masked names"', allowed, known, anchors)).toEqual([
      'a.ts:1: "Masked names" is no heading of docs/decisions.md',
    ]);
  });

  it('has each heading once, so a topic names one place', () => {
    const all = headings(decisions);
    expect(all.filter((h, i) => all.indexOf(h) !== i)).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });

  it('in the code: each carries docs/ and topics that are headings', () => {
    const files = CODE_FOLDERS.flatMap((folder) => filesUnder(path.join(root, folder), CODE_EXTENSIONS));
    let count = 0;
    const problems: string[] = [];
    for (const full of files) {
      const file = path.relative(root, full);
      if (file === THIS_FILE) continue;
      const text = readFileSync(full, 'utf8');
      count += citationsIn(text).length;
      problems.push(...problemsOf(file, text, ['docs/decisions.md'], known, anchors));
    }
    expect(problems).toEqual([]);
    expect(count).toBeGreaterThan(100);
  });

  it('in the docs and the README: topics and anchors are headings', () => {
    const documents = [
      ...filesUnder(path.join(root, 'docs'), /\.md$/).filter((f) => f !== decisionsFile),
      path.join(root, 'README.md'),
    ];
    const problems = documents.flatMap((full) => {
      const file = path.relative(root, full);
      const allowed = file.startsWith('docs/')
        ? ['decisions.md', 'docs/decisions.md']
        : ['docs/decisions.md'];
      return problemsOf(file, readFileSync(full, 'utf8'), allowed, known, anchors);
    });
    expect(problems).toEqual([]);
  });

  it('links from docs/decisions.md to the code lead to files that exist', () => {
    const targets = [...decisions.matchAll(/\]\((\.\.\/[^)#\s]+)\)/g)].map((m) => m[1] ?? '');
    expect(targets.length).toBeGreaterThan(100);
    const missing = targets.filter((t) => !existsSync(path.resolve(path.dirname(decisionsFile), t)));
    expect(missing).toEqual([]);
  });
});
