// PORTAL_SECRET, when not given, is generated once into the data folder and reused on every start
// (so sessions survive restarts). Node/Bun only.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function loadOrCreateSecret(dataDir: string): string {
  const path = join(dataDir, "portal-secret");
  mkdirSync(dataDir, { recursive: true });
  try {
    // `wx`: two portals starting together cannot both write one; the loser reads the winner's.
    const bytes = crypto.getRandomValues(new Uint8Array(48));
    writeFileSync(path, Buffer.from(bytes).toString("base64url") + "\n", { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const secret = readFileSync(path, "utf8").trim();
  if (secret.length < 32) throw new Error(`${path} holds a secret shorter than 32 characters`);
  return secret;
}
