#!/usr/bin/env node
// `pnpm check:packages` (turbo's `check:package` task, in test/workspace-checks): every
// published package's tarball — packed once, as a release packs it, by this package's `tarballs`
// task (scripts/pack.mjs: the README's `pnpm tarballs`), which install-test installs too — checked
// by `publint --strict` and by "Are the types wrong?" with the node16 profile: the checks the two
// CLIs run, in ONE process (the CLIs cost a Node start, a package-manager `pack` and a TypeScript
// load per package, which was most of their CPU).
import { existsSync, readFileSync } from 'node:fs';
import { checkTarball } from './check-tarball.mjs';
import { publishedPackages, tarballOf } from './workspace.mjs';

const published = publishedPackages();
let failed = 0;
for (const { manifest } of published) {
  const file = tarballOf(manifest);
  if (!existsSync(file)) throw new Error(`no tarball for ${manifest.name} at ${file}: run this package's \`tarballs\` script first`);
  const lines = await checkTarball(readFileSync(file));
  if (lines.length === 0) {
    console.log(`✓ ${manifest.name}`);
  } else {
    failed++;
    console.log(`✗ ${manifest.name}\n${lines.map((line) => `  ${line}`).join('\n')}`);
  }
}
if (failed > 0) {
  console.error(`${failed} of ${published.length} packages failed publint --strict or attw (node16 profile).`);
  process.exit(1);
}
console.log(`All ${published.length} published packages pass publint --strict and attw (node16 profile), and ship what their README links to.`);
