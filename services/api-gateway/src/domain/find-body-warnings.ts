import type { BodySpec, FieldSpec } from './known-body-fields';

/** The most warnings one request reports. */
export const MAX_WARNINGS = 20;
/** The longest `X-ACS-Warnings` header value. */
export const MAX_WARNINGS_HEADER_LENGTH = 1000;
/** Array items of a known object that are looked into (a body's first ones say enough). */
const MAX_ITEMS_CHECKED = 10;

/** A client's field name as a warning quotes it: printable ASCII only, cut short. */
function quote(path: string): string {
  const printable = path.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '?');
  return `"${printable.length > 60 ? `${printable.slice(0, 60)}...` : printable}"`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of a JSON body that ACS does not act on, as warnings: `unknown field "foo"
 * ignored` for a field Discord's API does not know either, `field "tts" accepted but not
 * modelled` for one it knows and ACS does not model; nested known objects (embeds, a
 * callback's data) are looked into, with paths like `embeds[0].foo`. At most MAX_WARNINGS.
 */
export function findBodyWarnings(spec: BodySpec, body: unknown): string[] {
  const warnings: string[] = [];
  const visit = (fields: FieldSpec, value: unknown, at: string) => {
    if (!isObject(value)) return;
    for (const [name, field] of Object.entries(value)) {
      if (warnings.length >= MAX_WARNINGS) return;
      const path = at ? `${at}.${name}` : name;
      const known = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (known === undefined) warnings.push(`unknown field ${quote(path)} ignored`);
      else if (known === 'not-modelled') warnings.push(`field ${quote(path)} accepted but not modelled`);
      else if (Array.isArray(known)) visitItems(known[0], field, path);
      else if (known !== true) visit(known, field, path);
    }
  };
  const visitItems = (fields: FieldSpec, value: unknown, at: string) => {
    if (!Array.isArray(value)) return;
    value.slice(0, MAX_ITEMS_CHECKED).forEach((item, i) => visit(fields, item, `${at}[${i}]`));
  };
  if (Array.isArray(spec)) visitItems(spec[0], body, '');
  else visit(spec, body, '');
  return warnings;
}

/** The warnings as one header value: `; `-separated, cut at MAX_WARNINGS_HEADER_LENGTH. */
export function formatWarningsHeader(warnings: string[]): string {
  let text = '';
  for (const [i, warning] of warnings.entries()) {
    const next = text ? `${text}; ${warning}` : warning;
    if (next.length > MAX_WARNINGS_HEADER_LENGTH - 20) return `${text}; ... ${warnings.length - i} more`;
    text = next;
  }
  return text;
}
