import { BaseErrorCode, InvalidFormBodyError, isJsonObject, type ErrorTree } from '@acs/discord-errors';
import { MAX_FAULT_ROUTE_LENGTH, parseFaultRoute } from './fault-route';

/** A fault as `POST /admin/applications/{id}/faults` asks for it, once valid. */
export interface FaultRequest {
  route: string;
  status: number;
  body?: Record<string, unknown>;
  times: number;
  delay_ms: number;
}

/** The bounds of a fault's fields. */
export const FAULT_LIMITS = {
  minStatus: 400,
  maxStatus: 599,
  maxTimes: 1000,
  maxDelayMs: 30_000,
  /** The longest fault body, as JSON text. */
  maxBodyLength: 4096,
} as const;

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/**
 * Reads a fault request, or throws 50035 with every bad field: `route` (`METHOD /path`,
 * see parseFaultRoute), `status` (an HTTP error status, 400-599), `times` (1-1000),
 * `body?` (a JSON object, at most 4096 characters as JSON), `delay_ms?` (0-30000).
 */
export function readFaultRequest(value: unknown): FaultRequest {
  const errors: ErrorTree = {};
  const fail = (field: string, code: string, message: string) => {
    errors[field] = { _errors: [{ code, message }] };
  };
  if (!isJsonObject(value))
    throw new InvalidFormBodyError({
      _errors: [
        { code: BaseErrorCode.DICT_TYPE_CONVERT, message: 'Only dictionaries may be used in a DictType' },
      ],
    });
  const { route, status, body, times, delay_ms: delayMs } = value;

  if (route === undefined || route === null)
    fail('route', BaseErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
  else if (typeof route !== 'string')
    fail('route', BaseErrorCode.BASE_TYPE_STRING, 'Could not interpret value as string.');
  else if (route.length > MAX_FAULT_ROUTE_LENGTH)
    fail(
      'route',
      BaseErrorCode.BASE_TYPE_MAX_LENGTH,
      `Must be ${MAX_FAULT_ROUTE_LENGTH} or fewer in length.`,
    );
  else {
    const parsed = parseFaultRoute(route);
    if (typeof parsed === 'string') fail('route', 'FAULT_ROUTE_INVALID', parsed);
  }

  readInteger('status', status, FAULT_LIMITS.minStatus, FAULT_LIMITS.maxStatus, true);
  readInteger('times', times, 1, FAULT_LIMITS.maxTimes, true);
  readInteger('delay_ms', delayMs, 0, FAULT_LIMITS.maxDelayMs, false);

  if (body !== undefined && body !== null) {
    if (!isJsonObject(body))
      fail('body', BaseErrorCode.DICT_TYPE_CONVERT, 'Only dictionaries may be used in a DictType');
    else if (JSON.stringify(body).length > FAULT_LIMITS.maxBodyLength)
      fail(
        'body',
        BaseErrorCode.BASE_TYPE_MAX_LENGTH,
        `Must be ${FAULT_LIMITS.maxBodyLength} or fewer in length.`,
      );
  }
  if (Object.keys(errors).length > 0) throw new InvalidFormBodyError(errors);
  return {
    route: route as string,
    status: status as number,
    ...(isJsonObject(body) ? { body } : {}),
    times: times as number,
    delay_ms: (delayMs as number | undefined) ?? 0,
  };

  function readInteger(field: string, given: unknown, min: number, max: number, required: boolean): void {
    if (given === undefined || given === null) {
      if (required) fail(field, BaseErrorCode.BASE_TYPE_REQUIRED, 'This field is required');
    } else if (!isInteger(given))
      fail(field, BaseErrorCode.NUMBER_TYPE_COERCE, `Value "${String(given).slice(0, 40)}" is not int.`);
    else if (given < min)
      fail(field, BaseErrorCode.NUMBER_TYPE_MIN, `int value should be greater than or equal to ${min}.`);
    else if (given > max)
      fail(field, BaseErrorCode.NUMBER_TYPE_MAX, `int value should be less than or equal to ${max}.`);
  }
}
