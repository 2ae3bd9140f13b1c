// The checks of one packed package, as `publint --strict` and `attw --profile node16` run them:
// what each reports, one line per problem; none when the tarball passes both.
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
  // attw: a package without types has nothing to check (the CLI exits 0 for it too).
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(tarball)));
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
