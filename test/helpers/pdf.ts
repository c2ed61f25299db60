// Reading a PDF the server made: its text as a reader's copy-paste sees it (pdf.js), and the
// glyphs that stand for more than one character (a Devanagari conjunct such as श्र drawn as
// one shape), from the fonts' ToUnicode maps.
import { inflateSync } from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';

export async function pdfText(body: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(body));
  const { text } = await extractText(pdf, { mergePages: true });
  return text as string;
}

/** The character sequences drawn as a single glyph in the document's embedded fonts. */
export function ligatures(body: Buffer): Set<string> {
  const found = new Set<string>();
  const raw = body.toString('latin1');
  const streams = /stream\r?\n/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(body.subarray(start, end)).toString('latin1');
    } catch {
      continue; // not a compressed stream
    }
    if (!content.includes('beginbfrange')) continue;
    for (const entry of content.matchAll(/<([0-9a-f]{4}(?: [0-9a-f]{4})+)>/gi)) {
      found.add(String.fromCharCode(...entry[1]!.split(' ').map((hex) => Number.parseInt(hex, 16))));
    }
  }
  return found;
}
