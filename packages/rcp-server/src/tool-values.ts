import type { ReceivedFile } from './received-file';

/**
 * The type of a handler's `values`, computed from the tool's declared params — the same facts
 * the server checks at run time before the handler runs (SPEC §5, §16.2): a param's `type`
 * (`string` when absent), its `enum`, an array's `items`, an object's `properties` and required
 * properties; a param is present when it is `required`, bound to the principal, or a `{{token}}`
 * of the path (always required), and optional otherwise.
 */

/**
 * The TypeScript type of one declared value: `string` (the default), `number` (`number` and
 * `integer`), `boolean`, a {@link ReceivedFile} (`file`, RCP 0.4), an array of its `items`' type, an object of its `properties` (exactly
 * those keys; the required ones required), or the union of its `enum` when the values are literals.
 *
 * @example
 * ```ts
 * type Status = ValueOfDeclared<{ type: 'string'; enum: readonly ['open', 'closed'] }>; // 'open' | 'closed'
 * type Tags = ValueOfDeclared<{ type: 'array'; items: { type: 'string' } }>; // string[]
 * ```
 */
export type ValueOfDeclared<Value> = Value extends { readonly enum: readonly (infer Allowed)[] }
  ? Allowed
  : Value extends { readonly type: 'file' }
    ? ReceivedFile
    : Value extends { readonly type: 'number' | 'integer' }
      ? number
      : Value extends { readonly type: 'boolean' }
        ? boolean
        : Value extends { readonly type: 'array' }
          ? Value extends { readonly items: infer Items }
            ? ValueOfDeclared<Items>[]
            : unknown[]
          : Value extends { readonly type: 'object' }
            ? Value extends { readonly properties: infer Properties }
              ? ObjectOfDeclared<Properties, RequiredNames<Value>>
              : Record<string, unknown>
            : string;

/** The names an object value requires: a param's `requiredProperties`, a nested value's `required`. */
type RequiredNames<Value> = Value extends { readonly requiredProperties: readonly (infer Name)[] }
  ? Name
  : Value extends { readonly required: readonly (infer Name)[] }
    ? Name
    : never;

type ObjectOfDeclared<Properties, Required> = Simplify<
  { -readonly [Key in keyof Properties as Key extends Required ? Key : never]: ValueOfDeclared<Properties[Key]> } & {
    -readonly [Key in keyof Properties as Key extends Required ? never : Key]?: ValueOfDeclared<Properties[Key]>;
  }
>;

type Simplify<T> = { [Key in keyof T]: T[Key] } & {};

/**
 * The `{{token}}` names of a path template, by type (`'/users/{{userId}}/notes/{{noteId}}'` →
 * `'userId' | 'noteId'`). A path param is always required.
 *
 * @example
 * ```ts
 * type Tokens = PathTokens<'/users/{{userId}}/notes'>; // 'userId'
 * ```
 */
export type PathTokens<Path extends string> = Path extends `${string}{{${infer Token}}}${infer Rest}` ? Token | PathTokens<Rest> : never;

/** A param the handler always receives: required, bound to the principal, or a token of the path. */
type IsPresent<Param, InPath extends string> = Param extends { readonly required: true }
  ? true
  : Param extends { readonly bound: (...args: never[]) => unknown }
    ? true
    : Param extends { readonly name: InPath }
      ? true
      : false;

/**
 * A handler's `values` for a tool's declared params (a const tuple, as `defineTool` infers it) and
 * its path: each param by name, typed from its declaration, present when the server guarantees
 * it (`required`, `bound`, a path token) and optional otherwise. Without a literal list of params
 * (a `string` name, a widened array), it is `Record<string, unknown>`.
 *
 * @example
 * ```ts
 * type Values = ToolValues<readonly [{ name: 'userId'; required: true }, { name: 'limit'; type: 'integer' }], '/notes'>;
 * // { userId: string; limit?: number }
 * ```
 */
export type ToolValues<Params, Path extends string = string> = Params extends readonly { readonly name: string }[]
  ? string extends Params[number]['name']
    ? Record<string, unknown>
    : Simplify<
        { -readonly [Param in Params[number] as IsPresent<Param, PathTokens<Path>> extends true ? Param['name'] : never]: ValueOfDeclared<Param> } & {
          -readonly [Param in Params[number] as IsPresent<Param, PathTokens<Path>> extends true ? never : Param['name']]?: ValueOfDeclared<Param>;
        }
      >
  : Record<string, unknown>;
