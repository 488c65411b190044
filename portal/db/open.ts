// Opens the portal's libSQL database (any libSQL URL) for Bun or Node and prepares a local file for
// sharing with a box process: WAL so readers never wait on a writer, a busy timeout so writers queue.
import { createClient, type Client } from "@libsql/client";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { quickCheck } from "../../shared/errors/database-unusable.ts";

export interface OpenDbOptions {
  url: string;
  authToken?: string;
}

/** The path of a `file:` URL (relative paths kept relative), or null for a remote URL or `:memory:`. */
export function localDbPath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  if (url.startsWith("file://")) return fileURLToPath(url);
  const path = url.slice("file:".length).split("?")[0];
  return path === ":memory:" || path === "" ? null : path;
}

export async function openPortalDb(opts: OpenDbOptions): Promise<Client> {
  const path = localDbPath(opts.url);
  if (path) mkdirSync(dirname(path), { recursive: true });
  const client = createClient({ url: opts.url, authToken: opts.authToken, timeout: 5000 });
  if (path) {
    try {
      await client.execute("PRAGMA journal_mode = WAL");
      await quickCheck(client);
    } catch (err) {
      client.close();
      throw err;
    }
  }
  return client;
}
