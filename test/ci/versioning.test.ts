/**
 * The versions a user meets agree: package.json's version, the tag the example workflows and
 * the README pin the action to, the package the GitLab example installs, and the CHANGELOG.
 * The pinned tag names the release series whose updates are compatible (README "Versioning"):
 * `v<major>` from 1.0.0 on, `v0.<minor>` before (in 0.x a minor release may break).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { shippedMarkdown } from "../helpers/doc-links.js";

const ROOT = resolve(import.meta.dirname, "../..");
const read = (p: string) => readFileSync(join(ROOT, p), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  version: string;
  homepage: string;
  repository: { type: string; url: string };
  bugs: { url: string };
};

/** The moving tag of a version's release series: v1 for 1.4.2, v0.1 for 0.1.3. */
export function seriesTag(version: string): string {
  const [major, minor] = version.split(".");
  return major === "0" ? `v0.${minor}` : `v${major}`;
}

/** `owner/name` of the GitHub repository package.json names. */
function repositorySlug(): string {
  const m = /^git\+https:\/\/github\.com\/([^/]+\/[^/]+?)\.git$/.exec(pkg.repository.url);
  if (!m) throw new Error(`repository.url is not a GitHub URL: ${pkg.repository.url}`);
  return m[1];
}

describe("package metadata", () => {
  it("names the repository, its home page and where to report bugs, all the same place", () => {
    const slug = repositorySlug();
    expect(pkg.repository.type).toBe("git");
    expect(pkg.homepage).toBe(`https://github.com/${slug}#readme`);
    expect(pkg.bugs.url).toBe(`https://github.com/${slug}/issues`);
  });
});

describe("the version users pin", () => {
  it("computes the series tag", () => {
    expect(seriesTag("0.1.0")).toBe("v0.1");
    expect(seriesTag("0.12.3")).toBe("v0.12");
    expect(seriesTag("1.0.0")).toBe("v1");
    expect(seriesTag("2.3.4-rc.1")).toBe("v2");
  });

  it("every `uses:` of phctl in the example workflows and the documents pins package.json's series", () => {
    const slug = repositorySlug();
    const workflows = readdirSync(join(ROOT, "examples/.github/workflows")).map(
      (f) => `examples/.github/workflows/${f}`,
    );
    const docs = shippedMarkdown(ROOT).map((f) => f.slice(ROOT.length + 1));
    const refs: string[] = [];
    // The changelog is history: it names the pins of earlier releases.
    const current = docs.filter((f) => f !== "CHANGELOG.md");
    for (const file of [...workflows, ...current, "action.yml"]) {
      // An image pinned by digest (`…/phctl@sha256:…`) is not a pin of the action.
      // A commit pin names its tag in the comment after it (`@<40 hex> # v0.1.0`).
      for (const m of read(file).matchAll(
        /([\w.-]+\/phctl)@(?!sha256:)([\w.-]+)(?: # (v[\w.-]+))?/g,
      )) {
        refs.push(`${file}: ${m[1]}@${/^[0-9a-f]{40}$/.test(m[2]) && m[3] ? m[3] : m[2]}`);
      }
    }
    // The three workflows at least, and the README's instruction.
    expect(refs.filter((r) => r.startsWith("examples/")).length).toBeGreaterThanOrEqual(3);
    expect(refs.some((r) => r.startsWith("README.md:"))).toBe(true);
    const allowed = [seriesTag(pkg.version), `v${pkg.version}`];
    const wrong = refs.filter((r) => {
      const [, ref] = /: (.*)$/.exec(r)![1].split("@");
      return !r.includes(`: ${slug}@`) || !allowed.includes(ref);
    });
    expect(wrong, `pin ${slug}@${allowed[0]} (or @${allowed[1]})`).toEqual([]);
  });

  it("the GitLab example installs a release of package.json's series", () => {
    const m = /^\s*PHCTL_VERSION:\s*"?([\w.-]+)"?/m.exec(read("examples/.gitlab-ci.yml"));
    expect(m, "PHCTL_VERSION: <version>").not.toBeNull();
    expect(seriesTag(m![1])).toBe(seriesTag(pkg.version));
  });

  it("the CHANGELOG has an Unreleased section and then one for package.json's version", () => {
    const headings = read("CHANGELOG.md")
      .split("\n")
      .filter((l) => l.startsWith("## "));
    expect(headings[0]).toBe("## [Unreleased]");
    expect(headings[1]).toMatch(
      new RegExp(`^## \\[${pkg.version.replace(/\./g, "\\.")}\\] - \\d{4}-\\d{2}-\\d{2}$`),
    );
  });
});
