import { describe, expect, it } from 'vitest';
import { bridgeMethods } from '../../shared/bridge/app-bridge.js';
import { BridgeError } from '../../shared/bridge/bridge-error.js';
import { EVENT_CHANNEL, ipcChannel, ipcChannelNames, methodOfChannel } from '../../shared/bridge/ipc-channels.js';
import { createIpcBridge } from '../../renderer/transport/ipc-bridge.js';
import { createIpcPair } from '../../../test/support/ipc-pair.js';
import { createRecordingBridge } from '../../../test/support/recording-bridge.js';
import { appState } from '../../../test/support/app-state-builder.js';
import { serveBridgeOverIpc } from './ipc-main-transport.js';
import { createExposedBridge } from './preload-bridge.js';
import { isTrustedSender } from './sender-check.js';

const PAGE = 'file:///opt/Asset%20Sync/resources/app/dist/renderer/index.html';

function setUp() {
  const pair = createIpcPair({ id: 7, frameUrl: `${PAGE}#/overview` });
  const controller = createRecordingBridge();
  const refused: string[] = [];
  const transport = serveBridgeOverIpc({
    ipcMain: pair.ipcMain,
    bridge: controller,
    isTrusted: (event) => isTrustedSender(event, { webContentsId: () => 7, pageUrl: PAGE }),
    onRefused: (what) => refused.push(what),
  });
  const bridge = createIpcBridge(createExposedBridge(pair.ipcRenderer));
  return { pair, controller, transport, bridge, refused };
}

