/**
 * SQLite schema of the reference server. Real constraints carry the spec's rules: unique
 * username and email, unique project slug, foreign keys project → git group → subgroup →
 * repository, and ON DELETE CASCADE where the spec says a delete removes children.
 * Timestamps are ISO 8601 strings; booleans are 0/1; lists are JSON text.
 *
 * An id the API shows is never handed out twice, as a real service's are not: a journal or
 * a saved plan that remembers an id must not find someone else's object behind it after
 * the first was deleted. SQLite's plain `INTEGER PRIMARY KEY` takes max(id) + 1, so
 * deleting the newest row gave its id to the next insert; every integer id is therefore
 * `AUTOINCREMENT` (SQLite keeps the highest id ever used in `sqlite_sequence`), and the
 * group/subgroup id space has its own sequence. Queue job ids are UUIDs.
 */

/**
 * Version 2: AUTOINCREMENT ids and `git_namespace_ids`. A version-1 database file is
 * migrated when opened (`migrate.ts`).
 */
export const SCHEMA_VERSION = 2;

export const DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS organizations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  parent_id INTEGER REFERENCES organizations(id),
  allow_personal_projects INTEGER NOT NULL DEFAULT 1,
  max_personal_projects INTEGER NOT NULL DEFAULT 10,
  allow_external_contribution INTEGER NOT NULL DEFAULT 1,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS org_teams (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  path TEXT NOT NULL UNIQUE,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  username TEXT NOT NULL UNIQUE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  display_name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  external_email TEXT NOT NULL,
  parent_org_id INTEGER NOT NULL REFERENCES organizations(id),
  org_id INTEGER NOT NULL REFERENCES organizations(id),
  role TEXT NOT NULL CHECK (role IN ('member','projects-admin','users-admin','system-admin')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
  created TEXT NOT NULL,
  last_accessed TEXT,
  picture TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS users_parent ON users(parent_org_id, username);
-- Uniqueness checks on create are case-insensitive: these keep them off a full scan.
CREATE INDEX IF NOT EXISTS users_username_nocase ON users(username COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS users_external_email ON users(external_email COLLATE NOCASE);

CREATE TABLE IF NOT EXISTS service_accounts (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  service TEXT NOT NULL CHECK (service IN ('git','artifactservice','servicedesk','email','irc','wiki')),
  status TEXT NOT NULL,
  personal_project_limit INTEGER,
  name TEXT,
  display_name TEXT,
  mailplan TEXT,
  created TEXT NOT NULL,
  PRIMARY KEY (user_id, service)
);

CREATE TABLE IF NOT EXISTS teams (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  parent_org_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  gitservice INTEGER NOT NULL,
  artifactservice INTEGER NOT NULL,
  wiki INTEGER NOT NULL,
  created TEXT NOT NULL,
  UNIQUE (parent_org_id, name)
);
CREATE TABLE IF NOT EXISTS team_members (
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, user_id)
);

CREATE TABLE IF NOT EXISTS projects (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  visibility TEXT NOT NULL CHECK (visibility IN ('public','private')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive','archived')),
  restriction_level TEXT NOT NULL DEFAULT '',
  external_contribution INTEGER NOT NULL DEFAULT 0,
  eccn TEXT NOT NULL DEFAULT '',
  parent_org_id INTEGER NOT NULL REFERENCES organizations(id),
  org_id INTEGER NOT NULL REFERENCES organizations(id),
  created TEXT NOT NULL,
  archived_at TEXT
);
CREATE INDEX IF NOT EXISTS projects_parent ON projects(parent_org_id, slug);

CREATE TABLE IF NOT EXISTS team_projects (
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, project_id)
);

CREATE TABLE IF NOT EXISTS project_access (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  level TEXT NOT NULL CHECK (level IN ('admins','controllers','editors','maintainers','developers','reporters')),
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, level, user_id)
);
CREATE INDEX IF NOT EXISTS project_access_user ON project_access(user_id);

CREATE TABLE IF NOT EXISTS project_org_teams (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  level TEXT NOT NULL CHECK (level IN ('maintainers','developers','reporters')),
  org_team_id INTEGER NOT NULL REFERENCES org_teams(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, level, org_team_id)
);

CREATE TABLE IF NOT EXISTS licenses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  url TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS project_licenses (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  license_id INTEGER NOT NULL REFERENCES licenses(id),
  PRIMARY KEY (project_id, license_id)
);

-- Groups and subgroups share one id space: their ids come from git_namespace_ids (the
-- last one handed out; AUTOINCREMENT keeps counting after rows are deleted).
CREATE TABLE IF NOT EXISTS git_namespace_ids (id INTEGER PRIMARY KEY AUTOINCREMENT);

CREATE TABLE IF NOT EXISTS git_groups (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL UNIQUE REFERENCES projects(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  request_access_enabled INTEGER NOT NULL DEFAULT 0,
  enable_ci INTEGER NOT NULL DEFAULT 0,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS subgroups (
  id INTEGER PRIMARY KEY,
  group_id INTEGER NOT NULL REFERENCES git_groups(id) ON DELETE CASCADE,
  parent_id INTEGER REFERENCES subgroups(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  request_access_enabled INTEGER NOT NULL DEFAULT 0,
  created TEXT NOT NULL,
  UNIQUE (group_id, path)
);

CREATE TABLE IF NOT EXISTS repositories (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  group_id INTEGER NOT NULL REFERENCES git_groups(id) ON DELETE CASCADE,
  subgroup_id INTEGER REFERENCES subgroups(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','archived','deleted')),
  issue_tracking TEXT NOT NULL DEFAULT 'disabled',
  merge_requests TEXT NOT NULL DEFAULT 'disabled',
  requires_dco INTEGER NOT NULL DEFAULT 0,
  enable_lfs INTEGER NOT NULL DEFAULT 0,
  enable_forking INTEGER NOT NULL DEFAULT 1,
  source_repo_id INTEGER NOT NULL DEFAULT 0,
  created TEXT NOT NULL,
  last_push TEXT,
  last_pull TEXT,
  size_bytes INTEGER NOT NULL DEFAULT 0,
  deleted_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS repositories_live_slug
  ON repositories(group_id, IFNULL(subgroup_id, 0), slug) WHERE status != 'deleted';

CREATE TABLE IF NOT EXISTS commit_blockers (
  repo_id INTEGER PRIMARY KEY REFERENCES repositories(id) ON DELETE CASCADE,
  author TEXT NOT NULL,
  committer TEXT NOT NULL,
  since TEXT
);

CREATE TABLE IF NOT EXISTS commits (
  repo_id INTEGER NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
  sha TEXT NOT NULL,
  refs TEXT NOT NULL DEFAULT '[]',
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  author_name TEXT NOT NULL,
  author_email TEXT NOT NULL,
  committer_name TEXT NOT NULL,
  committer_email TEXT NOT NULL,
  created TEXT NOT NULL,
  parent_ids TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (repo_id, sha)
);
CREATE INDEX IF NOT EXISTS commits_sha ON commits(sha);

CREATE TABLE IF NOT EXISTS fork_cleanups (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  until TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS external_archives (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  repo_git_url TEXT NOT NULL,
  ref_space TEXT NOT NULL,
  format TEXT NOT NULL,
  filename TEXT NOT NULL,
  prefix TEXT NOT NULL,
  notification TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS mirrors (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  repo_url_from TEXT NOT NULL,
  repo_url_to TEXT NOT NULL,
  ref_space_from TEXT NOT NULL,
  ref_space_to TEXT NOT NULL,
  frequency TEXT NOT NULL CHECK (frequency IN ('once','daily','weekly')),
  exclude_tags INTEGER NOT NULL DEFAULT 0,
  notification_emails TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'pending',
  status_code INTEGER,
  enabled INTEGER NOT NULL DEFAULT 1,
  notes TEXT NOT NULL DEFAULT '',
  created TEXT NOT NULL,
  last_run TEXT
);
CREATE INDEX IF NOT EXISTS mirrors_project ON mirrors(project_id);

CREATE TABLE IF NOT EXISTS artifact_repos (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL UNIQUE,
  repo_type TEXT NOT NULL,
  created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS artifact_files (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id INTEGER NOT NULL REFERENCES artifact_repos(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  source_path TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending','active','inactive')),
  size INTEGER NOT NULL DEFAULT 0,
  mime_type TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  checksum TEXT,
  status_note TEXT NOT NULL DEFAULT '[]',
  download_count INTEGER NOT NULL DEFAULT 0,
  last_downloaded TEXT,
  created TEXT NOT NULL,
  last_modified TEXT NOT NULL,
  last_updated TEXT NOT NULL,
  UNIQUE (repo_id, path)
);

CREATE TABLE IF NOT EXISTS persistent_storage (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  repo_id INTEGER NOT NULL UNIQUE REFERENCES repositories(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS bundles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  repo_id INTEGER REFERENCES repositories(id) ON DELETE CASCADE,
  frequency TEXT NOT NULL,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS pipelines (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  bundle_id INTEGER REFERENCES bundles(id) ON DELETE SET NULL,
  status TEXT NOT NULL,
  ref TEXT NOT NULL,
  sha TEXT NOT NULL,
  created TEXT NOT NULL,
  finished TEXT,
  duration INTEGER NOT NULL DEFAULT 0
);
-- A project's pipelines in a range (the CI metrics, the DORA API) without reading every
-- project's, in the order the DORA API walks them.
CREATE INDEX IF NOT EXISTS pipelines_project_created ON pipelines(project_id, created, id);
-- Moves whenever a pipeline is added, removed or changes what the DORA API derives from it:
-- the DORA API's day index (routes/git/dora-days.ts) is kept while it stands still.
CREATE TABLE IF NOT EXISTS pipelines_version (version INTEGER NOT NULL);
INSERT INTO pipelines_version (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM pipelines_version);
CREATE TRIGGER IF NOT EXISTS pipelines_added AFTER INSERT ON pipelines
BEGIN UPDATE pipelines_version SET version = version + 1; END;
CREATE TRIGGER IF NOT EXISTS pipelines_changed AFTER UPDATE OF project_id, status, created, duration ON pipelines
BEGIN UPDATE pipelines_version SET version = version + 1; END;
CREATE TRIGGER IF NOT EXISTS pipelines_removed AFTER DELETE ON pipelines
BEGIN UPDATE pipelines_version SET version = version + 1; END;
CREATE TABLE IF NOT EXISTS pipeline_jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  pipeline_id INTEGER NOT NULL REFERENCES pipelines(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  stage TEXT NOT NULL,
  status TEXT NOT NULL,
  duration INTEGER NOT NULL DEFAULT 0,
  created TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS wikis (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  space_key TEXT NOT NULL,
  created TEXT NOT NULL
);

-- Queued jobs. The effect is applied by the worker when the job completes.
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  queue TEXT NOT NULL CHECK (queue IN ('entitlement','orgTeam','transfer','rename')),
  action TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT,
  parent_org_id INTEGER NOT NULL,
  created TEXT NOT NULL,
  due_ms INTEGER NOT NULL,
  fail_message TEXT
);
CREATE INDEX IF NOT EXISTS jobs_open ON jobs(status, due_ms);

CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  recipients TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  created TEXT NOT NULL,
  parent_org_id INTEGER
);
`;

/**
 * Columns added after schema version 1 shipped, added to an older database file when it
 * is opened (nullable, so old rows stay valid).
 */
export const ADDED_COLUMNS: readonly { table: string; column: string; type: string }[] = [
  { table: "outbox", column: "parent_org_id", type: "INTEGER" },
];
