/**
 * A report's sections: each is a `<section>` with its heading, and one that could not be
 * read says so where its tables would be — what failed and what to set — instead of
 * showing empty data as if it were real.
 */
import type { Report, SectionStatus } from "../../report/types.js";
import { h, type Html } from "./html.js";

/** What failed in a section and what to set, as a callout. */
export function failedNote(s: SectionStatus): Html {
  const set = s.set?.length
    ? h` Set ${s.set.map((v, i) => h`${i ? ", " : ""}<code>${v}</code>`)}.`
    : "";
  const error = (s.error ?? "the read failed").replace(/\.$/, "");
  const next = s.next ? ` ${s.next.charAt(0).toUpperCase()}${s.next.slice(1).replace(/\.$/, "")}.` : ""; // prettier-ignore
  return h`<div class="failed" role="alert" data-section-failed="${s.name}"><strong>${s.title}: not read.</strong> ${error}.${set}${next}</div>`;
}

/**
 * The section `name` of the report. Its body is built from the reads `needs` (by default
 * the section of the same name): when one failed, the failure is shown instead of a body
 * of empty data. A failed read in `notes` is shown above a body that is still true without it
 * (the access review's findings without last logins).
 */
export function section(
  report: Report,
  name: string,
  title: string,
  body: () => Html,
  o: { needs?: readonly string[]; notes?: readonly string[] } = {},
): Html {
  const failed = (names: readonly string[]) =>
    report.sections.filter((s) => names.includes(s.name) && s.status === "failed");
  const missing = failed(o.needs ?? [name]);
  return h`<section id="${name}" data-section="${name}">
    <h2>${title}</h2>
    ${[...missing, ...failed(o.notes ?? [])].map(failedNote)}${missing.length ? "" : body()}
  </section>`;
}
