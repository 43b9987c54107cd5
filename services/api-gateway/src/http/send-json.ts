import type { Response } from 'express';

/**
 * Writes a JSON answer with `Content-Type: application/json` exactly: discord.py parses
 * JSON only when the header has no charset, and Express's `res.json`/`res.send` add one.
 * `body` may be pre-rendered JSON text, which is passed through without re-encoding.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** Writes an empty 204. */
export function sendNoContent(res: Response): void {
  res.statusCode = 204;
  res.end();
}
