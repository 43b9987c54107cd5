import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

const keys = new Map<string, KeyObject>();

/** The private key object of a PEM, parsed once per key. */
function keyOf(privateKeyPem: string): KeyObject {
  let key = keys.get(privateKeyPem);
  if (!key) {
    key = createPrivateKey(privateKeyPem);
    if (keys.size > 10_000) keys.clear();
    keys.set(privateKeyPem, key);
  }
  return key;
}

/**
 * `X-Signature-Ed25519`: hex Ed25519 signature of the timestamp followed by the raw body
 * (what discord-interactions' verifyKey checks).
 */
export function signWebhook(privateKeyPem: string, timestamp: string, body: string): string {
  return sign(null, Buffer.from(timestamp + body), keyOf(privateKeyPem)).toString('hex');
}

/** `X-Signature-Timestamp`: unix seconds, fresh for every attempt. */
export function signatureTimestamp(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}
