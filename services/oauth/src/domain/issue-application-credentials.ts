import { generateBotToken } from './bot-token';
import { generateSigningKey } from './generate-signing-key';
import { hashSecret, type Digest } from './hash-secret';
import { generateClientSecret } from './random-token';

/** What an application's row keeps of its credentials: digests and the key pair. */
export interface StoredCredentials {
  botTokenHash: Digest;
  clientSecretHash: Digest;
  verifyKey: string;
  signingKeyPem: string;
}

/** A new application's credentials: the raw ones, shown once, and what is stored. */
export interface IssuedCredentials {
  botToken: string;
  clientSecret: string;
  stored: StoredCredentials;
}

/** Issues a bot token, a client secret and an Ed25519 key pair for a new application. */
export function issueApplicationCredentials(
  applicationId: string,
  now: Date = new Date(),
): IssuedCredentials {
  const botToken = generateBotToken(applicationId, now);
  const clientSecret = generateClientSecret();
  const { verifyKey, privateKeyPem } = generateSigningKey();
  return {
    botToken,
    clientSecret,
    stored: {
      botTokenHash: hashSecret(botToken),
      clientSecretHash: hashSecret(clientSecret),
      verifyKey,
      signingKeyPem: privateKeyPem,
    },
  };
}
