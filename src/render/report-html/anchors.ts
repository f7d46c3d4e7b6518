/**
 * In-page anchors for every user and every project, so that a finding, a change or a chat
 * message can point at `review.html#user-jdoe`. Names are user data: an id is the name with
 * every character but ASCII letters, digits and `-` written as `_` and its code point in
 * hex (`_` itself included), so two names never share an id and no id needs escaping.
 */
import { h, type Html, type Part } from "./html.js";

const safe = (s: string): string =>
  s.replace(/[^A-Za-z0-9-]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`);

/** The anchor of a user (by username). */
export const userId = (username: string): string => `user-${safe(username)}`;

/** The anchor of a project (by slug). */
export const projectId = (slug: string): string => `project-${safe(slug)}`;

/** `text` as a link to the anchor `id`. */
export const linkTo = (id: string, text: Part): Html => h`<a href="#${id}">${text}</a>`;
