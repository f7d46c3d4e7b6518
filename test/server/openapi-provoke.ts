/**
 * Requests of the agreement test made for one status (no token, a member's token, a bad
 * percent-encoding, a replay, an oversized or non-JSON body, a parameter over 100
 * characters, an immutable field, an injected fault), and valid requests broken in one place.
 */
import type { Json, Mutation } from "./openapi-arb.js";
import type { AgreementRun } from "./openapi-run.js";
import type { Op, Req } from "./openapi-request.js";
import { TOKENS } from "./openapi-world.js";

/** A valid request changed in one place. */
export function breakOne(r: Req, m: Mutation): Req {
  if (m.kind === "body") return { ...r, body: m.body };
  if (m.kind === "param") return { ...r, params: { ...r.params, [m.name]: m.value } };
  const query = { ...r.query };
  if (m.value === undefined) delete query[m.name];
  else query[m.name] = m.value;
  return { ...r, query };
}

/** A request made to provoke `status` (nothing when there is no way for this operation). */
export async function provoke(run: AgreementRun, o: Op, status: number, base: Req): Promise<void> {
  const send = run.send.bind(run);
  const first = o.params.find((p) => p.description !== "may contain slashes");
  const a = run.auth(o);
  switch (status) {
    case 400:
      if (o.method !== "GET") await send(o, base, { ...a, payload: "{" });
      else if (o.query.length > 0)
        await send(o, { ...base, query: { ...base.query, [o.query[0].name]: ["a", "b"] } });
      else if (first)
        await send(o, base, {
          ...a,
          rawPath: o.path.replace(`{${first.name}}`, "%zz").replace(/\{[^}]+\}/g, "1"),
        });
      return;
    case 401:
      return void (await send(o, base, { token: null }));
    case 403:
      return void (await send(o, base, { token: TOKENS.member.secret }));
    case 404: {
      const params = Object.fromEntries(
        o.params.map((p) => [p.name, p.schema.type === "integer" ? 1_999_999_999 : "zz-none"]),
      );
      return void (await send(o, { ...base, params }));
    }
    case 409: {
      const again = run.lastSuccess.get(o.id);
      if (again) await send(o, again);
      return;
    }
    case 413:
      return void (await send(o, base, {
        ...a,
        headers: { "content-type": "application/json", "content-length": "20000000" },
        payload: "{}",
      }));
    case 414:
      if (first)
        await send(o, { ...base, params: { ...base.params, [first.name]: "x".repeat(101) } });
      return;
    case 415:
      return void (await send(o, base, {
        ...a,
        headers: { "content-type": "application/xml" },
        payload: "<x/>",
      }));
    case 422:
      if (o.body) await send(o, { ...base, body: { ...(base.body as Json), username: "x" } });
      return;
    case 429:
    case 503:
    case 500: {
      const kind = status === 500 ? undefined : `status${status}`;
      const admin = { authorization: `Bearer ${TOKENS.admin.secret}` };
      await run.world.server.app.inject(
        kind
          ? {
              method: "POST",
              url: "/_control/faults",
              headers: admin,
              payload: { faults: [{ kind, operation: o.id }] },
            }
          : { method: "POST", url: "/_control/fork-failure", headers: admin, payload: {} },
      );
      // The request that succeeded before, under a name not taken yet.
      const again = run.lastSuccess.get(o.id) ?? base;
      const fresh = o.body?.properties?.name ? { name: `fresh-${run.sent}` } : {};
      return void (await send(o, { ...again, body: { ...(again.body as Json), ...fresh } }));
    }
  }
}
