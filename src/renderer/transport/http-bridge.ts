/**
 * The bridge over the headless app's loopback control server (src/main/control/control-server.ts):
 * commands as `POST /api/<method>` with JSON, dropped files as one streamed `PUT /api/copy-in` each,
 * events over one shared EventSource on `/api/events`. The session cookie the printed URL's secret was
 * exchanged for rides along by itself (same origin, HttpOnly), so this file never sees a secret.
 * Every failure rejects as a BridgeError with the app's `{ name, code, message }`; the event stream
 * reconnects by itself (the browser retries dropped streams; a refused one is reopened after a pause).
 * The stream is also the link (app-link.ts): open is `up`; dropped, or not answering, is `down` (the
 * app closes every stream as it stops, so a stopped app is seen at once); closed by an answer that
 * refuses this page's session is `refused`.
 */
import type { AppBridge, BridgeMethod, CopyItem } from '../../shared/bridge/app-bridge.js';
import type { AppEvent } from '../../shared/bridge/app-events.js';
import type { CopyResult, RenamedCopy } from '../../shared/bridge/copy-result.js';
import { BridgeError, isBridgeErrorData } from '../../shared/bridge/bridge-error.js';
import { createLink, type Transport } from './app-link.js';

export interface HttpBridgeOptions {
  /** The fetch to use (tests). */
  fetch?: typeof fetch;
  /** The EventSource constructor to use (tests). */
  EventSource?: typeof EventSource;
  /** Pause before reopening a stream the server refused or closed (default 2 s). */
  reconnectMs?: number;
}

