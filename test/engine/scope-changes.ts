/**
 * Random changes to a config repository, for the scoped-plan property (scope.test.ts): the
 * examples' documents as plain data, changes that keep them valid (fields, repositories,
 * access, users with wiki accounts, team members, protection, phctl.yaml's prune, whole
 * documents added or removed), and the texts to load again.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { parseAllDocuments, stringify } from "yaml";
import type { ManifestInput } from "../../src/manifest/load.js";

export interface Config {
  settings: Record<string, any>;
  docs: { file: string; doc: any }[];
}

function files(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith("."))
    .flatMap((f) => {
      const p = join(dir, f);
      // Policy test cases are no manifests (the loader leaves them aside too).
      if (p.endsWith(".policytest.yaml")) return [];
      return statSync(p).isDirectory() ? files(p) : p.endsWith(".yaml") ? [p] : [];
    });
}

/** The config under `dir` as data. */
export function readConfig(dir: string): Config {
  const out: Config = { settings: {}, docs: [] };
  for (const path of files(dir).sort()) {
    const file = relative(dir, path);
    const docs = parseAllDocuments(readFileSync(path, "utf8")).map((d) => d.toJS());
    if (file === "phctl.yaml") out.settings = docs[0];
    else for (const doc of docs) if (doc) out.docs.push({ file, doc });
  }
  return out;
}

/** The config as loader inputs (files under `prefix`). */
export function inputsOf(c: Config, prefix = "cfg"): ManifestInput[] {
  const byFile = new Map<string, any[]>();
  for (const { file, doc } of c.docs) byFile.set(file, [...(byFile.get(file) ?? []), doc]);
  return [
    { file: `${prefix}/phctl.yaml`, content: stringify(c.settings), config: true },
    ...[...byFile].map(([file, docs]) => ({
      file: `${prefix}/${file}`,
      content: docs.map((d) => stringify(d)).join("---\n"),
    })),
  ];
}

const LEVELS = ["admins", "maintainers", "developers", "reporters", "editors"] as const;
/** Declared and live, live only (ghost), declared only (pending: see withPending). */
const USERS = ["jdoe", "asmith", "bwong", "pkumar", "lchen", "ghost", "pending"];

/**
 * The config with objects declared but not live yet (drift of its own): a user `pending`
 * and a repository `pending-repo` of ci-tools.
 */
export function withPending(c: Config): Config {
  const out = structuredClone(c);
  out.docs.push({
    file: "users/pending.yaml",
    doc: {
      apiVersion: "phctl/v1",
      kind: "User",
      metadata: { name: "pending" },
      spec: { firstName: "Pen", lastName: "Ding", externalEmail: "pending@example.org" },
    },
  });
  const ci = out.docs.find((d) => d.doc.metadata.name === "ci-tools")!.doc;
  ci.spec.git.repositories.push({ name: "pending-repo" });
  return out;
}

const ofKind = (c: Config, kind: string) => c.docs.filter((d) => d.doc.kind === kind);
const pick = <T>(xs: T[], i: number): T | undefined => (xs.length ? xs[i % xs.length] : undefined);

/** A user list of an access level, in either form. */
function levelUsers(spec: any, level: string): string[] {
  const v = spec.access?.[level];
  return Array.isArray(v) ? v : (v?.users ?? []);
}
function setLevelUsers(spec: any, level: string, users: string[]) {
  spec.access ??= {};
  const v = spec.access[level];
  if (v && !Array.isArray(v)) v.users = users;
  else spec.access[level] = users;
}

type Change = (c: Config) => void;
const named = (name: string, f: Change): [string, Change] => [name, f];

const project =
  (i: number, f: (spec: any, doc: any) => void): Change =>
  (c) => {
    const d = pick(ofKind(c, "Project"), i);
    if (d) f(d.doc.spec, d.doc);
  };
const user =
  (i: number, f: (spec: any) => void): Change =>
  (c) => {
    const d = pick(ofKind(c, "User"), i);
    if (d) f(d.doc.spec);
  };

