import type { RcpClientOptions } from '../../client-options';
import type { RcpDiscoveryWarning } from '../../client-types';
import { terminalText } from 'rcp-internal';

type OnWarning = NonNullable<RcpClientOptions['onWarning']>;

/** How many distinct warnings a client remembers before it starts again (a long-lived client stays small). */
const REMEMBERED = 1000;

/** The default `onWarning`: one `console.warn` line, manifest text made safe for a terminal. */
export const printWarning: OnWarning = (warning, { manifestUrl }) => {
  const where = `${warning.tool === undefined ? '' : `tool "${warning.tool}" `}${warning.path || '(root)'}`;
  console.warn(terminalText(`rcp-client: warning for ${manifestUrl} at ${where}: ${warning.message}`));
};

/**
 * A client's warning reporter: hands each warning of a discovery to `onWarning`, each distinct
 * one (by manifest URL, tool, pointer and text) once for the client's lifetime. Observability:
 * a throw or a rejection of `onWarning` never changes the discovery.
 */
export function createWarningReporter(onWarning: OnWarning) {
  const reported = new Set<string>();
  return (manifestUrl: string, warnings: readonly RcpDiscoveryWarning[]): void => {
    for (const warning of warnings) {
      const key = JSON.stringify([manifestUrl, warning.tool ?? null, warning.path, warning.message]);
      if (reported.has(key)) continue;
      if (reported.size >= REMEMBERED) reported.clear();
      reported.add(key);
      try {
        const result: unknown = onWarning(warning, Object.freeze({ manifestUrl }));
        if (result instanceof Promise) result.catch(() => {});
      } catch {
        // A logger's failure is not the manifest's.
      }
    }
  };
}
