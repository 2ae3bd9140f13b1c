import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** Constructors whose instances are containers a module could fill at run time. */
const CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'Array', 'Object']);

/**
 * Lists the module-level state in a package's source: every top-level `let` or `var`, and
 * every top-level `const` that starts as an empty container, which only a later call can fill
 * (`new Map()`, `new WeakMap()`, `new Set()`, `[]`, `{}`: a cache). State that outlives a
 * call belongs to an instance the caller owns; a module-level cache ties every caller in the
 * process together (and changes results on runtimes that load modules differently). Test files
 * (`*.test.ts`, `*.test-d.ts`) are skipped. Returns one `path:line name` per finding, the path
 * relative to `sourceDir`; none when the source keeps no state.
 *
 * Constant tables written out where they are declared (`new Set(['GET', 'HEAD'])`, a frozen
 * list, a `Uint8Array` filled while the module loads) are not listed; neither are regular
 * expressions.
 *
 * @example
 * ```ts
 * it('keeps no module-level state', () => {
 *   expect(moduleStateIn(fileURLToPath(new URL('.', import.meta.url)))).toEqual([]);
 * });
 * ```
 */
export function moduleStateIn(sourceDir: string): string[] {
  const findings: string[] = [];
  for (const file of sourceFiles(sourceDir)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const { flags } = statement.declarationList;
      const constant = (flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of statement.declarationList.declarations) {
        if (constant && !startsEmpty(declaration.initializer)) continue;
        const { line } = source.getLineAndCharacterOfPosition(declaration.getStart(source));
        findings.push(`${relative(sourceDir, file)}:${line + 1} ${declaration.name.getText(source)}`);
      }
    }
  }
  return findings;
}

function startsEmpty(initializer: ts.Expression | undefined): boolean {
  if (initializer === undefined) return false;
  let expression = initializer;
  while (ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression) || ts.isParenthesizedExpression(expression)) expression = expression.expression;
  if (ts.isArrayLiteralExpression(expression)) return expression.elements.length === 0;
  if (ts.isObjectLiteralExpression(expression)) return expression.properties.length === 0;
  if (ts.isNewExpression(expression) && ts.isIdentifier(expression.expression)) {
    return CONTAINERS.has(expression.expression.text) && (expression.arguments === undefined || expression.arguments.length === 0);
  }
  return false;
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files.sort();
}
