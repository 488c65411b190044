// Token strings and providers: grant shapes, renewal timing, one provider call at a time.
import { describe, expect, it } from "vitest";
import { Credentials, readGrant, renewDelayMs } from "./credentials.ts";

describe("credentials", () => {
  it("reads the box's and the portal's grant shapes; expires_in wins over expires_at", () => {
    expect(readGrant("st_x", 1000)).toEqual({ token: "st_x", expiresAtMs: null, obtainedAtMs: 1000 });
    expect(readGrant({ data: { token: "st_y", expires_at: 50 } }, 1000)).toMatchObject({ token: "st_y", expiresAtMs: 50_000 });
    expect(readGrant({ credential: { secret: "sc_z", expires_at: 99, expires_in: 3600 } }, 1000)).toMatchObject({
      token: "sc_z",
      expiresAtMs: 3_601_000,
    });
    expect(() => readGrant({} as never, 0)).toThrow(/no token/);
  });

  it("renews 20% of the lifetime ahead (5 s to 60 s), at most half way", () => {
    expect(renewDelayMs(300_000)).toBe(240_000);
    expect(renewDelayMs(3_600_000)).toBe(3_540_000);
    expect(renewDelayMs(20_000)).toBe(15_000);
    expect(renewDelayMs(3_000)).toBe(1_500);
  });

  it("asks a provider once however many ask together, and again when the token is about to age out", async () => {
    let clock = 0;
    let calls = 0;
    const c = new Credentials(
      async () => ({ token: `t${++calls}`, expires_in: 10 }),
      () => clock,
    );
    expect(await Promise.all([c.current(), c.current(), c.refresh()])).toEqual(["t1", "t1", "t1"]);
    clock = 8_000;
    expect(await c.current()).toBe("t1");
    clock = 9_500;
    expect(await c.current()).toBe("t2");
    expect(calls).toBe(2);
  });

  it("a token pushed by the application reaches the sockets' listeners", () => {
    const c = new Credentials("first");
    const seen: string[] = [];
    c.onRenewed((t) => seen.push(t));
    c.set("second");
    c.set("second");
    expect(seen).toEqual(["second"]);
    expect(c.token).toBe("second");
  });
});
