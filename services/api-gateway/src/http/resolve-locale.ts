import type { Request } from 'express';
import { resolveLocale } from '@acs/validation';

/**
 * The requester's locale: `X-Service-Locale`, then `X-Discord-Locale`, then
 * `Accept-Language`, then the user's own setting; '' when none names a supported locale.
 */
export function resolveRequestLocale(req: Request, userLocale: string): string {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  return (
    resolveLocale([
      header('x-service-locale'),
      header('x-discord-locale'),
      header('accept-language'),
      userLocale,
    ]) ?? ''
  );
}
