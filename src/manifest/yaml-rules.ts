/** What both fast readers hold YAML to (fast-read.ts, line-read.ts): depth, plain keys. */

/**
 * Mappings and lists inside one another, at most (manifests need 7; far below where a
 * reader's recursion would run out of stack).
 */
export const MAX_DEPTH = 100;

/** Plain scalars the core schema resolves to something other than a string. */
export const NON_STRING_PLAIN =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
