import { fieldError } from '@acs/discord-errors';
import { TIMELINE_PAGE } from './trace-limits';

/** The windows an admin can make pass at once. */
export type ExpiryWindow = 'initial' | 'token';

/** A page of the timeline: newest first, older than `before` when given. */
export interface TimelinePage {
  before: string | null;
  limit: number;
}

/** `before` ('' when absent, a checked id otherwise) and `limit` (0 when absent; 1-100). */
export function readTimelinePage(before: string, limit: number): TimelinePage {
  if (!Number.isInteger(limit) || limit < 0 || (limit > 0 && limit < TIMELINE_PAGE.min)) {
    throw fieldError(
      'limit',
      'NUMBER_TYPE_MIN',
      `int value should be greater than or equal to ${TIMELINE_PAGE.min}.`,
    );
  }
  if (limit > TIMELINE_PAGE.max) {
    throw fieldError(
      'limit',
      'NUMBER_TYPE_MAX',
      `int value should be less than or equal to ${TIMELINE_PAGE.max}.`,
    );
  }
  return { before: before === '' ? null : before, limit: limit === 0 ? TIMELINE_PAGE.default : limit };
}

/** The body of the expire route: `{"window": "initial" | "token"}`; 50035 at `window` otherwise. */
export function readExpiryWindow(body: unknown): ExpiryWindow {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fieldError('window', 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const window = (body as { window?: unknown }).window;
  if (window === undefined || window === null)
    throw fieldError('window', 'BASE_TYPE_REQUIRED', 'This field is required');
  if (window !== 'initial' && window !== 'token') {
    throw fieldError('window', 'BASE_TYPE_CHOICES', 'Value must be one of ("initial", "token").');
  }
  return window;
}
