/**
 * The apply result `phctl apply --result FILE` writes, read back for the plan comment, and
 * the one markdown line that tells reviewers how the apply went ("**Applied** in run 123:
 * 40 done, 0 failed."). The file is checked field by field: a bad one is named with the
 * field that is wrong.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { userError } from "../errors.js";
import { ApplyOutcome } from "../engine/apply-outcome.js";

/** The apply result in `file`, checked: BAD_OUTCOME (exit 1) names what is wrong. */
export function readOutcome(file: string): ApplyOutcome {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw userError(
      "BAD_OUTCOME",
      `${file} is not an apply result: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  const check = new Ajv({ strict: false, allErrors: true }).compile<ApplyOutcome>(ApplyOutcome);
  if (!check(data)) {
    // Wrong values first (they say most), then what is missing; three at most.
    const errors = [...(check.errors ?? [])].sort(
      (a, b) => Number(a.keyword === "required") - Number(b.keyword === "required"),
    );
    const said = errors.slice(0, 3).map((e) => {
      const field = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "";
      if (e.keyword === "required")
        return `${field ? `${field}.` : ""}${String(e.params.missingProperty)} is missing`;
      if (e.keyword === "enum")
        return `${field} must be one of ${(e.params.allowedValues as string[]).join(", ")}`;
      return `${field || "the file"} ${e.message ?? "has an unexpected shape"}`;
    });
    throw userError(
      "BAD_OUTCOME",
      `${file} is not an apply result (made by \`phctl apply --result\`): ${said.join("; ")}`,
    );
  }
  return data;
}

/** Free text on one line, without markdown that would change the comment's structure. */
const inline = (s: string, max = 300): string => {
  const one = s.replace(/\s+/g, " ").trim();
  const cut = one.length > max ? `${one.slice(0, max - 1)}…` : one;
  return cut.replace(/([\\`*_[\]<>|])/g, "\\$1");
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** At most this many failed objects are listed in the comment (the artifact has them all). */
const LISTED = 20;

/**
 * The failed objects under the outcome line, one bullet each: the object, its error and what
 * to do next ("" when none failed).
 */
export function failureList(o: ApplyOutcome): string {
  const all = o.failures ?? [];
  if (all.length === 0) return "";
  const items = all
    .slice(0, LISTED)
    .map((f) => `- ${inline(`${f.action} ${f.key}`, 160)}: ${inline(f.error)} — **next:** ${inline(f.next)}`); // prettier-ignore
  const more = Math.max(all.length, o.failed) - items.length;
  if (more > 0) items.push(`- … and ${plural(more, "more failed object")} (the apply job's log lists them)`); // prettier-ignore
  return items.join("\n");
}

/**
 * How the apply went, for the comment under the verdict: the outcome line, then each failed
 * object with its error and next step. `run` links to the apply job.
 */
export function outcomeText(o: ApplyOutcome, run?: { label: string; url?: string }): string {
  const list = failureList(o);
  return list ? `${outcomeLine(o, run)}\n\n${list}` : outcomeLine(o, run);
}

/** The outcome line shown under the verdict; `run` links to the apply job. */
export function outcomeLine(o: ApplyOutcome, run?: { label: string; url?: string }): string {
  const where = run ? (run.url ? ` in [${run.label}](${run.url})` : ` in ${run.label}`) : "";
  const counts = `${o.done} done, ${o.failed} failed${o.skipped > 0 ? `, ${o.skipped} skipped` : ""}`;
  const why = o.message ? ` ${inline(o.message)}` : "";
  switch (o.status) {
    case "applied":
      return `**Applied**${where}: ${counts}.`;
    case "failed":
      return `**Apply failed**${where}: ${counts}.${why}`;
    case "stopped":
      return `**Apply stopped**${where}: ${counts}.${why}`;
    case "no-changes":
      return `**Nothing to apply**${where}: the live state already matched.`;
    case "refused": {
      const n = o.differences?.length ?? 0;
      const first = (o.differences ?? []).slice(0, 3).map((x) => inline(x, 120));
      const list = first.length ? `: ${first.join("; ")}${n > first.length ? "; …" : ""}` : "";
      return n > 0
        ? `**Apply refused**${where}: the merged plan differs from the reviewed one (${plural(n, "difference")}${list}). Nothing was applied.`
        : `**Apply refused**${where}: nothing was applied.${why}`;
    }
  }
}
