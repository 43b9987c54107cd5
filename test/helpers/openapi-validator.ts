import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

/** Where Discord's own OpenAPI description of v10 lives (MIT: test/fixtures/discord-openapi.LICENSE). */
const OPENAPI_PATH =
  process.env.DISCORD_OPENAPI_PATH ?? path.resolve(__dirname, '..', 'fixtures', 'discord-openapi.json');

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * A validator for one schema of `components/schemas` of Discord's OpenAPI document
 * (OpenAPI 3.1 = JSON Schema 2020-12), e.g. `ApplicationCommandResponse`.
 */
export function openApiValidator(schemaName: string): ValidateFunction {
  let validate = compiled.get(schemaName);
  if (validate) return validate;
  if (!ajv) {
    const document = JSON.parse(fs.readFileSync(OPENAPI_PATH, 'utf8')) as Record<string, unknown>;
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ ...document, $id: 'discord-openapi' });
  }
  validate = ajv.compile({ $ref: `discord-openapi#/components/schemas/${schemaName}` });
  compiled.set(schemaName, validate);
  return validate;
}

/** Asserts that `value` is valid against the named OpenAPI schema, with Ajv's errors as the message. */
export function expectSchema(schemaName: string, value: unknown): void {
  const validate = openApiValidator(schemaName);
  if (!validate(value)) {
    throw new Error(
      `${schemaName} mismatch:\n${JSON.stringify(validate.errors?.slice(0, 10), null, 2)}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`,
    );
  }
}
