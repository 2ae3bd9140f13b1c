#!/usr/bin/env node
// Where the time of a `pnpm test` went, printed at the end of `.ci/run`:
//   - the 20 slowest tests, from the JSON report each vitest run writes to .test-reports/ (vitest.shared.ts) and the
//     JUnit XML of pytest (python/run-tests.sh);
//   - the slowest turbo tasks, from turbo's run summary (.turbo/runs/, written when TURBO_RUN_SUMMARY=true);
//   - the total: the run's wall time, the tests counted, and the CPU time if the caller passes it.
// Only reports written since the run started count (a test task replayed from turbo's cache writes none).
//   node scripts/test-times.mjs [--since <epoch ms>] [--cpu "<user s> <sys s>"]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const option = (name) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};

/** The newest turbo run summary, or undefined. */
function latestRunSummary() {
  const dir = join(root, '.turbo', 'runs');
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => join(dir, file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return files.length === 0 ? undefined : JSON.parse(readFileSync(files[0], 'utf8'));
}

const summary = latestRunSummary();
const since = Number(option('--since') ?? summary?.execution?.startTime ?? 0);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const pad = (text, width) => (text.length >= width ? text : text + ' '.repeat(width - text.length));

/** Every test of the reports written since the run started: its suite, name and duration in ms. */
function collectTests() {
  const dir = join(root, '.test-reports');
  if (!existsSync(dir)) return [];
  const tests = [];
  for (const file of readdirSync(dir)) {
    const path = join(dir, file);
    if (statSync(path).mtimeMs < since) continue;
    const suite = file.replace(/\.(json|xml)$/, '');
    const text = readFileSync(path, 'utf8');
    if (file.endsWith('.json')) {
      for (const result of JSON.parse(text).testResults ?? []) {
        const where = result.name.startsWith(root) ? result.name.slice(root.length) : result.name;
        for (const test of result.assertionResults ?? []) {
          if (test.status === 'passed' || test.status === 'failed') tests.push({ suite, where, name: test.fullName, ms: test.duration ?? 0 });
        }
      }
    } else {
      for (const match of text.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*? time="([\d.]+)"/g)) {
        tests.push({ suite, where: match[1], name: match[2], ms: Number(match[3]) * 1000 });
      }
    }
  }
  return tests;
}

const tests = collectTests().sort((a, b) => b.ms - a.ms);
if (tests.length > 0) {
  console.log(`\nThe 20 slowest of ${tests.length} tests:`);
  for (const test of tests.slice(0, 20)) console.log(`  ${pad(seconds(test.ms), 8)} ${test.where} › ${test.name.slice(0, 110)}`);
}

if (summary !== undefined) {
  const tasks = summary.tasks
    .filter((task) => task.cache?.status !== 'HIT' && task.execution !== undefined)
    .map((task) => ({ id: task.taskId, ms: task.execution.endTime - task.execution.startTime, exitCode: task.execution.exitCode }))
    .sort((a, b) => b.ms - a.ms);
  const cached = summary.tasks.length - tasks.length;
  console.log(`\nThe slowest of ${tasks.length} tasks run (${cached} replayed from turbo's cache), wall time each:`);
  for (const task of tasks.slice(0, 15)) console.log(`  ${pad(seconds(task.ms), 8)} ${task.id}${task.exitCode === 0 ? '' : `  (exit ${task.exitCode})`}`);
  const { startTime, endTime } = summary.execution;
  console.log(`\nturbo run: ${seconds(endTime - startTime)} wall`);
}
const cpu = option('--cpu');
const total = [`${tests.length} tests timed`];
if (cpu !== undefined) {
  const [user, sys] = cpu.split(/\s+/).map(Number);
  total.push(`CPU ${user.toFixed(0)} s user + ${sys.toFixed(0)} s sys`);
}
console.log(`total: ${total.join(', ')}`);
