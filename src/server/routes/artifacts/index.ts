/**
 * The artifacts section of the reference server: a project's git mirrors and its artifact
 * repositories with their files. Nothing here is queued; an uploaded file turns from pending
 * to active after the queue delay, computed on read (arrival.ts).
 */
import type { Section } from "../section.js";
import { artifactFileHandlers } from "./artifact-files.js";
import { artifactRepoHandlers } from "./artifact-repos.js";
import { mirrorHandlers } from "./mirrors.js";
import { seedArtifactsSection } from "./seed.js";

export const section: Section = {
  name: "artifacts",
  handlers: { ...mirrorHandlers, ...artifactRepoHandlers, ...artifactFileHandlers },
  seed: seedArtifactsSection,
};
