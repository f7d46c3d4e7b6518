/**
 * WelcomeMail: the welcome mail of a declared user with `sendWelcome: true`
 * (`user/<username>/welcome`), a side effect of its own in the plan, the DAG and the
 * journal, after the user's create and her declared service accounts (the mail lists them).
 * It is owed only by the run whose create made the user: when the create met her already
 * made by another writer (another apply at the same time), that writer owes it, and the
 * walk leaves it unsent, saying so. It is a separate action so that a crash or a failed
 * send (a 429 the service refused it with) after the user exists is never lost: the journal
 * keeps it "owed" until it is done, and every later plan carries it again.
 *
 * send_welcome is not idempotent — each call is one more mail — and the API cannot tell
 * whether a mail went out, so it is never sent blindly again. When the answer to it is lost
 * (a dropped connection, a timeout, a 5xx after sending), or an apply was killed while it was
 * out, the mail may or may not have been sent: the journal records it "unknown" (neither
 * owed nor done), the run says so with what a person should do, and every later plan names
 * it (`unknownWarnings`) until she has signed in or a person settles it with
 * `phctl apply --welcome-sent USERNAME` (after checking the inbox, and sending it by hand if
 * it never arrived).
 *
 * The API cannot tell whether a welcome was sent, so the live side is inferred: a user that
 * exists live has had its welcome, unless the journal says it is owed. Without a journal that
 * could know about her — none at all (a fresh CI workspace), or one last written before she
 * was created (by an apply whose journal was not kept) — phctl cannot know about a user an
 * interrupted run created: such users — created recently and never signed in — are named in
 * a plan warning with the command that sends the mail (`welcomeWarnings`).
 *
 * Reads: none of its own (the user list, shared with the User kind).
 */
import { AmbiguousRequestError } from "../api/errors.js";
import type { PlanWarning } from "../engine/plan.js";
import { SendUnknownError } from "../engine/send-unknown.js";
import type { ReadContext } from "../engine/read-context.js";
import { readUsers, type LiveUser } from "../engine/readers.js";
import { userKey } from "../manifest/keys.js";
import type { DesiredState } from "../manifest/types.js";
import { defineKind } from "./kind.js";

export interface WelcomeFields {
  username: string;
  [k: string]: unknown;
}

export const welcomeKey = (username: string) => `${userKey(username)}/welcome`;

/** How recent a user must be for phctl to doubt its welcome when no journal says (24 h). */
export const WELCOME_DOUBT_MS = 24 * 3_600_000;

const declaredWelcomes = (state: DesiredState) => state.users.filter((u) => u.sendWelcome);

export const welcomeKind = defineKind<WelcomeFields>({
  kind: "WelcomeMail",
  ownership: { mode: "ignored" },
  immutable: {},
  destructiveDelete: false,
  sideEffect: true,
  // The mail lists the user's services: it goes out once her declared accounts have been
  // created (their jobs completed). Ordering only: an account that fails or is blocked
  // must not keep her from her mail, which a plan without a journal could not bring back.
  after: (key) => [`${key.slice(0, -"welcome".length)}service/`],
  desired: (state) =>
    declaredWelcomes(state).map((u) => ({
      key: welcomeKey(u.username),
      fields: { username: u.username },
      source: u.source,
      dependsOn: [u.key],
      protect: u.protect,
    })),
  read: async (ctx, state) => {
    const wanted = declaredWelcomes(state);
    if (wanted.length === 0) return [];
    const live = new Set((await readUsers(ctx)).map((u) => u.username));
    return wanted
      .filter((u) => live.has(u.username) && !ctx.facts.owed.has(welcomeKey(u.username)))
      .map((u) => ({ key: welcomeKey(u.username), fields: { username: u.username }, ids: {} }));
  },
  create: async (api, entry) => {
    const username = String(entry.after?.username);
    try {
      await api.call("users.sendWelcome", { params: { username } });
    } catch (e) {
      // Sent, answer lost: it cannot be confirmed by reading, and sending it again may mail
      // her twice. Left to a person (the journal records it unknown).
      if (!(e instanceof AmbiguousRequestError)) throw e;
      throw new SendUnknownError(
        `the welcome mail of ${username} may or may not have been sent: the answer to POST /v1/users/${username}/send_welcome was lost (${e.status > 0 ? `${e.status} ` : ""}${e.serverMessage}); phctl does not send it again. ${settleHint([username])}`,
        e,
      );
    }
  },
});

/**
 * What a person does about welcome mails of unknown outcome: check, send the missing ones
 * by hand, and tell phctl.
 */
