import type { ModelTool, RegisteredModelTool, SchemaAdapter } from '../model-tool';
import { isRecord } from 'rcp-internal';
import { frozenCopy } from './frozen';

const isNonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * A frozen snapshot of a schema adapter, or the problems that prevent one (a tool's input
 * schema must also be an object schema: `requireObjectSchema`). The JSON Schema
 * is deep-copied and frozen; `parse` is captured now and still runs with the original
 * adapter as `this`, so later changes to the adapter cannot change the snapshot.
 */
export function snapshotSchemaAdapter<T>(
  adapter: SchemaAdapter<T>,
  where: string,
  requireObjectSchema: boolean,
): { adapter: SchemaAdapter<T>; issues: [] } | { adapter: undefined; issues: string[] } {
  if (!isRecord(adapter)) return { adapter: undefined, issues: [`${where} must be a schema adapter { jsonSchema, parse }`] };
  const issues: string[] = [];
  const { jsonSchema, parse } = adapter;
  if (typeof parse !== 'function') issues.push(`${where}.parse must be a function`);
  let schema: SchemaAdapter<T>['jsonSchema'] | undefined;
  if (!isRecord(jsonSchema)) {
    issues.push(`${where}.jsonSchema must be a JSON Schema object`);
  } else if (requireObjectSchema && jsonSchema.type !== 'object') {
    issues.push(`${where}.jsonSchema must be an object schema (type: 'object')`);
  } else {
    try {
      schema = frozenCopy(jsonSchema);
    } catch {
      issues.push(`${where}.jsonSchema must be plain data (it could not be copied)`);
    }
  }
  if (issues.length > 0 || schema === undefined) return { adapter: undefined, issues };
  const snapshot: SchemaAdapter<T> = {
    jsonSchema: schema,
    parse: (value: unknown) => parse.call(adapter, value),
  };
  return { adapter: Object.freeze(snapshot), issues: [] };
}

/**
 * Validates one tool definition and returns its frozen snapshot, or the problems found.
 * `resolve` is captured now and still runs with the original definition as `this`.
 */
export function snapshotTool<Output>(
  tool: ModelTool<any, Output>,
  where: string,
): { tool: RegisteredModelTool<Output>; issues: [] } | { tool: undefined; issues: string[] } {
  if (!isRecord(tool)) return { tool: undefined, issues: [`${where} must be a tool definition object`] };
  const issues: string[] = [];
  const { id, description, inputSchema, active, asIntent, resolve } = tool;
  if (!isNonBlank(id)) issues.push(`${where}.id must be a non-blank string`);
  if (!isNonBlank(description)) issues.push(`${where}.description must be a non-empty string`);
  const schema = snapshotSchemaAdapter(inputSchema, `${where}.inputSchema`, true);
  issues.push(...schema.issues);
  if (typeof resolve !== 'function') issues.push(`${where}.resolve must be a function`);
  if (issues.length > 0 || schema.adapter === undefined) return { tool: undefined, issues };
  const snapshot: RegisteredModelTool<Output> = {
    id,
    description,
    inputSchema: schema.adapter,
    ...(active !== undefined ? { active } : {}),
    ...(asIntent !== undefined ? { asIntent } : {}),
    resolve: (input, context) => resolve.call(tool, input, context),
  };
  return { tool: Object.freeze(snapshot), issues: [] };
}
