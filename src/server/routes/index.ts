/**
 * The server's sections, in seeding order (organizations before users before projects
 * before git). Each owns the handlers of its part of the route table.
 */
import type { Section } from "./section.js";
import { section as organizations } from "./organizations.js";
import { section as users } from "./users/index.js";
import { section as projects } from "./projects/index.js";
import { section as git } from "./git/index.js";
import { section as artifacts } from "./artifacts/index.js";

export const sections: readonly Section[] = [organizations, users, projects, git, artifacts];
