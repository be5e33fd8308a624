/**
 * Builders and readers shared by the scenario tests (a seed's steps written by hand, run through the
 * whole engine): steps for syncs and writes, and the final trees the trace prints for each client and
 * for the service (run-seed.ts writes them last: `c0: {…}`, `remote: […]`).
 */
import { z } from 'zod';
import type { Step } from './scenario.js';

/** One sync of each client named, in that order. */
export const syncs = (...clients: number[]): Step[] => clients.map((client) => ({ kind: 'sync', client }));

/** A user of `client` writes `content` at `path`. */
export const write = (client: number, path: string, content: string): Step => ({ kind: 'local-write', client, path, content });

/** The client's final tree as the trace prints it. */
export function treeOf(trace: readonly string[], client: number): Record<string, string> {
  const line = trace.findLast((entry) => entry.startsWith(`c${client}: `)) ?? `c${client}: {}`;
  return z.record(z.string(), z.string()).parse(JSON.parse(line.slice(`c${client}: `.length)));
}

/** The service's live assets as the trace prints them, their paths only (`path=md5 prefix` less the md5). */
export function remoteOf(trace: readonly string[]): string[] {
  const line = trace.findLast((entry) => entry.startsWith('remote: ')) ?? 'remote: []';
  return z.array(z.string()).parse(JSON.parse(line.slice('remote: '.length))).map((entry) => entry.slice(0, entry.lastIndexOf('=')));
}
