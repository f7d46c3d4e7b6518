/**
 * Rows of the users section as the database holds them and the API records built from
 * them (user, service account, user team, organization team; project list items come from
 * the projects section's `projectListItem`). Each record comes from one joined row, so
 * lists never need a query per item.
 */
import type { Static } from "@sinclair/typebox";
import type {
  OrgTeam,
  ServiceAccount,
  Team,
  TeamServices,
  User,
  UserService,
} from "../../../api/schemas.js";
import { bool, json } from "../../store/db.js";
import type { UserRow } from "../../store/lookups.js";

/** A user row with the names of its organization and parent organization. */
export interface UserView extends UserRow {
  org_name: string;
  parent_name: string;
}

/** SELECT of UserView rows; callers add WHERE / ORDER BY on `u`, `o` (organization), `p` (parent). */
export const USER_VIEW = `SELECT u.*, o.name AS org_name, p.name AS parent_name
  FROM users u
  JOIN organizations o ON o.id = u.org_id
  JOIN organizations p ON p.id = u.parent_org_id`;

export function userRecord(v: UserView): Static<typeof User> {
  return {
    username: v.username,
    firstName: v.first_name,
    lastName: v.last_name,
    displayName: v.display_name,
    email: v.email,
    externalEmail: v.external_email,
    parentOrganization: v.parent_name,
    organization: v.org_name,
    role: v.role as Static<typeof User>["role"],
    // The spec types `active` as a string; it mirrors `status`.
    active: v.status === "active" ? "true" : "false",
    status: v.status as Static<typeof User>["status"],
    dateCreated: v.created,
    dateLastAccessed: v.last_accessed,
    picture: v.picture,
  };
}

/** A service-account row with what its record shows of the user. */
export interface AccountView {
  user_id: number;
  service: UserService;
  status: string;
  personal_project_limit: number | null;
  name: string | null;
  display_name: string | null;
  mailplan: string | null;
  created: string;
  username: string;
  email: string;
  external_email: string;
  user_display_name: string;
  org_name: string;
}

export const ACCOUNT_VIEW = `SELECT sa.*, u.username, u.email, u.external_email,
    u.display_name AS user_display_name, o.name AS org_name
  FROM service_accounts sa
  JOIN users u ON u.id = sa.user_id
  JOIN organizations o ON o.id = u.org_id`;

/** The record of one account; each service shows the fields the spec names for it. */
export function accountRecord(a: AccountView): Static<typeof ServiceAccount> {
  const base = { username: a.username, service: a.service, status: a.status, created: a.created };
  switch (a.service) {
    case "git":
      return {
        ...base,
        name: a.name ?? a.username,
        ...(a.personal_project_limit !== null
          ? { personalProjectLimit: a.personal_project_limit }
          : {}),
      };
    case "servicedesk":
      // Created from the identity provider's display name, external email and organization.
      return {
        ...base,
        displayName: a.display_name ?? a.user_display_name,
        externalEmail: a.external_email,
        organization: a.org_name,
      };
    case "email":
      // The display name always comes from the identity provider, so it is read live.
      return {
        ...base,
        mailplan: a.mailplan ?? "non-retention",
        link: `mailto:${a.email}`,
        displayName: a.user_display_name,
      };
    case "irc":
      return { ...base, displayName: a.display_name ?? a.user_display_name };
    case "artifactservice":
    case "wiki":
      return base;
  }
}

/** A team row with its parent organization's name and its members and projects as JSON arrays. */
export interface TeamView {
  id: number;
  parent_org_id: number;
  name: string;
  gitservice: number;
  artifactservice: number;
  wiki: number;
  created: string;
  parent_name: string;
  members: string;
  projects: string;
}

/** One statement for a team and its lists (correlated aggregates, not a query per team). */
export const TEAM_VIEW = `SELECT t.*, p.name AS parent_name,
    (SELECT json_group_array(u.username ORDER BY u.username)
       FROM team_members tm JOIN users u ON u.id = tm.user_id WHERE tm.team_id = t.id) AS members,
    (SELECT json_group_array(pr.slug ORDER BY pr.slug)
       FROM team_projects tp JOIN projects pr ON pr.id = tp.project_id WHERE tp.team_id = t.id) AS projects
  FROM teams t JOIN organizations p ON p.id = t.parent_org_id`;

export function teamServices(t: {
  gitservice: number;
  artifactservice: number;
  wiki: number;
}): Static<typeof TeamServices> {
  return {
    gitservice: bool(t.gitservice),
    artifactservice: bool(t.artifactservice),
    wiki: bool(t.wiki),
  };
}

export function teamRecord(t: TeamView): Static<typeof Team> {
  return {
    name: t.name,
    parentOrganization: t.parent_name,
    services: teamServices(t),
    userNames: json<string[]>(t.members, []),
    projects: json<string[]>(t.projects, []),
  };
}

/** An organization-team row with its organization's name. */
export interface OrgTeamView {
  id: number;
  org_id: number;
  name: string;
  path: string;
  created: string;
  org_name: string;
}

export const ORG_TEAM_VIEW = `SELECT ot.*, o.name AS org_name
  FROM org_teams ot JOIN organizations o ON o.id = ot.org_id`;

export function orgTeamRecord(t: OrgTeamView): Static<typeof OrgTeam> {
  return {
    id: String(t.id),
    org_name: t.org_name,
    name: t.name,
    path: t.path,
    created_date: t.created,
  };
}

/** SELECT of the slim list item's columns (`ProjectItemView` of the projects section). */
export const PROJECT_ITEM_VIEW = `SELECT pr.id, pr.slug, pr.name, pr.description, pr.visibility,
    pr.status, o.name AS org_name
  FROM projects pr JOIN organizations o ON o.id = pr.org_id`;
