import { createPublicKey, sign, verify, createPrivateKey } from 'node:crypto';
import { generateBotToken, hasBotTokenShape } from '../../src/domain/bot-token';
import { generateSigningKey } from '../../src/domain/generate-signing-key';
import { hashSecret, secretMatches } from '../../src/domain/hash-secret';
import { issueApplicationCredentials } from '../../src/domain/issue-application-credentials';
import {
  generateAuthorizationCode,
  generateClientSecret,
  generateSessionToken,
} from '../../src/domain/random-token';

const APP_ID = '1302000000000000000';

describe('bot tokens', () => {
  it('has the three-part shape whose first part is the bot id', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const token = generateBotToken(APP_ID, now);
    const parts = token.split('.');
    expect(parts).toHaveLength(3);
    const [id, time, secret] = parts as [string, string, string];
    expect(Buffer.from(id, 'base64').toString('utf8')).toBe(APP_ID);
    expect(Buffer.from(time, 'base64url').readUInt32BE(0)).toBe(Math.floor(now.getTime() / 1000));
    expect(secret).toMatch(/^[A-Za-z0-9_-]{38}$/);
    expect(token.length).toBeGreaterThanOrEqual(59);
    expect(token).not.toMatch(/=/);
    expect(hasBotTokenShape(token)).toBe(true);
  });

  it('never repeats', () => {
    expect(generateBotToken(APP_ID)).not.toBe(generateBotToken(APP_ID));
  });

  it('tells a token shape from garbage', () => {
    expect(hasBotTokenShape('not-a-token')).toBe(false);
    expect(hasBotTokenShape('a.b.c')).toBe(false);
  });
});

describe('random secrets', () => {
  it('have the documented lengths and alphabet', () => {
    expect(generateClientSecret()).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(generateSessionToken()).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(generateAuthorizationCode()).toMatch(/^[A-Za-z0-9_-]{30}$/);
  });
});

describe('hashing', () => {
  it('stores SHA-256 and compares in constant time', () => {
    const digest = hashSecret('secret');
    expect(Buffer.from(digest).toString('hex')).toBe(
      '2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b',
    );
    expect(secretMatches('secret', digest)).toBe(true);
    expect(secretMatches('Secret', digest)).toBe(false);
    expect(secretMatches('secret', digest.subarray(0, 16))).toBe(false);
  });
});

describe('signing keys', () => {
  it('shows the raw public key in hex and keeps a private key that signs for it', () => {
    const { verifyKey, privateKeyPem } = generateSigningKey();
    expect(verifyKey).toMatch(/^[0-9a-f]{64}$/);
    const message = Buffer.from('1700000000{"type":1}');
    const signature = sign(null, message, createPrivateKey(privateKeyPem));
    // How discord-interactions verifies: the raw key wrapped in an SPKI header.
    const spki = Buffer.concat([
      Buffer.from('302a300506032b6570032100', 'hex'),
      Buffer.from(verifyKey, 'hex'),
    ]);
    const publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
    expect(verify(null, message, publicKey, signature)).toBe(true);
  });

  it('issues credentials whose stored form holds only digests', () => {
    const issued = issueApplicationCredentials(APP_ID);
    expect(issued.stored.botTokenHash).toEqual(hashSecret(issued.botToken));
    expect(issued.stored.clientSecretHash).toEqual(hashSecret(issued.clientSecret));
    expect(JSON.stringify(issued.stored)).not.toContain(issued.botToken);
    expect(JSON.stringify(issued.stored)).not.toContain(issued.clientSecret);
  });
});
