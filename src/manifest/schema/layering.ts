/**
 * The two words of layering written in objects and Defaults alike: a tombstone
 * (`- $remove: KEY`) in a keyed list removes one entry a lower layer gives, and
 * `inherit: false` on a mapping drops every layer below it. src/layers/ gives them meaning.
 */
import { Type, type Static, type TSchema, type TUnsafe } from "@sinclair/typebox";
import { about } from "./keywords.js";

/** The key a tombstone names in each keyed list, for its description. */
export const REMOVE = "$remove";

/** `{ $remove: KEY }`: nothing else in the mapping. */
function tombstone(key: string, example: string): Record<string, unknown> {
  return {
    type: "object",
    title: "remove an inherited entry",
    required: [REMOVE],
    additionalProperties: false,
    properties: {
      [REMOVE]: {
        type: "string",
        minLength: 1,
        title: REMOVE,
        ...about(
          `Remove the entry a Defaults layer gives here, named by its ${key}; an error when no layer gives it.`,
          example,
        ),
      },
    },
    ...about(
      `A tombstone: removes one entry (by ${key}) that a Defaults layer of lower precedence adds to this list.`,
      { [REMOVE]: example },
    ),
  };
}

/**
 * A keyed list's item: the item's own schema, or a tombstone. `if/then/else` rather than a
 * union, so a wrong item is told what is wrong with it and not that no branch matched.
 */
export function orRemove<T extends TSchema>(
  item: T,
  key: string,
  example: string,
): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({
    if: { type: "object", properties: { [REMOVE]: true }, required: [REMOVE] },
    then: tombstone(key, example),
    else: item,
  });
}

/** `inherit: false` on a mapping of an object: no Defaults apply below it. */
export const inherit = (what: string) =>
  Type.Optional(
    Type.Boolean({
      ...about(
        `false: no Defaults layer gives values to ${what}; only what is written here counts. Default: true.`,
        false,
      ),
    }),
  );
