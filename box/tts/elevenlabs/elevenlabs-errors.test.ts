import { describe, expect, it } from "vitest";
import { httpFailure } from "./elevenlabs-errors.ts";

describe("httpFailure (bodies docs/providers.md 1.7 lists)", () => {
  it("400 voice_not_found is an unknown voice too, reported as 404", () => {
    const body = JSON.stringify({ detail: { status: "voice_not_found", message: "A voice with voice_id 'abc' was not found." } });
    expect(httpFailure("speech", 400, body, "k", "abc")).toMatchObject({
      status: 404,
      failure: "refused",
      retryable: false,
      code: "voice_not_found",
    });
  });

  it("reads detail.code when detail.status is absent", () => {
    const body = JSON.stringify({ detail: { type: "not_found", code: "voice_not_found", message: "gone" } });
    expect(httpFailure("speech", 400, body)).toMatchObject({ status: 404, code: "voice_not_found" });
  });

  it("a FastAPI validation list is a plain refusal naming the field", () => {
    const body = JSON.stringify({ detail: [{ loc: ["body", "text"], msg: "Field required", type: "missing" }] });
    const err = httpFailure("speech", 422, body);
    expect(err).toMatchObject({ status: 422, failure: "refused", retryable: false });
    expect(err.message).toBe('ElevenLabs refused the speech request (HTTP 422 validation_error) ("Field required at body.text").');
  });

  it("400 max_character_limit_exceeded and 403 only_for_creator+ are refusals, not key problems", () => {
    const long = JSON.stringify({ detail: { status: "max_character_limit_exceeded", message: "Text too long." } });
    expect(httpFailure("speech", 400, long)).toMatchObject({ status: 400, failure: "refused", retryable: false });
    const tier = JSON.stringify({ detail: { status: "only_for_creator+", message: "Upgrade." } });
    expect(httpFailure("speech", 403, tier)).toMatchObject({ status: 403, failure: "refused" });
  });

  it("never repeats the key, even when the provider echoes it", () => {
    const body = JSON.stringify({ detail: { status: "invalid_api_key", message: "Key sk_live_123456 is invalid" } });
    const err = httpFailure("speech", 401, body, "sk_live_123456");
    expect(err.failure).toBe("key_problem");
    expect(err.message).not.toContain("sk_live_123456");
  });

  it("a string detail and a non-JSON body", () => {
    expect(httpFailure("voices", 400, JSON.stringify({ detail: "Bad thing" })).message).toBe(
      'ElevenLabs refused the voices request (HTTP 400) ("Bad thing").',
    );
    expect(httpFailure("voices", 503, "<html>down</html>").message).toBe("ElevenLabs failed the voices request with HTTP 503.");
  });

  it("a 404 outside speech, or FastAPI's route 404, says the address is wrong", () => {
    expect(httpFailure("speech", 404, '{"detail":"Not Found"}')).toMatchObject({ status: 502, failure: "refused" });
    expect(httpFailure("voices", 404, "")).toMatchObject({ status: 502, message: expect.stringMatching(/base URL/) });
  });
});
