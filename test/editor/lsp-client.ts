/**
 * A small LSP client for the editor tests: starts yaml-language-server over stdio, frames
 * JSON-RPC messages with Content-Length headers, answers the server's own requests with
 * null, and keeps the notifications it sends (publishDiagnostics) for the tests to wait on.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Where the yaml-language-server package puts its launcher (package.json `bin`). */
export const SERVER_BIN = "node_modules/yaml-language-server/bin/yaml-language-server";

export interface Position {
  line: number;
  character: number;
}

export interface LspDiagnostic {
  range: { start: Position; end: Position };
  message: string;
  severity?: number;
  source?: string;
}

interface Message {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

export class LspClient {
  private readonly proc: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly diagnostics = new Map<string, LspDiagnostic[]>();
  private readonly waiters: {
    uri: string;
    ok: (d: LspDiagnostic[]) => boolean;
    done: () => void;
  }[] = [];
  /** Text written to stderr by the server (shown when a test fails). */
  stderr = "";
  /** Settings by section, as an editor answers workspace/configuration (`yaml`, …). */
  private settings: Record<string, unknown> = {};

  constructor(cwd: string) {
    this.proc = spawn(process.execPath, [SERVER_BIN, "--stdio"], { cwd, stdio: "pipe" });
    this.proc.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    this.proc.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    this.proc.on("exit", () => {
      for (const p of this.pending.values()) p.reject(new Error(`server exited: ${this.stderr}`));
      this.pending.clear();
    });
  }

  private send(m: Message): void {
    const body = Buffer.from(JSON.stringify(m), "utf8");
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  /** Split the stream into messages: `Content-Length: N` headers, a blank line, N bytes. */
  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd === -1) return;
      const header = this.buffer.subarray(0, headerEnd).toString("ascii");
      const length = Number(/Content-Length: *(\d+)/i.exec(header)?.[1]);
      if (!Number.isFinite(length)) throw new Error(`bad LSP header: ${header}`);
      const start = headerEnd + 4;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString("utf8");
      this.buffer = this.buffer.subarray(start + length);
      this.dispatch(JSON.parse(body) as Message);
    }
  }

  private dispatch(m: Message): void {
    if (m.method !== undefined && m.id !== undefined) {
      // A request from the server: the settings it pulls (workspace/configuration, per
      // section), or one that needs no answer but null (client/registerCapability, …).
      const items = (m.params as { items?: { section?: string }[] } | undefined)?.items;
      const result =
        m.method === "workspace/configuration" && items
          ? items.map((i) => this.settings[i.section ?? ""] ?? null)
          : null;
      this.send({ jsonrpc: "2.0", id: m.id, result });
      return;
    }
    if (m.method === "textDocument/publishDiagnostics") {
      const p = m.params as { uri: string; diagnostics: LspDiagnostic[] };
      this.diagnostics.set(p.uri, p.diagnostics);
      for (const w of [...this.waiters])
        if (w.uri === p.uri && w.ok(p.diagnostics)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.done();
        }
      return;
    }
    if (typeof m.id === "number") {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p?.reject(new Error(`${m.error.code} ${m.error.message}`));
      else p?.resolve(m.result);
    }
  }

  request<T>(method: string, params: unknown): Promise<T> {
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) =>
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }),
    );
    this.send({ jsonrpc: "2.0", id, method, params });
    return answer;
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /**
   * initialize + initialized, then didChangeConfiguration: the server pulls the settings
   * with workspace/configuration (the `yaml` section is `yamlSettings`).
   */
  async start(rootDir: string, yamlSettings: Record<string, unknown>): Promise<void> {
    this.settings = { yaml: yamlSettings };
    const rootUri = pathToFileURL(rootDir).href;
    await this.request("initialize", {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: "config" }],
      capabilities: {
        textDocument: {
          completion: {
            completionItem: { snippetSupport: true, documentationFormat: ["markdown"] },
          },
          hover: { contentFormat: ["markdown", "plaintext"] },
          publishDiagnostics: {},
        },
        workspace: { workspaceFolders: true, configuration: true },
      },
    });
    this.notify("initialized", {});
    this.notify("workspace/didChangeConfiguration", { settings: { yaml: yamlSettings } });
  }

  /** Open a file as the editor would; returns its URI. */
  open(file: string, text = readFileSync(file, "utf8")): string {
    const uri = pathToFileURL(file).href;
    this.notify("textDocument/didOpen", {
      textDocument: { uri, languageId: "yaml", version: 1, text },
    });
    return uri;
  }

  /** The next diagnostics published for `uri` that `ok` accepts (the latest, if they already are). */
  diagnosticsFor(
    uri: string,
    ok: (d: LspDiagnostic[]) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<LspDiagnostic[]> {
    const now = this.diagnostics.get(uri);
    if (now && ok(now)) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no diagnostics for ${uri}: ${JSON.stringify(this.diagnostics.get(uri))}`),
          ),
        timeoutMs,
      );
      this.waiters.push({
        uri,
        ok,
        done: () => {
          clearTimeout(timer);
          resolve(this.diagnostics.get(uri) ?? []);
        },
      });
    });
  }

  /** shutdown, exit, and wait for the process to end. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => {
      if (this.proc.exitCode !== null) resolve(this.proc.exitCode);
      else this.proc.on("exit", (code) => resolve(code));
    });
    try {
      await this.request("shutdown", null);
      this.notify("exit", null);
    } catch {
      this.proc.kill();
    }
    const timer = setTimeout(() => this.proc.kill(), 3000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

/** The (line, character) of the first occurrence of `needle` after `after` (0-based, LSP). */
export function positionOf(text: string, needle: string, after = "", offset = 0): Position {
  const from = after ? text.indexOf(after) : 0;
  if (from === -1) throw new Error(`${after} not in the text`);
  const at = text.indexOf(needle, from);
  if (at === -1) throw new Error(`${needle} not in the text after ${after}`);
  const before = text.slice(0, at + offset);
  const line = before.split("\n").length - 1;
  return { line, character: before.length - before.lastIndexOf("\n") - 1 };
}
