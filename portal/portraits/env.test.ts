// The portraits part of the portal's start contract: PORTAL_IMAGE_BASE_URL, PORTAL_IMAGE_API_KEY,
// PORTAL_IMAGE_MODEL. Unset: the embedded drawing generator.
import { describe, expect, it } from "vitest";
import { readPortalEnv } from "../env.ts";

describe("image provider settings", () => {
  it("default to none: portraits are drawn by the embedded generator", () => {
    expect(readPortalEnv({}).imageProvider).toBeNull();
    expect(readPortalEnv({ PORTAL_IMAGE_BASE_URL: " " }).imageProvider).toBeNull();
  });

  it("take a base URL, a key and a model (default gpt-image-1), trailing slashes dropped", () => {
    expect(readPortalEnv({ PORTAL_IMAGE_BASE_URL: "https://api.openai.com/v1/", PORTAL_IMAGE_API_KEY: " sk-test " }).imageProvider).toEqual(
      {
        baseUrl: "https://api.openai.com/v1",
        apiKey: "sk-test",
        model: "gpt-image-1",
      },
    );
    expect(readPortalEnv({ PORTAL_IMAGE_BASE_URL: "http://127.0.0.1:9000", PORTAL_IMAGE_MODEL: "dall-e-3" }).imageProvider).toEqual({
      baseUrl: "http://127.0.0.1:9000",
      apiKey: null,
      model: "dall-e-3",
    });
  });

  it("refuse to start on what they cannot use, saying which variable", () => {
    expect(() => readPortalEnv({ PORTAL_IMAGE_BASE_URL: "api.openai.com" })).toThrow(/PORTAL_IMAGE_BASE_URL must be an http\(s\) URL/);
    expect(() => readPortalEnv({ PORTAL_IMAGE_BASE_URL: "ftp://images.example" })).toThrow(/PORTAL_IMAGE_BASE_URL/);
    expect(() => readPortalEnv({ PORTAL_IMAGE_BASE_URL: "https://" })).toThrow(/PORTAL_IMAGE_BASE_URL/);
    expect(() => readPortalEnv({ PORTAL_IMAGE_API_KEY: "sk-test" })).toThrow(/need PORTAL_IMAGE_BASE_URL/);
    expect(() => readPortalEnv({ PORTAL_IMAGE_MODEL: "gpt-image-1" })).toThrow(/need PORTAL_IMAGE_BASE_URL/);
  });

  it("never print the key when refusing", () => {
    try {
      readPortalEnv({ PORTAL_IMAGE_BASE_URL: "nope", PORTAL_IMAGE_API_KEY: "sk-secret-value-123" });
    } catch (err) {
      expect(String(err)).not.toContain("sk-secret-value-123");
    }
  });
});
