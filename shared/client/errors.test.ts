// AvatarApiError reads every envelope (the .int tests read them from the box's real refusals);
// here the shapes no box route sends today: a flat error without a code, and a proxy's page.
import { describe, expect, it } from "vitest";
import { AvatarApiError, parseErrorBody } from "./errors.ts";

describe("AvatarApiError", () => {
  it("reads nested, settings, flat and unwrapped envelopes", () => {
    expect(parseErrorBody({ error: { code: "unknown_avatar", message: "No avatar." } })).toEqual({
      code: "unknown_avatar",
      message: "No avatar.",
    });
    expect(parseErrorBody({ ok: false, error: { code: "setting_refused", message: "No such model." } })).toEqual({
      code: "setting_refused",
      message: "No such model.",
    });
    expect(parseErrorBody({ error: "No live session.", code: "no_live_session" })).toEqual({
      code: "no_live_session",
      message: "No live session.",
    });
    expect(parseErrorBody({ code: "invalid_api_key", message: "Not recognised." })).toEqual({
      code: "invalid_api_key",
      message: "Not recognised.",
    });
    expect(parseErrorBody({ reply: "hi" })).toBeNull();
  });

  it("a flat error without a code, or a page that is not JSON, gets http_<status>", async () => {
    expect(AvatarApiError.fromBody(502, { error: "The voice engine failed." })).toMatchObject({
      status: 502,
      code: "http_502",
      message: "The voice engine failed.",
    });
    const page = new Response("<html><body><h1>Sign in</h1></body></html>", { status: 409, statusText: "Conflict" });
    const e = await AvatarApiError.fromResponse(page);
    expect(e).toMatchObject({ status: 409, code: "http_409", message: "Sign in", source: "http" });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("AvatarApiError");
  });
});
