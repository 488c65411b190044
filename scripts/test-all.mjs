// Runs every test runner (vitest, then Playwright e2e) and prints `N passed, N failed` summed
// over all of them as the very last line. Exit status is non-zero when anything failed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, readdirSync } from "node:fs";

let passed = 0;
let failed = 0;
const bin = (n) => `node_modules/.bin/${n}`;

function run(name, cmd, args, report, count) {
  rmSync(report, { force: true });
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  if (!existsSync(report)) {
    console.log(`${name}: no report written (exit ${r.status}); counting the runner as one failure`);
    failed += 1;
    return;
  }
  const [p, f] = count(JSON.parse(readFileSync(report, "utf8")));
  console.log(`${name}: ${p} passed, ${f} failed (exit ${r.status})`);
  passed += p;
  failed += f;
  if (r.status !== 0 && f === 0) failed += 1; // a crashed runner must not pass silently
}

// The type check is one test: the whole project must compile under TypeScript strict.
console.log("\n=== typecheck: tsc --noEmit");
const tsc = spawnSync(bin("tsc"), ["--noEmit", "-p", "tsconfig.json"], { stdio: "inherit" });
console.log(`typecheck: ${tsc.status === 0 ? "1 passed, 0 failed" : "0 passed, 1 failed"}`);
if (tsc.status === 0) passed += 1;
else failed += 1;

// Formatting and lint are one test: Biome with the project's settings (biome.json), check mode.
// `node_modules/.bin/biome check --write .` applies its formatting and safe fixes.
console.log("\n=== format and lint: biome check");
const biome = spawnSync(bin("biome"), ["check", "--max-diagnostics=50", "."], { stdio: "inherit" });
console.log(`format and lint: ${biome.status === 0 ? "1 passed, 0 failed" : "0 passed, 1 failed"}`);
if (biome.status === 0) passed += 1;
else failed += 1;

// A test file that failed to load has no assertion results: count it as one failure.
const brokenFiles = (j) => j.testResults.filter((s) => s.status === "failed" && s.assertionResults.length === 0).length;
run("vitest", bin("vitest"), ["run"], ".cache/vitest-report.json", (j) => [j.numPassedTests, j.numFailedTests + brokenFiles(j)]);

if (existsSync("e2e") && readdirSync("e2e").some((f) => f.endsWith(".spec.ts"))) {
  run("playwright", bin("playwright"), ["test", "-c", "e2e/playwright.config.ts"], ".cache/playwright-report.json", (j) => [
    j.stats.expected + j.stats.flaky,
    j.stats.unexpected,
  ]);
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
