/** One leaf of Discord's error tree. */
export interface ErrorLeaf {
  code: string;
  message: string;
}

/** Discord's nested `errors` tree: keys are field names or array indices, leaves are `_errors`. */
export interface ErrorTree {
  _errors?: ErrorLeaf[];
  [key: string]: ErrorTree | ErrorLeaf[] | undefined;
}

/** The body every public API error answers with. */
export interface DiscordErrorBody {
  code: number;
  message: string;
  errors?: ErrorTree;
  /** A few errors carry fields of their own at the top level (530010: `user_id`, `provider_type`…). */
  [field: string]: unknown;
}

/** Top-level fields an error body carries besides `code`, `message` and `errors`. */
export type ErrorBodyFields = Readonly<Record<string, string | number | boolean | null>>;

/**
 * The one error type that reaches a client: HTTP status + Discord error body. Domain
 * errors extend it; service-kit turns it into a gRPC status with the body as detail,
 * and api-gateway turns that back into the HTTP answer.
 */
export class DiscordError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly errors?: ErrorTree,
    readonly fields?: ErrorBodyFields,
  ) {
    super(message);
    this.name = new.target.name;
  }

  toBody(): DiscordErrorBody {
    const head = { ...this.fields, code: this.code, message: this.message };
    return this.errors === undefined ? head : { ...head, errors: this.errors };
  }
}

/** 400 / 50035 with a field tree. */
export class InvalidFormBodyError extends DiscordError {
  constructor(errors: ErrorTree) {
    super(400, 50035, 'Invalid Form Body', errors);
  }
}

/** 400 / 50109: the body is not JSON. */
export class MalformedJsonError extends DiscordError {
  constructor() {
    super(400, 50109, 'The request body contains invalid JSON.');
  }
}

/** 401 / 0: missing, malformed, unknown or revoked token. */
export class UnauthorizedError extends DiscordError {
  constructor() {
    super(401, 0, '401: Unauthorized');
  }
}

/** 403 / 50001. */
export class MissingAccessError extends DiscordError {
  constructor() {
    super(403, 50001, 'Missing Access');
  }
}

/** 403 / 50013, saying which permissions are missing. */
export class MissingPermissionsError extends DiscordError {
  constructor(missing?: string[]) {
    super(
      403,
      50013,
      missing && missing.length > 0 ? `Missing Permissions: ${missing.join(', ')}` : 'Missing Permissions',
    );
  }
}

/**
 * 400 / 50033 "Invalid Recipient(s)": `POST /users/@me/channels` naming a user who does not
 * exist, or the caller themselves (the real API's answer to both).
 */
export class InvalidRecipientsError extends DiscordError {
  constructor() {
    super(400, 50033, 'Invalid Recipient(s)');
  }
}

/** 404 with the unknown-resource code of the resource, e.g. 10063 "Unknown application command". */
export class UnknownResourceError extends DiscordError {
  constructor(code: number, message: string) {
    super(404, code, message);
  }
}

/** 404 / 0: no such route or resource where Discord names no code (its CDN, unknown paths). */
export class NotFoundError extends UnknownResourceError {
  constructor() {
    super(0, '404: Not Found');
  }
}

/** Builds the 50035 tree for a single field, e.g. a malformed snowflake in the path. */
export function fieldError(field: string, code: string, message: string): InvalidFormBodyError {
  return new InvalidFormBodyError({ [field]: { _errors: [{ code, message }] } });
}
