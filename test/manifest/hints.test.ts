import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../../src/manifest/hints.js";

describe("did you mean", () => {
  it("measures edits, counting a swap of neighbours as one", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("issueTraking", "issueTracking")).toBe(1);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(editDistance("abc", "abcdefgh", 2)).toBe(3);
  });

  it("suggests a close candidate, case-insensitively, and nothing for far ones", () => {
    expect(didYouMean("issueTraking", ["issueTracking", "mergeRequests"])).toBe(
      "did you mean issueTracking?",
    );
    expect(closest("project", ["Organization", "Project"])).toBe("Project");
    expect(closest("Deployment", ["Organization", "User", "Team", "Project"])).toBeUndefined();
    expect(closest("ab", ["xy"])).toBeUndefined();
    expect(didYouMean("exact", ["exact"])).toBeUndefined();
  });
});
