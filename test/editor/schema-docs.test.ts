/**
 * The schemas as an editor shows them: every property of every generated schema has a title
 * (its name), a description and examples that the property itself accepts; a default is said
 * in the description; and the schemas use the CLI's words (its duration flags, the loader's
 * messages for enums and maxRemovals).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parseDurationFlag } from "../../src/cli/flags.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { allSchemas, configSchema } from "../../src/manifest/schema/index.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
type Schema = Record<string, unknown>;

interface Property {
  where: string;
  name: string;
  schema: Schema;
}

/** Every property of `s` (through properties, items, anyOf, $defs), with where it is. */
function properties(s: unknown, where: string, out: Property[] = []): Property[] {
  if (Array.isArray(s)) {
    s.forEach((x, i) => properties(x, `${where}/${i}`, out));
    return out;
  }
  if (s === null || typeof s !== "object") return out;
  const node = s as Schema;
  for (const [name, p] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
    out.push({ where: `${where}.${name}`, name, schema: p });
    properties(p, `${where}.${name}`, out);
  }
  for (const k of ["items", "anyOf", "allOf", "then"]) properties(node[k], `${where}/${k}`, out);
  for (const [k, d] of Object.entries((node.$defs ?? {}) as Record<string, Schema>))
    properties(d, `${where}/$defs/${k}`, out);
  return out;
}

const all = Object.entries(allSchemas()).flatMap(([file, s]) => properties(s, file));
/** A property that exists to be refused (`organizationTeams` where teams cannot be). */
const forbidden = (p: Property) => "not" in p.schema && p.schema.doNotSuggest === true;
/** The dispatcher's own top level: each kind's schema has the same properties, with examples. */
const dispatcher = (p: Property) => /^manifest\.[a-zA-Z]+$/.test(p.where);

describe("every schema property, as an editor shows it", () => {
  it("has a title naming it and a description", () => {
    expect(all.length).toBeGreaterThan(250);
    const bad = all.filter(
      (p) =>
        !(typeof p.schema.title === "string" && p.schema.title.startsWith(p.name)) ||
        !(typeof p.schema.description === "string" && p.schema.description.length > 10),
    );
    expect(bad.map((p) => p.where)).toEqual([]);
  });

  it("has examples that the property accepts", () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    addFormats(ajv);
    let checked = 0;
    for (const p of all) {
      if (forbidden(p) || dispatcher(p)) continue;
      const examples = p.schema.examples;
      expect(Array.isArray(examples) && examples.length > 0, `${p.where} has no examples`).toBe(
        true,
      );
      const validate = ajv.compile(p.schema);
      for (const e of examples as unknown[]) {
        const ok = validate(e);
        expect(ok, `${p.where}: ${JSON.stringify(e)} ${ajv.errorsText(validate.errors)}`).toBe(
          true,
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(250);
    // The dispatcher's properties leave their examples to each kind's own.
    for (const p of all.filter(dispatcher)) expect(p.schema.examples).toBeUndefined();
  });

  it("says its default in its description", () => {
    const bad = all.filter(
      (p) => "default" in p.schema && !/\bdefault\b/i.test(String(p.schema.description)),
    );
    expect(bad.map((p) => p.where)).toEqual([]);
  });

  it("names the allowed values of a short enum in the CLI's order", () => {
    let checked = 0;
    for (const p of all) {
      const values = p.schema.enum;
      if (
        !Array.isArray(values) ||
        values.length > 6 ||
        !values.every((v) => typeof v === "string")
      )
        continue;
      const text = String(p.schema.description);
      let at = 0;
      for (const v of values) {
        const found = text.indexOf(v, at);
        expect(found, `${p.where}: ${v} in "${text}"`).toBeGreaterThanOrEqual(at);
        at = found + v.length;
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
  });
});

/** The first diagnostic message of loading one manifest text (phctl.yaml when `config`). */
function firstMessage(content: string, config = false): string {
  const r = loadManifestTexts([{ file: config ? "phctl.yaml" : "m.yaml", content, config }]);
  return r.diagnostics[0]?.message ?? "";
}

describe("the schemas use the CLI's words", () => {
  const config = configSchema().properties as Record<string, Schema>;

  it("durations: the same message as the duration flags", () => {
    for (const field of ["queueTimeout", "outageTimeout"]) {
      const words = String(config[field].patternErrorMessage);
      expect(() => parseDurationFlag("--outage-timeout", "soon")).toThrow(words);
      expect(String(config[field].description)).toContain(words.replace(/^must be /, ""));
      expect(firstMessage(`${field}: soon\n`, true)).toBe(`${field} ${words}, got "soon"`);
    }
  });

  it("maxRemovals: the description, the editor's message and the CLI's say the same", () => {
    const m = config.maxRemovals;
    const words = String(m.errorMessage).replace(/^must be /, "");
    expect(String(m.description)).toContain(words);
    const branches = m.anyOf as Schema[];
    expect(branches[0].patternErrorMessage).toBe(m.errorMessage);
    expect(firstMessage("maxRemovals: 150%\n", true)).toBe(
      `maxRemovals ${String(m.errorMessage)}, got "150%"`,
    );
    expect(firstMessage("maxRemovals: lots\n", true)).toContain(words);
  });

  it("enums: the editor's message is the loader's", () => {
    const user = (role: string) =>
      `apiVersion: phctl/v1\nkind: User\nmetadata: { name: jdoe }\nspec: { firstName: J, lastName: D, externalEmail: j@example.org, role: ${role} }\n`;
    const role = all.find((p) => p.where === "user.spec.role")!.schema;
    expect(firstMessage(user("admin"))).toBe(`spec.role ${String(role.errorMessage)}`);
    const email = all.find((p) => p.where === "user.spec.externalEmail")!.schema;
    expect(firstMessage(user("member").replace("j@example.org", "j-at-example"))).toBe(
      `spec.externalEmail ${String(email.errorMessage)}, got "j-at-example"`,
    );
  });
});
