import os from 'node:os';
import { versionOf } from './packages.js';

/** What the numbers were measured on. */
export interface MachineInfo {
  cpuModel: string;
  cores: number;
  availableParallelism: number;
  memoryGiB: number;
  platform: string;
  arch: string;
  node: string;
  v8: string;
  loadAverage1m: number;
}

/** CPU model, core count, memory, Node version of this machine. */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    availableParallelism: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.type()} ${os.release()}`,
    arch: process.arch,
    node: process.version,
    v8: process.versions.v8,
    loadAverage1m: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** The versions of every contender and measured package. */
export function contenderVersions(): Record<string, string> {
  const names = ['rcp-client', 'rcp-manifest', 'rcp-template', 'ky', '@utcp/sdk', '@utcp/http', '@modelcontextprotocol/sdk', 'zod', 'esbuild'];
  const versions: Record<string, string> = {};
  for (const name of names) versions[name] = versionOf(name);
  return versions;
}
