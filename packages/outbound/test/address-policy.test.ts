import { parseAddressPolicy, PUBLIC_ONLY, refusalOf } from '../src';

describe('address policy', () => {
  it('refuses loopback, private, link-local and non-unicast addresses unless allowed', () => {
    expect(refusalOf('127.0.0.1', PUBLIC_ONLY)).toMatch(/loopback/);
    expect(refusalOf('::1', PUBLIC_ONLY)).toMatch(/loopback/);
    expect(refusalOf('::ffff:10.0.0.1', PUBLIC_ONLY)).toMatch(/private/);
    expect(refusalOf('192.168.1.1', PUBLIC_ONLY)).toMatch(/private/);
    expect(refusalOf('fd00::1', PUBLIC_ONLY)).toMatch(/private/);
    expect(refusalOf('169.254.169.254', PUBLIC_ONLY)).toMatch(/link-local/);
    expect(refusalOf('0.0.0.0', parseAddressPolicy('loopback,private,link-local'))).toMatch(/unicast/);
    expect(refusalOf('93.184.216.34', PUBLIC_ONLY)).toBeUndefined();
    expect(refusalOf('127.0.0.1', parseAddressPolicy('loopback'))).toBeUndefined();
    expect(refusalOf('10.0.0.1', parseAddressPolicy('loopback'))).toMatch(/private/);
  });
});

describe('parseAddressPolicy', () => {
  it('reads a comma-separated list, ignoring spaces, empty and unknown entries', () => {
    expect(parseAddressPolicy('')).toEqual(PUBLIC_ONLY);
    expect(parseAddressPolicy(' private , link-local,,nonsense')).toEqual({
      allowLoopback: false,
      allowPrivate: true,
      allowLinkLocal: true,
    });
    expect(parseAddressPolicy('loopback')).toEqual({
      allowLoopback: true,
      allowPrivate: false,
      allowLinkLocal: false,
    });
  });
});

describe('refusalOf', () => {
  it('refuses what is not an IP address', () => {
    expect(refusalOf('example.com', parseAddressPolicy('loopback,private,link-local'))).toMatch(
      /not an IP address/,
    );
  });
});
