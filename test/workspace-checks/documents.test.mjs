// The repository's documents point at real things (issue 40): every repository path SPEC.md, ARCHITECTURE.md,
// CONTRIBUTING.md and each package's docs/*.md name in backticks exists (a `*`, a `<placeholder>` or a `{a,b}` must
// match at least one file); SPEC's sections are numbered in order, each linked from its contents; every "§N" / "§N.M"
// inside SPEC or a package's docs, every "SPEC §N" cited anywhere in the repository and every conformance case's
// "spec" names a section SPEC has (an RFC's "RFC 9110 §15.4.5" is not SPEC's); and SPEC, the protocol only, stays
// within 90 KB (package behaviour lives in packages/<name>/docs/behaviour.md).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE_DOCUMENTS = readdirSync(join(root, 'packages'))
  .filter((name) => existsSync(join(root, 'packages', name, 'docs')))
  .flatMap((name) =>
    readdirSync(join(root, 'packages', name, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `packages/${name}/docs/${file}`),
  );
const DOCUMENTS = ['SPEC.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'conformance/TESTED-BY.md', ...PACKAGE_DOCUMENTS];
/** A section reference, `§7` or `§7.2`; one right after an RFC's number (`RFC 9110 §15.4.5`) is that RFC's. */
const SECTION_REFERENCE = /§(\d+(?:\.\d+)*)/g;
const RFC_BEFORE = /RFC ?\d{3,5},? ?$/;
/** Where code, tests and docs cite SPEC sections (`SPEC §19`), and the kinds of file they are in. */
const CITING_FOLDERS = ['packages', 'apps', 'internal', 'test', 'python', 'conformance', 'scripts', 'bench', '.changeset'];
const CITING_FILE = /\.(?:[cm]?[jt]s|tsx|md|py|json)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.types', '.venv', '__pycache__', '.mypy_cache', 'test-output', '.turbo', '.test-reports']);
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
  it('include the package behaviour documents', () => {
    expect(PACKAGE_DOCUMENTS).toContain('packages/rcp-client/docs/behaviour.md');
  });

  for (const document of DOCUMENTS) {
    it(`${document}: every repository path it names exists`, () => {
      const text = readFileSync(join(root, document), 'utf8');
      const named = [...text.matchAll(PATH)].map((match) => match[1]);
      if (!PACKAGE_DOCUMENTS.includes(document)) expect(named.length).toBeGreaterThan(0);
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

  const spec = readFileSync(join(root, 'SPEC.md'), 'utf8');
  const sections = new Set([...spec.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((match) => match[1]));
  /** The "§N" / "§N.M" references of a text that name no section of SPEC.md, with the words around each. */
  function danglingReferences(text) {
    return [...text.matchAll(SECTION_REFERENCE)]
      .filter((match) => !RFC_BEFORE.test(text.slice(Math.max(0, match.index - 12), match.index)))
      .filter((match) => !sections.has(match[1]))
      .map((match) => text.slice(Math.max(0, match.index - 30), match.index + match[0].length));
  }

  it('every "§N" and "§N.M" in SPEC.md names one of its sections', () => {
    expect([...spec.matchAll(SECTION_REFERENCE)].length).toBeGreaterThan(50);
    expect(danglingReferences(spec)).toEqual([]);
  });

  for (const document of PACKAGE_DOCUMENTS) {
    it(`${document}: every "§N" it cites is a section of SPEC.md`, () => {
      expect(danglingReferences(readFileSync(join(root, document), 'utf8'))).toEqual([]);
    });
  }

  it('every "SPEC §N" cited in code, tests and docs, and every conformance case\'s section, is a section of SPEC.md', () => {
    const files = [];
    const walk = (folder) => {
      for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
        const path = `${folder}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
        } else if (CITING_FILE.test(entry.name)) files.push(path);
      }
    };
    for (const folder of CITING_FOLDERS) if (existsSync(join(root, folder))) walk(folder);
    const dangling = [];
    let cited = 0;
    for (const file of [...files, 'README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md']) {
      const text = readFileSync(join(root, file), 'utf8');
      const citations = [...text.matchAll(/SPEC (?:section )?§(\d+(?:\.\d+)*)|"spec": "§(\d+(?:\.\d+)*)"/g)];
      cited += citations.length;
      for (const match of citations) if (!sections.has(match[1] ?? match[2])) dangling.push(`${file}: ${match[0]}`);
    }
    expect(cited).toBeGreaterThan(100);
    expect(dangling).toEqual([]);
  });

  it("SPEC.md is at most 90 KB: the protocol, with package behaviour in the packages' docs", () => {
    expect(statSync(join(root, 'SPEC.md')).size).toBeLessThanOrEqual(90 * 1024);
  });
});
