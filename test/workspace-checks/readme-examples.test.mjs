// README TypeScript blocks that are files (issue 44, one TypeScript pass): a block whose marker names
// `examples/<file>.ts` is that file, which the package's TypeScript project includes, so the one `tsc --build` checks
// it with the package — no README program of its own. scripts/readme-examples.mjs copies each file into its block;
// here, every block equals its file and every such file is in its package's project.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readmeExampleProblems, readmeExamples, writeReadmeExamples } from '../../scripts/readme-examples.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe("the repository's README examples", () => {
  const examples = readmeExamples(root);

  it('are found (the premise): the adapters, rcp-server, rcp-redis, rcp-oauth and rcp-model-fake name their files', () => {
    const packages = new Set(examples.map((example) => example.readme.split('/')[1]));
    for (const name of ['rcp-ai-sdk', 'rcp-anthropic', 'rcp-gemini', 'rcp-langchain', 'rcp-openai', 'rcp-server', 'rcp-redis', 'rcp-oauth', 'rcp-model-fake']) {
      expect(packages).toContain(name);
    }
  });

  it('each README block is its file, as it is now (node scripts/readme-examples.mjs copies them)', () => {
    expect(readmeExampleProblems(root)).toEqual([]);
  });

  it.each(examples.map((example) => [example.file, example]))("%s is in its package's TypeScript project (tsc --build checks it)", (_file, example) => {
    const packageDir = dirname(example.readme);
    const project = JSON.parse(readFileSync(join(root, packageDir, 'tsconfig.test.json'), 'utf8'));
    const folder = example.file.slice(packageDir.length + 1).split('/')[0];
    expect(project.include).toContain(folder);
  });
});

describe('readme-examples.mjs', () => {
  let dir;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A repository of one package whose README names three files: one in sync, one changed, one missing. */
  function scratch() {
    dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
    mkdirSync(join(dir, 'packages', 'p', 'examples'), { recursive: true });
    writeFileSync(join(dir, 'packages', 'p', 'examples', 'same.ts'), 'const a: number = 1;\n');
    writeFileSync(join(dir, 'packages', 'p', 'examples', 'changed.ts'), 'const b: string = "new";\n');
    const readme = [
      '# p',
      '',
      '<!-- snippet:same from examples/same.ts -->',
      '```ts',
      'const a: number = 1;',
      '```',
      '',
      '<!-- snippet:changed from examples/changed.ts -->',
      '```ts',
      'const b: string = "old";',
      '```',
      '',
      '<!-- snippet:gone from examples/gone.ts -->',
      '```ts',
      'x;',
      '```',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'packages', 'p', 'README.md'), readme);
    return ['packages/p/README.md'];
  }

  it('names the README line of each block that is not its file, and of a file that does not exist', () => {
    const readmes = scratch();
    expect(readmeExampleProblems(dir, readmes)).toEqual([
      'packages/p/README.md:8 "<!-- snippet:changed" is not packages/p/examples/changed.ts as it is now: run node scripts/readme-examples.mjs',
      'packages/p/README.md:13 "<!-- snippet:gone" names examples/gone.ts, which does not exist',
    ]);
  });

  it('copies each file into its block, and refuses a marker naming a missing file', () => {
    const readmes = scratch();
    expect(() => writeReadmeExamples(dir, readmes)).toThrow('"<!-- snippet:gone" names examples/gone.ts, which does not exist');
    rmSync(join(dir, 'packages', 'p', 'README.md'));
    writeFileSync(
      join(dir, 'packages', 'p', 'README.md'),
      ['<!-- snippet:changed from examples/changed.ts -->', '```ts', 'const b: string = "old";', '```', ''].join('\n'),
    );
    expect(writeReadmeExamples(dir, readmes)).toEqual(['packages/p/README.md']);
    expect(readFileSync(join(dir, 'packages', 'p', 'README.md'), 'utf8')).toContain('const b: string = "new";');
    expect(readmeExampleProblems(dir, readmes)).toEqual([]);
  });
});
