import { generateKeyPairSync } from 'node:crypto';

/** An application's Ed25519 key pair: the hex public key it shows, the private key we sign with. */
export interface SigningKey {
  /** Hex of the raw 32-byte public key (the application's `verify_key`). */
  verifyKey: string;
  /** PKCS#8 PEM of the private key. */
  privateKeyPem: string;
}

/** Generates the key pair that signs an application's interactions and webhook events. */
export function generateSigningKey(): SigningKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // An Ed25519 SPKI DER is a fixed 12-byte header followed by the raw 32-byte key.
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    verifyKey: spki.subarray(spki.length - 32).toString('hex'),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}
