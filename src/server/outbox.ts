/**
 * E-mails the service would send (welcome, archive ready, upload status) land in the outbox
 * table; tests read them through /_control/outbox. Nothing is ever sent.
 */
import type { Db } from "./store/db.js";
import { isoNow } from "./store/db.js";

export interface Mail {
  id: number;
  kind: string;
  recipients: string[];
  subject: string;
  body: string;
  created: string;
}

export class Outbox {
  constructor(private readonly db: Db) {}

  send(kind: string, recipients: string[], subject: string, body: string): void {
    this.db.run(
      "INSERT INTO outbox (kind, recipients, subject, body, created) VALUES (?, ?, ?, ?, ?)",
      kind,
      JSON.stringify(recipients),
      subject,
      body,
      isoNow(),
    );
  }

  list(): Mail[] {
    return this.db
      .all<Omit<Mail, "recipients"> & { recipients: string }>("SELECT * FROM outbox ORDER BY id")
      .map((m) => ({ ...m, recipients: JSON.parse(m.recipients) as string[] }));
  }
}
