/**
 * Signing the app in to a server through the system browser (the existing loopback flow), with a fake
 * browser that fills the service's sign-in form: the account goes signing-in → signed-in, the tokens
 * land in the injected token store (the Electron shell's safeStorage one; here in memory), and sign-out
 * forgets them and leaves the files.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppController } from '../../src/main/app/app-controller.js';
import type { StoredTokens, TokenStore } from '../../src/main/auth/index.js';
import type { AppEvent } from '../../src/shared/bridge/app-events.js';
import { fakeBrowser } from '../support/fake-browser.js';
import { ADMIN_PASSWORD, startTestService, type TestService } from '../support/test-service.js';
import { tempDir } from '../support/temp-dir.js';

describe('signing the app in', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service.dispose();
  });

  it('goes signing-in → signed-in through the browser, keeps tokens in the given store, and signs out', async () => {
    const base = tempDir('asset-sync-signin-');
    let kept: StoredTokens | undefined;
    const store: TokenStore = {
      read: async () => kept,
      write: async (tokens) => {
        kept = tokens;
      },
      delete: async () => {
        const had = kept !== undefined;
        kept = undefined;
        return had;
      },
    };
    const browser = fakeBrowser({ email: 'admin@localhost', password: ADMIN_PASSWORD });
    const accounts: string[] = [];
    const controller = createAppController(
      { stateDir: join(base, 'state'), configDir: join(base, 'config'), host: { kind: 'electron', secureStorage: true, version: 'test' }, publishMs: 10 },
      { tokenStore: store, openExternal: async (url) => (void browser.openUrl(url), true) },
    );
    await controller.start();
    const unsubscribe = controller.subscribe((event: AppEvent) => {
      if (event.type === 'state' && accounts.at(-1) !== event.state.account.kind) accounts.push(event.state.account.kind);
    });
    try {
      expect((await controller.getState()).account).toEqual({ kind: 'none' });
      const { authorizeUrl } = await controller.signIn({ server: service.url });
      expect(authorizeUrl).toContain(`${service.url}/authorize?`);
      const signedIn = await vi.waitFor(
        async () => {
          const state = await controller.getState();
          if (state.account.kind !== 'signed-in') throw new Error(`account is ${state.account.kind}`);
          return state.account;
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(signedIn).toMatchObject({ kind: 'signed-in', server: service.url, email: 'admin@localhost', local: false });
      expect(accounts).toContain('signing-in');
      expect(accounts.at(-1)).toBe('signed-in');
      expect(kept?.server).toBe(service.url);
      await controller.signOut();
      expect((await controller.getState()).account).toEqual({ kind: 'none' });
      expect(kept).toBeUndefined();
    } finally {
      unsubscribe();
      await controller.close();
    }
  });

  it('refuses a server address that is not http(s)', async () => {
    const base = tempDir('asset-sync-signin-');
    const controller = createAppController({ stateDir: join(base, 'state'), configDir: join(base, 'config'), host: { kind: 'headless', secureStorage: false, version: 'test' } });
    await controller.start();
    try {
      await expect(controller.signIn({ server: 'ftp://example.com' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    } finally {
      await controller.close();
    }
  });
});
