import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { verifyKey } from 'discord-interactions';
import { signatureTimestamp, signWebhook } from '../src';

/** A fresh Ed25519 pair as oauth keeps it: PKCS#8 PEM, and the raw public key in hex (`verify_key`). */
function keyPair(): { pem: string; verifyKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    // The raw 32-byte key is the tail of its SPKI encoding.
    verifyKey: spki.subarray(-32).toString('hex'),
  };
}

describe('signWebhook', () => {
  it('signs timestamp + body with Ed25519', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const signature = signWebhook(pem, '1700000000', '{"a":1}');
    expect(
      verify(
        null,
        Buffer.from('1700000000{"a":1}'),
        createPublicKey(publicKey.export({ format: 'pem', type: 'spki' })),
        Buffer.from(signature, 'hex'),
      ),
    ).toBe(true);
  });

  it("passes discord-interactions' verifyKey with the app's verify_key, and only for the bytes signed", async () => {
    const app = keyPair();
    const other = keyPair();
    const body = '{"type":1,"id":"1","application_id":"2","token":"t","version":1}';
    const timestamp = signatureTimestamp(Date.now());
    const signature = signWebhook(app.pem, timestamp, body);

    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    await expect(verifyKey(body, signature, timestamp, app.verifyKey)).resolves.toBe(true);
    await expect(verifyKey(`${body} `, signature, timestamp, app.verifyKey)).resolves.toBe(false);
    await expect(verifyKey(body, signature, String(Number(timestamp) + 1), app.verifyKey)).resolves.toBe(
      false,
    );
    await expect(verifyKey(body, signature, timestamp, other.verifyKey)).resolves.toBe(false);
  });

  it('signs with each key it is given, whatever it signed with before', () => {
    const first = keyPair();
    const second = keyPair();
    expect(signWebhook(first.pem, '1', '{}')).not.toBe(signWebhook(second.pem, '1', '{}'));
    // Ed25519 is deterministic: the same key and bytes give the same signature.
    expect(signWebhook(first.pem, '1', '{}')).toBe(signWebhook(first.pem, '1', '{}'));
  });
});

describe('signatureTimestamp', () => {
  it('is whole unix seconds', () => {
    expect(signatureTimestamp(1_700_000_000_999)).toBe('1700000000');
    expect(signatureTimestamp(0)).toBe('0');
  });
});
