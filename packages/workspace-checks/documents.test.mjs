// The repository's documents point at real things (issue 40): every repository path SPEC.md, ARCHITECTURE.md and
// CONTRIBUTING.md name in backticks exists (a `*`, a `<placeholder>` or a `{a,b}` must match at least one file), and SPEC's sections
// are numbered in order, each linked from its contents.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOCUMENTS = ['SPEC.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'];
const TOP_FOLDERS = ['packages', 'apps', 'conformance', 'scripts', 'bench', 'python', 'examples', 'test', '.ci', '.changeset'];
const PATH = new RegExp(`\`((?:${TOP_FOLDERS.map((folder) => folder.replace('.', '\\.')).join('|')})/[^\`\\s]*)\``, 'g');

/** `a/{b,c}/d` → `a/b/d`, `a/c/d` (one level of braces at a time). */
function expandBraces(path) {
  const match = /\{([^{}]*)\}/.exec(path);
  if (match === null) return [path];
  return match[1].split(',').flatMap((choice) => expandBraces(path.slice(0, match.index) + choice + path.slice(match.index + match[0].length)));
}

/** Whether a path names something in the repository; a `*` or a `<placeholder>` in any part matches any name. */
function exists(path) {
  const parts = path
    .replace(/[:#].*$/, '')
    .replace(/[),.;]+$/, '')
    .replace(/<[^>]+>/g, '*')
    .split('/')
    .filter((part) => part !== '');
  let candidates = [root];
  for (const part of parts) {
    if (!part.includes('*')) {
      candidates = candidates.map((folder) => join(folder, part)).filter((candidate) => existsSync(candidate));
      continue;
    }
    const pattern = new RegExp(`^${part.replace(/[.+?^$()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
    candidates = candidates.flatMap((folder) => {
      try {
        return readdirSync(folder)
          .filter((name) => pattern.test(name))
          .map((name) => join(folder, name));
      } catch {
        return []; // a file, not a folder
      }
    });
  }
  return candidates.length > 0;
}

describe('the documents', () => {
  for (const document of DOCUMENTS) {
    it(`${document}: every repository path it names exists`, () => {
      const text = readFileSync(join(root, document), 'utf8');
      const named = [...text.matchAll(PATH)].map((match) => match[1]);
      expect(named.length).toBeGreaterThan(0);
      const missing = named.flatMap(expandBraces).filter((path) => !exists(path));
      expect(missing).toEqual([]);
    });
  }

  it("SPEC.md's sections are numbered in order and each is linked from the contents", () => {
    const text = readFileSync(join(root, 'SPEC.md'), 'utf8');
    const numbers = [...text.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1]));
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
    const contents = text.slice(text.indexOf('Contents:'), text.indexOf('\n\n', text.indexOf('Contents:')));
    const linked = [...contents.matchAll(/\]\(#(\d+)-/g)].map((match) => Number(match[1]));
    expect(linked).toEqual(numbers);
  });
});
