// Run as its own process (bun) by the key-limit race test: opens the shared database with its own
// connection and fires key creates through the portal core, printing the statuses as JSON.
import { createClient } from "@libsql/client";
import { createPortalApp } from "../app.ts";
import { MemoryMailer } from "../sign-in/mailer.ts";

const [dbUrl, cookie, countArg, secret] = process.argv.slice(2);
const client = createClient({ url: dbUrl, timeout: 10_000 });
const app = createPortalApp({ db: client, secret, mailer: new MemoryMailer(), log: () => {} });
const count = Number(countArg);
// Say ready, then wait for the go signal on stdin so every racer starts together.
await client.execute("SELECT 1");
console.log("ready");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const statuses = await Promise.all(
  Array.from(
    { length: count },
    async (_, i) =>
      (
        await app.request("/auth/keys", {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ name: `race ${i}` }),
        })
      ).status,
  ),
);
// Written and flushed before exiting: process.exit() right after console.log can cut a piped stdout.
await new Promise<void>((resolve, reject) =>
  process.stdout.write(`${JSON.stringify(statuses)}\n`, (err) => (err ? reject(err) : resolve())),
);
client.close();
process.exit(0);
