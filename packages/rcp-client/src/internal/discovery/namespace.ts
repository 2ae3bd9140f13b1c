/** Separator between a namespace and a tool name: `learn_example_com__search_courses`. */
export const NAMESPACE_SEPARATOR = '__';

/**
 * The default namespace of a manifest: its URL's host (with a non-default port), every run
 * of characters outside `[A-Za-z0-9-]` replaced by one `_`, leading and trailing `_` removed:
 * `https://learn.example.com/rcp/manifest` → `learn_example_com`,
 * `http://127.0.0.1:4000/rcp/manifest` → `127_0_0_1_4000`. Empty → `server<index>`.
 */
export function defaultNamespace(manifestUrl: string, index: number): string {
  let host = '';
  try {
    host = new URL(manifestUrl).host;
  } catch {
    host = '';
  }
  const namespace = host.replace(/[^A-Za-z0-9-]+/g, '_').replace(/^_+|_+$/g, '');
  return namespace === '' ? `server${index}` : namespace;
}
