import { describeManifest, type RcpDiscovery } from 'rcp-sdk/client';
import type { ReportSection } from './report';

/**
 * The report's first section, shared by the embedded demo and `--manifest` mode: the
 * `describeManifest` text of a discovery and its warnings.
 *
 * @example
 * ```ts
 * const sections = [discoverySection(await client.discover(url))];
 * ```
 */
export function discoverySection(discovery: RcpDiscovery): ReportSection {
  return {
    id: 'describe',
    title: 'Discovery: what the server declares',
    manifestUrl: discovery.manifestUrl,
    text: describeManifest(discovery.manifest, discovery.tools),
    warnings: discovery.warnings.map((warning) => `${warning.path}: ${warning.message}`),
  };
}
