import { FormErrors, type JsonObject } from '@acs/validation';
import { UnknownMessageError } from '../messages/message-errors';
import { ComponentType, MESSAGE_INTERACTIVE_TYPES } from '../messages/components/component-types';
import { findComponent } from '../messages/components/find-component';
import type { ResolvedData } from '../invocation/validate-command-data';
import type { ComponentBody } from '../invocation/read-invocation-body';
import { FollowOnErrorCode as ErrorCode, throwFollowOnError } from './follow-on-errors';
import type { ComponentSource } from './follow-on-sources';
import {
  noIds,
  readSelectValues,
  resolveSelectValues,
  type SelectIds,
  type SelectLookups,
} from './read-select-values';

/** A component use that passed: the component, the values picked, and the ids to resolve. */
export interface ComponentUse {
  component: JsonObject;
  /** Selects: the values; null for a button. */
  values: string[] | null;
  ids: SelectIds;
}

/**
 * Judges a click or a pick against the stored message, before any peer is asked. 404 /
 * 10008 when the message is unknown, deleted, in another channel or guild, another application's,
 * or another user's ephemeral message (as Discord answers for a message one cannot see).
 * 400 / 50035 at `data.custom_id` for a component the message does not have (a link or
 * premium button sends no interaction: it has no custom_id) or a disabled one, at
 * `data.component_type` for the wrong type, at `data.values` for values the select does
 * not take.
 */
export function judgeComponentUse(
  body: ComponentBody,
  userId: string,
  source: ComponentSource | undefined,
): ComponentUse {
  if (
    !source ||
    source.channelId !== body.channelId ||
    source.guildId !== body.guildId ||
    source.applicationId !== body.applicationId ||
    (source.ephemeralUserId !== null && source.ephemeralUserId !== userId)
  ) {
    throw new UnknownMessageError();
  }
  const components = Array.isArray(source.message.components) ? source.message.components : [];
  const component = findComponent(components, body.data.customId);
  if (!component || !MESSAGE_INTERACTIVE_TYPES.includes(component.type as number)) {
    throwFollowOnError(['data', 'custom_id'], ErrorCode.COMPONENT_NOT_FOUND, 'Unknown component');
  }
  if (component.type !== body.data.componentType) {
    throwFollowOnError(
      ['data', 'component_type'],
      ErrorCode.COMPONENT_TYPE_MISMATCH,
      `The component is of type ${String(component.type)}`,
    );
  }
  if (component.disabled === true) {
    throwFollowOnError(['data', 'custom_id'], ErrorCode.COMPONENT_DISABLED, 'This component is disabled');
  }
  const ids = noIds();
  if (component.type === ComponentType.BUTTON) {
    if (body.data.values !== null && body.data.values.length > 0) {
      throwFollowOnError(['data', 'values'], ErrorCode.VALUES_INVALID, 'A button takes no values');
    }
    return { component, values: null, ids };
  }
  const errors = new FormErrors();
  const values = readSelectValues(component, body.data.values ?? [], ids, errors, ['data', 'values']);
  errors.throwIfAny();
  return { component, values: values as string[], ids };
}

/**
 * The `data` the application receives (A2 "Message component"): `custom_id`,
 * `component_type`, and for selects `values` and, for user, role, mentionable and channel
 * selects, `resolved`. 400 / 50035 at `data.values.N` for an id that names nothing.
 */
export function buildComponentData(use: ComponentUse, lookups: SelectLookups): JsonObject {
  const data: JsonObject = { custom_id: use.component.custom_id, component_type: use.component.type };
  if (use.values === null) return data;
  data.values = use.values;
  const resolved: ResolvedData = {};
  const errors = new FormErrors();
  resolveSelectValues(use.component, use.values, lookups, resolved, errors, ['data', 'values']);
  errors.throwIfAny();
  if (Object.keys(resolved).length > 0) data.resolved = resolved as JsonObject;
  return data;
}
