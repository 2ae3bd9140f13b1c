import { dirname, relative } from 'node:path';
import ts from 'typescript';

/**
 * Lists the exports of a package's entry (`src/index.ts`) that lack TSDoc or an `@example` in it:
 * one `name: no TSDoc` or `name: no @example` per finding, none when every export is documented.
 * Names re-exported from another package are that package's to document and are skipped; so is
 * anything declared outside the entry's folder. Reads the source only (no build needed).
 *
 * @example
 * ```ts
 * it('documents every export with an example', () => {
 *   expect(undocumentedExports(fileURLToPath(new URL('./index.ts', import.meta.url)))).toEqual([]);
 * });
 * ```
 */
export function undocumentedExports(entryFile: string): string[] {
  const sourceDir = dirname(entryFile);
  const options: ts.CompilerOptions = {
    noLib: true,
    types: [],
    noEmit: true,
    allowJs: false,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const program = ts.createProgram({ rootNames: [entryFile], options });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(entryFile);
  const moduleSymbol = entry === undefined ? undefined : checker.getSymbolAtLocation(entry);
  if (moduleSymbol === undefined) throw new Error(`${entryFile} is not a module`);
  const findings: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    const own = declarations.filter((declaration) => !relative(sourceDir, declaration.getSourceFile().fileName).startsWith('..'));
    if (own.length === 0) continue;
    const documented = own.some((declaration) => docsOf(declaration).some((doc) => doc.comment !== undefined && ts.getTextOfJSDocComment(doc.comment)?.trim()));
    const example = own.some((declaration) => docsOf(declaration).some((doc) => doc.tags?.some((tag) => tag.tagName.text === 'example')));
    if (!documented) findings.push(`${exported.name}: no TSDoc`);
    else if (!example) findings.push(`${exported.name}: no @example`);
  }
  return findings.sort();
}

/** The JSDoc blocks of a declaration (a variable's sit on its statement). */
function docsOf(declaration: ts.Declaration): readonly ts.JSDoc[] {
  const host = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ((host as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []) as readonly ts.JSDoc[];
}
