import type { RequestHandler } from 'express';

/** The paths whose answers carry users' or applications' data. */
const PRIVATE_PATHS = /^\/(api|admin)(\/|$)/;

/**
 * Headers every answer carries, errors included: `X-Content-Type-Options: nosniff`, so
 * that no browser takes a JSON answer (which may echo a client's text) for HTML or
 * script; and, on the API and admin answers, which carry tokens and user data,
 * `Cache-Control: no-store`, so that no shared or browser cache keeps them.
 */
export const setSecurityHeaders: RequestHandler = (req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (PRIVATE_PATHS.test(req.path)) res.setHeader('Cache-Control', 'no-store');
  next();
};
