// `persisted` follows what saves actually do: a failed probe or save turns it false, a save that
// works turns it true again; a box without a volume is never persisted.
import { describe, expect, it, vi } from "vitest";
import { SettingsService } from "./service.ts";
import type { SettingsStore } from "./store.ts";

function fakeStore(probeWorks: boolean) {
  const store = {
    failPut: false,
    get: async () => null,
    put: async () => {
      if (store.failPut) throw new Error("SQLITE_READONLY: attempt to write a readonly database");
    },
    probeSave: async () => {
      if (!probeWorks) throw new Error("SQLITE_ERROR: table settings_records has no column named record");
    },
  };
  return store;
}

const ctx = { catalogue: () => [], ttsProviders: () => [] };
const service = (store: ReturnType<typeof fakeStore>, durable = true) =>
  new SettingsService(store as unknown as SettingsStore, ctx, durable);

describe("SettingsService persisted", () => {
  it("is false when the start-up probe cannot save, and true again after a save that works", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const store = fakeStore(false);
    const s = service(store);
    expect((await s.envelope("open")).persisted).toBe(false);
    expect(await s.write("open", { system_prompt: "hi" })).toMatchObject({ saved: true });
    expect((await s.envelope("open")).persisted).toBe(true);
  });

  it("turns false with a save that fails, and the save answers saved: false", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const store = fakeStore(true);
    const s = service(store);
    expect((await s.envelope("open")).persisted).toBe(true);
    store.failPut = true;
    expect(await s.write("open", { system_prompt: "hi" })).toMatchObject({ saved: false });
    expect((await s.envelope("open")).persisted).toBe(false);
  });

  it("is false without a volume, however saves go", async () => {
    const s = service(fakeStore(true), false);
    expect(await s.write("open", { system_prompt: "hi" })).toMatchObject({ saved: false });
    expect((await s.envelope("open")).persisted).toBe(false);
  });
});
