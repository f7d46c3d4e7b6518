/**
 * Seeding for the artifacts-section tests (mirrors, artifact repositories): projects with
 * their mirrors and artifacts go in through `seed()`, as `--seed FILE` would put them.
 */
import { seed, type SeedProject } from "../../src/server/seed.js";
import type { TestServer } from "./server.js";

/** Seed new `projects` into a parent organization (default acme); returns the counts. */
export function seedProjects(t: TestServer, projects: SeedProject[], parentOrganization = "acme") {
  return seed(t.server.ctx, { parentOrganization, projects });
}

/** The numeric id of a project (part of artifact repository names). */
export function projectId(t: TestServer, slug: string): number {
  return t.server.ctx.db.get<{ id: number }>("SELECT id FROM projects WHERE slug = ?", slug)!.id;
}
