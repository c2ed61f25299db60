// The documents the server prints (the order invoice, the POS receipt, the tax invoice) are
// pdfkit documents in Noto Sans Devanagari, which draws Latin and Devanagari text: a customer's
// Nepali name or address prints as written. pdfkit shapes the text with fontkit (conjuncts such
// as श्र and क्ष, the vowel sign ि drawn before its consonant, the reph र्) and embeds only the
// glyphs a document uses (a subset per document). The font files (SIL Open Font License 1.1,
// from the @expo-google-fonts/noto-sans-devanagari package) are read by the first document,
// not at start-up (platform/lazy.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { lazyPackage } from './lazy';

const pdfkit = lazyPackage<typeof import('pdfkit')>('pdfkit');
const fontkit = lazyPackage<{ create(data: Buffer): { characterSet: number[] } }>('fontkit');

/** The font names to pass to `doc.font()` in a document made by newPdf. */
export const PDF_FONT = { regular: 'Body', bold: 'Body-Bold' } as const;

const FILES = {
  [PDF_FONT.regular]: '@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf',
  [PDF_FONT.bold]: '@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf',
};

interface Fonts {
  files: Record<string, Buffer>;
  /** Code points both weights can draw. */
  drawable: Set<number>;
}
let fonts: Fonts | undefined;

function loadFonts(): Fonts {
  if (fonts) return fonts;
  const resolve = createRequire(import.meta.url).resolve;
  const files = Object.fromEntries(
    Object.entries(FILES).map(([name, file]) => [name, readFileSync(resolve(file))]),
  );
  const [regular, bold] = Object.values(files).map((data) => new Set(fontkit().create(data).characterSet));
  fonts = { files, drawable: new Set([...regular!].filter((code) => bold!.has(code))) };
  return fonts;
}

// Joiners and the marks between letters that shaping uses without a glyph of their own.
const FORMAT_CHARACTERS = new Set([0x200c, 0x200d]);

/**
 * Text the document's font can draw: a character it has no glyph for (an emoji, Chinese)
 * becomes `?` rather than an empty box; a control character (a line break) becomes a space.
 */
export function printable(text: string): string {
  const { drawable } = loadFonts();
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += ' ';
      continue;
    }
    out += drawable.has(code) || FORMAT_CHARACTERS.has(code) ? ch : '?';
  }
  return out;
}

/** A pdfkit document with the Devanagari-capable fonts registered and the regular one chosen. */
export function newPdf(options: PDFKit.PDFDocumentOptions): PDFKit.PDFDocument {
  const { files } = loadFonts();
  const doc = new (pdfkit())(options);
  for (const [name, data] of Object.entries(files)) doc.registerFont(name, data);
  doc.font(PDF_FONT.regular);
  return doc;
}

/** The document's bytes once it ends: call before drawing, then draw and `doc.end()`. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
