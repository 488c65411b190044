// POST /api/talk queues sentence by sentence (the clause splitter's units): the first plays as soon as it is spoken, and talks that
// arrive together never interleave their clauses.
import { describe, expect, test } from "vitest";
import type { Principal } from "../auth/principal.ts";
import { liveRoutes, type LiveRouteDeps } from "./routes.ts";
import type { UtteranceInput } from "./speech-timeline.ts";
import { GrowingUtterance } from "./growing-utterance.ts";

const principal = { subject: "s", scope: "admin", digest: null, kind: "open", expiresAt: null } as unknown as Principal;

function rig(delays: Record<string, number>, failOn?: string) {
  const said: string[] = [];
  const session = {
    avatar: { tone: "neutral" },
    interruptions: 0,
    interruptSignal: new AbortController().signal,
    sayStream: (g: GrowingUtterance) => said.push(g.text),
  };
  const deps = {
    sessions: { live: () => session },
    speaker: {
      available: true,
      live: async (text: string) => {
        await new Promise((r) => setTimeout(r, delays[text] ?? 1));
        if (text === failOn) throw Object.assign(new Error("engine down"), { status: 502 });
        return GrowingUtterance.whole({ text, tone: "neutral", pcm48k: new Int16Array(0), mouth: [] } as UtteranceInput);
      },
    },
  } as unknown as LiveRouteDeps;
  const talk = liveRoutes(deps).find((r) => r.path === "/api/talk")!;
  const post = (text: string) =>
    talk.handler({
      request: new Request("http://box/api/talk", { method: "POST", body: JSON.stringify({ text }) }),
      principal,
      params: {},
      query: new URLSearchParams(),
    });
  return { said, post, session };
}

describe("POST /api/talk", () => {
  test("the first clause is queued while the later ones are still being spoken", async () => {
    const { said, post } = rig({ "First one.": 1, "And a much longer second sentence.": 150 });
    const answer = post("First one. And a much longer second sentence.");
    await new Promise((r) => setTimeout(r, 60));
    expect(said).toEqual(["First one."]);
    expect(await answer).toEqual({ ok: true, spoken: "First one. And a much longer second sentence." });
    expect(said).toEqual(["First one.", "And a much longer second sentence."]);
  });

  test("two talks sent together keep their clauses together, in the order they came", async () => {
    const { said, post } = rig({ "A one.": 1, "A two.": 120, "B one.": 1 });
    await Promise.all([post("A one. A two."), post("B one.")]);
    expect(said).toEqual(["A one.", "A two.", "B one."]);
  });

  test("an interrupt while a talk is still being spoken stops the sentences not queued yet", async () => {
    const { said, post, session } = rig({ "First one.": 1, "Second one.": 100, "After.": 1 });
    const answer = post("First one. Second one.");
    await new Promise((r) => setTimeout(r, 40));
    session.interruptions++; // what LiveSession.interrupt() does (the first sentence is cut there)
    expect(await answer).toMatchObject({ ok: true });
    expect(said).toEqual(["First one."]);
    await post("After.");
    expect(said).toEqual(["First one.", "After."]);
  });

  test("an engine failing mid-talk rejects that talk; the next talk still speaks", async () => {
    const { said, post } = rig({}, "Broken two.");
    await expect(post("Fine one. Broken two.")).rejects.toThrow(/engine down/);
    await post("Next.");
    expect(said).toEqual(["Fine one.", "Next."]);
  });
});
