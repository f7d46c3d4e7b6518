/** Schema of `phctl.yaml`, the optional settings file at the root of a config repository. */
import { Type, type Static } from "@sinclair/typebox";
import { DEFAULTS, OrganizationName, Patterns, Strict } from "./common.js";

const prune = (what: string) =>
  Type.Optional(
    Type.Boolean({
      default: DEFAULTS.config.prune,
      description: `plan deletion of ${what} that no manifest declares`,
    }),
  );

export const ConfigDocument = Strict(
  {
    organization: Type.Optional(
      Type.String({ ...OrganizationName, description: "the token's parent organization" }),
    ),
    apiUrl: Type.Optional(
      Type.String({
        pattern: Patterns.httpUrl,
        patternErrorMessage: "must be an http(s) URL",
        description: "--api-url / PHCTL_API_URL win over it",
      }),
    ),
    concurrency: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 64, default: DEFAULTS.config.concurrency }),
    ),
    maxRps: Type.Optional(
      Type.Number({
        minimum: 0.1,
        maximum: 10000,
        description:
          "client-side throttle: at most this many API requests per second, started evenly spaced (the service's rate limit, or a share of it when pipelines overlap); --max-rps and PHCTL_MAX_RPS win; unset means no throttle",
        examples: [20],
      }),
    ),
    queueTimeout: Type.Optional(
      Type.String({
        pattern: Patterns.duration,
        patternErrorMessage: "must be a duration such as 90s, 10m or 1h30m",
        default: DEFAULTS.config.queueTimeout,
      }),
    ),
    outageTimeout: Type.Optional(
      Type.String({
        pattern: Patterns.duration,
        patternErrorMessage: "must be a duration such as 90s, 2m or 1h",
        default: DEFAULTS.config.outageTimeout,
        description:
          "how long apply waits out a service that stopped answering (5xx, 429 or no answer across the board) before it stops with a summary; --outage-timeout wins",
      }),
    ),
    journal: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "the apply journal (JSON Lines), relative to this file's directory; keep it between CI runs so that phctl knows the queued jobs and welcome mails of earlier applies; --journal wins (default .phctl/journal.jsonl in the working directory)",
        examples: [".phctl/journal.jsonl"],
      }),
    ),
    caFile: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "PEM file of extra CA certificates the API connections trust besides the system roots (a private or TLS-inspecting proxy CA), relative to this file's directory; env PHCTL_CA_FILE when absent; NODE_EXTRA_CA_CERTS works too",
        examples: ["certs/corp-root-ca.pem"],
      }),
    ),
    apiProfile: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "API profile of the service (paths, list envelope, queue id where it differs from phctl's route table; schemas/api-profile.schema.json), relative to this file's directory; --api-profile wins",
        examples: ["profiles/acme-api.yaml"],
      }),
    ),
    maxRemovals: Type.Optional(
      Type.Union(
        [
          Type.String({
            pattern: Patterns.percent,
            patternErrorMessage: "must be a percentage such as 25%",
          }),
          Type.Number({ minimum: 0, maximum: 1 }),
        ],
        {
          default: DEFAULTS.config.maxRemovals,
          description: "mass-removal guard: a percentage, or a fraction between 0 and 1",
          errorMessage: "must be a percentage such as 25% or a fraction between 0 and 1",
        },
      ),
    ),
    prune: Type.Optional(
      Strict(
        {
          groups: prune("git groups"),
          subgroups: prune("subgroups"),
          repositories: prune("repositories"),
          mirrors: prune("mirrors"),
          artifactRepositories: prune("artifact repositories"),
        },
        { description: "deletes are applied only with --allow-delete" },
      ),
    ),
    ignore: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: "keys or globs of live objects to leave alone",
        examples: [["project/legacy-*"]],
      }),
    ),
  },
  { title: "phctl.yaml", description: "settings of a phctl config repository" },
);
export type ConfigDocument = Static<typeof ConfigDocument>;
