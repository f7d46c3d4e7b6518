/**
 * What the report tests seed the reference server with: a system-admin token of their own
 * (long and unlike any report word: the redactor masks a token wherever it occurs, and the
 * helper's short ones, "t-admin", occur inside "service-account-admin"), instants some days
 * ago, and users as the seed document takes them.
 */
import { startServer, TOKENS, type TestServer } from "./server.js";

export const DAY = 86_400_000;

/** A system-admin token of parent organization acme. */
export const reportToken = (secret: string) =>
  ({ secret, role: "system-admin", parentOrganization: "acme" }) as const;

/** The reference server with the helper's tokens and `token`. */
export const startReportServer = (token: ReturnType<typeof reportToken>): Promise<TestServer> =>
  startServer({ tokens: [...Object.values(TOKENS), token] });

/** An instant `days` ago, as the API writes one (no milliseconds). */
export const ago = (days: number) =>
  new Date(Date.now() - days * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A user of the seed document (first name: the username, unless given). */
export const seedUser = (
  username: string,
  o: Record<string, unknown> = {},
  firstName: string = username,
) => ({
  username,
  firstName,
  lastName: "Test",
  externalEmail: `${username}@example.org`,
  ...o,
});
