import { EVENT_WEBHOOK_TYPES, type EventWebhookType } from './event-webhook-types';
import { FormErrors } from '@acs/validation';
import { ErrorCode } from './error-codes';
import {
  BOT_SETTABLE_FLAGS,
  EVENT_WEBHOOKS_DISABLED,
  EVENT_WEBHOOKS_ENABLED,
  INTEGRATION_TYPES,
  MAX_APPLICATION_DESCRIPTION_LENGTH,
  MAX_APPLICATION_NAME_LENGTH,
  MAX_APPLICATION_TAG_LENGTH,
  MAX_APPLICATION_TAGS,
  MAX_REDIRECT_URIS,
  MIN_APPLICATION_NAME_LENGTH,
  type IntegrationType,
} from './limits';
import { readImageData } from './read-image-data';
import {
  readInstallParams,
  readIntegrationTypesConfig,
  type InstallParams,
  type IntegrationTypesConfig,
} from './read-install-params';
import { readUrl } from './read-url';
import {
  addChoicesError,
  addRequired,
  checkItemCount,
  checkLength,
  checkRange,
  getField,
  isAbsent,
  readBoolean,
  readEnumSet,
  readDict,
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

/** What else an application shows, which its bot (and the admin API) may edit. */
export interface ApplicationProfile {
  description: string;
  /** Hex digests of the images last set. */
  iconHash: string | null;
  coverImageHash: string | null;
  roleConnectionsVerificationUrl: string | null;
  customInstallUrl: string | null;
  installParams: InstallParams | null;
  /** The install params of each integration type's link (integration_types_config). */
  integrationInstallParams: IntegrationTypesConfig['installParams'];
  tags: string[];
  /** false: the developer turned the event webhooks off (status 1). */
  eventWebhooksEnabled: boolean;
}

/**
 * A PATCH: only the fields given; `null` clears the nullable ones. With `flagsMask`, only
 * those bits of `flags` are written, the others keep their stored value.
 */
export type ApplicationPatch = Partial<ApplicationFields & ApplicationProfile> & { flagsMask?: number };

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

/** Reads one present field (null included) of a body into the patch, or records its errors. */
type FieldReader = (value: unknown, errors: FormErrors, patch: ApplicationPatch) => void;

// For the nullable fields null clears them; for the others null means "not given", as for
// any absent field (those readers are not called for it).
const NON_NULLABLE = new Set([
  'name',
  'flags',
  'integration_types',
  'redirect_uris',
  'event_webhooks_types',
  'public_client',
]);

/** Every field of an application body, by wire name, and how it is read. */
const READERS: Record<string, FieldReader> = {
  name(value, errors, patch) {
    const name = readString(value, errors, ['name']);
    if (
      name !== undefined &&
      checkLength(name, MIN_APPLICATION_NAME_LENGTH, MAX_APPLICATION_NAME_LENGTH, errors, ['name'])
    ) {
      patch.name = name;
    }
  },
  flags(value, errors, patch) {
    const flags = readInteger(value, errors, ['flags']);
    if (flags !== undefined && checkRange(flags, 0, Number.MAX_SAFE_INTEGER, errors, ['flags']))
      patch.flags = flags;
  },
  integration_types(value, errors, patch) {
    const types = readEnumSet(value, INTEGRATION_TYPES, errors, ['integration_types']);
    if (types && checkItemCount(types, 1, INTEGRATION_TYPES.length, errors, ['integration_types'])) {
      patch.integrationTypes = [...types].sort();
    }
  },
  redirect_uris(value, errors, patch) {
    const uris = readRedirectUris(value, errors);
    if (uris) patch.redirectUris = uris;
  },
  interactions_endpoint_url: urlReader('interactions_endpoint_url', 'interactionsEndpointUrl'),
  event_webhooks_url: urlReader('event_webhooks_url', 'eventWebhooksUrl'),
  event_webhooks_types(value, errors, patch) {
    const types = readEnumSet(value, EVENT_WEBHOOK_TYPES, errors, ['event_webhooks_types']);
    if (types) patch.eventWebhooksTypes = types;
  },
  public_client(value, errors, patch) {
    const publicClient = readBoolean(value, errors, ['public_client']);
    if (publicClient !== undefined) patch.publicClient = publicClient;
  },
  owner_id(value, errors, patch) {
    if (value === null) patch.ownerId = null;
    else {
      const ownerId = readSnowflake(value, errors, ['owner_id']);
      if (ownerId !== undefined) patch.ownerId = ownerId;
    }
  },
  description(value, errors, patch) {
    const description = readDescription(value, errors);
    if (description !== undefined) patch.description = description;
  },
  icon(value, errors, patch) {
    const hash = readImageData(value, errors, ['icon']);
    if (hash !== undefined) patch.iconHash = hash;
  },
  cover_image(value, errors, patch) {
    const hash = readImageData(value, errors, ['cover_image']);
    if (hash !== undefined) patch.coverImageHash = hash;
  },
  role_connections_verification_url: urlReader(
    'role_connections_verification_url',
    'roleConnectionsVerificationUrl',
  ),
  custom_install_url: urlReader('custom_install_url', 'customInstallUrl'),
  install_params(value, errors, patch) {
    const params = readInstallParams(value, errors, ['install_params']);
    if (params !== undefined) patch.installParams = params;
  },
  integration_types_config(value, errors, patch) {
    if (value === null) return;
    const config = readIntegrationTypesConfig(value, errors, ['integration_types_config']);
    if (!config) return;
    patch.integrationTypes = config.types;
    patch.integrationInstallParams = config.installParams;
  },
  tags(value, errors, patch) {
    const tags = readTags(value, errors);
    if (tags) patch.tags = tags;
  },
  event_webhooks_status(value, errors, patch) {
    if (value === null) return;
    const status = readInteger(value, errors, ['event_webhooks_status']);
    if (status === EVENT_WEBHOOKS_DISABLED || status === EVENT_WEBHOOKS_ENABLED) {
      patch.eventWebhooksEnabled = status === EVENT_WEBHOOKS_ENABLED;
    } else if (status !== undefined) {
      addChoicesError([EVENT_WEBHOOKS_DISABLED, EVENT_WEBHOOKS_ENABLED], errors, ['event_webhooks_status']);
    }
  },
};

/** What the admin API sets: every field. */
const ADMIN_FIELDS = Object.keys(READERS);

/**
 * What a bot sets of its own application with `PATCH /applications/@me` (OAS
 * `ApplicationFormPartial`, Discord's "Edit Current Application"); other fields of the
 * body are ignored, as Discord ignores fields it does not know. `flags` writes only
 * BOT_SETTABLE_FLAGS.
 */
const BOT_FIELDS = [
  'description',
  'icon',
  'cover_image',
  'interactions_endpoint_url',
  'role_connections_verification_url',
  'install_params',
  'integration_types_config',
  'flags',
  'tags',
  'custom_install_url',
  'event_webhooks_url',
  'event_webhooks_status',
  'event_webhooks_types',
];

/** Validates a `POST /admin/applications` body; throws 400 / 50035 with every error found. */
export function validateNewApplication(body: JsonObject): ApplicationFields & Partial<ApplicationProfile> {
  const errors = new FormErrors();
  if (isAbsent(getField(body, 'name'))) addRequired(errors, ['name']);
  const patch = readFields(body, ADMIN_FIELDS, errors);
  errors.throwIfAny();
  return { ...DEFAULTS, ...patch, name: patch.name ?? '' };
}

/** Validates a `PATCH /admin/applications/{id}` body; throws 400 / 50035 with every error found. */
export function validateApplicationPatch(body: JsonObject): ApplicationPatch {
  const errors = new FormErrors();
  const patch = readFields(body, ADMIN_FIELDS, errors);
  errors.throwIfAny();
  return patch;
}

/**
 * Validates a `PATCH /applications/@me` body, with the admin PATCH's readers for the
 * fields both take; throws 400 / 50035 with every error found.
 */
export function validateCurrentApplicationPatch(body: JsonObject): ApplicationPatch {
  const errors = new FormErrors();
  const patch = readFields(body, BOT_FIELDS, errors);
  errors.throwIfAny();
  return patch.flags === undefined ? patch : { ...patch, flagsMask: BOT_SETTABLE_FLAGS };
}

function readFields(body: JsonObject, fields: readonly string[], errors: FormErrors): ApplicationPatch {
  const patch: ApplicationPatch = {};
  for (const key of fields) {
    const value = getField(body, key);
    if (value === undefined || (value === null && NON_NULLABLE.has(key))) continue;
    READERS[key]!(value, errors, patch);
  }
  return patch;
}

/** A nullable URL field we may call (http or https). */
function urlReader(
  key: string,
  name:
    'interactionsEndpointUrl' | 'eventWebhooksUrl' | 'roleConnectionsVerificationUrl' | 'customInstallUrl',
): FieldReader {
  return (value, errors, patch) => {
    if (value === null) patch[name] = null;
    else {
      const url = readUrl(value, 'web', errors, [key]);
      if (url !== undefined) patch[name] = url;
    }
  };
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

/**
 * `description`: a string, or (OAS) `{default, localizations}` of which the default is
 * kept; each at most 400 characters. null clears it.
 */
function readDescription(value: unknown, errors: FormErrors): string | undefined {
  if (value === null) return '';
  if (typeof value === 'string') {
    // readString too: it refuses U+0000, which no text column stores.
    const text = readString(value, errors, ['description']);
    return text !== undefined &&
      checkLength(text, 0, MAX_APPLICATION_DESCRIPTION_LENGTH, errors, ['description'])
      ? text
      : undefined;
  }
  const dict = readDict(value, errors, ['description']);
  if (!dict) return undefined;
  const before = errors.count;
  const text = getField(dict, 'default');
  if (isAbsent(text)) addRequired(errors, ['description', 'default']);
  const description = isAbsent(text) ? undefined : readString(text, errors, ['description', 'default']);
  if (description !== undefined) {
    checkLength(description, 0, MAX_APPLICATION_DESCRIPTION_LENGTH, errors, ['description', 'default']);
  }
  const localizations = getField(dict, 'localizations');
  if (!isAbsent(localizations)) {
    const entries = readDict(localizations, errors, ['description', 'localizations']);
    for (const item of Object.values(entries ?? {})) {
      const localized = readString(item, errors, ['description', 'localizations']);
      if (localized !== undefined) {
        checkLength(localized, 0, MAX_APPLICATION_DESCRIPTION_LENGTH, errors, [
          'description',
          'localizations',
        ]);
      }
    }
  }
  return errors.count === before ? description : undefined;
}

/** `tags`: at most 5 strings of at most 20 characters, each once; null clears them. */
function readTags(value: unknown, errors: FormErrors): string[] | undefined {
  if (value === null) return [];
  const list = readList(value, errors, ['tags']);
  if (!list || !checkItemCount(list, 0, MAX_APPLICATION_TAGS, errors, ['tags'])) return undefined;
  const before = errors.count;
  const tags: string[] = [];
  list.forEach((item, index) => {
    const tag = readString(item, errors, ['tags', index]);
    if (tag === undefined || !checkLength(tag, 1, MAX_APPLICATION_TAG_LENGTH, errors, ['tags', index]))
      return;
    if (tags.includes(tag)) {
      errors.add(
        ['tags', index],
        ErrorCode.SET_TYPE_ALREADY_CONTAINS_VALUE,
        'The set already contains this value',
      );
    } else tags.push(tag);
  });
  return errors.count === before ? tags : undefined;
}
