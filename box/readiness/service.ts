// Implements: Resources: Readiness (GET /api/chat/status), scoped to the calling credential.
import { clause, sentence } from "./sentence.ts";

export interface SubsystemState {
  /**
   * `ready`, `starting` (a check is in flight: poll), or a failure state: `not_configured` (nothing
   * is set up), `unavailable` (not reached since the box started), `failing` (worked, then calls
   * in a row failed). The last two are re-checked with backoff (upstream-health.ts).
   */
  state: "ready" | "starting" | "not_configured" | "unavailable" | "failing";
  detail: string;
}

export interface ReadinessSources {
  /** Language model for this caller's settings (live_model / model). */
  llm(subject: string): Promise<SubsystemState>;
  /** Voice engine this caller would speak with. */
  tts(subject: string): Promise<SubsystemState & { provider: string; origin: "box" | "user"; notice: string }>;
  /** Speech recognition for the microphone socket. */
  transcribe(): boolean;
}

export interface Readiness {
  ready: boolean;
  llm: boolean;
  tts: boolean;
  voice: boolean;
  transcribe: boolean;
  voice_origin: string;
  voice_provider: string;
  llm_state: string;
  tts_state: string;
  llm_detail: string;
  tts_detail: string;
  starting: boolean;
  voice_notice: string;
  reason: string;
}

export async function readiness(sources: ReadinessSources, subject: string): Promise<Readiness> {
  const [llm, tts] = await Promise.all([sources.llm(subject), sources.tts(subject)]);
  const llmOk = llm.state === "ready";
  const ttsOk = tts.state === "ready";
  const down: string[] = [];
  if (!llmOk) down.push(whatIsDown("the language model", llm));
  if (!ttsOk) down.push(whatIsDown("the voice engine", tts));
  return {
    ready: llmOk && ttsOk,
    llm: llmOk,
    tts: ttsOk,
    voice: ttsOk,
    transcribe: sources.transcribe(),
    voice_origin: tts.origin,
    voice_provider: tts.provider,
    llm_state: llm.state,
    tts_state: tts.state,
    llm_detail: llmOk ? "" : clause(llm.detail),
    tts_detail: ttsOk ? "" : clause(tts.detail),
    starting: llm.state === "starting" || tts.state === "starting",
    voice_notice: tts.notice,
    reason: sentence(down),
  };
}

/** "the language model is failing (why)": the detail in brackets so its own colons stay inside. */
function whatIsDown(subject: string, s: SubsystemState): string {
  const why = clause(s.detail);
  return `${subject} is ${s.state.replaceAll("_", " ")}${why ? ` (${why})` : ""}`;
}
