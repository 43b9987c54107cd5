import { EVENT_WEBHOOK_TYPES, type EventWebhookType } from './event-webhook-types';
import { FormErrors } from '@acs/validation';
import {
  INTEGRATION_TYPES,
  MAX_APPLICATION_NAME_LENGTH,
  MAX_REDIRECT_URIS,
  MIN_APPLICATION_NAME_LENGTH,
  type IntegrationType,
} from './limits';
import { readUrl } from './read-url';
import {
  addRequired,
  checkItemCount,
  checkLength,
  checkRange,
  getField,
  isAbsent,
  readBoolean,
  readEnumSet,
  readInteger,
  readList,
  readSnowflake,
  readString,
  type JsonObject,
} from './read-value';

/** The settable fields of an application, as the admin API names them (ADMIN-API.md). */
export interface ApplicationFields {
  name: string;
  flags: number;
  integrationTypes: IntegrationType[];
  redirectUris: string[];
  interactionsEndpointUrl: string | null;
  eventWebhooksUrl: string | null;
  eventWebhooksTypes: EventWebhookType[];
  publicClient: boolean;
  ownerId: string | null;
}

/** A PATCH: only the fields given; `null` clears the nullable ones. */
export type ApplicationPatch = Partial<ApplicationFields>;

const DEFAULTS: Omit<ApplicationFields, 'name'> = {
  flags: 0,
  integrationTypes: [0],
  redirectUris: [],
  interactionsEndpointUrl: null,
  eventWebhooksUrl: null,
  eventWebhooksTypes: [],
  publicClient: false,
  ownerId: null,
};

/** Validates a `POST /admin/applications` body; throws 400 / 50035 with every error found. */
export function validateNewApplication(body: JsonObject): ApplicationFields {
  const errors = new FormErrors();
  if (isAbsent(getField(body, 'name'))) addRequired(errors, ['name']);
  const patch = readApplicationFields(body, errors);
  errors.throwIfAny();
  return { ...DEFAULTS, ...patch, name: patch.name ?? '' };
}

/** Validates a `PATCH /admin/applications/{id}` body; throws 400 / 50035 with every error found. */
export function validateApplicationPatch(body: JsonObject): ApplicationPatch {
  const errors = new FormErrors();
  const patch = readApplicationFields(body, errors);
  errors.throwIfAny();
  return patch;
}

// Fields that are null on the wire when unset; null in a body clears them. For the other
// fields null means "not given", as for any absent field.
function readApplicationFields(body: JsonObject, errors: FormErrors): ApplicationPatch {
  const patch: ApplicationPatch = {};
  const field = (key: string): unknown => getField(body, key);

  if (!isAbsent(field('name'))) {
    const name = readString(field('name'), errors, ['name']);
    if (
      name !== undefined &&
      checkLength(name, MIN_APPLICATION_NAME_LENGTH, MAX_APPLICATION_NAME_LENGTH, errors, ['name'])
    ) {
      patch.name = name;
    }
  }
  if (!isAbsent(field('flags'))) {
    const flags = readInteger(field('flags'), errors, ['flags']);
    if (flags !== undefined && checkRange(flags, 0, Number.MAX_SAFE_INTEGER, errors, ['flags']))
      patch.flags = flags;
  }
  if (!isAbsent(field('integration_types'))) {
    const types = readEnumSet(field('integration_types'), INTEGRATION_TYPES, errors, ['integration_types']);
    if (types && checkItemCount(types, 1, INTEGRATION_TYPES.length, errors, ['integration_types'])) {
      patch.integrationTypes = [...types].sort();
    }
  }
  if (!isAbsent(field('redirect_uris'))) {
    const uris = readRedirectUris(field('redirect_uris'), errors);
    if (uris) patch.redirectUris = uris;
  }
  for (const [key, name] of [
    ['interactions_endpoint_url', 'interactionsEndpointUrl'],
    ['event_webhooks_url', 'eventWebhooksUrl'],
  ] as const) {
    const value = field(key);
    if (value === null) patch[name] = null;
    else if (value !== undefined) {
      const url = readUrl(value, 'web', errors, [key]);
      if (url !== undefined) patch[name] = url;
    }
  }
  if (!isAbsent(field('event_webhooks_types'))) {
    const types = readEnumSet(field('event_webhooks_types'), EVENT_WEBHOOK_TYPES, errors, [
      'event_webhooks_types',
    ]);
    if (types) patch.eventWebhooksTypes = types;
  }
  if (!isAbsent(field('public_client'))) {
    const value = readBoolean(field('public_client'), errors, ['public_client']);
    if (value !== undefined) patch.publicClient = value;
  }
  if (field('owner_id') === null) patch.ownerId = null;
  else if (field('owner_id') !== undefined) {
    const ownerId = readSnowflake(field('owner_id'), errors, ['owner_id']);
    if (ownerId !== undefined) patch.ownerId = ownerId;
  }
  return patch;
}

function readRedirectUris(value: unknown, errors: FormErrors): string[] | undefined {
  const list = readList(value, errors, ['redirect_uris']);
  if (!list || !checkItemCount(list, 0, MAX_REDIRECT_URIS, errors, ['redirect_uris'])) return undefined;
  const before = errors.count;
  const uris = list.map((item, index) => readUrl(item, 'redirect', errors, ['redirect_uris', index]));
  if (errors.count !== before) return undefined;
  // Exact duplicates add nothing to an exact-match list.
  return [...new Set(uris as string[])];
}
