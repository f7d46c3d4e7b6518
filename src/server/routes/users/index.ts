/**
 * The users section of the reference server: users and their service accounts, user teams,
 * organization teams, the user metrics, their queued jobs (entitlement, transfer) and seeding.
 */
import { defineHandlers } from "../../context.js";
import type { Section } from "../section.js";
import { metricHandlers } from "./metrics.js";
import { orgTeamHandlers } from "./org-teams.js";
import { seedUsersSection } from "./seed.js";
import { accountHandlers, accountJobs } from "./service-accounts.js";
import { teamHandlers } from "./teams.js";
import { userActionHandlers, userActionJobs } from "./user-actions.js";
import { userHandlers } from "./users.js";

export const section: Section = {
  name: "users",
  handlers: defineHandlers({
    ...orgTeamHandlers,
    ...userHandlers,
    ...userActionHandlers,
    ...accountHandlers,
    ...teamHandlers,
    ...metricHandlers,
  }),
  jobs: (ctx) => ({ ...accountJobs(ctx), ...userActionJobs(ctx) }),
  seed: seedUsersSection,
};
