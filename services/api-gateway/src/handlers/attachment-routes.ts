import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler } from 'express';
import type { BlobStore } from '@acs/blob-store';
import { NotFoundError } from '@acs/discord-errors';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { clientOf } from '../http/client-of';
import { markRateLimited } from '../http/rate-limiter';
import { toDiscordError } from '../http/render-error';
import type { Route } from '../http/route-table';
import { sendJson } from '../http/send-json';
import type { CountedLimit } from '../store/limit-counters';

/** What a client sees for an attachment that is not there, as Discord's CDN says it. */
const notFound = () => new NotFoundError();

/** Most characters of a filename in the path: an attachment's is at most 1024. */
const MAX_FILENAME_LENGTH = 1024;
/** Whether a path segment can be a snowflake (a decimal within PostgreSQL's bigint). */
const isId = (text: string) => /^\d{1,19}$/.test(text) && BigInt(text) <= 9223372036854775807n;

/** The characters of a stored attachment's filename. */
const FILENAME = /^[A-Za-z0-9._-]+$/;

/**
 * Media types a browser would run as this origin's page or script if shown inline (HTML,
 * XHTML, SVG, any XML, JavaScript): they are served as a download.
 */
const ACTIVE_CONTENT =
  /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[a-z0-9.+-]*\+xml|text\/javascript|application\/javascript|application\/ecmascript|text\/ecmascript)\b/i;

/**
 * How many requests for attachments that are not there (404: an unknown id, a wrong name,
 * a missing, wrong or expired signature) one client address may make in a window before
 * the route answers it 429 until the window ends. Guessing is pointless with signed URLs;
 * this keeps it cheap too.
 */
export const ATTACHMENT_MISS_LIMIT = 100;
export const ATTACHMENT_MISS_WINDOW_SECONDS = 60;

/** A query parameter as one string ('' when absent or repeated). */
function queryText(req: Request, name: string): string {
  const value = req.query[name];
  return typeof value === 'string' ? value : '';
}

/**
 * `GET /attachments/{channel_id}/{attachment_id}/{filename}?ex=…&is=…&hm=…` (Discord's CDN
 * path): the bytes of a message's attachment, with its media type and size, streamed from
 * the blob store. No authentication, as on Discord's CDN: the signed URL is the capability,
 * good until `ex`; interactions checks the signature (`POST /attachments/refresh-urls`
 * renews it). An unknown attachment, another channel's or another name, one of a deleted
 * message, or a URL without a valid, unexpired signature: 404. A client address with too
 * many 404s in a window (`misses`) gets 429 until it ends.
 *
 * Every answer carries `Content-Security-Policy: sandbox`; active content (HTML, SVG, XML,
 * scripts) is served as a download (`Content-Disposition: attachment`), never inline from
 * the API's origin. A file of an ephemeral message is `Cache-Control: private, no-store`;
 * others may be cached until the signature ends.
 */
export function attachmentRoutes(clients: PeerClients, blobs: BlobStore, misses?: CountedLimit): Route[] {
  const serve: RequestHandler = async (req, res) => {
    const client = misses ? clientOf(req.ip) : undefined;
    if (misses && client !== undefined) {
      const window = await misses.peek(client);
      if (window && !window.allowed)
        throw markRateLimited(res, Math.ceil(window.resetAfterMs) / 1000, 'user');
    }
    try {
      await serveFile(req, res);
    } catch (error) {
      if (misses && client !== undefined && toDiscordError(error)?.httpStatus === 404)
        await misses.hit(client);
      throw error;
    }
  };

  async function serveFile(req: Request, res: Parameters<RequestHandler>[1]): Promise<void> {
    const channelId = String(req.params.channel_id ?? '');
    const attachmentId = String(req.params.attachment_id ?? '');
    const filename = String(req.params.filename ?? '');
    if (!isId(channelId) || !isId(attachmentId)) throw notFound();
    // A stored filename is letters, digits, `.`, `-` and `_` (interactions cleans them): anything else names nothing.
    if (!FILENAME.test(filename) || filename.length > MAX_FILENAME_LENGTH) throw notFound();
    const signature = { ex: queryText(req, 'ex'), is: queryText(req, 'is'), hm: queryText(req, 'hm') };
    const where = await clients.interactions.getAttachment({ channelId, attachmentId, filename, signature });
    const blob = await blobs.get(where.blobKey);
    if (!blob) throw notFound();
    res.statusCode = 200;
    res.setHeader('Content-Type', where.contentType);
    res.setHeader('Content-Length', String(blob.size));
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    const disposition = ACTIVE_CONTENT.test(where.contentType) ? 'attachment' : 'inline';
    res.setHeader('Content-Disposition', `${disposition}; filename="${filename}"`);
    const secondsLeft = Math.max(0, Math.min(86_400, where.expiresAt - Math.floor(Date.now() / 1000)));
    res.setHeader('Cache-Control', where.ephemeral ? 'private, no-store' : `public, max-age=${secondsLeft}`);
    if (req.method === 'HEAD') {
      blob.stream.destroy();
      res.end();
      return;
    }
    // A client that goes away mid-download ends the pipeline; nothing to answer then.
    await pipeline(blob.stream, res).catch(() => undefined);
  }

  return [{ method: 'get', path: '/:channel_id/:attachment_id/:filename', handlers: [serve] }];
}

/**
 * `POST /attachments/refresh-urls` `{attachment_urls: [url, …]}` (1-50): each attachment
 * URL that carries a valid signature (an expired one included) signed afresh, as
 * `{refreshed_urls: [{original, refreshed}]}`; a URL without one is left out ([Inf]).
 * Any credential of the API may call it: a bot, an OAuth2 Bearer token, a user's session.
 */
export function refreshAttachmentUrlRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
): Route[] {
  const refresh: RequestHandler = async (req, res) => {
    await auth.authenticate(req, true);
    sendJson(res, 200, await clients.interactions.refreshAttachmentUrls(req.rawBody ?? ''));
  };
  return [
    {
      method: 'post',
      path: '/attachments/refresh-urls',
      handlers: [...readBody, refresh],
      credential: 'token-or-session',
    },
  ];
}
