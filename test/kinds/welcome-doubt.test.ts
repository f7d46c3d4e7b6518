/**
 * The welcome-mail doubt (`welcomeWarnings`): a user created recently who never signed in is
 * named only when no journal that could know about her is at hand — none at all, or one last
 * written before she was created (an apply whose journal was not kept made her).
 */
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/client.js";
import { NO_JOURNAL, ReadContext, type JournalFacts } from "../../src/engine/read-context.js";
import { JOURNAL_CLOCK_SKEW_MS, welcomeWarnings } from "../../src/kinds/welcome.js";
import type { DesiredState } from "../../src/manifest/types.js";

const NOW = Date.parse("2026-03-02T12:00:00Z");
const created = new Date(NOW - 3_600_000).toISOString(); // an hour ago
const api = {
  listAll: async () => [{ username: "cnew", dateCreated: created, dateLastAccessed: null }],
} as unknown as ApiClient;
const state = {
  users: [
    {
      username: "cnew",
      key: "user/cnew",
      sendWelcome: true,
      source: { file: "users/acme.yaml", line: 45, column: 1 },
    },
  ],
} as unknown as DesiredState;

const warn = (facts: JournalFacts) => welcomeWarnings(new ReadContext(api, facts), state, NOW);
const journal = (updatedAt?: string): JournalFacts => ({
  owed: new Set(),
  known: true,
  ...(updatedAt ? { updatedAt } : {}),
});

describe("the welcome doubt", () => {
  it("names her without a journal", async () => {
    const [w] = await warn(NO_JOURNAL);
    expect(w.message).toContain("cannot know whether user cnew got its welcome mail");
    expect(w.message).toContain("there is no journal of the apply that created it");
  });

  it("is silent with a journal written when or after she was created (its apply made her)", async () => {
    expect(await warn(journal(new Date(NOW - 1_800_000).toISOString()))).toEqual([]);
    // The service's clock a little ahead of the runner's.
    const skewed = new Date(Date.parse(created) - JOURNAL_CLOCK_SKEW_MS + 1000).toISOString();
    expect(await warn(journal(skewed))).toEqual([]);
    expect(await warn(journal())).toEqual([]);
  });

  it("names her when the journal at hand was last written before she was created", async () => {
    const [w] = await warn(journal(new Date(NOW - 86_400_000).toISOString()));
    expect(w.message).toContain("cannot know whether user cnew got its welcome mail");
    expect(w.message).toContain("the journal at hand was last written before it was created");
  });
});

describe("welcome mails of unknown outcome (the journal's `unknown`)", () => {
  const users = (signedIn: string[]) =>
    ({
      listAll: async () =>
        ["cnew", "dnew", "enew"].map((u) => ({
          username: u,
          dateCreated: created,
          dateLastAccessed: signedIn.includes(u) ? created : null,
        })),
    }) as unknown as ApiClient;
  const declared = {
    users: ["cnew", "dnew", "enew"].map((u, i) => ({
      username: u,
      key: `user/${u}`,
      sendWelcome: true,
      source: { file: "users/acme.yaml", line: 45 + 10 * i, column: 1 },
    })),
  } as unknown as DesiredState;
  const facts = (...us: string[]): JournalFacts => ({
    owed: new Set(),
    unknown: new Set(us.map((u) => `user/${u}/welcome`)),
    known: true,
    updatedAt: new Date(NOW).toISOString(),
  });
  const warnings = (api: ApiClient, f: JournalFacts) =>
    welcomeWarnings(new ReadContext(api, f), declared, NOW);

  it("names one in one warning, with what a person should do", async () => {
    const [w, ...rest] = await warnings(users([]), facts("dnew"));
    expect(rest).toEqual([]);
    expect(w.key).toBe("user/dnew/welcome");
    expect(w.message).toMatch(/^the welcome mail of user dnew may or may not have been sent: /);
    expect(w.message).toContain("phctl does not send it again");
    expect(w.message).toContain(
      "send it with: phctl api POST /v1/users/dnew/send_welcome — then tell phctl with: phctl apply --welcome-sent dnew",
    );
  });

  it("names several in one warning, each with its flag; one who signed in is left out", async () => {
    const ws = await warnings(users(["enew"]), facts("cnew", "dnew", "enew"));
    expect(ws).toHaveLength(1);
    expect(ws[0].message).toMatch(
      /^the welcome mails of 2 users may or may not have been sent \(cnew, dnew\): /,
    );
    expect(ws[0].message).toContain("phctl apply --welcome-sent cnew --welcome-sent dnew");
    expect(await warnings(users(["cnew"]), facts("cnew"))).toEqual([]);
  });
});
