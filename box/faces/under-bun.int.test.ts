// The box runs on Bun: photo preparation (Human's wasm build, the fetch shim, sharp) must work
// there too, not only under vitest's Node.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PNG_SIGNATURE } from "../render/png.ts";
import { singlePhoto } from "./testing/photos.ts";

const dir = mkdtempSync(join(tmpdir(), "faces-bun-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("photo preparation under Bun", () => {
  it("prepares a real photo and renders its contact sheet", async () => {
    const photo = join(dir, "single.jpg");
    writeFileSync(photo, await singlePhoto());
    const run = spawnSync("node_modules/.bin/bun", ["box/faces/try-photo.ts", photo, `--out=${dir}`], {
      encoding: "utf8",
      timeout: 80_000,
    });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\(bun \d+\.\d+/);
    expect(run.stdout).toMatch(/single\.jpg \(run 2\): \d+ ms: 1 face found; framing "head"/);
    const sheet = readFileSync(join(dir, "single.sheet.png"));
    expect(Array.from(sheet.subarray(0, 8))).toEqual(Array.from(PNG_SIGNATURE));
  });
});
