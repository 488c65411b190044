import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["box/**/*.test.ts", "portal/**/*.test.ts", "shared/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: ".cache/vitest-report.json" },
  },
});
