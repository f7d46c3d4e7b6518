/**
 * The git section of the reference server: the project's git group and subgroups,
 * repositories (settings, soft delete, commit blocker, commits), forks and the fork failure
 * rule, external-tree archives, persistent CI storage, CI bundles, the commit search and
 * the delivery-metrics (DORA) API. Mirrors and artifact repositories live in `artifacts/`.
 */
import { defineHandlers } from "../../context.js";
import type { Section } from "../section.js";
import { blockerHandlers } from "./blockers.js";
import { bundleHandlers } from "./bundles.js";
import { commitHandlers } from "./commits.js";
import { doraHandlers } from "./dora.js";
import { archiveHandlers } from "./external-archive.js";
import { forkHandlers } from "./fork.js";
import { groupHandlers } from "./groups.js";
import { repoHandlers } from "./repos.js";
import { seedGit } from "./seed.js";
import { storageHandlers } from "./storage.js";
import { subgroupHandlers } from "./subgroups.js";

export { armForkFailure } from "./fork.js";

export const section: Section = {
  name: "git",
  handlers: defineHandlers({
    ...groupHandlers,
    ...subgroupHandlers,
    ...repoHandlers,
    ...blockerHandlers,
    ...commitHandlers,
    ...forkHandlers,
    ...archiveHandlers,
    ...storageHandlers,
    ...bundleHandlers,
    ...doraHandlers,
  }),
  seed: seedGit,
};
