/**
 * src/secrets.ts mayHoldCredential: the credential rule tests a whole document's JSON text
 * once and looks string by string only when it may hold one. It must never say "no" where
 * credentialIn finds something in one of the document's strings (shapes, masks, registered
 * credentials with characters JSON escapes), and says "no" for an ordinary document.
 */
import { describe, expect, it } from "vitest";
import { credentialIn, mayHoldCredential, registerSecret } from "../../src/secrets.js";

const GHP = `ghp_${"A1b2C3d4E5".repeat(4)}`;
const doc = (description: string) =>
  JSON.stringify({
    kind: "Project",
    spec: { title: "T", description, git: { repositories: [{ name: "r" }] } },
  });

describe("mayHoldCredential", () => {
  it("is false for a document without any credential", () => {
    expect(mayHoldCredential(doc("an ordinary project, nothing to see"))).toBe(false);
  });

  it("is true wherever credentialIn finds one in a string of the document", () => {
    const secret = 'pre"cheque\\token/\t1';
    registerSecret(secret);
    for (const s of [
      `token ${GHP} here`,
      "was glpat-***",
      `glued${GHP}`,
      `x ${secret} y`,
      `phdev_${"0a".repeat(18)}`,
    ]) {
      expect(credentialIn(s)).toBeDefined();
      expect(mayHoldCredential(doc(s))).toBe(true);
    }
  });
});
