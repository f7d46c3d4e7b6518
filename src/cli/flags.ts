/** Flag values checked once, with one-line errors that name the flag and show a good value. */
import { userError } from "../errors.js";
import { parseDuration } from "../manifest/settings.js";

/** `90s`, `2m`, `1h30m`, `500ms` → milliseconds; anything else is a user error. */
export function parseDurationFlag(flag: string, value: string): number {
  if (!/^([0-9]+(ms|s|m|h))+$/.test(value.trim()) || parseDuration(value.trim()) <= 0)
    throw userError(
      "BAD_FLAG",
      `${flag} must be a duration such as 90s, 2m or 1h30m (got ${value})`,
    );
  return parseDuration(value.trim());
}
