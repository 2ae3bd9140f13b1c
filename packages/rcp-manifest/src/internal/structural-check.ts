import { type TSchema } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type ValueError } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { ManifestIssue } from '../manifest-errors';
import {
  HTTP_TOKEN_PATTERN,
  MAPPING_PATH_PATTERN,
  NON_BLANK_PATTERN,
  PARAM_NAME_PATTERN,
  RcpManifestSchema,
  TOOL_NAME_PATTERN,
} from '../manifest-schema';

interface Checker {
  Check(value: unknown): boolean;
  Errors(value: unknown): Iterable<ValueError>;
}

let checker: Checker | undefined;

/**
 * The manifest schema compiled once (on first use). Where code generation is forbidden (a CSP
 * without `unsafe-eval`), TypeBox's interpreter checks the same schema instead.
 */
function manifestChecker(): Checker {
  if (checker === undefined) {
    try {
      checker = TypeCompiler.Compile(RcpManifestSchema);
    } catch {
      checker = {
        Check: (value) => Value.Check(RcpManifestSchema, value),
        Errors: (value) => Value.Errors(RcpManifestSchema, value),
      };
    }
  }
  return checker;
}

const TOKEN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function patternMessage(pattern: string, value: unknown): string {
  switch (pattern) {
    case TOOL_NAME_PATTERN:
      return 'must be 1-64 characters from A-Z a-z 0-9 _ - (what model APIs accept as a function name)';
    case PARAM_NAME_PATTERN:
      return typeof value === 'string' && TOKEN_NAME.test(value)
        ? `"${value}" is a reserved name (__proto__, constructor and prototype are not allowed)`
        : 'must be a token name: a letter or "_" followed by letters, digits or "_"';
    case HTTP_TOKEN_PATTERN:
      return "must be an HTTP token (RFC 9110): letters, digits and !#$%&'*+-.^_`|~ only";
    case NON_BLANK_PATTERN:
      return 'must not be empty or blank';
    case MAPPING_PATH_PATTERN:
      return 'must start with "@" (for example "@data.name")';
    default:
      return `must match ${pattern}`;
  }
}

function literalValues(schema: TSchema): unknown[] | undefined {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!Array.isArray(variants) || !variants.every((variant) => 'const' in variant)) return undefined;
  return variants.map((variant) => (variant as unknown as { const: unknown }).const);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ type: ... }` discriminants of an object union, in variant order. */
function discriminants(schema: TSchema): unknown[] | undefined {
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!Array.isArray(variants)) return undefined;
  const values: unknown[] = [];
  for (const variant of variants) {
    const type = (variant as { properties?: Record<string, TSchema> }).properties?.['type'];
    if (type === undefined || !('const' in type)) return undefined;
    values.push((type as unknown as { const: unknown }).const);
  }
  return values;
}

function listOf(values: unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

function collect(error: ValueError, issues: ManifestIssue[]): void {
  const { path, value, schema } = error;
  if (value === undefined) {
    issues.push({ path, message: 'is required' });
    return;
  }
  switch (error.type) {
    case ValueErrorType.String:
      issues.push({ path, message: 'must be a string' });
      return;
    case ValueErrorType.Boolean:
      issues.push({ path, message: 'must be true or false' });
      return;
    case ValueErrorType.Array:
      issues.push({ path, message: 'must be an array' });
      return;
    case ValueErrorType.Object:
      issues.push({ path, message: 'must be an object' });
      return;
    case ValueErrorType.StringPattern:
      issues.push({ path, message: patternMessage(String((schema as { pattern?: string }).pattern), value) });
      return;
    case ValueErrorType.Literal:
      issues.push({ path, message: `must be ${JSON.stringify((schema as { const?: unknown }).const)}` });
      return;
    case ValueErrorType.Union: {
      const literals = literalValues(schema);
      if (literals !== undefined) {
        issues.push({ path, message: `must be one of ${listOf(literals)}` });
        return;
      }
      const types = discriminants(schema);
      if (types !== undefined) {
        if (!isPlainRecord(value)) {
          issues.push({ path, message: 'must be an object' });
          return;
        }
        const index = types.indexOf(value['type']);
        const variantErrors = index === -1 ? undefined : error.errors[index];
        if (variantErrors === undefined) {
          issues.push({
            path: `${path}/type`,
            message: value['type'] === undefined ? 'is required' : `must be one of ${listOf(types)}`,
          });
          return;
        }
        for (const inner of variantErrors) collect(inner, issues);
        return;
      }
      issues.push({ path, message: error.message });
      return;
    }
    default:
      issues.push({ path, message: error.message });
  }
}

/**
 * Structural problems (types, required fields, enumerations, patterns) found by the compiled
 * TypeBox schema, with readable messages. Empty when the manifest is structurally valid.
 */
export function structuralIssues(manifest: unknown): ManifestIssue[] {
  const check = manifestChecker();
  if (check.Check(manifest)) return [];
  const issues: ManifestIssue[] = [];
  for (const error of check.Errors(manifest)) collect(error, issues);
  return issues;
}
