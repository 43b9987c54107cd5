import { ConfigError } from '@acs/service-kit';
import { loadConfig } from '../../src/config';

const withTrustProxy = (value?: string) =>
  loadConfig({ ADMIN_TOKEN: 'a-long-enough-admin-token', TRUST_PROXY: value }).TRUST_PROXY;

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    [
      '10.0.0.0/8, 192.168.0.0/255.255.0.0,fd00::/8,uniquelocal',
      ['10.0.0.0/8', '192.168.0.0/255.255.0.0', 'fd00::/8', 'uniquelocal'],
    ],
    ['203.0.113.7', ['203.0.113.7']],
  ])('reads %p as %p', (value, trust) => {
    expect(withTrustProxy(value)).toEqual(trust);
  });

  it.each([
    '10.0.0.0/33',
    '0.0.0.0/0',
    'fd00::/129',
    'fd00::/255.0.0.0',
    'localhost',
    '10.0.0.1,',
    'yes',
    '1.5',
  ])('refuses %p at start, naming the variable', (value) => {
    expect(() => withTrustProxy(value)).toThrow(ConfigError);
    expect(() => withTrustProxy(value)).toThrow(/TRUST_PROXY/);
  });
});
