/**
 * A side effect whose request may or may not have been carried out: the answer to it was
 * lost (a dropped connection, a timeout, a 5xx after the request was sent). A welcome mail
 * cannot be read back, and a second one is not harmless, so phctl neither sends it again nor
 * treats it as owed: the kind throws this error, the walk reports the action failed with its
 * code, and the journal records the side effect as unknown (journal.ts) until a person says
 * it is settled.
 */
import { PhctlError } from "../errors.js";

/** The `action-failed` code of a side effect whose outcome is unknown. */
export const SEND_UNKNOWN = "SEND_UNKNOWN";

export class SendUnknownError extends PhctlError {
  constructor(message: string, cause?: unknown) {
    super(SEND_UNKNOWN, message, cause === undefined ? {} : { cause });
    this.name = "SendUnknownError";
  }
}