const newUser = (c: Config, name: string, wiki: boolean) =>
  c.docs.push({
    file: "users/new.yaml",
    doc: {
      apiVersion: "phctl/v1",
      kind: "User",
      metadata: { name },
      spec: {
        firstName: "New",
        lastName: "Bie",
        externalEmail: `${name}@example.org`,
        ...(wiki ? { services: { wiki: { status: "active" } } } : {}),
      },
    },
  });

const text = (max: number) => fc.string({ minLength: 1, maxLength: max });

/** One change, named (for the counterexample). */
export const change: fc.Arbitrary<[string, Change]> = fc.oneof(
  fc.tuple(fc.nat(), fc.constantFrom("title", "description"), text(8)).map(([i, f, v]) =>
    named(
      `project ${i} ${f}=${v}`,
      project(i, (s) => (s[f] = `x ${v}`)),
    ),
  ),
  fc.tuple(fc.nat(), fc.constantFrom("r-new", "r-two")).map(([i, name]) =>
    named(
      `project ${i} + repo ${name}`,
      project(i, (s) => s.git?.repositories?.push({ name })),
    ),
  ),
  fc.nat().map((i) =>
    named(
      `project ${i} + fork of ci-tools/pending-repo`,
      project(i, (s) =>
        s.git?.repositories?.push({
          name: "pending-fork",
          forkFrom: "https://git.example.org/acme/ci-tools/pending-repo.git",
        }),
      ),
    ),
  ),
  fc.tuple(fc.nat(), fc.nat()).map(([i, r]) =>
    named(
      `project ${i} - repo ${r}`,
      project(i, (s) => s.git?.repositories?.splice(r % (s.git.repositories.length || 1), 1)),
    ),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(...LEVELS), fc.constantFrom(...USERS)).map(([i, l, u]) =>
    named(
      `project ${i} ${l} ± ${u}`,
      project(i, (s) => {
        const now = levelUsers(s, l);
        setLevelUsers(s, l, now.includes(u) ? now.filter((x) => x !== u) : [...now, u]);
      }),
    ),
  ),
  fc
    .nat()
    .map((i) => named(`remove document ${i}`, (c) => void c.docs.splice(i % c.docs.length, 1))),
  fc.tuple(fc.nat(), fc.constantFrom(...LEVELS), fc.boolean()).map(([i, l, wiki]) =>
    named(`new user on project ${i} ${l}${wiki ? " with wiki" : ""}`, (c) => {
      const name = `newbie${c.docs.length}`;
      if (ofKind(c, "User").some((d) => d.doc.metadata.name === name)) return;
      newUser(c, name, wiki);
      project(i, (s) => setLevelUsers(s, l, [...levelUsers(s, l), name]))(c);
    }),
  ),
  fc.tuple(fc.nat(), fc.constantFrom("active", "inactive", "none")).map(([i, st]) =>
    named(
      `user ${i} wiki ${st}`,
      user(i, (s) => {
        s.services ??= {};
        if (st === "none") delete s.services.wiki;
        else s.services.wiki = { status: st };
      }),
    ),
  ),
  fc.tuple(fc.nat(), text(6)).map(([i, v]) =>
    named(
      `user ${i} firstName ${v}`,
      user(i, (s) => (s.firstName = `F ${v}`)),
    ),
  ),
  fc.tuple(fc.nat(), fc.constantFrom(...USERS)).map(([i, u]) =>
    named(`team ${i} ± ${u}`, (c) => {
      const d = pick(ofKind(c, "Team"), i);
      if (!d) return;
      const m: string[] = d.doc.spec.members ?? [];
      d.doc.spec.members = m.includes(u) ? m.filter((x) => x !== u) : [...m, u];
    }),
  ),
  fc.nat().map((i) =>
    named(
      `project ${i} protect toggled`,
      project(i, (_s, doc) => {
        const a = (doc.metadata.annotations ??= {});
        if (a["phctl/protect"]) delete a["phctl/protect"];
        else a["phctl/protect"] = "true";
      }),
    ),
  ),
  fc.constant(
    named("prune.mirrors toggled", (c) => {
      c.settings.prune = { ...c.settings.prune, mirrors: !c.settings.prune?.mirrors };
    }),
  ),
);
