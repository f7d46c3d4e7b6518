/**
 * The OpenAPI document of the API this server serves, at `/openapi.json` and
 * `/openapi.yaml` (no token needed): `buildOpenApi(profile)`, so with `--api-profile` it
 * is the profile's shape. Built on the first request and kept (it costs tens of ms).
 */
import type { FastifyInstance } from "fastify";
import { stringify } from "yaml";
import { buildOpenApi } from "../api/openapi.js";
import type { ApiProfile } from "../api/profile.js";

export function registerOpenApi(app: FastifyInstance, profile: ApiProfile): void {
  let json: string | undefined;
  let yaml: string | undefined;
  let doc: Record<string, unknown> | undefined;
  const document = () => (doc ??= buildOpenApi(profile));
  app.get("/openapi.json", async (_req, reply) => {
    json ??= JSON.stringify(document());
    return reply.type("application/json; charset=utf-8").send(json);
  });
  app.get("/openapi.yaml", async (_req, reply) => {
    yaml ??= stringify(document(), { lineWidth: 0, aliasDuplicateObjects: false });
    return reply.type("application/yaml; charset=utf-8").send(yaml);
  });
}
