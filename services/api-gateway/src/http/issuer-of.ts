import type { Request } from 'express';

/** The deployment's OpenID Connect issuer as a request sees it. */
export type IssuerOf = (req: Request) => string;

/**
 * The issuer of ID tokens and of /.well-known/openid-configuration: the stack's public base
 * URL when configured (PUBLIC_BASE_URL), else the request's own scheme and host ([Inf]: as
 * Discord's is its site root, `https://discord.com`), without a trailing slash. oauth
 * checks what it is given and falls back to its default for anything malformed.
 */
export function createIssuerOf(publicBaseUrl: string | undefined): IssuerOf {
  const configured = publicBaseUrl?.replace(/\/+$/, '');
  return (req) => configured ?? `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}
