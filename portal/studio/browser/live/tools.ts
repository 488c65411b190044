// Custom tools answered by this page (Tool frames, Tool call lifecycle, the client-library
// paragraph): one handler per tool name in the client library's registry, shared by typed Chat
// turns (the turn's event stream) and the microphone socket. Each answers what the persona
// editor says for that tool, unless an integrator registered a handler from the console
// (`window.avatarStudio.registerTool`), which wins while it is registered. A name with no handler
// is answered `ok: false` by the library. The frames are shown as they happen.
import type {
  ActionFrame,
  AvatarClient,
  Handlers,
  SocketLocalEvents,
  ToolCallContext,
  ToolFrames,
  ToolHandler,
} from "../../../../shared/client/index.ts";
import type { Captions, EventLog } from "./panels.ts";

export interface AvatarStudioApi {
  /** Registers the handler of one custom tool on this page; answers its unregister. */
  registerTool(name: string, handler: ToolHandler): () => void;
}

declare global {
  interface Window {
    avatarStudio?: AvatarStudioApi;
  }
}

const FAIL_WORDS: Record<string, string> = {
  timeout: "no answer came in time",
  host_error: "the page answered that it could not be done",
  invalid_args: "the model's arguments did not fit the tool's parameters",
  not_enabled: "the tool is not switched on",
  no_host: "the page could not be reached",
  session_closed: "the connection closed during the call",
  cancelled: "it was cancelled (interrupted, or the session ended)",
};

/** A failure reason in words; the list is append-only, so an unknown one is a generic failure. */
export const failWords = (reason: string) => FAIL_WORDS[reason] ?? `it failed (${reason})`;

/** What a system tool did, in words. */
export function actionWords(f: ActionFrame): string {
  switch (f.name) {
    case "end_call":
      return "the avatar ends the call";
    case "skip_turn":
      return "the avatar stays silent and keeps listening for the rest of what you say";
    case "pause_conversation":
      if (f.paused === false) return `the pause ended${f.reason ? ` (${f.reason.replace(/_/g, " ")})` : ""}`;
      return `the avatar paused the conversation${f.max_seconds ? ` for up to ${f.max_seconds} s` : ""}`;
    case "change_language":
      return f.applied === false
        ? `the language stays as it was: no voice speaks ${f.language ?? "it"}`
        : `the avatar now speaks ${f.language ?? "another language"}${f.voice_label ? ` with the voice ${f.voice_label}` : ""}`;
    default:
      return "the avatar acted";
  }
}

/** Short JSON for a caption (the whole value goes to the log). */
function brief(v: unknown, max = 120): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? "null";
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** How tool frames and answers read in the captions and the event log. */
export class ToolView {
  constructor(
    private readonly captions: Captions,
    private readonly log: EventLog,
  ) {}

  /** Callbacks for a chat stream's or the voice socket's `on()` (the frames are the same on both). */
  frames(): Handlers<ToolFrames & Pick<SocketLocalEvents, "tool_handler_error">> {
    return {
      tool: (f) => {
        this.captions.chip(`Tool: ${f.label || f.name}`);
        this.log.add(`Tool running: ${f.label || f.name}.`);
      },
      tool_call_started: (f) =>
        this.log.add(
          `Tool call ${f.name} started (${f.mode === "fire_and_forget" ? "fire and forget: no answer awaited" : "waits for this page's answer"}).`,
        ),
      tool_call: (f) => {
        this.captions.chip(`Tool call ${f.name} ${brief(f.args)}`);
        this.log.add(
          `Tool call ${f.name} asks this page: arguments ${brief(f.args, 2000)}${f.mode === "await_result" ? `; answer within ${f.timeout_seconds} s` : ""}.`,
        );
      },
      tool_call_completed: (f) => this.log.add(`Tool call ${f.name} completed in ${f.duration_ms} ms.`),
      tool_call_failed: (f) => {
        const why = failWords(String(f.reason));
        this.captions.chip(`Tool ${f.name} failed: ${why}`, true);
        this.log.add(`Tool call ${f.name} failed${f.local ? " here" : ""}: ${why} (${f.reason}).`, "error");
      },
      tool_handler_error: (e) => {
        this.captions.chip(`Answered ${e.name}: not done — ${e.sent}`, true);
        const real = e.error instanceof Error ? e.error.message : String(e.error);
        this.log.add(
          `Answered tool call ${e.name} with ok: false, “${e.sent}”${real && real !== e.sent ? ` (the handler's error: ${real})` : ""}.`,
          "error",
        );
      },
    };
  }

  /** A system tool acted (System-tool wire frames): shown as it happens, with what it did. */
  action(f: ActionFrame): void {
    this.captions.chip(`Action: ${f.label || f.name}`);
    this.log.add(`Action ${f.name}: ${actionWords(f)}${f.label ? ` (“${f.label}”)` : ""}.`);
  }

  answered(name: string, result: unknown, from: "console" | "editor"): void {
    this.captions.chip(`Answered ${name}: ${brief(result)}`);
    this.log.add(
      `Answered tool call ${name} with ok: true, ${brief(result, 2000)} (${from === "console" ? "a handler registered from the console" : "the answer set in the persona panel"}).`,
    );
  }
}

/** The page's handlers in the client's registry: one wrapper per name, looking up its answer per call. */
export class PageTools {
  private readonly fromConsole = new Map<string, ToolHandler>();
  private answers = new Map<string, unknown>();
  private readonly registered = new Map<string, () => void>();

  constructor(
    private readonly client: AvatarClient,
    private readonly view: ToolView,
  ) {}

  /** The persona editor's answers (name → JSON value); tools left out get no handler from it. */
  setAnswers(answers: Map<string, unknown>): void {
    this.answers = new Map(answers);
    this.sync();
  }

  /** `window.avatarStudio.registerTool`: wins over the editor's answer until unregistered. */
  registerFromConsole(name: string, handler: ToolHandler): () => void {
    if (typeof name !== "string" || typeof handler !== "function")
      throw new TypeError("registerTool(name, handler): a tool name and a function.");
    this.fromConsole.set(name, handler);
    this.sync();
    return () => {
      if (this.fromConsole.get(name) !== handler) return;
      this.fromConsole.delete(name);
      this.sync();
    };
  }

  /** Names that have a handler on this page now. */
  names(): string[] {
    return [...this.registered.keys()];
  }

  private sync(): void {
    const wanted = new Set([...this.answers.keys(), ...this.fromConsole.keys()]);
    for (const [name, off] of [...this.registered]) {
      if (wanted.has(name)) continue;
      off();
      this.registered.delete(name);
    }
    for (const name of wanted) {
      if (!this.registered.has(name))
        this.registered.set(
          name,
          this.client.registerTool(name, (args, call) => this.answer(name, args, call)),
        );
    }
  }

  private async answer(name: string, args: Record<string, unknown>, call: ToolCallContext): Promise<unknown> {
    const own = this.fromConsole.get(name);
    if (!own && !this.answers.has(name)) throw new Error(`No answer is set for ${name} on this page.`);
    // Awaited even when it is a plain value, so the answer shows after the call it answers.
    const result = await (own ? own(args, call) : this.answers.get(name));
    this.view.answered(name, result, own ? "console" : "editor");
    return result;
  }
}
