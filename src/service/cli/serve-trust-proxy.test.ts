import { describe, expect, it } from 'vitest';
import { proxyAddresses } from './serve-command.js';

describe('serve --trust-proxy', () => {
  it('takes comma-separated addresses and CIDR ranges of both families', () => {
    expect(proxyAddresses(undefined)).toEqual([]);
    expect(proxyAddresses('127.0.0.1, 10.0.0.0/8,::1,fd00::/8')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8']);
  });

  it.each([['', '--trust-proxy needs addresses'], ['localhost', '"localhost" is not an IP address'], ['10.0.0.0/33', '"10.0.0.0/33"'], ['10.0.0.1/8/2', '"10.0.0.1/8/2"'], ['::1/129', '"::1/129"']])('refuses %j with a usage error', (value, message) => {
    expect(() => proxyAddresses(value)).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining(message) }));
  });
});
