// The checks of one packed package, as `publint --strict` and `attw --profile node16` run them, and the README's
// links into the package (`docs/behaviour.md`) that a reader of the installed package follows: what each reports,
// one line per problem; none when the tarball passes them all.
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

/** The node16 profile of the attw CLI: the node10 resolution is not a target. */
const IGNORED_RESOLUTIONS = new Set(['node10']);

/**
 * Checks a package tarball (the bytes of a `.tgz` as `npm pack` / `pnpm pack` write it).
 *
 * @example
 * ```js
 * const problems = await checkTarball(readFileSync('tarballs/rcp-client-0.1.0.tgz'));
 * if (problems.length > 0) console.log(problems.join('\n'));
 * ```
 *
 * @param {Uint8Array} tarball
 * @returns {Promise<string[]>}
 */
export async function checkTarball(tarball) {
  const problems = [];
  // publint --strict: warnings count as errors; suggestions are not failures.
  const copy = tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball: copy }, strict: true });
  for (const message of messages) {
    if (message.type !== 'suggestion') problems.push(`publint ${message.type}: ${formatMessage(message, pkg, { color: false })}`);
  }
  const packed = createPackageFromTarballData(new Uint8Array(tarball));
  problems.push(...readmeLinkProblems(packed));
  // attw: a package without types has nothing to check (the CLI exits 0 for it too).
  const analysis = await checkPackage(packed);
  if (analysis.types) {
    for (const problem of analysis.problems) {
      if ('resolutionKind' in problem && IGNORED_RESOLUTIONS.has(problem.resolutionKind)) continue;
      // The problem's own fields say where: entry point, resolution, the files involved.
      const where = Object.entries(problem)
        .filter(([key, value]) => key !== 'kind' && (typeof value === 'string' || typeof value === 'number'))
        .map(([key, value]) => `${key}: ${value}`)
        .join(', ');
      problems.push(`attw ${problem.kind}${where === '' ? '' : ` (${where})`}`);
    }
  }
  return problems;
}

/** A Markdown link's target: `[text](target)` or `[text](target "title")`. */
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

/**
 * The README's relative links into its own package (not `http…`, not `#…`, not `../` into the repository) that name
 * no file in the tarball: the page a reader of the installed package cannot open.
 */
function readmeLinkProblems(packed) {
  const base = `/node_modules/${packed.packageName}/`;
  const readme = packed.tryReadFile(`${base}README.md`);
  if (readme === undefined) return [];
  const problems = new Set();
  for (const [, target] of readme.matchAll(LINK)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('../')) continue;
    const path = target.replace(/#.*$/, '').replace(/^\.\//, '');
    if (!packed.fileExists(`${base}${path}`) && !packed.directoryExists(`${base}${path}`)) {
      problems.add(`README.md links to ${path}, which is not in the package (add it to "files")`);
    }
  }
  return [...problems];
}
