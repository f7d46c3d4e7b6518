/**
 * Schema of `kind: Policy` documents: the organization's own rules, as CEL expressions over
 * the objects a selector chooses (the selector of Defaults). What the rules see and how they
 * are compiled and evaluated is src/policy/.
 */
import { Type, type Static } from "@sinclair/typebox";
import { about, oneOfMessage, StringEnum, Strict } from "./keywords.js";
import { DocumentSchema, Metadata } from "./document.js";
import { SelectorSchema } from "./selector.js";

/** What a policy's rules look at: the declared object, each plan entry, or live objects. */
export const POLICY_SCOPES = ["object", "change", "live"] as const;
export type PolicyScope = (typeof POLICY_SCOPES)[number];

/**
 * What a violation does: `deny` fails the command, `warn` only prints, `ratchet` denies only
 * what a change makes new or worse and reports the violations already there as debt
 * (src/policy/ratchet.ts): the step between warn and deny when a rule is rolled out.
 */
export const ENFORCEMENTS = ["deny", "ratchet", "warn"] as const;
export type Enforcement = (typeof ENFORCEMENTS)[number];

const NAME = "^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$";
const NAME_MESSAGE = "must be a name: lower-case letters, digits, '-', '.' (at most 63)";

const enforcement = (description: string) =>
  StringEnum(ENFORCEMENTS, { ...oneOfMessage(ENFORCEMENTS), ...about(description, "warn") });

export const PolicyRule = Strict(
  {
    name: Type.String({
      pattern: NAME,
      patternErrorMessage: NAME_MESSAGE,
      ...about("The rule's name, unique in the policy; violations name it.", "two-admins"),
    }),
    expression: Type.String({
      minLength: 1,
      ...about(
        "A CEL expression that must be true. Object rules read `object` (the effective document) and `params`; change rules read `change` (action, kind, key, before, after, fields) and `params`; live rules read `object` (the live object).",
        "size(object.spec.access.admins.users) >= 2",
      ),
    }),
    message: Type.Optional(
      Type.String({
        minLength: 1,
        ...about("What a violation says.", "a project needs at least two admins"),
      }),
    ),
    messageExpression: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "A CEL expression giving the violation's message (a string); it reads what `expression` reads. Wins over `message`.",
          '"only " + string(size(object.spec.access.admins.users)) + " admin(s)"',
        ),
      }),
    ),
  },
  about("One rule: an expression that must hold, and what to say when it does not.", {
    name: "two-admins",
    expression: "size(object.spec.access.admins.users) >= 2",
    message: "a project needs at least two admins",
  }),
);

export const PolicyBinding = Strict(
  {
    select: { ...SelectorSchema, title: "select" },
    enforcement: enforcement(
      "deny, ratchet or warn: the enforcement for the objects this selector chooses.",
    ),
  },
  about(
    "An enforcement for some of the selected objects (the first binding that selects an object wins; the policy's own enforcement otherwise).",
    { select: { kind: "Project", matchLabels: { tier: "critical" } }, enforcement: "deny" },
  ),
);

export const PolicyException = Strict(
  {
    key: Type.String({
      minLength: 1,
      ...about(
        "The object key (project/tf-a, project/tf-a/repo/tools, user/jdoe) or a key glob: * within a segment, ** across.",
        "project/legacy-*",
      ),
    }),
    rules: Type.Optional(
      Type.Array(Type.String({ pattern: NAME, patternErrorMessage: NAME_MESSAGE }), {
        minItems: 1,
        ...about("Only these rules are excepted (default: every rule of the policy).", [
          "two-admins",
        ]),
      }),
    ),
    reason: Type.String({
      minLength: 1,
      ...about("Why the exception is granted.", "single maintainer until the handover in Q3"),
    }),
    expires: Type.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}$",
      patternErrorMessage: "must be a date, YYYY-MM-DD",
      ...about(
        "The last day the exception counts (UTC). Expired exceptions stop counting; one that expires within 14 days is a warning.",
        "2026-09-30",
      ),
    }),
    approvedBy: Type.String({
      minLength: 1,
      ...about("Who approved the exception.", "security-team"),
    }),
  },
  about("An object the policy does not apply to, for a while.", {
    key: "project/legacy-tools",
    reason: "single maintainer until the handover",
    expires: "2026-09-30",
    approvedBy: "security-team",
  }),
);

export const PolicySpec = Strict(
  {
    description: Type.Optional(
      Type.String({ ...about("What this policy is for, for people.", "Access baseline") }),
    ),
    select: { ...SelectorSchema, title: "select" },
    scope: Type.Optional(
      StringEnum(POLICY_SCOPES, {
        default: "object",
        ...oneOfMessage(POLICY_SCOPES),
        ...about(
          "What the rules see: object (each selected declared object, after Defaults; validate), change (each plan entry of a selected object; plan, apply, drift) or live (each live object, managed or not; drift).",
          "change",
        ),
      }),
    ),
    enforcement: Type.Optional({
      ...enforcement(
        "deny: a violation fails validate / plan and stops apply; ratchet: only a violation a change makes new or worse does (those already there are reported as debt); warn: it is printed and the exit code is kept.",
      ),
      default: "deny",
    }),
    bindings: Type.Optional(
      Type.Array(PolicyBinding, {
        ...about(
          "Enforcement per selector: the same rules can deny on some objects, warn on others.",
          [{ select: { kind: "Project", matchLabels: { tier: "critical" } }, enforcement: "deny" }],
        ),
      }),
    ),
    params: Type.Optional(
      Type.Unsafe<Record<string, unknown>>({
        ...about(
          "Values the rules read as `params`, a mapping (a rule that reads another is an error).",
          {
            minAdmins: 2,
          },
        ),
      }),
    ),
    rules: Type.Array(PolicyRule, {
      minItems: 1,
      ...about("The rules; each must hold for every selected object.", [
        { name: "two-admins", expression: "size(object.spec.access.admins.users) >= 2" },
      ]),
    }),
    exceptions: Type.Optional(
      Type.Array(PolicyException, {
        ...about("Objects excepted, each with a reason, an approver and an end date.", [
          {
            key: "project/legacy-tools",
            reason: "single maintainer",
            expires: "2026-09-30",
            approvedBy: "security-team",
          },
        ]),
      }),
    ),
  },
  about("Rules (CEL) every selected object must satisfy.", {
    select: { kind: "Project" },
    rules: [{ name: "two-admins", expression: "size(object.spec.access.admins.users) >= 2" }],
  }),
);

export const PolicyDocument = DocumentSchema(
  "Policy",
  Metadata(
    Type.String({ pattern: NAME, patternErrorMessage: NAME_MESSAGE }),
    "The policy's name, unique among policies.",
    "access-baseline",
  ),
  PolicySpec,
  "the organization's own rules (CEL) over the objects a selector chooses",
);
export type PolicyDocument = Static<typeof PolicyDocument>;
