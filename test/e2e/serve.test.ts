/** `phctl serve` as a user runs it: prints its URL and a development token, answers, stops. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { request } from "undici";
import { describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "../../dist/cli/main.js");

function startServe(args: string[]) {
  const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      if (
        out.includes("PHCTL_TOKEN=") ||
        (out.includes("listening on") && args.includes("--token"))
      ) {
        clearInterval(check);
        resolve(out);
      }
    }, 20);
    void exited.then(() => {
      clearInterval(check);
      reject(new Error(`serve exited: ${err}`));
    });
  });
  ready.catch(() => undefined); // awaited only by tests that expect a start
  return { child, ready, exited, stderr: () => err };
}

describe("phctl serve", () => {
  it("prints its URL and a development token that works; SIGTERM stops it cleanly", async () => {
    const s = startServe([]);
    const out = await s.ready;
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    const token = /PHCTL_TOKEN=(phdev_[0-9a-f]+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect(token).toBeDefined();
    const ok = await request(`${url}/v1/organization/list`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(((await ok.body.json()) as { name: string }[])[0]?.name).toBe("acme");
    const denied = await request(`${url}/v1/organization/list`);
    expect(denied.statusCode).toBe(401);
    await denied.body.dump();
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("accepts --token and does not print it", async () => {
    const s = startServe(["--token", "s3cret-e2e:member:acme", "--git-host", "git.arm.example"]);
    const out = await s.ready;
    expect(out).not.toContain("s3cret-e2e");
    expect(out).not.toContain("PHCTL_TOKEN");
    s.child.kill("SIGTERM");
    await s.exited;
  });

  it("a malformed --token is one line on stderr and exit 1", async () => {
    const s = startServe(["--token", "oops:root:acme"]);
    expect(await s.exited).toBe(1);
    expect(s.stderr()).toBe(
      "phctl: token role must be one of member, users-admin, projects-admin, system-admin (got root)\n",
    );
  });
});
