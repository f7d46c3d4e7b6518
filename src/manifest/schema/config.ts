/** Schema of `phctl.yaml`, the optional settings file at the root of a config repository. */
import { Type, type Static } from "@sinclair/typebox";
import { about, DEFAULTS, OrganizationName, Patterns, Strict } from "./common.js";
import { OwnersSettingsSchema } from "./owners.js";

/** The words of every duration: the same as the CLI's duration flags (src/cli/flags.ts). */
const DURATION = "a duration such as 90s, 2m or 1h30m";
/** The words of maxRemovals, in its description and in both of its error messages. */
const SHARE = "a percentage such as 25%, or a fraction between 0 and 1 such as 0.25";

const prune = (what: string, example: boolean) =>
  Type.Optional(
    Type.Boolean({
      default: DEFAULTS.config.prune,
      ...about(
        `true: plan the deletion of ${what} that no manifest declares, inside the projects the manifests declare (applied only with --allow-delete; phctl/protect blocks it). false: list them as not managed.`,
        example,
      ),
    }),
  );

export const ConfigDocument = Strict(
  {
    organization: Type.Optional(
      Type.String({
        ...OrganizationName,
        ...about(
          "The parent organization: the one the API token belongs to. Users and projects that name no organization of their own belong to it.",
          "acme",
        ),
      }),
    ),
    apiUrl: Type.Optional(
      Type.String({
        pattern: Patterns.httpUrl,
        patternErrorMessage: "must be an http(s) URL",
        ...about(
          "Base URL of the administration API (the part before /v1). --api-url and PHCTL_API_URL win over it; with none of them phctl uses its embedded reference server.",
          "https://hosting.example.org/api",
        ),
      }),
    ),
    concurrency: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 64,
        default: DEFAULTS.config.concurrency,
        ...about(
          "Requests in flight at once, 1 to 64: the reads of plan and drift, the actions of apply. --concurrency wins.",
          8,
        ),
      }),
    ),
    maxRps: Type.Optional(
      Type.Number({
        minimum: 0.1,
        maximum: 10000,
        ...about(
          "Client-side throttle: at most this many API requests per second, started evenly spaced (the service's rate limit, or a share of it when pipelines overlap); --max-rps and PHCTL_MAX_RPS win; unset means no throttle.",
          20,
        ),
      }),
    ),
    queueTimeout: Type.Optional(
      Type.String({
        pattern: Patterns.duration,
        patternErrorMessage: `must be ${DURATION}`,
        default: DEFAULTS.config.queueTimeout,
        ...about(
          `How long apply waits for one queued job (a service account, project access, a transfer) before it reports the action as not finished; the journal keeps the job, and the next apply waits on it instead of sending it again. Write ${DURATION}.`,
          "10m",
        ),
      }),
    ),
    outageTimeout: Type.Optional(
      Type.String({
        pattern: Patterns.duration,
        patternErrorMessage: `must be ${DURATION}`,
        default: DEFAULTS.config.outageTimeout,
        ...about(
          `How long phctl waits out a service that stopped answering (5xx, 429 or no answer across the board) before it gives up (apply stops with a summary); --outage-timeout wins. Write ${DURATION}.`,
          "2m",
        ),
      }),
    ),
    journal: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "The apply journal (JSON Lines), relative to this file's directory; keep it between CI runs so that phctl knows the queued jobs and welcome mails of earlier applies; --journal wins (default .phctl/journal.jsonl beside this file).",
          ".phctl/journal.jsonl",
        ),
      }),
    ),
    caFile: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "PEM file of extra CA certificates the API connections trust besides the system roots (a private or TLS-inspecting proxy CA), relative to this file's directory; env PHCTL_CA_FILE when absent; NODE_EXTRA_CA_CERTS works too.",
          "certs/corp-root-ca.pem",
        ),
      }),
    ),
    apiProfile: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "API profile of the service (paths, list envelope, queue id where it differs from phctl's route table; schemas/api-profile.schema.json), relative to this file's directory; --api-profile wins.",
          "profiles/acme-api.yaml",
        ),
      }),
    ),
    maxRemovals: Type.Optional(
      Type.Union(
        [
          Type.String({
            title: "maxRemovals as a percentage",
            pattern: Patterns.percent,
            patternErrorMessage: `must be ${SHARE}`,
          }),
          Type.Number({ title: "maxRemovals as a fraction", minimum: 0, maximum: 1 }),
        ],
        {
          default: DEFAULTS.config.maxRemovals,
          errorMessage: `must be ${SHARE}`,
          ...about(
            `Mass-removal guard: apply refuses a plan that removes more than this share of the access entries, team members or repositories of one project or team (one removal is always allowed, unless it is 0); --allow-mass-removal overrides it. Write ${SHARE}.`,
            "25%",
            0.1,
          ),
        },
      ),
    ),
    prune: Type.Optional(
      Strict(
        {
          groups: prune("git groups (with their subgroups and repositories)", false),
          subgroups: prune("subgroups", false),
          repositories: prune("repositories", false),
          mirrors: prune("mirrors", true),
          artifactRepositories: prune("artifact repositories", false),
        },
        about(
          "Which data-bearing objects that no manifest declares are deleted. Access lists, team members and licenses need no prune: they are authoritative.",
          { mirrors: true },
        ),
      ),
    ),
    owners: Type.Optional(OwnersSettingsSchema),
    expiry: Type.Optional(
      Strict(
        {
          warnDays: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 366,
              default: DEFAULTS.config.expiryWarnDays,
              ...about(
                "validate warns about a grant (`expires:`) that ends within this many days, its last day included.",
                30,
              ),
            }),
          ),
        },
        about("Access that expires: when validate starts warning.", { warnDays: 14 }),
      ),
    ),
    ignore: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        ...about(
          "Keys or globs of live objects to leave alone, with what is under them: * matches within one path step, ** across steps (project/legacy-*, user/bot-*).",
          ["project/legacy-*"],
        ),
      }),
    ),
  },
  { title: "phctl.yaml", description: "settings of a phctl config repository" },
);
export type ConfigDocument = Static<typeof ConfigDocument>;
