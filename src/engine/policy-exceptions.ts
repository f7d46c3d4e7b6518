/**
 * The policy exceptions a change adds or extends (`plan --base`): an exception lets objects
 * break a rule until it expires, so a pull request that grants one — or moves one's end
 * later — is called out at the top of its comment, where a reviewer cannot miss it. An
 * exception is the same one in both configs when its policy, key and rules are; a later
 * `expires` extends it. Removed, shortened or reworded exceptions are not called out. Pure.
 */
import type { PolicyExceptionChanges, PolicyExceptionRef } from "./plan.js";

/** What this needs of a compiled policy (src/policy's CompiledPolicy). */
export interface PolicyWithExceptions {
  name: string;
  exceptions: readonly {
    key: string;
    rules?: readonly string[] | undefined;
    reason: string;
    expires: string;
    approvedBy: string;
    source?: { file: string; line: number; column?: number } | undefined;
  }[];
}

type Written = PolicyWithExceptions["exceptions"][number];

const identity = (policy: string, x: Written) =>
  JSON.stringify([policy, x.key, [...(x.rules ?? [])].sort()]);

function refOf(policy: string, x: Written): PolicyExceptionRef {
  return {
    policy,
    key: x.key,
    ...(x.rules ? { rules: [...x.rules] } : {}),
    reason: x.reason,
    expires: x.expires,
    approvedBy: x.approvedBy,
    ...(x.source
      ? {
          source: {
            file: x.source.file,
            line: x.source.line,
            ...(x.source.column !== undefined ? { column: x.source.column } : {}),
          },
        }
      : {}),
  };
}

/** The exceptions `head` adds to `base` or grants longer; undefined when none. */
export function exceptionChanges(
  base: readonly PolicyWithExceptions[],
  head: readonly PolicyWithExceptions[],
): PolicyExceptionChanges | undefined {
  // The latest end of each exception in the base (a duplicate counts as its longest).
  const before = new Map<string, string>();
  for (const p of base)
    for (const x of p.exceptions) {
      const id = identity(p.name, x);
      const seen = before.get(id);
      if (seen === undefined || x.expires > seen) before.set(id, x.expires);
    }
  const out: PolicyExceptionChanges = { added: [], extended: [] };
  for (const p of head)
    for (const x of p.exceptions) {
      const was = before.get(identity(p.name, x));
      // YYYY-MM-DD compares as text.
      if (was === undefined) out.added.push(refOf(p.name, x));
      else if (x.expires > was) out.extended.push({ ...refOf(p.name, x), previousExpires: was });
    }
  return out.added.length + out.extended.length > 0 ? out : undefined;
}
