import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { ProbeCache } from "./probe-cache.ts";
import type { ModelProbe } from "./types.ts";

const PROBE: ModelProbe = {
  supports_sampling: true,
  supports_effort: false,
  effort_max: false,
  reasoning: "none",
  default_reasoning: "off",
};
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "llm-cache-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it("runs a probe once for concurrent callers and persists it keyed by provider and model", async () => {
  const cache = new ProbeCache({ dir: join(dir, "nested") });
  let runs = 0;
  const run = async () => {
    runs++;
    return PROBE;
  };
  const [a, b] = await Promise.all([cache.getOrProbe("openai", "m", "http://x", run), cache.getOrProbe("openai", "m", "http://x", run)]);
  expect(a).toEqual(PROBE);
  expect(b).toEqual(PROBE);
  expect(runs).toBe(1);
  const file = JSON.parse(await readFile(join(dir, "nested", "llm-probes.json"), "utf8"));
  expect(file.version).toBe(1);
  expect(file.entries["openai:m"]).toMatchObject({ endpoint: "http://x", probe: PROBE });
  expect(await new ProbeCache({ dir: join(dir, "nested") }).get("openai", "m", "http://x")).toEqual(PROBE);
});

it("does not reuse a probe taken against another endpoint, and does not cache a failed probe", async () => {
  const cache = new ProbeCache({ dir });
  await cache.set("openai", "m", "http://old", PROBE);
  expect(await cache.get("openai", "m", "http://new")).toBeUndefined();
  await expect(cache.getOrProbe("anthropic", "x", "e", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
  expect(await cache.get("anthropic", "x", "e")).toBeUndefined();
});

it("treats a corrupt file as empty", async () => {
  await writeFile(join(dir, "llm-probes.json"), "{not json");
  const cache = new ProbeCache({ dir });
  expect(await cache.get("openai", "m", "e")).toBeUndefined();
  await cache.set("openai", "m", "e", PROBE);
  expect(JSON.parse(await readFile(join(dir, "llm-probes.json"), "utf8")).entries["openai:m"].probe).toEqual(PROBE);
});
