// Opens the portal's libSQL database (any libSQL URL) for Bun or Node and prepares a local file for
// sharing with a box process (local-file.ts): WAL so readers never wait on a writer, a busy timeout so writers queue.
import { createClient, type Client } from "@libsql/client";
import { openDatabase } from "./local-file.ts";

export interface OpenDbOptions {
  url: string;
  authToken?: string;
}

export function openPortalDb(opts: OpenDbOptions): Promise<Client> {
  return openDatabase(opts.url, () => createClient({ url: opts.url, authToken: opts.authToken, timeout: 5000 }));
}
