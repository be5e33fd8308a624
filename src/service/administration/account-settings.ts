/**
 * Per-account settings kept as JSON under a name (account_settings): security, allowed login methods,
 * auto-tagging, text in image, storefront SKUs, onboarding. Each setting has a zod shape and a default,
 * so a read always answers a complete, valid value.
 */
import { z } from 'zod';
import type { Db } from '../db/open-database.js';

export const LOGIN_METHODS = ['PASSWORD', 'GOOGLE', 'MICROSOFT', 'SAML'] as const;

export const SETTINGS = {
  'account-security': {
    shape: z.object({ allowedEmailDomains: z.array(z.string().trim().toLowerCase().min(1).max(253)).max(100), sessionLifetimeHours: z.number().int().min(1).max(24 * 90) }),
    fallback: { allowedEmailDomains: [], sessionLifetimeHours: 24 * 30 },
  },
  'allowed-login-methods': {
    shape: z.object({ methods: z.array(z.enum(LOGIN_METHODS)).min(1, 'must allow at least one method') }),
    fallback: { methods: ['PASSWORD'] },
  },
  'auto-tagging-image-settings': {
    shape: z.object({ enabled: z.boolean(), minimumConfidence: z.number().min(0).max(1), targetFieldId: z.string().max(200).nullable() }),
    fallback: { enabled: false, minimumConfidence: 0.8, targetFieldId: null },
  },
  'text-in-image-settings': {
    shape: z.object({ enabled: z.boolean(), languages: z.array(z.string().min(2).max(10)).max(20) }),
    fallback: { enabled: false, languages: ['en'] },
  },
  'storefront-sku-settings': {
    shape: z.object({
      skus: z.array(z.object({ sku: z.string().min(1).max(100), name: z.string().min(1).max(200), priceCents: z.number().int().min(0), currency: z.string().length(3) })).max(1000),
    }),
    fallback: { skus: [] },
  },
  'onboarding-checklist': {
    shape: z.object({ dismissed: z.boolean() }),
    fallback: { dismissed: false },
  },
} as const;

export type SettingName = keyof typeof SETTINGS;

export function accountSettings(db: Db) {
  const read = db.prepare<[string, string], { value: string }>('SELECT value FROM account_settings WHERE account_id = ? AND name = ?');
  const write = db.prepare('INSERT INTO account_settings (account_id, name, value) VALUES (?, ?, ?) ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value');
  const remove = db.prepare('DELETE FROM account_settings WHERE account_id = ? AND name = ?');
  const stored = (accountId: string, name: SettingName): unknown => {
    const row = read.get(accountId, name);
    return row === undefined ? SETTINGS[name].fallback : JSON.parse(row.value);
  };
  return {
    /** The setting as stored (validated when written), or its default. */
    get: stored,
    /** Stored (the caller validated it with the setting's shape), or removed when undefined (back to the default). */
    set(accountId: string, name: SettingName, value: unknown): void {
      if (value === undefined) remove.run(accountId, name);
      else write.run(accountId, name, JSON.stringify(value));
    },
    has: (accountId: string, name: SettingName) => read.get(accountId, name) !== undefined,
    loginMethods: (accountId: string): string[] => SETTINGS['allowed-login-methods'].shape.parse(stored(accountId, 'allowed-login-methods')).methods,
    allowedEmailDomains: (accountId: string): string[] => SETTINGS['account-security'].shape.parse(stored(accountId, 'account-security')).allowedEmailDomains,
    onboardingDismissed: (accountId: string): boolean => SETTINGS['onboarding-checklist'].shape.parse(stored(accountId, 'onboarding-checklist')).dismissed,
  };
}

export type AccountSettings = ReturnType<typeof accountSettings>;
