// The voice part of the portal's start contract: PORTAL_ELEVENLABS_BASE_URL, PORTAL_CARTESIA_BASE_URL.
import { describe, expect, it } from "vitest";
import { readPortalEnv } from "../env.ts";

describe("voice key-check base URLs", () => {
  it("default to the providers' public APIs", () => {
    const env = readPortalEnv({});
    expect(env.elevenlabsBaseUrl).toBe("https://api.elevenlabs.io");
    expect(env.cartesiaBaseUrl).toBe("https://api.cartesia.ai");
  });

  it("take a local server, trailing slashes dropped", () => {
    const env = readPortalEnv({
      PORTAL_ELEVENLABS_BASE_URL: "http://127.0.0.1:9001/",
      PORTAL_CARTESIA_BASE_URL: " http://127.0.0.1:9002/prefix// ",
    });
    expect(env.elevenlabsBaseUrl).toBe("http://127.0.0.1:9001");
    expect(env.cartesiaBaseUrl).toBe("http://127.0.0.1:9002/prefix");
  });

  it("refuse what is not an http(s) URL", () => {
    expect(() => readPortalEnv({ PORTAL_ELEVENLABS_BASE_URL: "api.elevenlabs.io" })).toThrow(/elevenlabsBaseUrl/);
    expect(() => readPortalEnv({ PORTAL_CARTESIA_BASE_URL: "ftp://x" })).toThrow(/cartesiaBaseUrl/);
  });
});
