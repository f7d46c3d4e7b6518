/**
 * How the delivery report computes each DORA metric, in words: the report carries them
 * (`dora.definitions` in JSON, a table in markdown and CSV, a note in HTML) so that a
 * reader can tell which definition a figure follows — the change failure rate above all,
 * which tools define differently. delivery.ts and dora-rollup.ts do what these say.
 */
import type { DoraDefinition } from "./types.js";

/** One definition per metric, in DORA_METRICS order. */
export const DORA_DEFINITIONS: readonly DoraDefinition[] = [
  {
    metric: "deployment_frequency",
    project: "successful deployments in the period ÷ its days (full days, UTC, today left out)",
    organization:
      "its projects' successful deployments ÷ the period's days; the chart: deployments per day, whose mean is the value",
  },
  {
    metric: "lead_time_for_changes",
    project:
      "the median of the git host's daily medians, over the days with deployments (the git host's own value for a period)",
    organization:
      "the median of all its projects' daily medians (each project-day with deployments counts once); the chart: each day's median of its projects' daily medians",
  },
  {
    metric: "time_to_restore_service",
    project: "the median of the git host's daily medians, over the days with restores",
    organization:
      "the median of all its projects' daily medians (each project-day with restores counts once); the chart: each day's median of its projects' daily medians",
  },
  {
    metric: "change_failure_rate",
    project:
      "incidents per deployment, as the git host's API defines it: failed deployments ÷ all deployments (successful + failed) in the period",
    organization:
      "the same ratio over all its projects: their failed ÷ their successful + failed deployments (each project's counts from its rate and its successful deployments; a project without a successful deployment gives no count and is left out); the chart: each day's ratio, whose mean weighted by the day's deployments is the value",
  },
];
