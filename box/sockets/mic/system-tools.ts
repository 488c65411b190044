// Implements: System tools (voice sessions only) and their wire frames: end_call, skip_turn,
// pause_conversation, change_language. An action exists only when the model calls the tool.
import { LANGUAGES, type Language } from "../../../shared/wire/tones.ts";
import type { ToolSpec } from "../../llm/types.ts";
import type { ActionFrame, SessionEndFrame } from "../../../shared/wire/socket-frames.ts";
import type { SystemToolName } from "../../../shared/wire/settings.ts";
import { ACTION_LABELS, lines } from "./lines.ts";
import { skipHoldMs } from "./turn-taking.ts";

export const SYSTEM_TOOL_SPECS: Record<SystemToolName, ToolSpec> = {
  end_call: {
    name: "end_call",
    description:
      "End the call. Only when the person clearly asked to finish (confirm first when unclear). Say a short goodbye in the same reply.",
    parameters: { type: "object", properties: {} },
  },
  skip_turn: {
    name: "skip_turn",
    description:
      "Stay silent and keep listening: the person has not finished (they stopped mid-sentence) or asked for a moment to think. Say nothing.",
    parameters: { type: "object", properties: {} },
  },
  pause_conversation: {
    name: "pause_conversation",
    description:
      "Pause for up to 90 seconds when the person asks for time (to fetch something, to step away). A short holding line is said for you.",
    parameters: { type: "object", properties: {} },
  },
  change_language: {
    name: "change_language",
    description: "Switch the rest of the call (hearing, replies and voice) to another language when the person asks for it.",
    parameters: {
      type: "object",
      properties: { language: { type: "string", enum: [...LANGUAGES], description: "Language code" } },
      required: ["language"],
    },
  },
};

/** What the voice socket lends the system tools. */
export interface SystemToolHost {
  language: Language;
  send(frame: ActionFrame | SessionEndFrame): void;
  /** Speaks a fixed line with the current (or given) voice; resolves when it has played; false if talked over. */
  speakLine(text: string, voice?: string): Promise<boolean>;
  /** A voice that speaks `lang` (kept when the current one does), or null. */
  voiceFor(lang: Language): Promise<{ id: string; name: string } | null>;
  /** Whether speech recognition can hear `lang`. */
  hears(lang: Language): boolean;
  switchLanguage(lang: Language, voice: string): Promise<void>;
  holdWords(text: string, ms: number): void;
  beginPause(): void;
  endCall(): Promise<void>;
}

export function systemToolSpecs(enabled: readonly SystemToolName[] | undefined): ToolSpec[] {
  const names = enabled ?? (Object.keys(SYSTEM_TOOL_SPECS) as SystemToolName[]);
  return names.map((n) => SYSTEM_TOOL_SPECS[n]);
}

export async function runSystemTool(host: SystemToolHost, name: string, args: unknown, said: string[], userText: string): Promise<void> {
  const label = ACTION_LABELS[name as SystemToolName];
  switch (name) {
    case "end_call": {
      host.send({ type: "action", name, label });
      const finished = said.length ? await host.speakLine("") : await host.speakLine(lines.goodbye[host.language]);
      // Talked over: the person is not done after all, so the call goes on.
      if (finished) await host.endCall();
      return;
    }
    case "skip_turn":
      host.send({ type: "action", name, label });
      host.holdWords(userText, skipHoldMs(userText));
      return;
    case "pause_conversation": {
      host.send({ type: "action", name, label });
      const heard = said.length ? await host.speakLine("") : await host.speakLine(lines.hold[host.language]);
      if (!heard) return;
      host.beginPause();
      host.send({ type: "action", name, label, paused: true, max_seconds: 90 });
      return;
    }
    case "change_language": {
      const lang = (args as { language?: unknown } | null)?.language;
      host.send({ type: "action", name, label });
      const target = typeof lang === "string" && (LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : null;
      const voice = target && host.hears(target) ? await host.voiceFor(target) : null;
      if (!target || !voice) {
        await host.speakLine(lines.refuse[host.language]);
        host.send({ type: "action", name, label, language: typeof lang === "string" ? lang.slice(0, 16) : "", applied: false });
        return;
      }
      await host.switchLanguage(target, voice.id);
      await host.speakLine(lines.confirm[target], voice.id);
      host.send({ type: "action", name, label, language: target, applied: true, voice_id: voice.id, voice_label: voice.name });
      return;
    }
  }
}