export function settleHint(usernames: readonly string[]): string {
  const one = usernames.length === 1 ? usernames[0] : undefined;
  const who = one ?? "USERNAME";
  const flags = usernames.map((u) => `--welcome-sent ${u}`).join(" ");
  return `Ask ${one ?? "each of them"} (or check the service's mail log) whether it arrived; if not, send it with: phctl api POST /v1/users/${who}/send_welcome — then tell phctl with: phctl apply ${flags}`;
}

/**
 * How far the service's clock (a user's creation time) may run ahead of the one that wrote
 * the journal before a user created during the journal's apply looks created after it.
 */
export const JOURNAL_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * When the journal at hand could know about a user created at `created`: there is one, and
 * its apply was still writing it when she was created (a journal without a time: always).
 */
function journalKnows(ctx: ReadContext, created: number): boolean {
  if (!ctx.facts.known) return false;
  const until = Date.parse(ctx.facts.updatedAt ?? "");
  return !Number.isFinite(until) || created <= until + JOURNAL_CLOCK_SKEW_MS;
}

/**
 * Welcome mails an earlier apply may or may not have sent (the journal's `unknown`), of users
 * still declared with sendWelcome who have never signed in (one who has, has her password: her
 * welcome no longer matters). One warning for all of them, naming each: never sent again,
 * never dropped silently.
 */
export function unknownWarnings(
  facts: ReadContext["facts"],
  state: DesiredState,
  live: ReadonlyMap<string, LiveUser>,
): PlanWarning[] {
  const unknown = facts.unknown;
  if (!unknown || unknown.size === 0) return [];
  const open = declaredWelcomes(state).filter((u) => {
    const l = live.get(u.username);
    return unknown.has(welcomeKey(u.username)) && l !== undefined && !l.dateLastAccessed;
  });
  if (open.length === 0) return [];
  const first = open[0];
  const names = open.map((u) => u.username);
  const message =
    open.length === 1
      ? `the welcome mail of user ${first.username} may or may not have been sent: an earlier apply sent it and never learned whether the service did (the answer was lost, or the apply stopped while it was out); phctl does not send it again. ${settleHint(names)}`
      : `the welcome mails of ${open.length} users may or may not have been sent (${names.join(", ")}): an earlier apply sent each and never learned whether the service did (the answer was lost, or the apply stopped while it was out); phctl does not send them again. ${settleHint(names)}`;
  return [
    {
      key: welcomeKey(first.username),
      source: { file: first.source.file, line: first.source.line, column: first.source.column },
      message,
    },
  ];
}

/**
 * Users whose welcome phctl cannot know about: no journal of this service that could know
 * about them (none, or one last written before they were created), the user declared with
 * sendWelcome, created within WELCOME_DOUBT_MS and never signed in. One warning for all of
 * them, with their count: a fresh workspace after a full apply of 100 users gets one line,
 * not 100. The mails the journal holds as unknown (`unknownWarnings`) come first.
 */
export async function welcomeWarnings(
  ctx: ReadContext,
  state: DesiredState,
  now: number = Date.now(),
): Promise<PlanWarning[]> {
  const wanted = declaredWelcomes(state);
  if (wanted.length === 0) return [];
  const live = new Map<string, LiveUser>((await readUsers(ctx)).map((u) => [u.username, u]));
  const unknown = unknownWarnings(ctx.facts, state, live);
  const doubtful = wanted.filter((u) => {
    if (ctx.facts.unknown?.has(welcomeKey(u.username))) return false;
    const l = live.get(u.username);
    if (!l || l.dateLastAccessed) return false;
    const created = Date.parse(l.dateCreated);
    return (
      Number.isFinite(created) && now - created < WELCOME_DOUBT_MS && !journalKnows(ctx, created)
    );
  });
  if (doubtful.length === 0) return unknown;
  const first = doubtful[0];
  const keep =
    "keep the journal between runs — journal: in phctl.yaml or --journal — so phctl knows";
  const message =
    doubtful.length === 1
      ? `cannot know whether user ${first.username} got its welcome mail: it was created ${live.get(first.username)!.dateCreated}, has never signed in, and ${ctx.facts.known ? "the journal at hand was last written before it was created" : "there is no journal of the apply that created it"}; if it got none, send it with: phctl api POST /v1/users/${first.username}/send_welcome (${keep})`
      : // Every one is named: whoever sends the missing mails needs the whole list.
        `cannot know whether ${doubtful.length} users got their welcome mail (${doubtful.map((u) => u.username).join(", ")}): each was created in the last 24 h and has never signed in, and ${ctx.facts.known ? "the journal at hand was last written before they were created" : "there is no journal of the apply that created them"} — an apply that stopped between a user's create and its mail left that mail unsent; send a missing one with: phctl api POST /v1/users/USERNAME/send_welcome (${keep})`;
  return [
    ...unknown,
    {
      key: welcomeKey(first.username),
      source: { file: first.source.file, line: first.source.line, column: first.source.column },
      message,
    },
  ];
}
