import { resolveLocale } from '@acs/validation';

/** A request's headers, by lowercase name (Node's `IncomingHttpHeaders`). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The requester's locale: `X-Service-Locale`, then `X-Discord-Locale`, then
 * `Accept-Language`, then the user's own setting; '' when none names a supported locale.
 */
export function resolveRequestLocale(headers: RequestHeaders, userLocale: string): string {
  const header = (name: string): string | undefined => {
    const value = headers[name];
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
