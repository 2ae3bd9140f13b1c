import { DemoCheckError } from './demo-errors';
import type { StageCatalog } from './report';

/** Options of {@link assertHiddenFromCatalogs}. */
export interface HiddenParamCheckOptions {
  /**
   * `true`: the name must not appear ANYWHERE in a catalog (names, descriptions, schemas).
   * `false`: it must not be a property or a required name of any tool's schema.
   */
  anywhere: boolean;
}

function schemaNames(parameters: object): string[] {
  const schema = parameters as { properties?: unknown; required?: unknown };
  const properties = schema.properties !== null && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [];
  return [...properties, ...required];
}

/**
 * Asserts that no stage's catalog offers a param a client resolver fills; throws
 * {@link DemoCheckError} naming the stage and the param otherwise.
 *
 * @example
 * ```ts
 * assertHiddenFromCatalogs([{ stage: 'act', tools: transports.act.catalog() }], ['learnerId'], { anywhere: true });
 * ```
 */
export function assertHiddenFromCatalogs(stages: readonly StageCatalog[], hiddenParams: readonly string[], options: HiddenParamCheckOptions): void {
  for (const stage of stages) {
    const text = JSON.stringify(stage.tools);
    for (const param of hiddenParams) {
      const leaked = options.anywhere ? text.includes(param) : stage.tools.some((tool) => schemaNames(tool.parameters).includes(param));
      if (leaked) throw new DemoCheckError(`the "${stage.stage}" catalog mentions the resolver-bound param "${param}"`);
    }
  }
}
