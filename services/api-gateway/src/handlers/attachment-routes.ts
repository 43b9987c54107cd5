import { pipeline } from 'node:stream/promises';
import type { RequestHandler } from 'express';
import type { BlobStore } from '@acs/blob-store';
import { NotFoundError } from '@acs/discord-errors';
import type { PeerClients } from '../clients/peer-clients';
import type { Route } from '../http/route-table';

/** What a client sees for an attachment that is not there, as Discord's CDN says it. */
const notFound = () => new NotFoundError();

/** Most characters of a filename in the path: an attachment's is at most 1024. */
const MAX_FILENAME_LENGTH = 1024;
/** Whether a path segment can be a snowflake (a decimal within PostgreSQL's bigint). */
const isId = (text: string) => /^\d{1,19}$/.test(text) && BigInt(text) <= 9223372036854775807n;

/** The characters of a stored attachment's filename. */
const FILENAME = /^[A-Za-z0-9._-]+$/;

/**
 * `GET /attachments/{channel_id}/{attachment_id}/{filename}` (Discord's CDN path): the
 * bytes of a message's attachment, with its media type and size, streamed from the blob
 * store. No authentication, as on Discord's CDN: the URL is the capability. Answered
 * with `Content-Security-Policy: sandbox` so that no uploaded HTML or SVG runs as this origin.
 * An unknown attachment, another channel's or another name, or one of a deleted message: 404.
 */
export function attachmentRoutes(clients: PeerClients, blobs: BlobStore): Route[] {
  const serve: RequestHandler = async (req, res) => {
    const channelId = String(req.params.channel_id ?? '');
    const attachmentId = String(req.params.attachment_id ?? '');
    const filename = String(req.params.filename ?? '');
    if (!isId(channelId) || !isId(attachmentId)) throw notFound();
    // A stored filename is letters, digits, `.`, `-` and `_` (interactions cleans them): anything else names nothing.
    if (!FILENAME.test(filename) || filename.length > MAX_FILENAME_LENGTH) throw notFound();
    const where = await clients.interactions.getAttachment({ channelId, attachmentId, filename });
    const blob = await blobs.get(where.blobKey);
    if (!blob) throw notFound();
    res.statusCode = 200;
    res.setHeader('Content-Type', where.contentType);
    res.setHeader('Content-Length', String(blob.size));
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'public, max-age=86400, immutable');
    if (req.method === 'HEAD') {
      blob.stream.destroy();
      res.end();
      return;
    }
    // A client that goes away mid-download ends the pipeline; nothing to answer then.
    await pipeline(blob.stream, res).catch(() => undefined);
  };
  return [{ method: 'get', path: '/:channel_id/:attachment_id/:filename', handlers: [serve] }];
}
