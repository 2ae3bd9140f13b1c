#!/usr/bin/env node
// `pnpm check:packages` (turbo's `check:package` task, in packages/workspace-checks): every
// published package packed as a release packs it (one `pnpm pack` over all of them), then each
// tarball checked by `publint --strict` and by "Are the types wrong?" with the node16 profile —
// the checks the two CLIs run, in ONE process: the CLIs cost a Node start, a package-manager
// `pack` and a TypeScript load per package, which was most of their CPU.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTarball } from './check-tarball.mjs';
import { publishedPackages, root } from './workspace.mjs';

const published = publishedPackages();
const destination = mkdtempSync(join(tmpdir(), 'rcp-check-packages-'));
let failed = 0;
try {
  const pnpm = process.env.npm_execpath !== undefined && /pnpm/.test(process.env.npm_execpath) ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
  const filters = published.flatMap(({ manifest }) => ['--filter', manifest.name]);
  execFileSync(pnpm[0], [...pnpm.slice(1), '--recursive', ...filters, 'pack', '--pack-destination', destination], { cwd: root, stdio: 'ignore' });

  for (const { manifest } of published) {
    const tarballName = readdirSync(destination).find((file) => file === `${manifest.name}-${manifest.version}.tgz`);
    if (tarballName === undefined) throw new Error(`pnpm pack wrote no tarball for ${manifest.name}`);
    const tarball = readFileSync(join(destination, tarballName));
    const lines = await checkTarball(tarball);

    if (lines.length === 0) {
      console.log(`✓ ${manifest.name}`);
    } else {
      failed++;
      console.log(`✗ ${manifest.name}\n${lines.map((line) => `  ${line}`).join('\n')}`);
    }
  }
} finally {
  rmSync(destination, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(`${failed} of ${published.length} packages failed publint --strict or attw (node16 profile).`);
  process.exit(1);
}
console.log(`All ${published.length} published packages pass publint --strict and attw (node16 profile).`);
