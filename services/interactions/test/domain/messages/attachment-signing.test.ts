import { attachmentPathOf, createAttachmentSigner } from '../../../src/domain/messages';

const KEY = Buffer.alloc(32, 1);
const BASE = 'http://acs.test/attachments/55/1300000000000000001/report.pdf';

/** A signer whose clock reads `at.now` (milliseconds). */
function signerAt(at: { now: number }, key = KEY) {
  return createAttachmentSigner(key, () => at.now, 60_000);
}

/** The signature parameters of a signed URL. */
function paramsOf(url: string) {
  const query = new URL(url).searchParams;
  return { ex: query.get('ex') ?? '', is: query.get('is') ?? '', hm: query.get('hm') ?? '' };
}

describe('attachment URL signatures', () => {
  it('are written as Discord writes them: ex and is in hex seconds, a 64-digit hm, a trailing &', () => {
    const at = { now: 1_700_000_000_000 };
    const signed = signerAt(at).sign(BASE);
    expect(signed).toBe(
      `${BASE}?ex=${(1_700_000_060).toString(16)}&is=${(1_700_000_000).toString(16)}&hm=${paramsOf(signed).hm}&`,
    );
    expect(paramsOf(signed).hm).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hold for their lifetime, then are expired; another path, time or key is invalid', () => {
    const at = { now: 1_700_000_000_000 };
    const signer = signerAt(at);
    const signed = signer.sign(BASE);
    const path = attachmentPathOf(signed)!;
    const params = paramsOf(signed);
    expect(signer.check(path, params)).toBe('valid');
    expect(signer.check({ ...path, attachmentId: '1300000000000000002' }, params)).toBe('invalid');
    expect(signer.check({ ...path, filename: 'other.pdf' }, params)).toBe('invalid');
    expect(signer.check(path, { ...params, ex: (parseInt(params.ex, 16) + 1).toString(16) })).toBe('invalid');
    expect(signer.check(path, { ...params, hm: '0'.repeat(64) })).toBe('invalid');
    expect(signer.check(path, { ex: '', is: '', hm: '' })).toBe('invalid');
    expect(signer.check(path, { ...params, hm: 'zz' })).toBe('invalid');
    expect(signerAt(at, Buffer.alloc(32, 2)).check(path, params)).toBe('invalid');
    at.now += 60_000;
    expect(signer.check(path, params)).toBe('expired');
  });

  it('are renewed only for URLs that already carry a valid one, expired or not', () => {
    const at = { now: 1_700_000_000_000 };
    const signer = signerAt(at);
    const signed = signer.sign(BASE);
    at.now += 3_600_000;
    const renewed = signer.refresh(signed)!;
    expect(paramsOf(renewed).is).toBe((1_700_003_600).toString(16));
    expect(signer.check(attachmentPathOf(renewed)!, paramsOf(renewed))).toBe('valid');
    // A URL someone wrote, guessed or altered is never signed.
    expect(signer.refresh(BASE)).toBeUndefined();
    expect(signer.refresh(signed.replace('report.pdf', 'other.pdf'))).toBeUndefined();
    expect(signer.refresh(`${BASE}?ex=1&is=1&hm=${'a'.repeat(64)}&`)).toBeUndefined();
    expect(signer.refresh('https://elsewhere.example/a.png')).toBeUndefined();
  });

  it('are renewed inside answers: url and proxy_url values only, never text that looks like one', () => {
    const at = { now: 1_700_000_000_000 };
    const signer = signerAt(at);
    const signed = signer.sign(BASE);
    const answer = JSON.stringify({
      content: `see "url":"${signed}"`,
      embeds: [{ url: BASE, description: signed }],
      attachments: [{ id: '1', url: signed, proxy_url: signed }],
    });
    at.now += 30_000;
    const renewed = JSON.parse(signer.refreshInJson(answer)) as {
      content: string;
      embeds: { url: string; description: string }[];
      attachments: { url: string; proxy_url: string }[];
    };
    const fresh = signer.refresh(signed);
    expect(renewed.attachments[0]).toEqual({ id: '1', url: fresh, proxy_url: fresh });
    expect(renewed.content).toBe(`see "url":"${signed}"`);
    expect(renewed.embeds[0]).toEqual({ url: BASE, description: signed });
    expect(signer.refreshInJson('{"a":1}')).toBe('{"a":1}');
  });

  it('cost a linear pass over a large answer', () => {
    const signer = signerAt({ now: 1_700_000_000_000 });
    const hostile = `{"url":"${'/attachments/'.repeat(100_000)}`;
    const started = process.cpuUsage();
    signer.refreshInJson(hostile);
    const used = process.cpuUsage(started);
    // A quadratic scan of 1.2 MB would take minutes; a linear one, milliseconds.
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });

  it('refuse to sign what is not an unsigned attachment URL', () => {
    const signer = signerAt({ now: 1_700_000_000_000 });
    expect(() => signer.sign('https://elsewhere.example/a.png')).toThrow();
    expect(() => signer.sign(signer.sign(BASE))).toThrow();
  });
});
