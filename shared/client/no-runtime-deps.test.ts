// The library runs on the platform alone: every run-time import stays inside shared/client;
// the wire's schemas (shared/wire/) are reached with `import type` only (erased before anything runs).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIR = import.meta.dirname;
const sources = readdirSync(DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));

describe("no run-time dependencies", () => {
  it("imports only sibling files at run time, and no Node built-in", () => {
    const offenders: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(DIR, file), "utf8");
      for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms)) {
        const typeOnly = Boolean(m[2]) || /^export\s+type\s*\*/.test(m[0]);
        if (!typeOnly && !/^\.\/[a-z-]+\.ts$/.test(m[3])) offenders.push(`${file}: ${m[3]}`);
      }
    }
    expect(sources.length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
