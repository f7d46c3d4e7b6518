/**
 * What a platform said when a tracking issue (drift or expiry) could not be kept, and what
 * to do about it, in one line: the status and the platform's own message, then the fix
 * (the token's rights, the project variable, or "the next run tries again").
 */
import type { CiContext } from "../ci/platform.js";
import { CiHttpError } from "../ci/retry.js";

export function platformProblem(ctx: CiContext, e: unknown): string {
  if (!(e instanceof CiHttpError)) return e instanceof Error ? e.message : String(e);
  const s = e.status;
  const said =
    s === undefined || e.platformMessage.startsWith(`${s} `)
      ? e.platformMessage
      : `${s} ${e.platformMessage}`;
  const gh = ctx.platform === "github";
  const hint =
    s === 401
      ? gh
        ? "the token was refused: pass the job's token as GITHUB_TOKEN"
        : "set PHCTL_GITLAB_TOKEN to a token with api scope"
      : s === 403
        ? gh
          ? "give the job `issues: write` in its permissions"
          : "PHCTL_GITLAB_TOKEN needs api scope and the Reporter role or more"
        : s === 404 || s === 410
          ? `check ${gh ? "GITHUB_REPOSITORY" : "CI_PROJECT_ID"} (${ctx.project}) and that its issues are enabled`
          : s !== undefined && s < 500 && s !== 429
            ? "this is likely a phctl bug: please report it"
            : `${ctx.name} may be having trouble: the next run tries again`;
  return `${said} — ${hint}`;
}
