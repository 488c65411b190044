// The portal's start contract: PORTAL_* variables, their defaults and their validation.
import { describe, expect, it } from "vitest";
import { readPortalEnv } from "./env.ts";

describe("readPortalEnv", () => {
  it("PORTAL_LOG_LEVEL: info unless set, a readable refusal for an unknown level", () => {
    expect(readPortalEnv({}).logLevel).toBe("info");
    expect(readPortalEnv({ PORTAL_LOG_LEVEL: "error" }).logLevel).toBe("error");
    expect(() => readPortalEnv({ PORTAL_LOG_LEVEL: "verbose" })).toThrow(/PORTAL_LOG_LEVEL must be one of/);
  });

  it("has the documented defaults", () => {
    const env = readPortalEnv({});
    expect(env).toMatchObject({
      host: "127.0.0.1",
      port: 8787,
      dbUrl: "file:data/portal.db",
      dataDir: "data",
      secret: null,
      oidc: null,
      adminEmails: [],
      ownerEmails: [],
      boxUrl: null,
      gpuDriver: "local",
      gpuAutolaunch: true,
      gpuMaxRuntimeSeconds: 0,
      mailOutbox: null,
      smtpUrl: null,
      credentialTtlSeconds: 3600,
    });
  });

  it("reads lists, the identity provider, and the driver's own defaults", () => {
    const env = readPortalEnv({
      PORTAL_PORT: "0",
      PORTAL_ADMIN_EMAILS: " Ada@Example.com, bob@example.com ,",
      PORTAL_OWNER_EMAILS: "owner@example.com",
      PORTAL_OIDC_ISSUER: "https://idp.example",
      PORTAL_OIDC_AUDIENCE: "portal",
      PORTAL_OIDC_JWKS_URL: "https://idp.example/jwks",
      PORTAL_GPU_DRIVER: "ec2",
      PORTAL_GPU_REGIONS: '[{"id":"ap-southeast-2","types":["g5.xlarge"]}]',
    });
    expect(env.port).toBe(0);
    expect(env.adminEmails).toEqual(["ada@example.com", "bob@example.com"]);
    expect(env.oidc).toEqual({ issuer: "https://idp.example", audience: "portal", jwksUrl: "https://idp.example/jwks" });
    expect(env.gpuAutolaunch).toBe(false);
    expect(env.gpuMaxRuntimeSeconds).toBe(7200);
    expect(env.gpuRegions).toEqual([{ id: "ap-southeast-2", types: ["g5.xlarge"] }]);
  });

  it("does not autolaunch a local box when fronting an external one or told not to", () => {
    expect(readPortalEnv({ PORTAL_BOX_URL: "http://127.0.0.1:8080/" }).gpuAutolaunch).toBe(false);
    expect(readPortalEnv({ PORTAL_BOX_URL: "http://127.0.0.1:8080/" }).boxUrl).toBe("http://127.0.0.1:8080");
    expect(readPortalEnv({ PORTAL_GPU_AUTOLAUNCH: "0" }).gpuAutolaunch).toBe(false);
  });

  it("refuses what it cannot run with", () => {
    expect(() => readPortalEnv({ PORTAL_PORT: "http" })).toThrow(/PORTAL_PORT/);
    expect(() => readPortalEnv({ PORTAL_PORT: "70000" })).toThrow();
    expect(() => readPortalEnv({ PORTAL_GPU_DRIVER: "gcp" })).toThrow();
    expect(() => readPortalEnv({ PORTAL_SECRET: "short" })).toThrow();
    expect(() => readPortalEnv({ PORTAL_OIDC_ISSUER: "https://idp.example" })).toThrow(/go together/);
    expect(() => readPortalEnv({ PORTAL_GPU_REGIONS: "[{" })).toThrow(/PORTAL_GPU_REGIONS/);
    expect(() => readPortalEnv({ PORTAL_SMTP_URL: "http://mail" })).toThrow();
  });
});
