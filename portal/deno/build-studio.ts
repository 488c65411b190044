// Writes the studio's browser script for the Deno entry, bundled exactly as the Bun entry bundles
// it in-process (portal/studio/bun-bundle.ts: Bun.build, browser target, minified). Run with Bun,
// which `npm ci` installs; nothing is fetched:
//   node_modules/.bin/bun portal/deno/build-studio.ts [file]
// The file defaults to PORTAL_STUDIO_SCRIPT, else PORTAL_DATA_DIR/studio/app.js (data/studio/app.js),
// where portal/deno.ts looks for it. Written to a temp name and renamed, so a running portal never
// reads half a script. Prints one JSON line.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { buildStudioScript } from "../studio/bun-bundle.ts";
import { defaultStudioScriptPath } from "./env.ts";

if (import.meta.main) {
  const out = resolve(process.argv[2] ?? defaultStudioScriptPath(process.env));
  const built = await buildStudioScript();
  mkdirSync(dirname(out), { recursive: true });
  const tmp = join(dirname(out), `.app-${process.pid}.tmp`);
  writeFileSync(tmp, built.code);
  renameSync(tmp, out);
  console.log(JSON.stringify({ studio_script: out, bytes: built.code.length, ms: built.ms }));
}
