// Implements: the NDJSON frames of POST /api/chat and the Tool frames (same on every surface).
import type { Tone } from "../../shared/wire/tones.ts";

export type TurnEvent =
  | { type: "reply_chunk"; text: string; tone: Tone }
  | { type: "tool"; name: string; label: string }
  | { type: "tool_call_started"; call_id: string; name: string; mode: string }
  | { type: "tool_call"; call_id: string; name: string; args: unknown; mode: string; timeout_seconds: number }
  | { type: "tool_call_completed"; call_id: string; name: string; duration_ms: number }
  | { type: "tool_call_failed"; call_id: string; name: string; reason: string };
