/**
 * A fault's `route`: a method (or `*`) and a path pattern relative to the API's base
 * (`/api/v10` may be written or not), whose segments are literal, `:name` or `{name}`
 * (any one segment), or `*` (anything from there on when last, else any one segment).
 */
export interface FaultRoute {
  method: string;
  segments: string[];
}

const METHODS = new Set(['*', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const SEGMENT = /^([A-Za-z0-9@._~-]+|:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*\}|\*)$/;
/** The longest `route` a fault takes. */
export const MAX_FAULT_ROUTE_LENGTH = 200;

/** Reads a fault's route; a message saying what is wrong with it otherwise. */
export function parseFaultRoute(text: string): FaultRoute | string {
  if (text.length > MAX_FAULT_ROUTE_LENGTH) return `Must be ${MAX_FAULT_ROUTE_LENGTH} or fewer in length.`;
  const match = /^(\S+) (\/\S*)$/.exec(text);
  if (!match) return 'Must be a method and a path, e.g. "POST /channels/:id/messages".';
  const method = (match[1] as string).toUpperCase();
  if (!METHODS.has(method)) return `Unknown method "${match[1]}".`;
  const segments = (match[2] as string)
    .replace(/^\/api\/v\d+(?=\/|$)/, '')
    .split('/')
    .slice(1);
  if (segments.at(-1) === '') segments.pop();
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) return `Invalid path segment "${segment.slice(0, 40)}".`;
  }
  return { method, segments };
}

/** Whether a call (its method and path under the API's base) is one the route names. */
export function matchesFaultRoute(route: FaultRoute, method: string, path: string): boolean {
  if (route.method !== '*' && route.method !== method.toUpperCase()) return false;
  const parts = path.split('/').slice(1);
  if (parts.at(-1) === '') parts.pop();
  for (let i = 0; i < route.segments.length; i += 1) {
    const segment = route.segments[i] as string;
    if (segment === '*' && i === route.segments.length - 1) return parts.length >= i + 1;
    const part = parts[i];
    if (part === undefined) return false;
    if (segment === '*' || segment.startsWith(':') || segment.startsWith('{')) continue;
    if (segment !== part) return false;
  }
  return parts.length === route.segments.length;
}
