/**
 * How each section of a report was read. A section that failed keeps the rest of the
 * report: it is listed with what failed (the error's one line, masked) and what to set —
 * for the git host's delivery-metrics API: PHCTL_GIT_TOKEN when the token is missing or
 * refused, --git-api-url (PHCTL_GIT_API_URL) when the address does not answer as that API.
 */
import { ApiError } from "../api/errors.js";
import { PhctlError } from "../errors.js";
import { redact } from "../secrets.js";
import type { SectionStatus } from "./types.js";

/** A section that was read. */
export const sectionOk = (name: string, title: string): SectionStatus => ({
  name,
  title,
  status: "ok",
});

/** The settings that fix a failed read of the delivery-metrics API. */
function gitSettings(e: unknown): string[] {
  const status = e instanceof ApiError ? e.status : undefined;
  const code = e instanceof PhctlError ? e.code : undefined;
  if (code === "NO_GIT_TOKEN" || status === 401 || status === 403) return ["PHCTL_GIT_TOKEN"];
  return ["--git-api-url", "PHCTL_GIT_TOKEN"];
}

/** A section that failed with `e`; `git`: it reads the delivery-metrics API. */
export function sectionFailed(
  name: string,
  title: string,
  e: unknown,
  o: { git?: boolean } = {},
): SectionStatus {
  const message = e instanceof Error ? e.message : String(e);
  return {
    name,
    title,
    status: "failed",
    error: redact(message.split("\n")[0] || "the read failed"),
    ...(o.git ? { set: gitSettings(e) } : {}),
  };
}

/**
 * Run a section's read: its value and status, or `fallback` and the failure. Errors that are
 * not the service's answer (bugs) still stop the report.
 */
export async function guarded<T>(
  name: string,
  title: string,
  read: () => Promise<T>,
  fallback: T,
  o: { git?: boolean } = {},
): Promise<[T, SectionStatus]> {
  try {
    return [await read(), sectionOk(name, title)];
  } catch (e) {
    if (!(e instanceof PhctlError) || e.source === "internal") throw e;
    return [fallback, sectionFailed(name, title, e, o)];
  }
}
