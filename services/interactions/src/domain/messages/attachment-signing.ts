// Attachment URLs as Discord's CDN hands them out: signed, and good for a while. A URL
// `…/attachments/{channel_id}/{attachment_id}/{filename}` carries `ex` (when it expires),
// `is` (when it was issued), both Unix seconds in hexadecimal, and `hm`, an HMAC-SHA256 of
// the path and both times under a key of the deployment, then a trailing `&`, as Discord
// writes them. Without a valid, unexpired signature the file is not served: an attachment
// id (a snowflake, guessable from the time) names nothing on its own.
//
// A signature is minted only for an attachment the service made (when the message is
// made), and renewed only for a URL that already carries a valid one (when an answer is
// read again, or `POST /attachments/refresh-urls`): a URL anyone writes into a message
// never becomes a signed one.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signed URL is good for (Discord's CDN: about a day). */
export const SIGNED_URL_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The path of an attachment URL: `/attachments/{channel_id}/{attachment_id}/{filename}`. */
const ATTACHMENT_PATH = /\/attachments\/(\d{1,20})\/(\d{1,20})\/([^/?#]{1,3100})$/;
/** A signature's query: `ex`, `is` (hex seconds), `hm` (64 hex digits), in that order. */
const SIGNATURE_QUERY = /^\?ex=([0-9a-f]{1,12})&is=([0-9a-f]{1,12})&hm=([0-9a-f]{64})&?$/;
/**
 * A signed attachment URL as a JSON string value of `url` or `proxy_url`. A quote inside a
 * JSON string is always escaped, so `":"` is JSON's own syntax, never text of a message.
 */
const SIGNED_URL_IN_JSON =
  /"(url|proxy_url)":"([^"\\?]{1,4096}\?ex=[0-9a-f]{1,12}&is=[0-9a-f]{1,12}&hm=[0-9a-f]{64}&?)"/g;

/** What a signature says of a URL. */
export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/** An attachment named by its URL's path. */
export interface AttachmentPath {
  channelId: string;
  attachmentId: string;
  /** As it stands in the path (percent-encoded). */
  filename: string;
}

/** A signature's three query parameters, as sent. */
export interface SignatureParams {
  ex: string;
  is: string;
  hm: string;
}

/** Signs and checks attachment URLs under one key, by one clock. */
export interface AttachmentSigner {
  /** `url` (an attachment URL without a query) signed from now for the lifetime. */
  sign(url: string): string;
  /** Whether `params` sign the attachment at `path`, and whether they still hold. */
  check(path: AttachmentPath, params: SignatureParams): SignatureCheck;
  /** A signed URL signed afresh, or undefined when `url` carries no valid signature (expired ones count). */
  refresh(url: string): string | undefined;
  /** `json` (an answer's text) with each signed attachment URL signed afresh; the others as they were. */
  refreshInJson(json: string): string;
}

/** The attachment path `url` ends with (before any query), or undefined. */
export function attachmentPathOf(url: string): AttachmentPath | undefined {
  const query = url.indexOf('?');
  const match = ATTACHMENT_PATH.exec(query === -1 ? url : url.slice(0, query));
  if (!match) return undefined;
  return { channelId: match[1] as string, attachmentId: match[2] as string, filename: match[3] as string };
}

/** The signer of `key`; `now` is the clock (milliseconds), `lifetimeMs` how long a signature holds. */
export function createAttachmentSigner(
  key: Buffer,
  now: () => number = Date.now,
  lifetimeMs: number = SIGNED_URL_LIFETIME_MS,
): AttachmentSigner {
  const mac = (path: AttachmentPath, ex: string, is: string): Buffer =>
    createHmac('sha256', key)
      .update(`${path.channelId}/${path.attachmentId}/${path.filename}\n${ex}\n${is}`)
      .digest();

  const signPath = (base: string, path: AttachmentPath): string => {
    const issued = Math.floor(now() / 1000);
    const ex = (issued + Math.ceil(lifetimeMs / 1000)).toString(16);
    const is = issued.toString(16);
    return `${base}?ex=${ex}&is=${is}&hm=${mac(path, ex, is).toString('hex')}&`;
  };

  const check = (path: AttachmentPath, params: SignatureParams): SignatureCheck => {
    if (!/^[0-9a-f]{1,12}$/.test(params.ex) || !/^[0-9a-f]{1,12}$/.test(params.is)) return 'invalid';
    if (!/^[0-9a-f]{64}$/.test(params.hm)) return 'invalid';
    if (!timingSafeEqual(mac(path, params.ex, params.is), Buffer.from(params.hm, 'hex'))) return 'invalid';
    return parseInt(params.ex, 16) * 1000 > now() ? 'valid' : 'expired';
  };

  const refresh = (url: string): string | undefined => {
    const query = url.indexOf('?');
    if (query === -1) return undefined;
    const base = url.slice(0, query);
    const path = attachmentPathOf(base);
    const signature = SIGNATURE_QUERY.exec(url.slice(query));
    if (!path || !signature) return undefined;
    const params = { ex: signature[1] as string, is: signature[2] as string, hm: signature[3] as string };
    return check(path, params) === 'invalid' ? undefined : signPath(base, path);
  };

  return {
    sign(url) {
      const path = attachmentPathOf(url);
      if (!path || url.includes('?')) throw new Error(`not an unsigned attachment URL: ${url.slice(0, 200)}`);
      return signPath(url, path);
    },
    check,
    refresh,
    refreshInJson(json) {
      if (!json.includes('/attachments/')) return json;
      return json.replace(SIGNED_URL_IN_JSON, (whole, key: string, url: string) => {
        const fresh = refresh(url);
        return fresh === undefined ? whole : `"${key}":"${fresh}"`;
      });
    },
  };
}
