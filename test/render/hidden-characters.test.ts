/**
 * Bidi controls and other hidden characters in live values ("Trojan Source", CVE-2021-42574)
 * never reach a person raw: every renderer for people shows them as `\u202e`; the JSON plan
 * (for machines) keeps them as JSON allows.
 */
import { describe, expect, it } from "vitest";
import { countsOf } from "../../src/drift/summary.js";
import { issueBody } from "../../src/drift/issue-body.js";
import { messageText } from "../../src/drift/notify.js";
import type { ApplyEvent } from "../../src/engine/apply-events.js";
import { summarize, type Plan, type PlanEntry } from "../../src/engine/plan.js";
import { planGroups, renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { HumanReporter, jsonEventLine, summaryLines } from "../../src/render/progress.js";
import { deletesBlock, renderText } from "../../src/render/text.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { EVIL, rawAt, SHOWN } from "../helpers/hidden.js";

/** Every string of `v` with EVIL inside it, except the plan's structure (actions, times). */
function salt<T>(v: T, key = ""): T {
  if (typeof v === "string")
    return (
      ["action", "formatVersion", "createdAt", "apiUrl"].includes(key)
        ? v
        : `${v.slice(0, 2)}${EVIL}${v.slice(2)}`
    ) as T;
  if (Array.isArray(v)) return v.map((x) => salt(x, key)) as T;
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, salt(x, k)])) as T;
  return v;
}

function hostilePlan(): Plan {
  const p = salt(samplePlan());
  return { ...p, summary: summarize(p.entries, p.unmanaged.length) };
}

const noRaw = (text: string) => expect(rawAt(text)).toBe("");

