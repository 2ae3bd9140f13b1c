import { isRecord } from 'rcp-internal';

type Json = Record<string, unknown>;

/** The methods an OpenAPI path item may hold an operation under, in the order they are read. */
export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** One operation of a document, with where it is. */
export interface OperationEntry {
  readonly path: string;
  readonly pathItem: Json;
  readonly method: (typeof METHODS)[number];
  readonly operation: Json;
}

/** Every operation in `paths`, in document order (path, then {@link METHODS}); what is not an object is passed over. */
export function* operationsOf(paths: unknown): Generator<OperationEntry> {
  if (!isRecord(paths)) return;
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isRecord(operation)) yield { path, pathItem, method, operation };
    }
  }
}
