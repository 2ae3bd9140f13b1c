import { join } from 'node:path';
import ts from 'typescript';
import { findReadmeBlock, type ReadmeBlock } from './readme-snippet';

/**
 * Type-checks the ```` ```ts ```` blocks after the given `<!-- marker -->` comments of a package's
 * README, as written: each block is compiled as a module in the package's folder (so its imports
 * resolve as a user's would, against the built packages' `.d.ts`) with the package's own
 * `tsconfig.json` options — strict, `noUncheckedIndexedAccess`, `verbatimModuleSyntax`. Returns
 * one line per error, `README.md:<line>:<column> <message>`; none when every block compiles. A
 * block that is not tagged `ts` is an error of its own. The blocks share one program (loading an
 * SDK's types once), each its own module.
 *
 * Loading a package's types takes seconds on a loaded machine: a test calling it needs
 * `{ timeout: SPAWN_TIMEOUT }`.
 * The `.d.ts` are `build:types` output, which turbo's `test` does not wait for: a package whose
 * tests call this says so in its turbo.json (`test` depends on `build:types`; a test checks it).
 *
 * @example
 * ```ts
 * it('the README TypeScript compiles', { timeout: SPAWN_TIMEOUT }, () => {
 *   expect(readmeTypeErrors(packageDir, 'snippet:chat-loop-ts')).toEqual([]);
 * });
 * ```
 */
export function readmeTypeErrors(packageDir: string, ...markers: string[]): string[] {
  const errors: string[] = [];
  const blocks = new Map<string, ReadmeBlock>();
  for (const marker of markers) {
    const block = findReadmeBlock(join(packageDir, 'README.md'), marker);
    if (block.language === 'ts') blocks.set(join(packageDir, `.readme-${marker.replace(/[^a-z0-9-]/gi, '-')}.ts`), block);
    else errors.push(`README.md:${block.line - 1} the block after "<!-- ${marker}" is tagged "${block.language}", not "ts"`);
  }
  const configPath = join(packageDir, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error(`cannot read ${configPath}`);
  // Each block is a module of its own, as the .mjs file runReadmeSnippet writes is.
  const options: ts.CompilerOptions = { ...config.options, noEmit: true, moduleDetection: ts.ModuleDetectionKind.Force };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, version, ...rest) => {
    const block = blocks.get(name);
    return block === undefined ? getSourceFile.call(host, name, version, ...rest) : ts.createSourceFile(name, block.source, version, true);
  };
  host.fileExists = (name) => blocks.has(name) || fileExists.call(host, name);
  host.readFile = (name) => blocks.get(name)?.source ?? readFile.call(host, name);
  const program = ts.createProgram({ rootNames: [...blocks.keys()], options, host });
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const block = diagnostic.file === undefined ? undefined : blocks.get(diagnostic.file.fileName);
    if (diagnostic.file === undefined || diagnostic.start === undefined) errors.push(`README.md ${message}`);
    else if (block !== undefined) {
      const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
      errors.push(`README.md:${block.line + line}:${character + 1} ${message}`);
    }
  }
  return errors;
}
