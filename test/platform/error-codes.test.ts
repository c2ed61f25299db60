// Every error code has one owner: the one file under src/ that writes `new AppError(status, 'CODE', …)`
// for it. Other modules import the owner's factory (docs/api-notes.md, "Error codes: one owner
// each"), so a code cannot drift into two statuses or two meanings unnoticed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

interface Definition {
  code: string;
  status: number | 'dynamic';
  file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The string literals of a parameter typed as a union of them (`what: 'BRAND' | 'TAG'`). */
function literalsOfParameter(node: ts.Node, name: string): string[] | undefined {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (!ts.isArrowFunction(at) && !ts.isFunctionDeclaration(at) && !ts.isFunctionExpression(at)) continue;
    const parameter = at.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === name);
    if (!parameter?.type) return undefined;
    const members = ts.isUnionTypeNode(parameter.type) ? parameter.type.types : [parameter.type];
    const literals = members.map((m) =>
      ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal) ? m.literal.text : undefined,
    );
    return literals.every((l) => l !== undefined) ? (literals as string[]) : undefined;
  }
  return undefined;
}

/** The codes a code argument can be; undefined when it is not written in the source. */
function codesOf(argument: ts.Expression): string[] | undefined {
  if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)) return [argument.text];
  if (!ts.isTemplateExpression(argument)) return undefined;
  let codes = [argument.head.text];
  for (const span of argument.templateSpans) {
    if (!ts.isIdentifier(span.expression)) return undefined;
    const values = literalsOfParameter(argument, span.expression.text);
    if (!values) return undefined;
    codes = codes.flatMap((prefix) => values.map((v) => prefix + v + span.literal.text));
  }
  return codes;
}

function collect(): { definitions: Definition[]; unwritten: string[] } {
  const definitions: Definition[] = [];
  const unwritten: string[] = [];
  for (const full of sourceFiles(path.join(root, 'src'))) {
    const file = path.relative(root, full);
    const source = ts.createSourceFile(file, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'AppError'
      ) {
        const [statusArg, codeArg] = node.arguments ?? [];
        const codes = codeArg ? codesOf(codeArg) : undefined;
        const status = statusArg && ts.isNumericLiteral(statusArg) ? Number(statusArg.text) : 'dynamic';
        if (!codes)
          unwritten.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
        for (const code of codes ?? []) definitions.push({ code, status, file });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { definitions, unwritten };
}

/** A code the interface answers with more than one status, each variant in its owner's file. */
const statusVariants: Record<string, number[]> = {
  // docs/decisions.md "Enrolment" and "Sign-in with a second factor": 400 on the enrolment routes,
  // 401 on the sign-in step.
  AUTH_2FA_CODE_INVALID: [400, 401],
  // 404 for a product read (docs/decisions.md "Product details"), 400 for a blog post's linked
  // product (interface document 3, the blog's Errors table).
  PRODUCT_NOT_FOUND: [400, 404],
};

describe('error codes', () => {
  const { definitions, unwritten } = collect();
  const byCode = new Map<string, Definition[]>();
  for (const d of definitions) byCode.set(d.code, [...(byCode.get(d.code) ?? []), d]);

  it('finds the codes of the modules and of the platform', () => {
    const codes = [...byCode.keys()];
    expect(codes.length).toBeGreaterThan(150);
    expect(byCode.get('ORDER_NOT_FOUND')).toEqual([
      { code: 'ORDER_NOT_FOUND', status: 404, file: 'src/modules/orders/orders.errors.ts' },
    ]);
    // Codes built from a literal union are expanded.
    expect(codes).toEqual(expect.arrayContaining(['PRODUCT_BRAND_INVALID', 'BANNER_PRODUCT_INVALID']));
  });

  it('defines every code in exactly one file', () => {
    const owners = [...byCode]
      .map(([code, defs]) => ({ code, files: [...new Set(defs.map((d) => d.file))].sort() }))
      .filter(({ files }) => files.length > 1);
    expect(owners).toEqual([]);
  });

  it('gives a code one status, but for the variants the interface fixes', () => {
    const statuses = Object.fromEntries(
      [...byCode]
        .map(([code, defs]) => [code, [...new Set(defs.map((d) => d.status))].sort()] as const)
        .filter(([code, list]) => list.length > 1 || code in statusVariants),
    );
    expect(statuses).toEqual(statusVariants);
  });

  it('writes every code in the source, but for the two that come from elsewhere', () => {
    // The framework's own 4xx status (BAD_REQUEST's status is dynamic, its code is written), and
    // a guest token's refusal, whose code the authenticator of that guest kind names.
    expect(byCode.get('BAD_REQUEST')).toEqual([
      { code: 'BAD_REQUEST', status: 'dynamic', file: 'src/platform/http/error-handler.ts' },
    ]);
    expect(unwritten.map((at) => at.replace(/:\d+$/, ''))).toEqual(['src/platform/realtime/realtime.ts']);
  });
});
