// The `PORTAL_LEDGER_URL` start contract: default the portal's database, `off`, or a libSQL URL.
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { readPortalEnv } from "../env.ts";
import { openLedger } from "./ledger-open.ts";

describe("PORTAL_LEDGER_URL", () => {
  it("defaults to the portal's own database", () => {
    expect(readPortalEnv({}).ledgerUrl).toBeNull();
    expect(readPortalEnv({ PORTAL_LEDGER_URL: "  " }).ledgerUrl).toBeNull();
    const portalDb = createClient({ url: ":memory:" });
    const ledger = openLedger({ ledgerUrl: null, ledgerAuthToken: null }, portalDb);
    expect(ledger.connection?.client).toBe(portalDb);
    expect(ledger.connection?.migrate).toBeUndefined();
    ledger.close();
    portalDb.close();
  });

  it("`off` (any case) means not configured", () => {
    for (const v of ["off", "OFF", " Off "]) expect(readPortalEnv({ PORTAL_LEDGER_URL: v }).ledgerUrl).toBe("off");
    expect(openLedger({ ledgerUrl: "off", ledgerAuthToken: null }, createClient({ url: ":memory:" })).connection).toBeNull();
  });

  it("takes any libSQL URL, migrated on first use", () => {
    for (const url of [
      "file:data/ledger.db",
      "libsql://ledger-org.turso.io",
      "https://ledger.example",
      "http://127.0.0.1:1",
      "ws://127.0.0.1:8080",
    ]) {
      expect(readPortalEnv({ PORTAL_LEDGER_URL: url, PORTAL_LEDGER_AUTH_TOKEN: "t" })).toMatchObject({
        ledgerUrl: url,
        ledgerAuthToken: "t",
      });
    }
    const ledger = openLedger(
      { ledgerUrl: "http://user:pw@127.0.0.1:1/?authToken=x", ledgerAuthToken: null },
      createClient({ url: ":memory:" }),
    );
    expect(ledger.connection?.migrate).toEqual(expect.any(Function));
    expect(ledger.where).not.toMatch(/pw|authToken/);
    ledger.close();
  });

  it("refuses anything else at start", () => {
    for (const url of ["postgres://x", "offline", "data/ledger.db", "of"]) {
      expect(() => readPortalEnv({ PORTAL_LEDGER_URL: url }), url).toThrow(/ledgerUrl/);
    }
  });
});
