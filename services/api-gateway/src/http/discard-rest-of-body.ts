import type { IncomingMessage } from 'node:http';

/**
 * The most of a refused body read and dropped before its answer: past it the answer goes
 * at once and closes the connection (a client sending megabytes past a limit is not made
 * to finish).
 */
export const DISCARD_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads and drops what is left of a refused request's body, then calls `done(true)`; when
 * more than `maxBytes` are left (or the client goes away), `done(false)`, and the answer
 * must close the connection. Answering and closing while the client still writes resets
 * the connection, and the client sees a write error (Node.js 22+'s fetch: `EPIPE`) instead
 * of the answer: reading a small rest first lets every client read why it was refused.
 */
export function discardRestOfBody(
  req: IncomingMessage,
  maxBytes: number,
  done: (drained: boolean) => void,
): void {
  if (req.readableEnded) return done(true);
  let seen = 0;
  let settled = false;
  const settle = (drained: boolean) => {
    if (settled) return;
    settled = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
    if (!drained) req.pause();
    done(drained);
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) settle(false);
  };
  const onEnd = () => settle(true);
  const onClose = () => settle(req.readableEnded);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('close', onClose);
  req.resume();
}
