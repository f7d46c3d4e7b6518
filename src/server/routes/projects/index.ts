/**
 * The projects section of the reference server: projects, project access and organization
 * teams on projects, licenses, the (deprecated) wiki, pipelines and CI metrics, archiving.
 * Each part lives in its own file; this one assembles the section.
 */
import type { Section } from "../section.js";
import { accessHandlers, accessJobs } from "./access.js";
import { archiveHandlers } from "./archive.js";
import { licenseHandlers } from "./licenses.js";
import { orgTeamHandlers, orgTeamJobs } from "./org-teams.js";
import { pipelineHandlers } from "./pipelines.js";
import { projectHandlers } from "./projects.js";
import { seedProjects } from "./seed.js";
import { wikiHandlers } from "./wiki.js";

export { projectListItem, projectDetail, type ProjectWithOrg } from "./records.js";
export { accessService } from "./access.js";

export const section: Section = {
  name: "projects",
  handlers: {
    ...projectHandlers,
    ...accessHandlers,
    ...orgTeamHandlers,
    ...licenseHandlers,
    ...wikiHandlers,
    ...pipelineHandlers,
    ...archiveHandlers,
  },
  jobs: (ctx) => ({ ...accessJobs(ctx), ...orgTeamJobs(ctx) }),
  seed: seedProjects,
};
