// Implements: Resources: Readiness (GET /api/chat/status), scoped to the calling credential.

export interface SubsystemState {
  /** `ready`, `starting`, or a failure state: `not_configured`, `unavailable`, `failed`. */
  state: "ready" | "starting" | "not_configured" | "unavailable" | "failed";
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
  if (!llmOk) down.push(`language model ${llm.state.replace("_", " ")}: ${llm.detail}`);
  if (!ttsOk) down.push(`voice engine ${tts.state.replace("_", " ")}: ${tts.detail}`);
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
    llm_detail: llm.detail,
    tts_detail: tts.detail,
    starting: llm.state === "starting" || tts.state === "starting",
    voice_notice: tts.notice,
    reason: down.length ? capitalise(down.join("; ")) + "." : "",
  };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
