// Run as its own process (Bun or Deno) by the launch-lease race test: one portal worker with its
// own database connection and its own EC2 client, firing launches through the portal core and
// printing the statuses as JSON.
import { createPortalApp } from "../app.ts";
import { createLibsqlClient } from "../deno/libsql.ts";
import { MemoryMailer } from "../sign-in/mailer.ts";
import { gpuRequest, testEc2Driver } from "./ec2-portal.ts";

const [dbUrl, cookie, countArg, secret, endpoint] = process.argv.slice(2);
const client = await createLibsqlClient(dbUrl);
const driver = testEc2Driver({ endpoint });
const app = createPortalApp({
  db: client,
  secret,
  mailer: new MemoryMailer(),
  gpu: driver,
  adminEmails: ["admin@example.com"],
  log: () => {},
});
// Say ready, then wait for the go signal on stdin so every racer starts together.
await client.execute("SELECT 1");
console.log("ready");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const statuses = await Promise.all(
  Array.from({ length: Number(countArg) }, async () => (await gpuRequest(app, cookie, "launch", {})).status),
);
// Written and flushed before exiting: process.exit() right after console.log can cut a piped stdout.
await new Promise<void>((resolve, reject) =>
  process.stdout.write(`${JSON.stringify(statuses)}\n`, (err) => (err ? reject(err) : resolve())),
);
await driver.close();
client.close();
process.exit(0);