export function createHttpBridge(location: Pick<Location, 'origin'>, options: HttpBridgeOptions = {}): Transport {
  const base = location.origin;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const Source = options.EventSource ?? EventSource;
  const reconnectMs = options.reconnectMs ?? 2000;

  const answer = async (response: Response): Promise<unknown> => {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new BridgeError(response.ok ? 'INTERNAL' : 'TRANSPORT_CLOSED', `The app answered ${response.status} without a readable body.`);
    }
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    if (response.ok && 'result' in record) return record.result;
    const error = record.error;
    if (isBridgeErrorData(error)) throw new BridgeError(error.code, error.message, error.name);
    throw new BridgeError('INTERNAL', `The app answered ${response.status}.`);
  };

  const send = async (url: string, init: RequestInit): Promise<unknown> => {
    let response: Response;
    try {
      response = await doFetch(url, { credentials: 'same-origin', cache: 'no-store', ...init });
    } catch (error) {
      throw new BridgeError('TRANSPORT_CLOSED', `The app cannot be reached (${error instanceof Error ? error.message : String(error)}); is it still running?`);
    }
    return answer(response);
  };

  const call = (method: BridgeMethod, request: object = {}): Promise<unknown> =>
    send(`${base}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });

  const command = async (method: BridgeMethod, request: object = {}): Promise<void> => {
    await call(method, request);
  };

  const link = createLink();
  /** Streams opened so far: a probe's answer counts only if no stream opened while it was asked. */
  let opened = 0;
  /** Why a stream was closed by an answer: the app refusing this page's session, or no app at all. */
  const probeRefusal = async (): Promise<void> => {
    const asked = opened;
    let refused = false;
    try {
      const response = await doFetch(`${base}/api/getState`, { method: 'POST', credentials: 'same-origin', cache: 'no-store', headers: { 'content-type': 'application/json' }, body: '{}' });
      const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
      refused = response.status === 401 && isBridgeErrorData(body?.error) && body.error.code === 'NOT_AUTHORISED';
    } catch {
      // Nothing answers: the app is not running.
    }
    if (opened === asked) link.set(refused ? 'refused' : 'down');
  };

  // One stream for all subscribers, opened with the first and closed with the last.
  const listeners = new Set<(event: AppEvent) => void>();
  let source: EventSource | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  const open = (): void => {
    if (source !== undefined || listeners.size === 0) return;
    const stream = new Source(`${base}/api/events`, { withCredentials: true });
    source = stream;
    stream.onopen = () => {
      opened += 1;
      link.set('up');
    };
    stream.onmessage = (message: MessageEvent<string>) => {
      let event: AppEvent;
      try {
        event = JSON.parse(message.data) as AppEvent;
      } catch {
        return;
      }
      for (const listener of [...listeners]) listener(event);
    };
    stream.onerror = () => {
      // CONNECTING: the stream dropped or the app does not answer; the browser retries by itself.
      if (stream.readyState !== stream.CLOSED) {
        link.set('down');
        return;
      }
      // CLOSED: an answer that was not the stream (a refused session, another program): we retry.
      stream.close();
      if (source === stream) source = undefined;
      void probeRefusal();
      retryTimer ??= setTimeout(() => {
        retryTimer = undefined;
        open();
      }, reconnectMs);
    };
  };
  const closeStream = (): void => {
    if (retryTimer !== undefined) clearTimeout(retryTimer);
    retryTimer = undefined;
    source?.close();
    source = undefined;
  };

  const putFile = (folderId: string, relDir: string, item: Extract<CopyItem, { kind: 'bytes' }>): Promise<unknown> => {
    const query = new URLSearchParams({ folderId, relDir, relPath: item.relPath, lastModified: String(item.lastModified) });
    return send(`${base}/api/copy-in?${query.toString()}`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: item.body });
  };

  const bridge: AppBridge = {
    getState: () => call('getState') as ReturnType<AppBridge['getState']>,
    listActivity: (query) => call('listActivity', query) as ReturnType<AppBridge['listActivity']>,
    addFolder: (request) => command('addFolder', request),
    removeFolder: (request) => command('removeFolder', request),
    updateFolder: (request) => command('updateFolder', request),
    pause: (request) => command('pause', request),
    resume: (request) => command('resume', request),
    syncNow: (request) => command('syncNow', request),
    resolveConflict: (request) => command('resolveConflict', request),
    retry: (request) => command('retry', request),
    confirmDeletions: (request) => command('confirmDeletions', request),
    restoreDeletions: (request) => command('restoreDeletions', request),
    async copyIn(request) {
      const paths = request.items.filter((item) => item.kind === 'path');
      let copied = 0;
      const renamed: RenamedCopy[] = [];
      if (paths.length > 0) {
        const result = (await call('copyIn', { folderId: request.folderId, relDir: request.relDir, items: paths })) as CopyResult;
        copied += result.copied;
        renamed.push(...result.renamed);
      }
      // One request per dropped file, streamed: the browser never holds the whole drop in one body.
      for (const item of request.items) {
        if (item.kind !== 'bytes') continue;
        const { relPath } = (await putFile(request.folderId, request.relDir, item)) as { relPath: string };
        copied++;
        const asked = [request.relDir, item.relPath].flatMap((part) => part.split('/')).filter((part) => part !== '' && part !== '.').join('/');
        if (relPath !== asked) renamed.push({ asked, named: relPath });
      }
      return { copied, renamed };
    },
    signIn: (request) => call('signIn', request) as ReturnType<AppBridge['signIn']>,
    useLocalLibrary: () => command('useLocalLibrary'),
    signOut: () => command('signOut'),
    updateSettings: (patch) => call('updateSettings', patch) as ReturnType<AppBridge['updateSettings']>,
    openPath: (request) => command('openPath', request),
    openConflictVersion: (request) => command('openConflictVersion', request),
    searchAssets: (request) => call('searchAssets', request) as ReturnType<AppBridge['searchAssets']>,
    listPresets: () => call('listPresets') as ReturnType<AppBridge['listPresets']>,
    quickDownload: (request) => call('quickDownload', request) as ReturnType<AppBridge['quickDownload']>,
    revealDownload: (request) => command('revealDownload', request),
    subscribe(listener) {
      listeners.add(listener);
      open();
      // A later subscriber gets the current state first, as the contract says (the stream sent it to the first).
      if (source !== undefined && listeners.size > 1) {
        void call('getState').then(
          (state) => {
            if (listeners.has(listener)) listener({ type: 'state', state: state as Extract<AppEvent, { type: 'state' }>['state'] });
          },
          () => undefined,
        );
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) closeStream();
      };
    },
  };
  return { bridge, link };
}