describe('the bridge over IPC', () => {
  it('has one channel per bridge method, all distinct, and finds the method back from its channel', () => {
    expect(new Set(ipcChannelNames).size).toBe(ipcChannelNames.length);
    for (const method of bridgeMethods) expect(methodOfChannel(ipcChannel(method))).toBe(method);
    expect(methodOfChannel('asset-sync:call:deleteEverything')).toBeUndefined();
  });

  it('registers a handler for every bridge method and removes them all on close', () => {
    const { pair, transport } = setUp();
    expect([...pair.ipcMain.handlers.keys()].sort()).toEqual(bridgeMethods.map(ipcChannel).sort());
    transport.close();
    expect(pair.ipcMain.handlers.size).toBe(0);
    expect([...pair.ipcMain.listeners.values()].every((set) => set.size === 0)).toBe(true);
  });

  it('carries commands and answers from our window to the controller', async () => {
    const { controller, bridge } = setUp();
    await bridge.pause({ span: 'one-hour' });
    await bridge.resolveConflict({ conflictId: 4, keep: 'both' });
    expect(await bridge.signIn({ server: 'https://acme.example.com' })).toEqual({ authorizeUrl: 'https://acme.example.com/authorize' });
    expect((await bridge.getState()).overall).toBe('up-to-date');
    expect(controller.calls.map((call) => call.method)).toEqual(['pause', 'resolveConflict', 'signIn', 'getState']);
    expect(controller.calls[1]?.args).toEqual([{ conflictId: 4, keep: 'both' }]);
  });

  it('turns dropped bytes into a Blob for the controller, and passes paths as they are', async () => {
    const { controller, bridge } = setUp();
    const result = await bridge.copyIn({
      folderId: 'root-1',
      relDir: 'Shots',
      items: [
        { kind: 'path', path: '/tmp/a.png' },
        { kind: 'bytes', relPath: 'b.txt', lastModified: 5, body: new Blob(['hello']) },
      ],
    });
    expect(result).toEqual({ copied: 2, renamed: [] });
    const request = controller.calls[0]?.args[0] as { items: [unknown, { body: Blob }] };
    expect(request.items[0]).toEqual({ kind: 'path', path: '/tmp/a.png' });
    expect(request.items[1].body).toBeInstanceOf(Blob);
    expect(await request.items[1].body.text()).toBe('hello');
  });

  it('answers a controller failure as { name, code, message } and the renderer rejects with a BridgeError', async () => {
    const { controller, bridge } = setUp();
    controller.answers.removeFolder = () => Promise.reject(Object.assign(new Error('No synced folder has the id nope.'), { name: 'AppError', code: 'NOT_FOUND' }));
    const error: unknown = await bridge.removeFolder({ folderId: 'nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ name: 'AppError', code: 'NOT_FOUND', message: 'No synced folder has the id nope.' });
  });

  it.each([
    ['a missing argument', 'pause', []],
    ['a wrong type', 'resolveConflict', [{ conflictId: '4', keep: 'both' }]],
    ['an unknown choice', 'resolveConflict', [{ conflictId: 4, keep: 'all' }]],
    ['an extra key', 'removeFolder', [{ folderId: 'root-1', force: true }]],
    ['a limit over 5,000', 'listActivity', [{ limit: 1_000_000 }]],
    ['a Blob body instead of bytes', 'copyIn', [{ folderId: 'root-1', relDir: '', items: [{ kind: 'bytes', relPath: 'a', lastModified: 1, body: 'text' }] }]],
    ['an unknown setting', 'updateSettings', [{ telemetry: true }]],
    ['an argument too many', 'signOut', [{}]],
  ] as const)('refuses %s with INVALID_REQUEST before the controller sees it', async (_what, method, args) => {
    const { pair, controller } = setUp();
    const reply = await pair.ipcRenderer.invoke(ipcChannel(method), ...args);
    expect(reply).toMatchObject({ ok: false, error: { name: 'BridgeError', code: 'INVALID_REQUEST' } });
    expect(controller.calls).toEqual([]);
  });

  it.each([
    ['a subframe of our page', (s: ReturnType<typeof createIpcPair>['sender']) => (s.frame = { url: PAGE, parent: {} })],
    ['our window after it navigated to a web page', (s: ReturnType<typeof createIpcPair>['sender']) => (s.frame = { url: 'https://evil.example.com/index.html', parent: null })],
    ['another local file', (s: ReturnType<typeof createIpcPair>['sender']) => (s.frame = { url: 'file:///tmp/evil/index.html', parent: null })],
    ['another web contents showing our page', (s: ReturnType<typeof createIpcPair>['sender']) => (s.id = 8)],
    ['a frame that is gone', (s: ReturnType<typeof createIpcPair>['sender']) => (s.frame = null)],
  ])('refuses commands and subscriptions from %s', async (_what, change) => {
    const { pair, controller, bridge, refused } = setUp();
    change(pair.sender);
    await expect(bridge.signOut()).rejects.toMatchObject({ code: 'UNTRUSTED_SENDER' });
    const events: unknown[] = [];
    bridge.subscribe((event) => events.push(event));
    expect(controller.calls).toEqual([]);
    expect(controller.subscribers).toBe(0);
    expect(events).toEqual([]);
    expect(refused).toHaveLength(2);
  });

  it('delivers each subscription its own events, the state first, and stops after unsubscribe', () => {
    const { pair, controller, bridge } = setUp();
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = bridge.subscribe((event) => first.push(event.type));
    bridge.subscribe((event) => second.push(event.type));
    expect(controller.subscribers).toBe(2);
    controller.emit({ type: 'sign-in-needed', server: 'https://acme.example.com', reason: null });
    stopFirst();
    stopFirst();
    controller.emit({ type: 'state', state: appState({ revision: 2 }) });
    expect(first).toEqual(['state', 'sign-in-needed']);
    expect(second).toEqual(['state', 'sign-in-needed', 'state']);
    expect(controller.subscribers).toBe(1);
    expect(pair.sender.sent.every((message) => message.channel === EVENT_CHANNEL)).toBe(true);
  });

  it('ends a page’s subscriptions when it reloads or goes away, and sends nothing to a destroyed page', () => {
    const { pair, controller, bridge, transport } = setUp();
    bridge.subscribe(() => undefined);
    bridge.subscribe(() => undefined);
    pair.sender.destroyed = true;
    controller.emit({ type: 'sign-in-needed', server: 'x', reason: null });
    expect(pair.sender.sent).toHaveLength(2);
    transport.forgetSender(7);
    expect(controller.subscribers).toBe(0);
  });
});
