/**
 * E-mails the service would send (welcome, archive ready, upload status) land in the outbox
 * table with the parent organization that caused them; tests read them through
 * /_control/outbox (a caller sees its own parent organization's). Nothing is ever sent.
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

  send(
    kind: string,
    recipients: string[],
    subject: string,
    body: string,
    parentOrgId: number,
  ): void {
    this.db.run(
      `INSERT INTO outbox (kind, recipients, subject, body, created, parent_org_id)
       VALUES (?, ?, ?, ?, ?, ?)`,
      kind,
      JSON.stringify(recipients),
      subject,
      body,
      isoNow(),
      parentOrgId,
    );
  }

  /** Every mail, or those of one parent organization (id), oldest first. */
  list(parentOrgId?: number): Mail[] {
    type Row = Omit<Mail, "recipients"> & { recipients: string; parent_org_id: number | null };
    const rows =
      parentOrgId === undefined
        ? this.db.all<Row>("SELECT * FROM outbox ORDER BY id")
        : this.db.all<Row>("SELECT * FROM outbox WHERE parent_org_id = ? ORDER BY id", parentOrgId);
    return rows.map(({ parent_org_id: _tenant, ...m }) => ({
      ...m,
      recipients: JSON.parse(m.recipients) as string[],
    }));
  }
}
