/**
 * Every shell command block (```` ```sh ````) of the root README and of each README under packages/ and apps/,
 * executed or checked line by line, so that what a reader copies works as printed. Each line must have one of the
 * forms below, or the test fails naming the README and line — a new kind of command needs a check here first.
 *
 * - `npx -y pnpm@<v> …`: `<v>` is the repository's pnpm (`packageManager`); what follows is `install`, a root script,
 *   or `--filter <package> <script>` of a workspace package that has it. `demo …` runs the demo's built bin with those
 *   arguments and `rcp …` runs the CLI in this process (`runCli`), each expected to exit 0. A `demo --serve` line
 *   starts the server the next lines of its block talk to (on a free port instead of the printed one — a shared
 *   machine may have that port taken — and those lines get that port), and a `rcp inspect` line is stopped once it
 *   has printed its page's URL. `install`, `test` and `tarballs` are checked for form only: the suite and the pack are
 *   what CI (and the `tarballs` task this package's tests depend on) run.
 * - `npm install /path/to/rcp/tarballs/rcp-{…}-<version>.tgz … [name@range …] [--save-dev]`: every tarball is a
 *   published package at its version (tarballs.test.ts installs them all) and every other package is a peer that
 *   one of them declares, at a range of the same major.
 * - `cd /path/to/…`: the placeholder of the reader's own folder.
 * - `npx rcp …` (a bin of an installed package, from the reader's app): the bin exists, and the CLI runs the line.
 * - A block after `<!-- not-run: <reason> -->` is a usage synopsis (`rcp <command> [options]`, an indented line
 *   continuing the one above): each command's `--help` exits 0 and names every `--flag` of the command.
 *
 * An environment assignment before a command (`RCP_TOKEN=demo-token npx …`) is given to that command; `&&` joins
 * commands; `#` starts a comment.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli, runMcpCli } from 'rcp-cli';
import { SPAWN_TIMEOUT } from 'rcp-test-utils';
import { describe, expect, it } from 'vitest';
import { expandTarballs } from './readme-lines';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  scripts?: Record<string, string>;
  bin?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const rootPackage = readJson<Manifest & { packageManager: string }>(join(root, 'package.json'));
const workspace = new Map<string, { dir: string; manifest: Manifest }>();
for (const folder of ['packages', 'apps']) {
  for (const name of readdirSync(join(root, folder))) {
    const file = join(root, folder, name, 'package.json');
    if (existsSync(file)) workspace.set(readJson<Manifest>(file).name, { dir: join(root, folder, name), manifest: readJson<Manifest>(file) });
  }
}

/** One command block: its README, the line of its first command, its lines, and the `not-run` reason before it. */
interface CommandBlock {
  readonly readme: string;
  readonly line: number;
  readonly lines: readonly string[];
  readonly notRun: string | undefined;
}

/** The `sh` blocks of a README. */
function commandBlocks(readme: string): CommandBlock[] {
  const text = readFileSync(join(root, readme), 'utf8');
  const blocks: CommandBlock[] = [];
  for (const match of text.matchAll(/(?:<!-- not-run: ([^>]*?) -->\n)?```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)) {
    const line = text.slice(0, match.index).split('\n').length + (match[1] === undefined ? 1 : 2);
    const lines = match[2]!.split('\n');
    // A synopsis line may wrap: an indented line continues the command above it (kept as a blank line, so the
    // line numbers stay the README's).
    if (match[1] !== undefined) {
      for (let index = lines.length - 1; index > 0; index--) {
        if (/^\s+\S/.test(lines[index]!)) {
          lines[index - 1] = `${lines[index - 1]!.replace(/\s+#.*$/, '')} ${lines[index]!.trim()}`;
          lines[index] = '';
        }
      }
    }
    blocks.push({ readme, line, lines, notRun: match[1] });
  }
  return blocks;
}

const readmes = [
  'README.md',
  ...['packages', 'apps'].flatMap((folder) =>
    readdirSync(join(root, folder))
      .filter((name) => existsSync(join(root, folder, name, 'README.md')))
      .map((name) => `${folder}/${name}/README.md`),
  ),
];
const blocks = readmes.flatMap(commandBlocks);

/** A command of a line: its environment assignments and its words (no quoting is used in the READMEs). */
interface Command {
  readonly env: Record<string, string>;
  readonly words: string[];
}

/** The commands of a line, its comment dropped; [] for a blank or comment-only line. */
function commandsOf(line: string): Command[] {
  const code = line.replace(/(^|\s)#.*$/, '').trim();
  if (code === '') return [];
  return code.split(/\s+&&\s+/).map((part) => {
    const words = part.split(/\s+/);
    const env: Record<string, string> = {};
    while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0]!)) {
      const [name, ...value] = words.shift()!.split('=');
      env[name!] = value.join('=');
    }
    return { env, words };
  });
}

