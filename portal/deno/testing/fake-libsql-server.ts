// A small hosted libSQL for tests: the Hrana protocol over HTTP, version 2 with JSON bodies (what
// @libsql/client/web and @libsql/client speak to sqld or Turso for an `http:`/`libsql:` URL when
// the server offers no v3: `GET /v3-protobuf` answers 404), backed by a SQLite file through the
// `libsql` package. One connection per Hrana stream (a baton carries it between requests, as
// interactive transactions need); bearer-token auth like a hosted database. Requests are answered
// one at a time, so streams never wait on each other's locks.
//   POST /v2/pipeline  {baton, requests: [execute | batch | sequence | store_sql | close_sql | close]}
import { createRequire } from "node:module";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";

interface SqlStatement {
  safeIntegers(on: boolean): void;
  raw(on: boolean): void;
  columns(): { name: string; type: string | null }[];
  all(args: unknown): unknown[][];
  run(args: unknown): { changes: number; lastInsertRowid: number | bigint };
}
interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  close(): void;
}
type DatabaseCtor = new (path: string) => SqlDatabase;

type HranaValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };
interface HranaStmt {
  sql?: string;
  sql_id?: number;
  args?: HranaValue[];
  named_args?: { name: string; value: HranaValue }[];
  want_rows?: boolean;
}
type BatchCond = { type: "ok" | "error"; step: number } | { type: "not"; cond: BatchCond } | { type: "and" | "or"; conds: BatchCond[] };
interface StmtResult {
  cols: { name: string; decltype: string | null }[];
  rows: HranaValue[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
}
interface HranaError {
  message: string;
  code?: string;
}

interface Stream {
  db: SqlDatabase;
  sqls: Map<number, string>;
}

export interface FakeLibsqlServer {
  /** `http://127.0.0.1:PORT` (a client may also be given `libsql://127.0.0.1:PORT?tls=0`). */
  url: string;
  authToken: string;
  /** Pipeline requests served, and those refused for a missing or wrong token. */
  stats: { pipelines: number; statements: number; unauthorized: number };
  close(): Promise<void>;
}

const toValue = (v: unknown): HranaValue => {
  if (v === null || v === undefined) return { type: "null" };
  if (typeof v === "bigint") return { type: "integer", value: v.toString() };
  if (typeof v === "number") return Number.isInteger(v) ? { type: "integer", value: String(v) } : { type: "float", value: v };
  if (typeof v === "string") return { type: "text", value: v };
  if (v instanceof Uint8Array) return { type: "blob", base64: Buffer.from(v).toString("base64") };
  return { type: "text", value: String(v) };
};

const fromValue = (v: HranaValue): unknown => {
  switch (v.type) {
    case "null":
      return null;
    case "integer":
      return BigInt(v.value);
    case "float":
      return v.value;
    case "text":
      return v.value;
    case "blob":
      return Buffer.from(v.base64, "base64");
  }
};

function execute(stream: Stream, stmt: HranaStmt): StmtResult {
  const sql = stmt.sql ?? (stmt.sql_id !== undefined ? stream.sqls.get(stmt.sql_id) : undefined);
  if (sql === undefined) throw Object.assign(new Error("statement has neither sql nor a stored sql_id"), { code: "SQL_NOT_FOUND" });
  let args: unknown = (stmt.args ?? []).map(fromValue);
  if (stmt.named_args?.length) {
    const named: Record<string, unknown> = {};
    for (const { name, value } of stmt.named_args) named[/^[:@$]/.test(name) ? name.slice(1) : name] = fromValue(value);
    args = named;
  }
  const prepared = stream.db.prepare(sql);
  prepared.safeIntegers(true);
  let reader = true;
  try {
    prepared.raw(true);
  } catch {
    reader = false;
  }
  if (reader) {
    const cols = prepared.columns().map((c) => ({ name: c.name, decltype: c.type ?? null }));
    const rows = prepared.all(args).map((row) => row.map(toValue));
    return { cols, rows: stmt.want_rows === false ? [] : rows, affected_row_count: 0, last_insert_rowid: null };
  }
  const info = prepared.run(args);
  return { cols: [], rows: [], affected_row_count: info.changes, last_insert_rowid: String(info.lastInsertRowid) };
}

const errorOf = (err: unknown): HranaError => ({
  message: err instanceof Error ? err.message : String(err),
  code: (err as { code?: string })?.code ?? "SQLITE_ERROR",
});

function batch(stream: Stream, steps: { condition?: BatchCond | null; stmt: HranaStmt }[]) {
  const results: (StmtResult | null)[] = [];
  const errors: (HranaError | null)[] = [];
  const holds = (c: BatchCond): boolean => {
    switch (c.type) {
      case "ok":
        return results[c.step] != null;
      case "error":
        return errors[c.step] != null;
      case "not":
        return !holds(c.cond);
      case "and":
        return c.conds.every(holds);
      case "or":
        return c.conds.some(holds);
    }
  };
  for (const step of steps) {
    if (step.condition && !holds(step.condition)) {
      results.push(null);
      errors.push(null);
      continue;
    }
    try {
      results.push(execute(stream, step.stmt));
      errors.push(null);
    } catch (err) {
      results.push(null);
      errors.push(errorOf(err));
    }
  }
  return { step_results: results, step_errors: errors };
}

export async function startFakeLibsqlServer(path: string, authToken = `token-${randomUUID()}`): Promise<FakeLibsqlServer> {
  const Database = createRequire(import.meta.url)("libsql") as DatabaseCtor;
  // Created (and put in WAL) up front, as a hosted database exists before its first client.
  const first = new Database(path);
  first.exec("PRAGMA journal_mode = WAL");
  first.close();
  const streams = new Map<string, Stream>();
  const stats = { pipelines: 0, statements: 0, unauthorized: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.headers.authorization !== `Bearer ${authToken}`) {
      stats.unauthorized++;
      return send(401, { error: "Unauthorized: the token is missing or wrong" });
    }
    if (req.method === "GET" && (req.url === "/v2" || req.url === "/")) return send(200, {});
    if (req.method !== "POST" || req.url !== "/v2/pipeline") return send(404, { error: "Not found" });
    stats.pipelines++;
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { baton?: string | null; requests: Record<string, any>[] };
    let stream = body.baton ? streams.get(body.baton) : undefined;
    if (body.baton && !stream) return send(400, { error: "Stream not found (an unknown or expired baton)" });
    if (body.baton) streams.delete(body.baton);
    stream ??= { db: new Database(path), sqls: new Map() };
    const results: unknown[] = [];
    let closed = false;
    for (const r of body.requests) {
      try {
        switch (r.type) {
          case "execute":
            stats.statements++;
            results.push({ type: "ok", response: { type: "execute", result: execute(stream, r.stmt) } });
            break;
          case "batch":
            stats.statements += r.batch.steps.length;
            results.push({ type: "ok", response: { type: "batch", result: batch(stream, r.batch.steps) } });
            break;
          case "sequence":
            stream.db.exec(r.sql ?? stream.sqls.get(r.sql_id)!);
            results.push({ type: "ok", response: { type: "sequence" } });
            break;
          case "store_sql":
            stream.sqls.set(r.sql_id, r.sql);
            results.push({ type: "ok", response: { type: "store_sql" } });
            break;
          case "close_sql":
            stream.sqls.delete(r.sql_id);
            results.push({ type: "ok", response: { type: "close_sql" } });
            break;
          case "close":
            closed = true;
            results.push({ type: "ok", response: { type: "close" } });
            break;
          default:
            results.push({ type: "error", error: { message: `unsupported request ${r.type}`, code: "PROTOCOL_ERROR" } });
        }
      } catch (err) {
        results.push({ type: "error", error: errorOf(err) });
      }
    }
    let baton: string | null = null;
    if (closed) stream.db.close();
    else {
      baton = randomUUID();
      streams.set(baton, stream);
    }
    send(200, { baton, base_url: null, results });
  };

  const server: Server = createServer((req, res) => void handle(req, res).catch((err) => res.writeHead(500).end(String(err))));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authToken,
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      for (const s of streams.values()) s.db.close();
      streams.clear();
    },
  };
}
