import { isJsonObject, type JsonObject } from '@acs/validation';

/**
 * The component with this `custom_id` among stored components (as readMessageComponents or
 * readModal returned them), looking through rows, sections' accessories, containers and
 * labels; undefined when there is none.
 */
export function findComponent(components: readonly unknown[], customId: string): JsonObject | undefined {
  const pending: unknown[] = [...components];
  while (pending.length > 0) {
    const item = pending.pop();
    if (!isJsonObject(item)) continue;
    if (item.custom_id === customId) return item;
    if (Array.isArray(item.components)) pending.push(...(item.components as unknown[]));
    if (item.accessory !== undefined) pending.push(item.accessory);
    if (item.component !== undefined) pending.push(item.component);
  }
  return undefined;
}

/** Every component of a stored tree that has a `custom_id` (the inputs of a modal), in order. */
export function listInputs(components: readonly unknown[]): JsonObject[] {
  const inputs: JsonObject[] = [];
  const visit = (item: unknown): void => {
    if (!isJsonObject(item)) return;
    if (typeof item.custom_id === 'string') inputs.push(item);
    if (Array.isArray(item.components)) (item.components as unknown[]).forEach(visit);
    if (item.accessory !== undefined) visit(item.accessory);
    if (item.component !== undefined) visit(item.component);
  };
  components.forEach(visit);
  return inputs;
}
