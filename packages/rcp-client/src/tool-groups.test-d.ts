import { expectTypeOf, test } from 'vitest';
import type { RcpClientTool, RcpToolGroup, RcpToolSet, RcpToolSetGroup } from './index';

declare const tool: RcpClientTool;
declare const toolSet: RcpToolSet;

test('a tool may have a group (RCP 0.4); a tool set lists its groups, read-only', () => {
  expectTypeOf(tool.group).toEqualTypeOf<RcpToolGroup | undefined>();
  expectTypeOf<RcpToolGroup>().toEqualTypeOf<{ readonly name: string; readonly description: string }>();
  expectTypeOf(toolSet.groups).toEqualTypeOf<readonly RcpToolSetGroup[]>();
  expectTypeOf<RcpToolSetGroup['names']>().toEqualTypeOf<readonly string[]>();
  // @ts-expect-error the groups are read-only
  toolSet.groups[0]!.names.push('x');
});
