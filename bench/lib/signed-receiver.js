'use strict';
/**
 * The app's side of the benches: an HTTP server that checks each request's Ed25519
 * signature as apps must (Interactions Endpoint, event webhooks) before it handles it.
 */
const http = require('node:http');
const { createPublicKey, verify } = require('node:crypto');

/** DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The public key of an application's `verify_key` (hex).
 * @param {string} hex
 */
function publicKeyOf(hex) {
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/**
 * @typedef {object} SignedRequest
 * @property {http.IncomingMessage} req
 * @property {Buffer} raw   the body as received
 * @property {any} body     the body parsed as JSON (parsed when first read)
 */

/**
 * Listens on a free loopback port; for each request, `keyFor(request)` names the key to
 * check it with (undefined: refused), a bad signature is answered 401, and a good one goes
 * to `handle(request, res)`.
 * @param {(request: SignedRequest) => import('node:crypto').KeyObject | undefined} keyFor
 * @param {(request: SignedRequest, res: http.ServerResponse) => void} handle
 * @returns {Promise<{ url: string, close: () => void }>}
 */
function startSignedReceiver(keyFor, handle) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let parsed;
      const request = {
        req,
        raw,
        get body() {
          parsed ??= JSON.parse(raw.toString('utf8'));
          return parsed;
        },
      };
      const key = keyFor(request);
      const signed = Buffer.concat([Buffer.from(String(req.headers['x-signature-timestamp'])), raw]);
      const signature = Buffer.from(String(req.headers['x-signature-ed25519'] ?? ''), 'hex');
      if (!key || signature.length !== 64 || !verify(null, signed, key, signature))
        return void res.writeHead(401).end();
      handle(request, res);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  );
}

/**
 * Answers an interaction inline: PONG to a PING, otherwise a message (type 4) of `content`.
 * @param {http.ServerResponse} res
 * @param {{ type: number }} interaction
 * @param {string} content
 */
function answerInline(res, interaction, content) {
  res
    .writeHead(200, { 'Content-Type': 'application/json' })
    .end(JSON.stringify(interaction.type === 1 ? { type: 1 } : { type: 4, data: { content } }));
}

/**
 * An app's Interactions Endpoint that checks each signature with the app's key and answers
 * every interaction inline with a message of `content`.
 * @param {string} verifyKeyHex
 * @param {string} content
 */
function startInlineAppReceiver(verifyKeyHex, content) {
  const key = publicKeyOf(verifyKeyHex);
  return startSignedReceiver(
    () => key,
    (request, res) => answerInline(res, request.body, content),
  );
}

module.exports = { publicKeyOf, startSignedReceiver, answerInline, startInlineAppReceiver };
