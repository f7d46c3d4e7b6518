/**
 * Config directories for end-to-end tests that plan one config against variants of it (a
 * pull request's head against its base): write a file, edit one (failing loudly when the text
 * to replace is not there, so a fixture never silently stops changing anything), copy the
 * base into a variant, and a minimal User document.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ConfigFiles {
  write: (path: string, text: string) => void;
  edit: (path: string, from: string, to: string) => void;
  /** A copy of `from` (default `base`) named `name`. */
  variant: (name: string, from?: string) => void;
}

/** Files under the directory `dir()` gives (read when called: tests make it in beforeAll). */
export function configFiles(dir: () => string): ConfigFiles {
  return {
    write: (path, text) => {
      mkdirSync(join(dir(), path, ".."), { recursive: true });
      writeFileSync(join(dir(), path), text);
    },
    edit: (path, from, to) => {
      const text = readFileSync(join(dir(), path), "utf8");
      if (!text.includes(from)) throw new Error(`no ${from} in ${path}`);
      writeFileSync(join(dir(), path), text.replace(from, to));
    },
    variant: (name, from = "base") => {
      cpSync(join(dir(), from), join(dir(), name), { recursive: true });
    },
  };
}

/** A User with a git account (and an organization when given). */
export const userDoc = (name: string, organization?: string) => `apiVersion: phctl/v1
kind: User
metadata: { name: ${name} }
spec: { firstName: F, lastName: L, externalEmail: ${name}@example.org, services: { git: {} }${organization ? `, organization: ${organization}` : ""} }
`;
