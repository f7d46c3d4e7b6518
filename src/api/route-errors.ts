/**
 * The error statuses each operation's handler answers by its own rules, and when — the
 * route table's `errors` (src/api/routes.ts merges them in). Statuses every operation
 * shares (401, the 403 of the role matrix, 400 for an invalid request, 422 for an
 * immutable field in an update, 413/414/415, 429, 503) are derived in route-status.ts.
 * Read from the handlers in src/server/routes/**; the agreement test
 * (test/server/openapi-agreement.test.ts) checks both directions.
 */
import type { OperationErrors } from "./route-def.js";
import type { RouteTableId } from "./routes.js";

const PROJECT = "the project does not exist (or is another parent organization's)";
const GROUP = "the project or its git group does not exist";
const REPO = "the project, its git group or the repository does not exist";
const LIVE = `${REPO}, or the repository was deleted`;
const USER = "the user does not exist in the caller's parent organization";
const ACCOUNT = `${USER}, or has no such account`;
const TEAM = "the team does not exist, or parentOrganization is not the caller's";
const JOB = "no job of this queue with that id";
const ORG = "organization is not one of the caller's parent organization";
const MIRROR = `${PROJECT}, or the mirror is not one of its mirrors`;
const ART = `${PROJECT}, or the artifact repository is not one of its repositories`;
const FILE = `${ART}, or no file has that path (a folder path included)`;
const BUNDLE = `${PROJECT}, or the bundle is not one of its bundles`;
const QUEUED = "the same change is already queued (the message names the open job)";

const accountCreate = (extra: OperationErrors = {}): OperationErrors => ({
  404: USER,
  409: `the user already has this account, or its creation is already queued`,
  ...extra,
});
const accountUpdate = (extra: OperationErrors = {}): OperationErrors => ({
  404: ACCOUNT,
  ...extra,
});
const account = { 404: ACCOUNT } as const;
const personalProjects = {
  403: "personalProjectLimit is given and the user's organization allows no personal projects",
  422: "personalProjectLimit is above the organization's maximum",
} as const;
const teamRead = { 404: TEAM } as const;
const mirrorsBulk = { 404: PROJECT } as const;

