// A libSQL database the portal opens, whichever client build opens it (Bun and Node: open.ts;
// Deno: deno/libsql.ts): a local file gets its folder, WAL so readers never wait on a writer,
// a quick check that it is a database, and recovery from a busy file (busy.ts). No client is
// imported here, so an edge isolate that imports this never loads the native binding.
import type { Client } from "@libsql/client";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { quickCheck } from "../../shared/errors/database-unusable.ts";
import { recoverFromBusy } from "./busy.ts";

/** The path of a `file:` URL (relative paths kept relative), or null for a remote URL or `:memory:`. */
export function localDbPath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  if (url.startsWith("file://")) return fileURLToPath(url);
  const path = url.slice("file:".length).split("?")[0];
  return path === ":memory:" || path === "" ? null : path;
}

/** Opens `url` with `create`; a local file is prepared as above (the client is closed if it is not a database). */
export async function openDatabase(url: string, create: () => Client | Promise<Client>): Promise<Client> {
  const path = localDbPath(url);
  if (path) await mkdir(dirname(path), { recursive: true });
  const client = await create();
  if (!path) return client;
  try {
    await client.execute("PRAGMA journal_mode = WAL");
    await quickCheck(client);
  } catch (err) {
    client.close();
    throw err;
  }
  return recoverFromBusy(client);
}