describe("hidden characters in what people read", () => {
  it("the text plan shows every key, value, reason, ticket, warning and source escaped", () => {
    for (const width of [undefined, 50]) {
      const text = renderText(hostilePlan(), { verbose: true, width, showTickets: true });
      noRaw(text);
      expect(text).toContain(`pr${SHOWN}oject/tf-a`); // a key
      expect(text).toContain(`"Ol${SHOWN}d text"`); // a value, still JSON
      expect(text).toContain(`Ch${SHOWN}ange`); // a ticket subject
    }
    const letters = renderText(hostilePlan());
    noRaw(letters);
    expect(letters).toContain(`Pl${SHOWN}ease change the visibility`); // a ticket letter
  });

  it("a value is still the JSON of the live value: it parses back to it", () => {
    const text = renderText(hostilePlan());
    const m = new RegExp(`~ de${SHOWN.replace(/\\/g, "\\\\")}scription: ("[^"]*") → `).exec(text);
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1])).toBe(`Ol${EVIL}d text`);
  });

  it("a name holding a literal backslash-u is not shown as one holding the character", () => {
    const entry = (key: string): PlanEntry => ({ ...samplePlan().entries[2], key });
    const show = (key: string) =>
      renderText({ ...samplePlan(), entries: [entry(key)], unmanaged: [], warnings: [] });
    const real = show("project/a\u202eb");
    const literal = show("project/a\\u202eb");
    expect(real).toContain("project/a\\u202eb (ProjectAccess)");
    expect(literal).toContain("project/a\\\\u202eb (ProjectAccess)");
    const md = (key: string) => renderMarkdown({ ...samplePlan(), entries: [entry(key)] });
    expect(md("project/a\u202eb")).not.toBe(md("project/a\\u202eb"));
  });

  it("apply's confirmation block, progress lines and summary are escaped", () => {
    const plan = hostilePlan();
    noRaw(deletesBlock(plan.entries).join("\n"));
    expect(deletesBlock(plan.entries).join("\n")).toContain(SHOWN);
    const out: string[] = [];
    const reporters = [
      new HumanReporter({ out: (s) => out.push(s), notSent: plan.entries.slice(3) }),
      // On a terminal: one line per action, cut to the width.
      new HumanReporter({ out: (s) => out.push(s), compact: true, width: () => 60 }),
    ];
    const key = `project/x${EVIL}y`;
    const target = { id: `update ${key}`, key, kind: "Project", action: "update" as const };
    const events: ApplyEvent[] = [
      { type: "apply-started", total: 3, ticket: 1, blocked: 1, alreadyDone: 0 },
      { type: "action-started", ...target },
      { type: "action-done", ...target, durationMs: 5 },
      { type: "action-failed", ...target, durationMs: 5, message: `no ${EVIL}`, code: "X" },
      { type: "action-skipped", ...target, root: key, reason: `needs ${EVIL}` },
      {
        type: "inconsistent",
        key,
        kind: "Project",
        action: "update",
        changes: [{ field: "name", before: `a${EVIL}`, after: "b" }],
        reason: "",
      },
      {
        type: "apply-done",
        summary: {
          done: 1,
          failed: 1,
          skipped: 1,
          ticket: 1,
          blocked: 1,
          inconsistent: 1,
          alreadyDone: 0,
          durationMs: 5,
          stopped: `outage ${EVIL}`,
        },
      },
    ];
    for (const r of reporters) for (const e of events) r.event(e);
    noRaw(out.join(""));
    expect(out.join("")).toContain(`project/x${SHOWN}y`);
    noRaw(
      summaryLines(
        {
          done: 0,
          failed: 0,
          skipped: 0,
          ticket: 1,
          blocked: 1,
          inconsistent: 0,
          alreadyDone: 0,
          durationMs: 1,
        },
        {
          failures: [],
          skipped: new Map(),
          durations: [],
          notSent: plan.entries,
          inconsistencies: [],
        },
      ).join("\n"),
    );
  });

  it("the markdown comment escapes them in text, code spans, tables and diff blocks", () => {
    for (const maxChars of [65_536, 3000, 1200]) {
      const md = renderMarkdown(hostilePlan(), { maxChars });
      noRaw(md);
      expect(md).toContain(SHOWN);
    }
    const md = renderMarkdown(hostilePlan());
    expect(md).toContain(`+   de${SHOWN}scription: "Re${SHOWN}ference secure-world software"`);
  });

  it("the drift issue body and the webhook text escape them", () => {
    const plan = hostilePlan();
    const body = issueBody({
      key: "config", // --key allows ASCII only
      plan,
      counts: countsOf(plan),
      meta: { digest: "0".repeat(64), since: plan.createdAt },
      applyCommand: `phctl apply conf${EVIL}ig`,
      run: { label: `run ${EVIL}`, url: "https://ci.example/1" },
      maxChars: 65_536,
      artifactHint: "the artifact",
    });
    noRaw(body);
    expect(body).toContain(SHOWN);
    const text = messageText({
      status: "error",
      key: "config",
      organization: `ac${EVIL}me`,
      previous: "unknown",
      time: plan.createdAt,
      durationMs: 1,
      error: `project "x${EVIL}" cannot be read`,
      phctlVersion: "1",
    });
    noRaw(text);
    expect(text).toContain(`config (ac${SHOWN}me)`);
    expect(text).toContain(`project "x${SHOWN}" cannot be read`);
  });

  it("the JSON plan and apply's JSON lines escape them too, and parse back to the exact values", () => {
    const json = renderJson(hostilePlan());
    noRaw(json);
    // The plan's values exactly, and the groups derived from them (escaped as well).
    const { groups, ...back } = JSON.parse(json) as Record<string, unknown>;
    expect(back).toEqual(JSON.parse(JSON.stringify(hostilePlan())));
    expect(groups).toEqual(JSON.parse(JSON.stringify(planGroups(hostilePlan()))));
    const event: ApplyEvent = {
      type: "action-failed",
      id: `update x${EVIL}`,
      key: `x${EVIL}`,
      kind: "Project",
      action: "update",
      durationMs: 1,
      message: `no ${EVIL}\nmore`,
      code: "X",
    };
    const line = jsonEventLine(event);
    noRaw(line);
    expect(line).not.toContain("\n");
    expect(JSON.parse(line)).toMatchObject({ key: `x${EVIL}`, message: `no ${EVIL}\nmore` });
  });
});
