/**
 * Reading a V8 CPU profile (`node --cpu-prof`, or `Profiler.stop` through `node:inspector`): self
 * time by package and by function, idle time left out.
 */
import type { Profiler, Session } from 'node:inspector';

/** One inspector command, as a promise (`Profiler.start`, `Profiler.stop` …). */
export function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));
}

/** The package a profiled function belongs to, from its script URL. */
export function owner(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native / builtin)';
  if (url.includes('deps/undici')) return 'undici (node built-in fetch)';
  if (url.startsWith('node:')) return 'node core';
  const parts = url.split('/');
  const nm = parts.lastIndexOf('node_modules');
  if (nm !== -1 && parts[nm + 1] !== undefined) return parts[nm + 1]!.startsWith('@') ? `${parts[nm + 1]}/${parts[nm + 2]}` : parts[nm + 1]!;
  const pk = parts.lastIndexOf('packages');
  if (pk !== -1 && parts[pk + 1] !== undefined) return parts[pk + 1]!;
  if (url.includes('/bench/')) return 'bench harness';
  return url;
}

/** Self time (µs) in total, by package and for the 20 hottest functions, best first. */
export function summarizeProfile(profile: Profiler.Profile): { total: number; byOwner: [string, number][]; top: [string, number][] } {
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i] ?? 0));
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const micros = self.get(node.id) ?? 0;
    if (micros === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    total += micros;
    const pkg = owner(url, functionName);
    byOwner.set(pkg, (byOwner.get(pkg) ?? 0) + micros);
    const key = `${functionName || '(anonymous)'} — ${pkg}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { total, byOwner: sorted(byOwner), top: sorted(byFunction).slice(0, 20) };
}
