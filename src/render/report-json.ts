/**
 * The report for programs: its data as JSON (what `schemas/report.schema.json` describes and
 * `report access --since` reads back). Hidden characters are written as escapes, as the
 * plan's JSON does.
 */
import type { Report } from "../report/types.js";
import { escapeJsonText } from "../visible.js";

export function renderReportJson(r: Report): string {
  return `${escapeJsonText(JSON.stringify(r, null, 2))}\n`;
}
