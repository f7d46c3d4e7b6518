/**
 * One comment per purpose on a pull request, merge request or issue ("sticky"), found again
 * by the hidden marker its body starts with, and updated in place. Shared by GitHub and
 * GitLab through the small `CommentApi` both clients implement; it serves the plan comment
 * (`phctl comment`). The drift tracking issue has its own calls (issues.ts).
 *
 * Writes are never sent twice blindly: a create that failed without an answer is followed
 * by a fresh list, and sent once more only when the comment did not land.
 */
import { CiHttpError } from "./retry.js";

/** A comment as both platforms have it. */
export interface Comment {
  id: number;
  body: string;
  /** ISO time; the newest of several marked comments is the one updated. */
  createdAt?: string;
  /** Where people see it, when the platform says. */
  url?: string;
}

/** What is commented on: a pull/merge request, or an issue. */
export interface Thread {
  type: "pull" | "issue";
  number: number;
}

/** The comment calls of a platform; every page is read, oldest first. */
export interface CommentApi {
  /** "GitHub" / "GitLab", for messages. */
  readonly platform: string;
  /** "pull request #12", "merge request !12", "issue #3". */
  describe(thread: Thread): string;
  list(thread: Thread): Promise<Comment[]>;
  create(thread: Thread, body: string): Promise<Comment>;
  update(thread: Thread, id: number, body: string): Promise<Comment>;
}

/** A pull/merge request a commit belongs to (the apply job after a merge). */
export interface CommitPull {
  number: number;
  merged: boolean;
  headSha?: string;
  baseSha?: string;
}

/** A platform's client: comments, and the pull requests of a commit. */
export interface PlatformClient extends CommentApi {
  /** The pull/merge requests `sha` belongs to, merged ones first. */
  pullsOfCommit(sha: string): Promise<CommitPull[]>;
  close(): Promise<void>;
}

/** The plan comment's marker for a key ([A-Za-z0-9._/-]+: the caller validated it). */
export const planMarker = (key: string): string => `<!-- phctl:plan key=${key} -->`;

/** Does this body start with the marker (so: is it that comment)? */
export function carriesMarker(body: string, marker: string): boolean {
  const b = body.trimStart();
  return b.startsWith(marker) && (b.length === marker.length || /\s/.test(b[marker.length]));
}

/** The comments carrying the marker, newest last. */
export function markedComments(comments: readonly Comment[], marker: string): Comment[] {
  return comments
    .filter((c) => carriesMarker(c.body, marker))
    .sort((a, b) =>
      (a.createdAt ?? "") === (b.createdAt ?? "")
        ? a.id - b.id
        : (a.createdAt ?? "") < (b.createdAt ?? "")
          ? -1
          : 1,
    );
}

export interface StickyResult {
  action: "created" | "updated" | "unchanged";
  comment: Comment;
  /** Other comments with the same marker, left as they were (an older tool's runs). */
  others: number;
  /** The create failed without an answer and a fresh list showed it had landed. */
  recovered?: boolean;
}

async function updateIfNeeded(
  api: CommentApi,
  thread: Thread,
  found: Comment,
  body: string,
  others: number,
): Promise<StickyResult> {
  if (found.body === body) return { action: "unchanged", comment: found, others };
  const comment = await api.update(thread, found.id, body);
  return { action: "updated", comment: { ...found, ...comment }, others };
}

/** Create or update the one comment carrying `marker` (the first line of `body`). */
export async function upsertSticky(
  api: CommentApi,
  thread: Thread,
  marker: string,
  body: string,
): Promise<StickyResult> {
  const marked = markedComments(await api.list(thread), marker);
  const newest = marked.at(-1);
  if (newest) return updateIfNeeded(api, thread, newest, body, marked.length - 1);
  for (let attempt = 1; ; attempt++) {
    try {
      return { action: "created", comment: await api.create(thread, body), others: 0 };
    } catch (e) {
      if (!(e instanceof CiHttpError) || !e.ambiguous) throw e;
      // It may have landed: look before sending it again.
      const now = markedComments(await api.list(thread), marker);
      const landed = now.at(-1);
      if (landed) {
        const r = await updateIfNeeded(api, thread, landed, body, now.length - 1);
        return { ...r, action: "created", recovered: true };
      }
      if (attempt >= 2) throw e;
    }
  }
}