export const ROUTE_ERRORS: Readonly<Record<RouteTableId, OperationErrors>> = {
  "orgTeams.list": { 404: "parentOrganization is not the caller's" },
  "orgTeams.get": { 404: "no such organization team, or parentOrganization is not the caller's" },
  "orgTeams.update": {
    404: "no such organization team, or parentOrganization is not the caller's",
  },
  "orgTeams.queueStatus": { 404: JOB },

  "users.list": { 400: "a filter is malformed (createdAt, role, status, service)" },
  "users.create": {
    409: "the username or the e-mail is taken (ignoring case; `errors` names the field)",
    422: "the organization does not exist",
  },
  "users.get": { 404: USER },
  "users.replace": { 404: USER },
  "users.patch": { 404: USER },
  "users.sendWelcome": { 404: USER },
  "users.transfer": { 404: USER, 422: `org_id is not an ${ORG}` },
  "users.transferStatus": { 404: JOB },
  "users.projects": { 404: USER },
  "users.services": { 404: USER },
  "users.entitlementStatus": { 404: JOB },

  "users.git.get": account,
  "users.git.create": accountCreate(personalProjects),
  "users.git.update": accountUpdate(personalProjects),
  "users.git.delete": account,
  "users.artifactservice.get": account,
  "users.artifactservice.create": accountCreate(),
  "users.artifactservice.update": accountUpdate(),
  "users.artifactservice.delete": account,
  "users.servicedesk.get": account,
  "users.servicedesk.create": accountCreate(),
  "users.servicedesk.update": accountUpdate(),
  "users.servicedesk.delete": account,
  "users.email.get": account,
  "users.email.create": accountCreate(),
  "users.email.update": accountUpdate(),
  "users.email.delete": {
    ...account,
    422: "the account has the retention plan (archive it through an update)",
  },
  "users.irc.get": account,
  "users.irc.create": accountCreate(),
  "users.irc.update": accountUpdate(),
  "users.irc.delete": account,
  "users.wiki.get": account,
  "users.wiki.create": accountCreate(),
  "users.wiki.update": accountUpdate(),
  "users.wiki.delete": account,

  "teams.list": {},
  "teams.create": {
    409: "the parent organization already has a team of that name",
    422: "parentOrganization is not the caller's, or a user of userNames does not exist",
  },
  "teams.get": teamRead,
  "teams.delete": teamRead,
  "teams.services": teamRead,
  "teams.enableService": teamRead,
  "teams.users": teamRead,
  "teams.addUser": { 404: `${TEAM}; or ${USER}` },
  "teams.removeUser": { 404: `${TEAM}; or ${USER}; or the user is not a member` },
  "teams.projects": teamRead,

  "projects.list": {},
  "projects.create": {
    409: "the project slug is taken (slugs are unique across the service)",
    422: "no slug can be derived from the name, the slug is reserved, the organization does not exist, or it allows no external contributions",
  },
  "projects.get": { 404: PROJECT },
  "projects.replace": {
    404: PROJECT,
    422: "externalContribution: true where the organization allows none",
  },
  "projects.patch": {
    404: PROJECT,
    422: "externalContribution: true where the organization allows none",
  },

  "access.list": {
    400: "type is given for controllers",
    404: `${PROJECT}, or the level is not one of the six`,
  },
  "access.addUser": {
    404: `${PROJECT}; ${USER}; or the level is not one of the six`,
    409: `the user is already at that level, or ${QUEUED}`,
    422: "editors: the user has no active wiki account",
  },
  "access.removeUser": {
    404: `${PROJECT}; ${USER}; or the user is not at that level`,
  },
  "access.addOrgTeam": {
    404: `${PROJECT}; no organization team has that path; or the level is not maintainers, developers or reporters`,
    409: `the team is already at that level, or ${QUEUED}`,
  },
  "access.removeOrgTeam": {
    404: `${PROJECT}; no organization team has that path; or it is not at that level`,
    409: QUEUED,
  },

  "git.group.get": { 404: GROUP },
  "git.group.create": {
    404: PROJECT,
    409: "the project already has a git group, or the path is used in the same namespace",
    422: "the path private is reserved",
  },
  "git.group.update": { 404: GROUP },
  "git.group.delete": { 404: GROUP },
  "git.subgroups.list": { 404: GROUP },
  "git.subgroups.create": { 404: GROUP, 409: "every level of the path exists already" },
  "git.subgroups.update": {
    404: `${GROUP}, or no subgroup has that id`,
    422: "groupID is the project's main group",
  },
  "git.subgroups.delete": {
    404: `${GROUP}, or no subgroup has that id`,
    422: "groupID is the project's main group",
  },

  "git.repos.list": { 400: "status is not active, archived or deleted", 404: GROUP },
  "git.repos.create": {
    404: GROUP,
    409: "a live repository of the same place has that name or slug",
    422: "repoPathNew names no subgroup",
  },
  "git.repos.get": { 404: REPO },
  "git.repos.replace": {
    404: LIVE,
    409: "another live repository of the same place has that name",
  },
  "git.repos.patch": { 404: LIVE, 409: "another live repository of the same place has that name" },
  "git.repos.delete": { 404: LIVE },
  "git.repos.cleanup": { 404: LIVE },
  "git.repos.enableCommitBlocker": {
    404: LIVE,
    422: "a domain is not an e-mail domain, a since is not a date, or the items' since values differ",
  },
  "git.repos.removeCommitBlocker": { 404: `${LIVE}, or it has no commit blocker` },
  "git.repos.commit": {
    404: `${REPO}, or no commit matches`,
    422: "the sha prefix matches several commits",
  },
  "git.repos.commits": { 404: REPO },
  "git.fork": {
    404: `${GROUP}, or repoPathFrom names no repository`,
    409: "a live repository of the same place has that name or slug",
    422: "repoPathFrom is not a clone URL of this git host, forking is disabled on it, or repoPathNew names no subgroup",
    500: "the fork went wrong on the git host, or a failed fork of the project is being cleaned up (retry later; Retry-After during the cleanup)",
  },
  "git.archiveExternal": {
    404: PROJECT,
    422: "repoGitURL is not a public http(s) or git:// URL, or names a repository of a private project",
  },

  "mirrors.list": { 400: "status or frequency holds an unknown value", 404: PROJECT },
  "mirrors.create": {
    404: PROJECT,
    409: "the project has a mirror with the same source and destination",
    422: "repoURLFrom is not an http(s) or ssh URL, or repoURLTo is not an ssh URL",
  },
  "mirrors.get": { 404: `${MIRROR}, or it is not in the status asked for` },
  "mirrors.update": { 404: MIRROR },
  "mirrors.delete": { 404: MIRROR },
  "mirrors.enableSelected": {
    404: PROJECT,
    422: "a mirror id is not one of the project's mirrors (nothing changes)",
  },
  "mirrors.disableSelected": {
    404: PROJECT,
    422: "a mirror id is not one of the project's mirrors (nothing changes)",
  },
  "mirrors.enableAll": mirrorsBulk,
  "mirrors.disableAll": mirrorsBulk,

  "wiki.get": { 404: `${PROJECT}, or it has no wiki` },
  "wiki.create": { 404: PROJECT, 409: "the project has a wiki already" },
  "wiki.delete": { 404: `${PROJECT}, or it has no wiki` },
  "wiki.token": { 404: `${PROJECT}, or it has no wiki` },
  "wiki.orgToken": {},

  "artifacts.repos.list": { 404: PROJECT },
  "artifacts.repos.create": {
    404: PROJECT,
    409: "the live name <org>-<project id>-<name> is taken: a different name must be given",
  },
  "artifacts.repos.get": { 404: ART },
  "artifacts.repos.delete": { 404: ART },
  "artifacts.files.list": { 404: ART },
  "artifacts.files.upload": {
    404: ART,
    409: "the destination is a file, a folder, or below a file",
    422: "destinationFilePath is empty or has . or .. segments",
  },
  "artifacts.files.get": { 404: FILE },
  "artifacts.files.replace": { 404: FILE },
  "artifacts.files.patch": { 404: FILE },
  "artifacts.files.delete": { 404: `${ART}, or nothing has that path` },

  "licenses.list": {},
  "projects.licenses.list": { 404: PROJECT },
  "projects.licenses.add": {
    404: PROJECT,
    409: "the license is already assigned",
    422: "the license is not in the catalogue (new ones come by support ticket)",
  },
  "projects.licenses.remove": { 404: `${PROJECT}, or the license is not assigned` },

  "pipelines.list": {
    400: "startDate or endDate is malformed, or the range is reversed",
    404: PROJECT,
  },
  "pipelines.jobs": {
    400: "startDate or endDate is malformed, or the range is reversed",
    404: `${PROJECT}, or the pipeline is not one of its pipelines`,
  },

  "storage.enable": { 404: LIVE, 409: "the repository has persistent storage already" },
  "storage.disable": { 404: `${LIVE}, or it has no persistent storage` },
  "storage.lookup": { 404: "no filesystem of the caller's parent organization has that id" },
  "storage.updateStatus": {
    404: "no filesystem of the caller's parent organization has that id",
    422: "repoID is not the filesystem's repository",
  },

  "bundles.list": { 404: PROJECT },
  "bundles.createProject": { 404: PROJECT, 409: "the project has its bundle already" },
  "bundles.createRepo": { 404: LIVE, 409: "the repository has its bundle already" },
  "bundles.get": { 404: BUNDLE },
  "bundles.pipelines": { 404: BUNDLE },
  "bundles.pipeline": { 404: `${PROJECT}, or no bundle pipeline of it has that id` },
  "projects.archive": { 404: PROJECT, 409: "the project is archived already" },
  "projects.archived": { 404: PROJECT },
  "projects.restore": {
    409: "the slug of the path is taken",
    422: "oldproject is not an archived project, or the slug of the path is not a valid slug",
  },

  "organizations.ui": {},
  "organizations.list": {},
  "organizations.create": { 409: "an organization of that name exists (names are unique)" },
  "organizations.rename": {
    404: `no ${ORG} has that id`,
    409: "an organization of the new name exists",
  },
  "organizations.renameStatus": { 404: JOB },

  "metrics.users": { 404: `the organization is not an ${ORG}` },
  "metrics.usersEmail": { 404: `the organization is not an ${ORG}` },
  "metrics.usersGit": { 404: `the organization is not an ${ORG}` },
  "metrics.usersArtifact": { 404: `the organization is not an ${ORG}` },
  "metrics.usersIrc": { 404: `the organization is not an ${ORG}` },
  "metrics.usersSearch": {
    400: "role or last_login is malformed",
    404: `the organization is not an ${ORG}`,
  },
  "metrics.gitSearch": { 400: "sha is not 7 to 40 hexadecimal characters" },
  "metrics.pipelines": {
    400: "startDate or endDate is malformed, or the range is reversed",
    404: PROJECT,
  },
  "metrics.pipelineCounts": {
    400: "startDate or endDate is malformed, or the range is reversed",
    404: PROJECT,
  },

  "dora.project": {
    404: "no live repository of the caller's parent organization has that id or path",
    422: "start_date is after end_date, or the range covers more than 366 days",
  },
  "dora.group": {
    404: "no group or subgroup of the caller's parent organization has that id or path",
    422: "start_date is after end_date, or the range covers more than 366 days",
  },
};