/** What a command wrote, and its exit code. */
interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

/** Runs the rcp command line in this process; a command that serves until stopped is stopped once it printed `until`. */
async function rcp(argv: readonly string[], env: Record<string, string>, until?: RegExp, mcp = false): Promise<Ran> {
  const stdout = capture();
  const stderr = capture();
  const stop = new AbortController();
  if (until !== undefined) {
    stdout.stream.on('data', () => {
      if (until.test(stdout.text())) stop.abort();
    });
  }
  const options = { stdout: stdout.stream, stderr: stderr.stream, env: { ...process.env, ...env }, cwd: root, signal: stop.signal };
  const code = await (mcp ? runMcpCli(argv, options) : runCli(argv, options));
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs the demo's built bin (what the root `demo` script runs once built); `--serve` is left running and returned. */
function demo(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [join(root, 'apps/demo/dist/cli.js'), ...args], { cwd: root, env: { ...process.env, ...env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<Ran>((resolve) => child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match !== null) resolve(match[0]);
      };
      child.stdout.on('data', check);
      void exited.then((ran) => reject(new Error(`the demo exited ${ran.code} before printing ${pattern}: ${ran.stderr}`)));
      check();
    });
  return { child, exited, printed };
}

/** The flags a synopsis line names (`--ctx`, `-o` …). */
const flagsOf = (words: readonly string[]) =>
  words.filter((word) => /^\[?-{1,2}[a-z]/.test(word)).map((word) => word.replace(/^\[/, '').replace(/[\]…]+$/, ''));

/** The major version a range starts at (`^6.0.0`, `6`, `>=6` → 6). */
const majorOf = (range: string) => Number(/(\d+)/.exec(range)?.[1]);

/** The exact version the pnpm catalog pins for a third-party package (pnpm-workspace.yaml). */
function catalogVersion(name: string): string | undefined {
  const quoted = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`^\\s+"?${quoted}"?:\\s*(\\S+)\\s*$`, 'm').exec(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8'))?.[1];
}

/**
 * The range a package declares for a third-party package its README installs beside it: a peer dependency, or the
 * SDK its tests run against (a `catalog:` dev dependency; an adapter with structural types has no peer).
 */
function declaredRange(manifest: Manifest, name: string): string | undefined {
  const peer = manifest.peerDependencies?.[name];
  if (peer !== undefined) return peer;
  return manifest.devDependencies?.[name] === 'catalog:' ? catalogVersion(name) : undefined;
}

/** Checks one `npm install` line: tarballs of published packages, other packages peers of theirs at the same major. */
function checkNpmInstall(words: readonly string[]): void {
  const tarballs = expandTarballs(words.join(' '), root);
  expect(tarballs.length).toBeGreaterThan(0);
  const installed = tarballs.map((file) => {
    const match = /\/tarballs\/(rcp-[a-z-]+)-(\d+\.\d+\.\d+)\.tgz$/.exec(file);
    expect(match, file).not.toBeNull();
    const entry = workspace.get(match![1]!);
    expect(entry?.manifest.private, match![1]).not.toBe(true);
    expect(entry!.manifest.version).toBe(match![2]);
    return entry!.manifest;
  });
  for (const word of words.slice(2).filter((candidate) => !candidate.startsWith('/path/to/rcp/'))) {
    if (word === '--save-dev') continue;
    const at = word.lastIndexOf('@');
    expect(at, word).toBeGreaterThan(0);
    const [name, range] = [word.slice(0, at), word.slice(at + 1)];
    const declared = installed.map((manifest) => declaredRange(manifest, name)).find((range) => range !== undefined);
    expect(
      declared,
      `${name} is a peer, or the catalog-pinned SDK the tests use, of one of ${installed.map((manifest) => manifest.name).join(', ')}`,
    ).toBeDefined();
    expect(majorOf(range), word).toBe(majorOf(declared!));
  }
}

/** Checks (and where it says so, runs) one block, line by line. */
async function checkBlock(block: CommandBlock): Promise<string[]> {
  const done: string[] = [];
  let served: ReturnType<typeof demo> | undefined;
  let port: { printed: string; actual: string } | undefined;
  const withPort = (words: string[]) =>
    port === undefined ? words : words.map((word) => word.replace(`127.0.0.1:${port!.printed}`, `127.0.0.1:${port!.actual}`));
  try {
    for (const [index, line] of block.lines.entries()) {
      const where = `${block.readme}:${block.line + index}`;
      for (const { env, words } of commandsOf(line)) {
        if (block.notRun !== undefined) {
          // A usage synopsis: the command exists and its help names every flag.
          const mcp = words[0] === 'rcp-mcp';
          expect(['rcp', 'rcp-mcp'], where).toContain(words[0]);
          const help = await rcp(mcp ? ['--help'] : [words[1]!, '--help'], {}, undefined, mcp);
          expect(help.code, `${where}: ${help.stderr}`).toBe(0);
          for (const flag of flagsOf(words)) expect(help.stdout, `${where}: ${flag}`).toContain(flag);
          done.push(`${where} usage of ${words.slice(0, mcp ? 1 : 2).join(' ')}`);
          continue;
        }
        // What runs must be plain words: no quoting, pipes, redirections or expansions (this reader runs none).
        expect(words.join(' '), where).not.toMatch(/['"`$\\|;<>]/);
        if (words[0] === 'cd') {
          expect(words[1], where).toMatch(/^\/path\/to\//);
          done.push(`${where} cd (placeholder)`);
          continue;
        }
        if (words[0] === 'npm' && words[1] === 'install') {
          checkNpmInstall(words);
          done.push(`${where} npm install (form)`);
          continue;
        }
        if (words[0] === 'npx' && words[1] !== '-y') {
          // A bin of an installed package, run from the reader's app: rcp-cli's `rcp`.
          expect(words[1], where).toBe('rcp');
          expect(workspace.get('rcp-cli')!.manifest.bin?.['rcp'], where).toBeDefined();
          const ran = await rcp(words.slice(2), env);
          expect(ran.code, `${where}: ${ran.stderr}`).toBe(0);
          done.push(`${where} ran rcp ${words.slice(2).join(' ')}`);
          continue;
        }
        expect(words.slice(0, 2), where).toEqual(['npx', '-y']);
        expect(words[2], where).toBe(rootPackage.packageManager);
        const [script, ...args] = words.slice(3);
        if (script === '--filter') {
          const entry = workspace.get(args[0]!);
          expect(entry, `${where}: workspace package ${args[0]}`).toBeDefined();
          expect(entry!.manifest.scripts?.[args[1]!], `${where}: script ${args[1]} of ${args[0]}`).toBeDefined();
          done.push(`${where} pnpm --filter ${args[0]} ${args[1]} (form)`);
        } else if (script === 'install') {
          expect(args, where).toEqual([]);
          done.push(`${where} pnpm install (form)`);
        } else if (script === 'rcp') {
          expect(rootPackage.scripts?.['rcp']).toBeDefined();
          const inspect = args[0] === 'inspect';
          const ran = await rcp(withPort(args), env, inspect ? /RCP inspector: http:\/\/127\.0\.0\.1:\d+\//u : undefined);
          expect(ran.code, `${where}: ${ran.stderr}`).toBe(0);
          if (args.includes('--ctx')) expect(ran.stdout, where).not.toMatch(/warning/i);
          done.push(`${where} ran rcp ${args[0]}`);
        } else if (script === 'demo') {
          expect(rootPackage.scripts?.['demo']).toBeDefined();
          if (args.includes('--serve')) {
            const portAt = args.indexOf('--port');
            const actual = [...args];
            if (portAt !== -1) actual[portAt + 1] = '0';
            served = demo(actual, env);
            const url = await served.printed(/http:\/\/127\.0\.0\.1:\d+\/rcp\/manifest/);
            port = { printed: args[portAt + 1] ?? '', actual: new URL(url).port };
            done.push(`${where} ran demo --serve`);
          } else {
            const ran = await demo(args, env).exited;
            expect(ran.code, `${where}: ${ran.stderr}`).toBe(0);
            done.push(`${where} ran demo ${args.join(' ')}`);
          }
        } else {
          expect(rootPackage.scripts?.[script!], `${where}: root script ${script}`).toBeDefined();
          done.push(`${where} pnpm ${script} (form)`);
        }
      }
    }
  } finally {
    if (served !== undefined) {
      served.child.kill();
      await served.exited;
    }
  }
  return done;
}

it('finds the command blocks of the root README and of the package and app READMEs', () => {
  expect(blocks.filter((block) => block.readme === 'README.md').length).toBeGreaterThanOrEqual(3);
  expect(new Set(blocks.map((block) => block.readme)).size).toBeGreaterThan(15);
});

describe.each(blocks.map((block) => [`${block.readme}:${block.line}`, block] as const))('%s', (_where, block) => {
  it('runs, or is checked, as printed', { timeout: SPAWN_TIMEOUT }, async () => {
    const done = await checkBlock(block);
    // Every command of the block was run or checked.
    expect(done).toHaveLength(block.lines.flatMap(commandsOf).length);
  });
});
