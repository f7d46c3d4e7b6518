/* global process, performance */
/**
 * The bare HTTP exchange at the apply benchmark's setup, for bench/apply-cpu.ts `--floor`:
 * `node http-floor-child.js URL TOKEN N C` sends N GETs of the team list, C at once, over
 * one undici pool of C connections (phctl's own transport settings: keep-alive, no
 * pipelining), reads and parses each answer — and nothing else. Prints {cpuMs, wallMs} of
 * the N requests as JSON (process CPU, user + system, all threads; 200 warm-up requests
 * first, not counted). What phctl's apply costs on top of this is its own work.
 */
import { Pool } from "undici";

const [url, token, n, c] = process.argv.slice(2);
const N = Number(n);
const C = Number(c);
const pool = new Pool(url, { connections: C, keepAliveTimeout: 10_000 });
const headers = { authorization: `Bearer ${token}`, accept: "application/json" };

async function one() {
  const res = await pool.request({ method: "GET", path: "/v1/organization/teams", headers });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET /v1/organization/teams: ${res.statusCode}`);
  JSON.parse(text);
}

for (let i = 0; i < 200; i++) await one();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: C }, async () => {
    while (next++ < N) await one();
  }),
);
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - t0;
await pool.close();
process.stdout.write(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs }) + "\n");
