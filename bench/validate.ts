/**
 * Loader benchmark (not part of `npm test`): writes 1,000 manifests in 200 files to a temp
 * directory — users, teams, organizations and projects that reference each other — and
 * times loadManifests on them (in process, after one warm-up) and `phctl validate` (the
 * built CLI, process start included). Target: under 2 s.
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/validate.ts'))"
 *
 * (vite's module runner, already installed with vitest, runs the TypeScript directly.)
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadManifests } from "../src/pipeline/load.js";

const FILES = 200;
const PER_FILE = 5;
const ROOT = join(import.meta.dirname, "..");

function user(i: number): string {
  return `apiVersion: phctl/v1
kind: User
metadata: { name: user${i} }
spec:
  firstName: First${i}
  lastName: Last${i}
  externalEmail: user${i}@example.org
  organization: ${i % 4 === 0 ? `partner${i % 20}` : "acme"}
  role: member
  services:
    git: { status: active }
    artifactservice: {}
`;
}

function team(i: number, users: number): string {
  const members = Array.from({ length: 8 }, (_, k) => `user${(i * 7 + k) % users}`);
  return `apiVersion: phctl/v1
kind: Team
metadata: { name: team${i} }
spec:
  services: { gitservice: true, artifactservice: ${i % 2 === 0} }
  members: [${members.join(", ")}]
`;
}

function organization(i: number): string {
  return `apiVersion: phctl/v1
kind: Organization
metadata: { name: partner${i} }
`;
}

function project(i: number, users: number): string {
  const u = (k: number) => `user${(i * 13 + k) % users}`;
  const repos = Array.from(
    { length: 4 },
    (_, k) => `      - name: repo${k}
        subgroup: ${k % 2 === 0 ? '""' : "tools/ci"}
        issueTracking: enabled
        mergeRequests: enabled
        requiresDCO: ${k === 0}`,
  ).join("\n");
  const fork =
    i > 0
      ? `
      - name: upstream-fork
        forkFrom: https://git.example.org/acme/project${i - 1}/repo0.git`
      : "";
  return `apiVersion: phctl/v1
kind: Project
metadata: { name: project${i} }
spec:
  title: Project ${i}
  description: Synthetic project number ${i}
  licenses: [Apache-2.0, MIT]
  access:
    admins: [${u(0)}]
    maintainers: { users: [${u(1)}, ${u(2)}] }
    developers: [${u(3)}, ${u(4)}, ${u(5)}]
    reporters: [${u(6)}]
  git:
    group: { enableCi: true }
    subgroups: [docs, tools/ci]
    repositories:
${repos}${fork}
    mirrors:
      - from: https://github.com/example/project${i}.git
        to: ssh://git@git.example.org/acme/project${i}/repo0.git
        refSpaceFrom: refs/heads/*
        refSpaceTo: refs/heads/*
        frequency: daily
  artifacts:
    repositories: [{ name: releases }, { name: images, type: docker }]
`;
}

function generate(dir: string): number {
  const docs: string[] = [];
  const users = 500;
  for (let i = 0; i < 20; i++) docs.push(organization(i));
  for (let i = 0; i < users; i++) docs.push(user(i));
  for (let i = 0; i < 100; i++) docs.push(team(i, users));
  for (let i = 0; docs.length < FILES * PER_FILE; i++) docs.push(project(i, users));
  writeFileSync(join(dir, "phctl.yaml"), "organization: acme\n");
  for (let f = 0; f < FILES; f++) {
    const sub = join(dir, `group${f % 10}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      join(sub, `file${f}.yaml`),
      docs.slice(f * PER_FILE, (f + 1) * PER_FILE).join("---\n"),
    );
  }
  return docs.length;
}

const dir = mkdtempSync(join(tmpdir(), "phctl-bench-validate-"));
try {
  const n = generate(dir);
  const warm = performance.now();
  const first = await loadManifests([dir], { cwd: dir });
  const coldMs = performance.now() - warm;
  if (!first.state)
    throw new Error(`benchmark manifests are invalid: ${JSON.stringify(first.diagnostics[0])}`);
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await loadManifests([dir], { cwd: dir });
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  const t = performance.now();
  execFileSync(process.execPath, [join(ROOT, "dist/cli/main.js"), "validate", dir], {
    stdio: "ignore",
  });
  const cliMs = performance.now() - t;
  console.log(
    `${n} manifests in ${first.files.length - 1} files (+ phctl.yaml): ` +
      `loadManifests first run ${coldMs.toFixed(0)} ms (schema compile included), ` +
      `median of 5 ${runs[2].toFixed(0)} ms; ` +
      `\`phctl validate\` (new process) ${cliMs.toFixed(0)} ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
