// Playwright end to end in Debian's Chromium (never a downloaded browser). scripts/test-all.mjs
// reads the JSON report at .cache/playwright-report.json.
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { launchWith } from "./chromium.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: `${root}.cache/playwright-results`,
  // One box per worker and one live session per box: tests must not run side by side.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  timeout: 120_000,
  globalTimeout: 15 * 60_000,
  expect: { timeout: 20_000 },
  reporter: [["list"], ["json", { outputFile: `${root}.cache/playwright-report.json` }]],
  use: {
    browserName: "chromium",
    headless: true,
    launchOptions: launchWith(),
    actionTimeout: 20_000,
    navigationTimeout: 20_000,
    trace: "off",
    video: "off",
    screenshot: "off",
  },
});
