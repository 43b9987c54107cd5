import { parseAddressPolicy, PUBLIC_ONLY, refusalOf } from '../src';

describe('address policy', () => {
  it('refuses loopback, private, link-local and non-unicast addresses unless allowed', () => {
    expect(refusalOf('127.0.0.1', PUBLIC_ONLY)).toMatch(/loopback/);
    expect(refusalOf('::1', PUBLIC_ONLY)).toMatch(/loopback/);
    expect(refusalOf('::ffff:10.0.0.1', PUBLIC_ONLY)).toMatch(/private/);
    expect(refusalOf('192.168.1.1', PUBLIC_ONLY)).toMatch(/private/);
    expect(refusalOf('fd00::1', PUBLIC_ONLY)).toMatch(/private/);
    expect(refusalOf('169.254.169.254', PUBLIC_ONLY)).toMatch(/link-local/);
    expect(refusalOf('0.0.0.0', parseAddressPolicy('loopback,private,link-local'))).toMatch(
      /special-purpose/,
    );
    expect(refusalOf('93.184.216.34', PUBLIC_ONLY)).toBeUndefined();
    expect(refusalOf('127.0.0.1', parseAddressPolicy('loopback'))).toBeUndefined();
    expect(refusalOf('10.0.0.1', parseAddressPolicy('loopback'))).toMatch(/private/);
  });
});

/** Every permission an operator can give. */
const ALL = parseAddressPolicy('loopback,private,link-local');

describe('the special-purpose ranges (IANA registries), in the spellings a hostile probe used', () => {
  const cases: Array<[string, RegExp | undefined, RegExp | undefined]> = [
    // [address, refusal under PUBLIC_ONLY, refusal with everything allowed]
    ['127.0.0.1', /loopback/, undefined],
    ['127.255.255.254', /loopback/, undefined],
    ['::1', /loopback/, undefined],
    ['0:0:0:0:0:0:0:1', /loopback/, undefined],
    ['::ffff:127.0.0.1', /IPv4 127\.0\.0\.1\) is a loopback/, undefined],
    ['::ffff:7f00:1', /IPv4 127\.0\.0\.1\) is a loopback/, undefined],
    ['::FFFF:7F00:0001', /loopback/, undefined],
    ['0:0:0:0:0:ffff:10.0.0.1', /private/, undefined],
    ['64:ff9b::7f00:1', /IPv4 127\.0\.0\.1\) is a loopback/, undefined], // NAT64 well-known prefix
    ['64:ff9b::169.254.169.254', /link-local/, undefined],
    ['64:ff9b::a00:1', /private/, undefined],
    ['64:ff9b:1::1', /private/, undefined], // local-use NAT64
    ['2002:7f00:1::1', /IPv4 127\.0\.0\.1\) is a loopback/, undefined], // 6to4
    ['2002:a9fe:a9fe::', /link-local/, undefined],
    ['2002:c0a8:101::1', /private/, undefined],
    ['10.0.0.1', /private/, undefined],
    ['172.31.255.255', /private/, undefined],
    ['192.168.1.1', /private/, undefined],
    ['100.64.0.1', /private/, undefined],
    ['fd12:3456::1', /private/, undefined],
    ['fec0::1', /private/, undefined],
    ['169.254.169.254', /link-local/, undefined],
    ['fe80::1', /link-local/, undefined],
    ['fe80::1%eth0', /link-local/, undefined],
    ['0.0.0.0', /special-purpose/, /special-purpose/],
    ['0.1.2.3', /special-purpose/, /special-purpose/],
    ['::', /special-purpose/, /special-purpose/],
    ['::127.0.0.1', /special-purpose/, /special-purpose/], // IPv4-compatible (deprecated)
    ['192.0.0.8', /special-purpose/, /special-purpose/],
    ['192.0.2.1', /special-purpose/, /special-purpose/],
    ['192.88.99.1', /special-purpose/, /special-purpose/],
    ['198.18.0.1', /special-purpose/, /special-purpose/],
    ['198.19.255.255', /special-purpose/, /special-purpose/],
    ['198.51.100.7', /special-purpose/, /special-purpose/],
    ['203.0.113.9', /special-purpose/, /special-purpose/],
    ['224.0.0.1', /special-purpose/, /special-purpose/],
    ['239.255.255.250', /special-purpose/, /special-purpose/],
    ['240.0.0.1', /special-purpose/, /special-purpose/],
    ['255.255.255.255', /special-purpose/, /special-purpose/],
    ['100::1', /special-purpose/, /special-purpose/],
    ['100:0:0:1::1', /special-purpose/, /special-purpose/],
    ['2001::1', /special-purpose/, /special-purpose/], // Teredo
    ['2001:2::1', /special-purpose/, /special-purpose/], // benchmarking
    ['2001:10::1', /special-purpose/, /special-purpose/], // ORCHID (deprecated)
    ['2001:db8::1', /special-purpose/, /special-purpose/],
    ['3fff::1', /special-purpose/, /special-purpose/],
    ['5f00::1', /special-purpose/, /special-purpose/],
    ['ff02::1', /special-purpose/, /special-purpose/],
    ['::ffff:0.0.0.0', /special-purpose/, /special-purpose/],
    ['::ffff:224.0.0.1', /special-purpose/, /special-purpose/],
    // Public destinations, including the globally reachable parts of special blocks.
    ['93.184.216.34', undefined, undefined],
    ['8.8.8.8', undefined, undefined],
    ['192.31.196.1', undefined, undefined], // AS112
    ['192.175.48.1', undefined, undefined], // AS112 direct delegation
    ['2606:4700::1111', undefined, undefined],
    ['2001:4860:4860::8888', undefined, undefined],
    ['2001:3::1', undefined, undefined], // AMT
    ['2001:4:112::1', undefined, undefined], // AS112
    ['2001:1::1', undefined, undefined], // PCP anycast
    ['64:ff9b::808:808', undefined, undefined], // NAT64 to 8.8.8.8
    ['2002:808:808::1', undefined, undefined], // 6to4 of 8.8.8.8
    ['::ffff:8.8.8.8', undefined, undefined],
  ];
  it.each(cases)('%s', (address, publicOnly, everything) => {
    const asPublic = refusalOf(address, PUBLIC_ONLY);
    const asAll = refusalOf(address, ALL);
    if (publicOnly) expect(asPublic).toMatch(publicOnly);
    else expect(asPublic).toBeUndefined();
    if (everything) expect(asAll).toMatch(everything);
    else expect(asAll).toBeUndefined();
  });

  it('refuses names and malformed addresses as not IP addresses', () => {
    for (const text of ['localhost', '0177.0.0.1', '1.2.3', '::ffff:1.2.3.256', '', '[::1]', '1.2.3.4 '])
      expect(refusalOf(text, ALL)).toMatch(/not an IP address/);
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
