/**
 * Reading the install lines out of a README, so the tests check (and run) what a reader copies.
 */

/** The README's line that builds the tarballs (`npx -y pnpm@… install && … tarballs`), its comment dropped. */
export function readmeBuildLine(text: string): string | undefined {
  const line = text.split('\n').find((candidate) => /^npx -y pnpm@\S+ install && npx -y pnpm@\S+ tarballs\b/.test(candidate));
  return line?.replace(/\s+#.*$/, '').trim();
}

/** The README's `npm install /path/to/rcp/tarballs/rcp-{…}-0.1.0.tgz …` line, its comment dropped. */
export function readmeTarballLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.startsWith('npm install /path/to/rcp/tarballs/'));
  if (line === undefined) throw new Error('no "npm install /path/to/rcp/tarballs/…" line');
  return line.replace(/\s+#.*$/, '').trim();
}

/**
 * The tarball paths of such a line, its shell brace list expanded and `/path/to/rcp` replaced by
 * `clone` (other arguments, such as `ai@6`, are left out).
 */
export function expandTarballs(line: string, clone: string): string[] {
  return line
    .split(/\s+/)
    .slice(2)
    .filter((word) => word.startsWith('/path/to/rcp/'))
    .flatMap((word) => {
      const braces = /^(.*)\{([^}]*)\}(.*)$/.exec(word);
      return braces === null ? [word] : braces[2]!.split(',').map((part) => `${braces[1]}${part}${braces[3]}`);
    })
    .map((word) => word.replace('/path/to/rcp', clone));
}
