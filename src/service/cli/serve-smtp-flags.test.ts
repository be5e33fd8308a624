import { describe, expect, it } from 'vitest';
import { smtpFromFlags } from './serve-command.js';

describe('asset-sync serve SMTP flags', () => {
  it('sends no e-mail without a host', () => {
    expect(smtpFromFlags({}, {}, 'admin@localhost')).toBeUndefined();
  });

  it('reads flags before the environment, with port and sender defaults', () => {
    expect(smtpFromFlags({ 'smtp-host': 'mail.example.test' }, { ASSET_SYNC_SMTP_USER: 'bot', ASSET_SYNC_SMTP_PASSWORD: 'pw' }, 'admin@example.test')).toEqual({
      host: 'mail.example.test',
      port: 587,
      secure: false,
      user: 'bot',
      password: 'pw',
      from: 'admin@example.test',
    });
    expect(smtpFromFlags({ 'smtp-secure': true, 'smtp-from': 'assets@example.test' }, { ASSET_SYNC_SMTP_HOST: 'env.example.test', ASSET_SYNC_SMTP_PORT: '2465' }, 'x')).toMatchObject({
      host: 'env.example.test',
      port: 2465,
      secure: true,
      from: 'assets@example.test',
    });
    expect(smtpFromFlags({ 'smtp-host': 'h', 'smtp-secure': true }, {}, 'x')?.port).toBe(465);
  });

  it('refuses SMTP details without a host, and a bad port', () => {
    expect(() => smtpFromFlags({ 'smtp-user': 'bot' }, {}, 'x')).toThrow(/--smtp-user needs --smtp-host/);
    expect(() => smtpFromFlags({ 'smtp-host': 'h', 'smtp-port': 'many' }, {}, 'x')).toThrow(/smtp-port/);
  });
});
