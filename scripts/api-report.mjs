#!/usr/bin/env node
// `pnpm api` / the public-surface check (issue 40): one API Extractor report per public entry of every published
// package, committed as `packages/<pkg>/api/<entry>.api.md`, so every change of the public surface shows in review.
// It reads the rolled-up declarations (`dist/*.d.ts`, written by `pnpm typecheck`), never the sources.
//
//   node scripts/api-report.mjs           check: fails when a report differs from what the declarations say
//   node scripts/api-report.mjs --update  writes the reports (run after changing an export, and commit them)
//
// An export without TSDoc is marked `(undocumented)` in the report; the check refuses any (TSDoc on every export; a
// member without its own comment is marked, and allowed).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { publishedEntries, root } from './package-entries.mjs';

const update = process.argv.includes('--update');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const temp = mkdtempSync(join(tmpdir(), 'rcp-api-'));
const problems = [];

const COMPILER = { compilerOptions: { lib: ['ES2023', 'DOM'], types: ['node'], skipLibCheck: true, strict: true } };
const MESSAGES = {
  compilerMessageReporting: { default: { logLevel: 'warning' } },
  extractorMessageReporting: {
    default: { logLevel: 'warning' },
    'ae-missing-release-tag': { logLevel: 'none' },
    'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
    'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
    // Members (a property, an enum-like key) are marked in the report; the check below counts exports.
    'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
  },
  tsdocMessageReporting: { default: { logLevel: 'none' } },
};

try {
  const reports = [];
  for (const { dir, name, specifiers } of await publishedEntries()) {
    if (only.length > 0 && !only.includes(name)) continue;
    const projectFolder = join(root, dir);
    const reportFolder = join(projectFolder, 'api');
    mkdirSync(reportFolder, { recursive: true });
    // One report per public specifier (`rcp-ai-sdk`, `rcp-ai-sdk/search`); a bin's entry has none.
    for (const [specifier, entry] of Object.entries(specifiers).sort(([a], [b]) => a.localeCompare(b))) {
      const reportName = specifier.replace(/\//g, '-');
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder,
          mainEntryPointFilePath: join(projectFolder, 'dist', `${entry}.d.ts`),
          bundledPackages: [],
          compiler: { overrideTsconfig: COMPILER },
          apiReport: { enabled: true, reportFileName: `${reportName}.api.md`, reportFolder, reportTempFolder: temp },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: MESSAGES,
        },
        configObjectFullPath: join(projectFolder, 'api-extractor.json'),
        packageJsonFullPath: join(projectFolder, 'package.json'),
      });
      reports.push({ config, reportName, reportFolder, dir });
    }
  }
  // One TypeScript program for every entry (API Extractor's CompilerState), shared by all the reports.
  const compilerState = CompilerState.create(reports[0].config, { additionalEntryPoints: reports.map(({ config }) => config.mainEntryPointFilePath) });
  for (const { config, reportName, reportFolder, dir } of reports) {
    const result = Extractor.invoke(config, {
      localBuild: update,
      compilerState,
      messageCallback: (message) => {
        if (message.logLevel === 'warning' || message.logLevel === 'error') problems.push(`${reportName}: ${message.text}`);
        message.handled = true;
      },
    });
    if (!update && result.apiReportChanged) problems.push(`${reportName}: the public surface changed; run \`pnpm api --update\` and commit ${dir}/api/`);
    const lines = readFileSync(join(reportFolder, `${reportName}.api.md`), 'utf8').split('\n');
    const undocumented = lines.flatMap((line, index) =>
      /^\/\/ .*\(undocumented\)/.test(line) && /^export /.test(lines[index + 1] ?? '') ? [lines[index + 1]] : [],
    );
    for (const declaration of undocumented) problems.push(`${reportName}: an export without TSDoc: ${declaration.slice(0, 120)}`);
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
