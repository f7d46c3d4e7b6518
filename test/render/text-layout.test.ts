/**
 * The text plan laid out for a terminal: goldens at 80 and 120 columns with and without
 * colour, and what they must show — the location on its own line, long values on lines of
 * their own, no word split, deletes that stand out, tickets after the plan, no notes that
 * repeat the lines, and deletes repeated for the confirmation prompt.
 */
import { describe, expect, it } from "vitest";
import { COLOR, PLAIN } from "../../src/render/style.js";
import { deletesBlock, renderText } from "../../src/render/text.js";
import { stripAnsi } from "../../src/render/width.js";
import { expectGolden } from "../helpers/golden.js";
import { layoutPlan } from "./layout-plan.js";

const RED = "\u001b[31m";
const BOLD = (s: string) => `\u001b[1m${s}\u001b[22m`;

describe("text plan layout", () => {
  for (const width of [80, 120])
    for (const colour of [false, true])
      it(`golden at ${width} columns${colour ? " in colour" : ""}`, () => {
        const text = renderText(layoutPlan(), { width, style: colour ? COLOR : PLAIN });
        expectGolden(`text/plan-${width}${colour ? "-color" : ""}.txt`, text);
        for (const line of stripAnsi(text).split("\n"))
          expect(line.length, line).toBeLessThanOrEqual(width);
      });

  it("never splits a word: every word of the unwrapped text is in the wrapped text", () => {
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    const flat = renderText(layoutPlan());
    for (const width of [40, 60, 80]) {
      const wrapped = new Set(words(renderText(layoutPlan(), { width })));
      // Keys and paths longer than a line may break after a slash; nothing else breaks.
      for (const w of words(flat).filter((x) => x.length <= width - 10))
        expect(wrapped.has(w), `${w} at ${width}`).toBe(true);
    }
  });

  it("puts the location on its own line and long values on lines of their own", () => {
    const lines = renderText(layoutPlan(), { width: 80 }).split("\n");
    const head = lines.findIndex((l) => l.startsWith("  ~ project/trusted-firmware-a (Project)"));
    // The entry at its first changed field's line (title, 9); description shows its own.
    expect(lines[head + 1]).toBe("    projects/trusted-firmware-a.yaml:9");
    expect(lines.slice(head + 2, head + 6)).toEqual([
      "      ~ description:  (line 10)",
      '          "Old text"',
      '        → "Reference implementation of secure-world software for Armv8-A,',
      '          Armv9-A and Armv7-A class processors"',
    ]);
    expect(lines[head + 6]).toBe('      ~ title: "TF-A" → "Trusted Firmware-A"');
  });

  it("drops the notes that repeat their lines and the empty fields of new objects", () => {
    const text = renderText(layoutPlan());
    expect(text).not.toContain("declared in the manifests, absent live");
    expect(text).not.toContain("description, title differ");
    expect(text).not.toContain("displayName");
    expect(text).not.toContain("(none)");
    expect(text).toContain("# access lists are authoritative: mallory is not listed");
  });

  it("paints a delete's whole line red with DELETED in bold, and its count in the summary", () => {
    const lines = renderText(layoutPlan(), { style: COLOR }).split("\n");
    const del = lines.find((l) => l.includes("old-experiments"))!;
    expect(del).toBe(
      `  ${RED}- ${BOLD("project/trusted-firmware-a/repo/old-experiments")} (Repository) will be ${BOLD("DELETED")}\u001b[39m`,
    );
    expect(lines.find((l) => l.includes("Plan:"))).toContain(`${RED}${BOLD("2 to delete")}`);
  });

  it("puts ticket letters after the plan, or under their entry with showTickets", () => {
    const after = renderText(layoutPlan());
    const letter = after.indexOf("please change the visibility of project tf-m");
    expect(letter).toBeGreaterThan(after.indexOf("Blocked (cannot be reached"));
    expect(letter).toBeLessThan(after.indexOf("Plan: 3,022 to create"));
    expect(after).toContain(
      "      ticket: Change the visibility of project tf-m from private to public\n\nBlocked",
    );
    const inline = renderText(layoutPlan(), { showTickets: true });
    expect(inline).not.toContain("The ticket letter");
    expect(inline.indexOf("please change the visibility")).toBeLessThan(
      inline.indexOf("Blocked (cannot be reached"),
    );
  });

  it("writes every count with thousands separators", () => {
    const text = renderText(layoutPlan());
    expect(text).toContain("Plan: 3,022 to create, 1 to update, 2 to delete; 1 ticket, 1 blocked.");
    expect(text).toContain("read 1,830 objects in 1,057 calls");
  });

  it("repeats the deletes in a short block for the confirmation prompt", () => {
    expect(deletesBlock(layoutPlan().entries, PLAIN, 60)).toEqual([
      "This plan will DELETE 2 objects:",
      "  - project/trusted-firmware-a/access/developers/user/",
      "    mallory (ProjectAccess)",
      "  - project/trusted-firmware-a/repo/old-experiments",
      "    (Repository)",
    ]);
    expect(deletesBlock(layoutPlan().entries.filter((e) => e.action !== "delete"))).toEqual([]);
    expect(deletesBlock(layoutPlan().entries, COLOR)[0]).toBe(
      `${RED}This plan will ${BOLD("DELETE")} 2 objects:\u001b[39m`,
    );
  });
});
