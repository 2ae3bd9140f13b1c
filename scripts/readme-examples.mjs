#!/usr/bin/env node
// README TypeScript blocks that are files: a block whose marker names a file,
//
//   <!-- snippet:chat-loop-ts from examples/chat-loop.ts -->
//   ```ts
//   …the file's text…
//   ```
//
// is a copy of `examples/chat-loop.ts` in the README's package. The file is inside the package's TypeScript project,
// so the one TypeScript pass (scripts/typecheck.mjs) checks it with the package's source; the tests run the README's
// block (rcp-test-utils' runReadmeSnippet), and this script keeps the two identical:
//
//   node scripts/readme-examples.mjs           copy every named file into its README block
//   node scripts/readme-examples.mjs --check   exit 1, naming each README line, when a block is not its file
//
// test/workspace-checks runs the check in `pnpm test`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A marker naming its file, then the fenced block after it. */
const INCLUDE = /<!-- (\S+) from (examples\/[\w./-]+\.ts) -->\n```(\w*)\n([\s\S]*?)```/g;

/**
 * The README blocks that copy a file under their package's `examples/`, with whether each is in sync.
 *
 * @example
 * ```js
 * for (const example of readmeExamples(root)) if (!example.inSync) console.log(example.readme, example.line);
 * ```
 *
 * @param {string} base the repository root
 * @param {string[]} [readmes] README paths relative to `base` (default: the root's, every package's and app's)
 * @returns {{ readme: string, marker: string, file: string, line: number, language: string, block: string, text: string | undefined, inSync: boolean }[]}
 */
export function readmeExamples(base, readmes = defaultReadmes(base)) {
  const found = [];
  for (const readme of readmes) {
    const source = readFileSync(join(base, readme), 'utf8');
    for (const match of source.matchAll(INCLUDE)) {
      const [, marker, example, language, block] = match;
      const file = join(dirname(readme), example);
      const text = existsSync(join(base, file)) ? readFileSync(join(base, file), 'utf8') : undefined;
      const line = source.slice(0, match.index).split('\n').length;
      found.push({ readme, marker, file, line, language, block, text, inSync: language === 'ts' && text === block });
    }
  }
  return found;
}

/** The README.md of the root, of every package and of every app. */
function defaultReadmes(base) {
  const under = (folder) =>
    existsSync(join(base, folder))
      ? readdirSync(join(base, folder))
          .sort()
          .map((name) => join(folder, name, 'README.md'))
      : [];
  return ['README.md', ...under('packages'), ...under('apps')].filter((file) => existsSync(join(base, file)));
}

/**
 * Copies each named file into its README block; returns the READMEs it changed.
 *
 * @example
 * ```js
 * const changed = writeReadmeExamples(root);
 * ```
 *
 * @param {string} base the repository root
 * @param {string[]} [readmes] as for readmeExamples
 * @returns {string[]}
 */
export function writeReadmeExamples(base, readmes = defaultReadmes(base)) {
  const changed = [];
  for (const readme of readmes) {
    const path = join(base, readme);
    const source = readFileSync(path, 'utf8');
    const next = source.replace(INCLUDE, (_whole, marker, example) => {
      const file = join(base, dirname(readme), example);
      if (!existsSync(file)) throw new Error(`${readme}: "<!-- ${marker}" names ${example}, which does not exist`);
      return `<!-- ${marker} from ${example} -->\n\`\`\`ts\n${readFileSync(file, 'utf8')}\`\`\``;
    });
    if (next !== source) {
      writeFileSync(path, next);
      changed.push(readme);
    }
  }
  return changed;
}

/**
 * One line per block that is not its file, `README.md:<line> …`; none when all are in sync.
 *
 * @example
 * ```js
 * const problems = readmeExampleProblems(root);
 * ```
 *
 * @param {string} base the repository root
 * @param {string[]} [readmes] as for readmeExamples
 * @returns {string[]}
 */
export function readmeExampleProblems(base, readmes) {
  return readmeExamples(base, readmes)
    .filter((example) => !example.inSync)
    .map(({ readme, line, marker, file, language, text }) => {
      const where = `${readme}:${line} "<!-- ${marker}"`;
      if (text === undefined) return `${where} names ${relative(dirname(readme), file)}, which does not exist`;
      if (language !== 'ts') return `${where} is a \`\`\`${language} block, not \`\`\`ts`;
      return `${where} is not ${file} as it is now: run node scripts/readme-examples.mjs`;
    });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const problems = readmeExampleProblems(root);
    for (const problem of problems) console.error(problem);
    process.exit(problems.length === 0 ? 0 : 1);
  }
  for (const readme of writeReadmeExamples(root)) console.log(`updated ${readme}`);
}
