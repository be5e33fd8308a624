/**
 * The connection agents of the client: one keep-alive agent per protocol for direct connections and
 * one per proxy, chosen per request URL from `HTTPS_PROXY` / `HTTP_PROXY` / `ALL_PROXY` / `NO_PROXY`
 * (lower-case names win, as curl and most tools do). Loopback addresses never go through a proxy: a
 * proxy cannot reach this machine's loopback, and the embedded service lives there.
 * The CONNECT tunnelling itself is `hpagent`'s (small, no dependencies, keeps proxied connections
 * alive). This module must never log a proxy URL: it may carry credentials.
 */
import http from 'node:http';
import https from 'node:https';
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent';
import { ApiError } from './api-error.js';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

export interface AgentPool {
  /** The agents to use for a request to `url`. */
  agentsFor(url: URL): Agents;
  /** Closes every pooled connection (the client's `close()`). */
  destroy(): void;
}

const AGENT_OPTIONS = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 32, maxFreeSockets: 8, timeout: 120_000 } as const;

function env(variables: ProxyEnv, name: string): string | undefined {
  const value = variables[name.toLowerCase()] ?? variables[name.toUpperCase()];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** True for names and addresses that mean "this machine". */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** One NO_PROXY entry split into host pattern and optional port (`[v6]:port`, `host:port`, `*.domain`). */
function parseNoProxyEntry(entry: string): { pattern: string; port: string | undefined } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed !== null) return { pattern: bracketed[1] ?? '', port: bracketed[2] };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  const pattern = withPort === null ? entry : (withPort[1] ?? '');
  return { pattern: pattern.replace(/^\*\./, '.'), port: withPort?.[2] };
}

/** Does a NO_PROXY list exempt this host (and port)? Supports `*`, `host`, `.domain`, `*.domain` and `host:port`. */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (isLoopbackHost(url.hostname)) return true;
  if (noProxy === undefined) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  return noProxy
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
    .some((entry) => {
      if (entry === '*') return true;
      const { pattern, port: entryPort } = parseNoProxyEntry(entry);
      if (entryPort !== undefined && entryPort !== port) return false;
      if (pattern.startsWith('.')) return host.endsWith(pattern) || host === pattern.slice(1);
      return host === pattern || host.endsWith(`.${pattern}`);
    });
}

/** The proxy URL for a request to `url`, or undefined to connect directly. */
export function proxyForUrl(url: URL, variables: ProxyEnv): string | undefined {
  // Loopback first: it needs no variable read (each one of process.env is a call into the runtime), and
  // the embedded service's every request asks.
  if (isLoopbackHost(url.hostname) || bypassesProxy(url, env(variables, 'NO_PROXY'))) return undefined;
  const specific = url.protocol === 'https:' ? env(variables, 'HTTPS_PROXY') : env(variables, 'HTTP_PROXY');
  return specific ?? env(variables, 'ALL_PROXY');
}

export function createAgentPool(variables: ProxyEnv): AgentPool {
  const direct: Agents = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };
  const proxied = new Map<string, Agents>();

  const viaProxy = (proxy: string): Agents => {
    let agents = proxied.get(proxy);
    if (agents === undefined) {
      if (!URL.canParse(proxy) || !/^https?:$/.test(new URL(proxy).protocol)) {
        throw new ApiError({ code: 'INVALID_PROXY', message: 'The proxy in HTTPS_PROXY/HTTP_PROXY/ALL_PROXY must be an http:// or https:// URL.' });
      }
      agents = { http: new HttpProxyAgent({ ...AGENT_OPTIONS, proxy }), https: new HttpsProxyAgent({ ...AGENT_OPTIONS, proxy }) };
      proxied.set(proxy, agents);
    }
    return agents;
  };

  return {
    agentsFor(url) {
      const proxy = proxyForUrl(url, variables);
      return proxy === undefined ? direct : viaProxy(proxy);
    },
    destroy() {
      for (const agents of [direct, ...proxied.values()]) {
        agents.http.destroy();
        agents.https.destroy();
      }
      proxied.clear();
    },
  };
}
