/**
 * A validator of SARIF 2.1.0 logs: the OASIS schema vendored in test/fixtures/sarif/
 * (JSON Schema draft-04, hence ajv-draft-04), every format checked.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
interface AjvLike {
  compile(schema: object): Validate;
}
const require = createRequire(import.meta.url);
const Ajv04 = (require("ajv-draft-04") as { default: new (o: object) => AjvLike }).default;
const addFormats = (require("ajv-formats") as { default: (a: AjvLike) => void }).default;

const schema = JSON.parse(
  readFileSync(join(import.meta.dirname, "../fixtures/sarif/sarif-schema-2.1.0.json"), "utf8"),
) as object;

export function sarifValidator(): Validate {
  // The schema's `language` pattern has a stray `]`: valid without the u flag only.
  const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}
