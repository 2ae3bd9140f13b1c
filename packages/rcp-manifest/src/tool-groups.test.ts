import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ManifestIssue, RcpManifestError, safeParseManifest } from './index';

type Json = Record<string, unknown>;

const tool = (name: string, group?: unknown): Json => ({
  name,
  description: `${name}.`,
  method: 'GET',
  url: `/${name}`,
  ...(group !== undefined && { group }),
});
const invoices: Json = { name: 'invoices', description: 'Invoices and their payments.' };
const customers: Json = { name: 'customers', description: 'People and companies who pay.' };

function parsed(input: Json) {
  const result = safeParseManifest(input);
  if (!result.ok) throw result.error;
  return result;
}

function issuesOf(input: Json): readonly ManifestIssue[] {
  const result = safeParseManifest(input);
  if (result.ok) throw new Error('expected the manifest to be refused');
  expect(result.error).toBeInstanceOf(RcpManifestError);
  expect(result.error.code).toBe('RCP_INVALID_MANIFEST');
  return (result.error as RcpManifestError).issues;
}

describe('RCP 0.4 tool groups (SPEC §20.3)', () => {
  it('keeps the groups and each tool’s group as written (known fields only, frozen)', () => {
    const result = parsed({
      rcpVersion: '0.4',
      groups: [{ ...invoices, color: 'red' }, customers],
      tools: [tool('list_invoices', 'invoices'), tool('get_customer', 'customers'), tool('ping')],
    });
    expect(result.manifest.groups).toEqual([invoices, customers]);
    expect(Object.isFrozen(result.manifest.groups)).toBe(true);
    expect(Object.isFrozen(result.manifest.groups![0])).toBe(true);
    expect(result.manifest.tools.map((entry) => entry.group)).toEqual(['invoices', 'customers', undefined]);
    expect(result.warnings).toEqual([{ path: '/groups/0/color', message: 'unknown field "color" is ignored' }]);
  });

  it('takes a group without a description', () => {
    const result = parsed({ rcpVersion: '0.4', groups: [{ name: 'misc' }], tools: [tool('ping', 'misc')] });
    expect(result.manifest.groups).toEqual([{ name: 'misc' }]);
    expect(result.warnings).toEqual([]);
  });

  it('refuses a tool that names an unknown group, naming the tool and the group', () => {
    expect(issuesOf({ rcpVersion: '0.4', groups: [invoices], tools: [tool('list_invoices', 'invoices'), tool('refund', 'refunds')] })).toEqual([
      { path: '/tools/1/group', message: `tool "refund" names group "refunds", which is not one of the manifest's groups` },
    ]);
    expect(issuesOf({ rcpVersion: '0.4', tools: [tool('refund', 'refunds')] })).toEqual([
      { path: '/tools/0/group', message: `tool "refund" names group "refunds", which is not one of the manifest's groups` },
    ]);
  });

  it('compares a tool’s group exactly, and says which group differs only in case', () => {
    expect(issuesOf({ rcpVersion: '0.4', groups: [invoices], tools: [tool('list_invoices', 'Invoices')] })).toEqual([
      {
        path: '/tools/0/group',
        message: `tool "list_invoices" names group "Invoices", which is not one of the manifest's groups (did you mean "invoices"? group names are compared exactly)`,
      },
    ]);
  });

  it('refuses a duplicate group name, regardless of case, at the later one', () => {
    const groups = [invoices, customers, { name: 'invoices' }, { name: 'Customers' }];
    expect(issuesOf({ rcpVersion: '0.4', groups, tools: [tool('a', 'invoices'), tool('b', 'customers')] })).toEqual([
      { path: '/groups/2/name', message: 'duplicate group name "invoices" (already used at /groups/0)' },
      {
        path: '/groups/3/name',
        message: 'group name "Customers" differs only in case from the one at /groups/1 (names must be unique regardless of case)',
      },
    ]);
  });

  it('checks the structure: names written like tool names, descriptions strings, tools naming a group by a name', () => {
    const input = {
      rcpVersion: '0.4',
      groups: [{ name: 'has space', description: 3 }, {}, 'x'],
      tools: [tool('a', 5), tool('b', 'bad name')],
    };
    expect(issuesOf(input).map((issue) => issue.path)).toEqual([
      '/groups/0/description',
      '/groups/0/name',
      '/groups/1/name',
      '/groups/2',
      '/tools/0/group',
      '/tools/1/group',
    ]);
    expect(issuesOf({ rcpVersion: '0.4', groups: {}, tools: [] })).toEqual([{ path: '/groups', message: 'must be an array' }]);
  });

  it('warns about a group no tool names', () => {
    expect(parsed({ rcpVersion: '0.4', groups: [invoices, customers], tools: [tool('a', 'invoices')] }).warnings).toEqual([
      { path: '/groups/1', message: 'group "customers" is declared but no tool names it' },
    ]);
  });

  it.each(['0.1', '0.2', '0.3'])('ignores groups in a %s manifest, with a warning, as a client of that version does', (version) => {
    const result = parsed({ rcpVersion: version, groups: [invoices, 'not even a group'], tools: [tool('a', 'invoices'), tool('b', 'nowhere')] });
    expect(result.manifest).not.toHaveProperty('groups');
    expect(result.manifest.tools.map((entry) => Object.hasOwn(entry, 'group'))).toEqual([false, false]);
    const why = `needs rcpVersion "0.4": ignored (this manifest says "${version}", whose clients ignore it)`;
    expect(result.warnings).toEqual([
      { path: '/groups', message: `"groups" ${why}` },
      { path: '/tools/0/group', message: `"group" ${why}` },
      { path: '/tools/1/group', message: `"group" ${why}` },
    ]);
  });

  it('is in the shipped JSON Schema', async () => {
    const shipped = JSON.parse(readFileSync(new URL('../rcp-manifest.schema.json', import.meta.url), 'utf8')) as object;
    const { default: Ajv } = (await import('ajv')) as unknown as { default: new (options: object) => { compile(schema: object): (data: unknown) => boolean } };
    const validate = new Ajv({ strict: false }).compile(shipped);
    expect(validate({ rcpVersion: '0.4', groups: [invoices], tools: [tool('a', 'invoices')] })).toBe(true);
    expect(validate({ rcpVersion: '0.4', groups: [{ name: 'has space' }], tools: [] })).toBe(false);
    expect(validate({ rcpVersion: '0.4', groups: [{ description: 'no name' }], tools: [] })).toBe(false);
    expect(validate({ rcpVersion: '0.4', tools: [tool('a', 'bad name')] })).toBe(false);
  });
});
