import { defineConfig } from "vitest/config";

// Units run in parallel; integration tests (`*.int.test.ts`: real Bun processes, WebRTC, ffmpeg)
// run one file at a time so that they do not compete for the machine's two cores.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", "json"],
    outputFile: { json: ".cache/vitest-report.json" },
    projects: [
      {
        test: {
          name: "unit",
          include: ["box/**/*.test.ts", "portal/**/*.test.ts", "shared/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          pool: "forks",
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["box/**/*.int.test.ts", "portal/**/*.int.test.ts", "shared/**/*.int.test.ts"],
          pool: "forks",
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
