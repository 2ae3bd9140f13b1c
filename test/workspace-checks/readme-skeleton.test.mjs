// One README skeleton for every package (issue 40, CONTRIBUTING.md "Package READMEs"): `# name` and a paragraph
// saying what the package is for; `## Install` first of the `##` sections, in the one short form that links to the
// root README's Install section instead of repeating how to build the tarballs; `## Options` or `## API`;
// `## Errors` (or a link to where the codes are listed) before `## Links`, which is last and links the package's
// docs/behaviour.md; no `## Tests` section (what the tests prove is in docs/behaviour.md).
//
// Every published package's README is checked: a new package's README follows the skeleton from its first commit.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, workspaceProjects } from './workspace.mjs';

/** The sentence every Install section starts with; how to build the tarballs is the root README's, written once. */
const INSTALL_LEAD = 'Not on the npm registry yet: [build the tarballs](../../README.md#install) in a clone of this repository, then install them in your app:';

/**
 * A README's headings outside code blocks, each with the text of its section (up to the next heading of its level
 * or above).
 */
export function readmeSections(text) {
  const lines = text.split('\n');
  const headings = [];
  let fenced = false;
  for (const [index, line] of lines.entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^(#{1,6}) (.+)$/.exec(line);
    if (match !== null) headings.push({ level: match[1].length, title: match[2].trim(), index });
  }
  return headings.map((heading, at) => {
    const next = headings.slice(at + 1).find((other) => other.level <= heading.level);
    return { ...heading, body: lines.slice(heading.index + 1, next?.index ?? lines.length).join('\n') };
  });
}

/** What a README lacks of the skeleton, as sentences (empty when it has it all). */
export function skeletonProblems(name, text, hasBehaviourDoc) {
  const problems = [];
  const sections = readmeSections(text);
  const top = sections.filter((section) => section.level === 2);
  const titles = top.map((section) => section.title);
  const position = (title) => titles.indexOf(title);
  if (sections[0]?.level !== 1 || sections[0].title !== name || sections[0].index !== 0) problems.push(`the first line is not "# ${name}"`);
  if (sections.filter((section) => section.level === 1).length !== 1) problems.push('not exactly one "#" heading');
  const intro = text.split('\n').slice(1, sections[1]?.index).join('\n');
  if (!/[A-Za-z]/.test(intro.replace(/```[\s\S]*?```/g, ''))) problems.push('no paragraph after the title saying what the package is for');
  if (titles[0] !== 'Install') problems.push(`the first "##" section is "${titles[0]}", not "Install"`);
  if (titles.at(-1) !== 'Links') problems.push(`the last "##" section is "${titles.at(-1)}", not "Links"`);
  for (const title of titles) if (/^Tests?\b|^Testing\b/.test(title)) problems.push(`a "## ${title}" section (what the tests prove goes to docs/behaviour.md)`);
  const reference = Math.max(position('Options'), position('API'));
  if (reference === -1) problems.push('no "## Options" or "## API" section');
  const errors = position('Errors');
  const links = top.find((section) => section.title === 'Links');
  if (errors === -1 && !/\]\([^)]*errors[^)]*\)/i.test(links?.body ?? '')) problems.push('no "## Errors" section, and Links names no list of errors');
  if (errors !== -1 && reference > errors) problems.push('"## Errors" comes before the Options/API reference');
  const install = top.find((section) => section.title === 'Install');
  if (install !== undefined) {
    const body = install.body.trim();
    if (!body.startsWith(INSTALL_LEAD)) problems.push(`Install does not start with "${INSTALL_LEAD}"`);
    if (!/^npm install \/path\/to\/rcp\/tarballs\//m.test(body)) problems.push('Install has no "npm install /path/to/rcp/tarballs/…" line');
    if (/^npx -y pnpm@\S+ install && /m.test(body)) problems.push("Install repeats how to build the tarballs (the root README's Install says it once)");
  }
  if (hasBehaviourDoc && !/\]\(\.\/docs\/behaviour\.md\)|\]\(docs\/behaviour\.md\)/.test(links?.body ?? '')) {
    problems.push('Links does not link docs/behaviour.md');
  }
  return problems;
}

const published = workspaceProjects()
  .filter(({ dir, manifest }) => dir.startsWith('packages') && manifest.private !== true)
  .map(({ dir, manifest }) => ({ dir, name: manifest.name }));
const readmeOf = (dir) => readFileSync(join(root, dir, 'README.md'), 'utf8');
const hasBehaviourDoc = (dir) => existsSync(join(root, dir, 'docs', 'behaviour.md'));

describe('package READMEs', () => {
  it('are found (the premise): every published package of packages/', () => {
    expect(published.length).toBeGreaterThanOrEqual(20);
    expect(published.map(({ name }) => name)).toContain('rcp-client');
  });

  it.each(published.map(({ name }) => name))('%s has the skeleton', (name) => {
    const { dir } = published.find((entry) => entry.name === name);
    expect(skeletonProblems(name, readmeOf(dir), hasBehaviourDoc(dir))).toEqual([]);
  });
});

describe('skeletonProblems', () => {
  const good = [
    '# rcp-x',
    '',
    'What it is for.',
    '',
    '## Install',
    '',
    INSTALL_LEAD,
    '',
    '```sh',
    'npm install /path/to/rcp/tarballs/rcp-{errors,x}-0.1.0.tgz',
    '```',
    '',
    '## Use',
    '',
    '```sh',
    '# not a heading: inside a code block',
    '```',
    '',
    '## Options',
    '',
    '## Errors',
    '',
    '## Links',
    '',
    '- [Behaviour](./docs/behaviour.md)',
    '',
  ].join('\n');

  it('passes a README with the skeleton', () => {
    expect(skeletonProblems('rcp-x', good, true)).toEqual([]);
  });

  it('names what a README lacks: a Tests section, Links not last, the tarball build repeated, no behaviour link', () => {
    const bad = good
      .replace('## Links', '## Tests\n\n## Links')
      .replace('- [Behaviour](./docs/behaviour.md)\n', '- nothing\n\n## License\n')
      .replace('```sh\nnpm install', '```sh\nnpx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 tarballs\nnpm install');
    expect(skeletonProblems('rcp-x', bad, true)).toEqual([
      'the last "##" section is "License", not "Links"',
      'a "## Tests" section (what the tests prove goes to docs/behaviour.md)',
      "Install repeats how to build the tarballs (the root README's Install says it once)",
      'Links does not link docs/behaviour.md',
    ]);
  });

  it('accepts errors linked from Links instead of a section, and wants Install first', () => {
    const linked = good.replace('## Errors\n\n', '').replace('- [Behaviour]', '- [Errors](../../SPEC.md#14-errors)\n- [Behaviour]');
    expect(skeletonProblems('rcp-x', linked, true)).toEqual([]);
    const moved = good.replace('## Install', '## Intro\n\n## Install');
    expect(skeletonProblems('rcp-x', moved, true)).toEqual(['the first "##" section is "Intro", not "Install"']);
  });
});
