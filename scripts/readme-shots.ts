// The README's screenshots: picked from what the e2e run saved in .cache/e2e/ (run `npm test`, or
// the e2e specs alone, first), scaled to 960 px wide and written to docs/screenshots/ as PNG.
// Run: node_modules/.bin/bun scripts/readme-shots.ts
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import sharp from "sharp";

const ROOT = resolve(import.meta.dirname, "..");
const FROM = join(ROOT, ".cache/e2e");
const TO = join(ROOT, "docs/screenshots");

/** The tour's pages, in the README's order: e2e name → file name in docs/screenshots. */
const PICKS: [string, string][] = [
  ["studio-sign-in-desktop", "sign-in"],
  ["studio-live-desktop", "live"],
  ["studio-live-mic-desktop", "live-mic"],
  ["studio-persona-desktop", "persona"],
  ["studio-library-desktop", "library"],
  ["studio-library-publish-desktop", "library-publish"],
  ["studio-portraits-desktop", "portraits"],
  ["studio-voices-desktop", "voices"],
  ["studio-keys-desktop", "keys"],
  ["studio-gpu-desktop", "gpu"],
  ["studio-box-stopped-desktop", "box-stopped"],
  ["studio-live-phone", "live-phone"],
];

mkdirSync(TO, { recursive: true });
const missing: string[] = [];
for (const [from, to] of PICKS) {
  const src = join(FROM, `${from}.png`);
  if (!existsSync(src)) {
    missing.push(from);
    continue;
  }
  const phone = from.endsWith("-phone");
  const info = await sharp(src)
    .resize({ width: phone ? 390 : 960, withoutEnlargement: true })
    .png({ compressionLevel: 9, palette: true, quality: 90 })
    .toFile(join(TO, `${to}.png`));
  console.log(`${to}.png ${info.width}x${info.height} ${(info.size / 1024).toFixed(0)} KB`);
}
if (missing.length) {
  console.error(`not in .cache/e2e (run the e2e specs first): ${missing.join(", ")}`);
  process.exit(1);
}
