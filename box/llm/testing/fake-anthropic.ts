// A local Anthropic Messages server: `/v1/messages` streamed as the real SSE events
// (message_start, content_block_*, ping, message_delta, message_stop, error), `/v1/models` paged.
import type { FakeRequest as IncomingMessage, FakeResponse as ServerResponse } from "./fake-server.ts";
import { FakeServer, type Frame } from "./fake-server.ts";
import { halves, scriptUsage, toolArgsText, type FakeOptions, type RecordedRequest, type Script } from "./script.ts";

const STOP = { end: "end_turn", tool_use: "tool_use", max_tokens: "max_tokens", other: "refusal" } as const;
const ERROR_TYPE: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export interface FakeAnthropicOptions extends FakeOptions {
  /** Page size of `/v1/models` when the client asks for more (exercises paging). */
  pageSize?: number;
}

export class FakeAnthropic extends FakeServer {
  constructor(private readonly anthropic: FakeAnthropicOptions = {}) {
    super(anthropic);
  }

  static async start(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
    return new FakeAnthropic(options).listen();
  }

  protected handle(req: IncomingMessage, rec: RecordedRequest, res: ServerResponse): Promise<void> | void {
    const url = new URL(rec.path, "http://fake");
    if (this.options.apiKey && req.headers["x-api-key"] !== this.options.apiKey) return this.error(res, 401, "invalid x-api-key");
    if (!req.headers["anthropic-version"]) return this.error(res, 400, "anthropic-version: header is required");
    if (req.method === "GET" && url.pathname === "/v1/models" && this.options.listModels !== false) return this.list(url, res);
    if (req.method === "POST" && url.pathname === "/v1/messages") return this.messages(rec, res);
    return this.error(res, 404, "Not found");
  }

  private error(res: ServerResponse, status: number, message: string, type?: string): void {
    this.json(res, status, { type: "error", error: { type: type ?? ERROR_TYPE[status] ?? "api_error", message } });
  }

  private list(url: URL, res: ServerResponse): void {
    const all = (this.options.models ?? []).map((m) => ({
      type: "model",
      id: m.id,
      display_name: m.label ?? m.id,
      created_at: "2025-01-01T00:00:00Z",
    }));
    const limit = Math.min(Number(url.searchParams.get("limit") ?? 20), this.anthropic.pageSize ?? 20);
    const after = url.searchParams.get("after_id");
    const start = after ? all.findIndex((m) => m.id === after) + 1 : 0;
    const data = all.slice(start, start + limit);
    this.json(res, 200, { data, has_more: start + limit < all.length, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  }

  private messages(rec: RecordedRequest, res: ServerResponse): Promise<void> | void {
    const body = rec.body ?? {};
    const models = this.options.models ?? [];
    const model = models.find((m) => m.id === body.model);
    if (models.length > 0 && !model) return this.error(res, 404, `model: ${body.model}`);
    if (typeof body.max_tokens !== "number") return this.error(res, 400, "max_tokens: Field required");
    const budget = body.thinking?.budget_tokens;
    if (typeof budget === "number" && (budget < 1024 || budget >= body.max_tokens)) {
      return this.error(res, 400, "thinking.budget_tokens: must be >= 1024 and less than max_tokens");
    }
    const refusal = model?.refuse?.(body);
    if (refusal) return this.error(res, 400, `${refusal}: not supported by this model`);
    if (body.stream !== true) return this.error(res, 400, "this fake only streams");
    const script = this.nextScript();
    const first = script[0];
    if (first && "httpError" in first)
      return this.error(res, first.httpError, first.message ?? `fake error ${first.httpError}`, first.type);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake" });
    return this.play(res, this.frames(script, body));
  }

  private frames(script: Script, body: any): Frame[] {
    const sse = (data: { type: string } & Record<string, unknown>): string => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
    const usage = scriptUsage(script, Math.ceil(JSON.stringify(body.messages ?? []).length / 4));
    const message = {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      content: [],
      model: body.model,
      stop_reason: null,
      stop_sequence: null,
    };
    const frames: Frame[] = [
      sse({ type: "message_start", message: { ...message, usage: { input_tokens: usage.inputTokens, output_tokens: 1 } } }),
      sse({ type: "ping" }),
    ];
    let index = -1;
    let open: "text" | null = null;
    let calls = 0;
    let stop: string | undefined;
    const close = () => {
      if (open) frames.push(sse({ type: "content_block_stop", index }));
      open = null;
    };
    for (const step of script) {
      if ("text" in step) {
        if (open !== "text") {
          close();
          frames.push(sse({ type: "content_block_start", index: ++index, content_block: { type: "text", text: "" } }));
          open = "text";
        }
        frames.push(sse({ type: "content_block_delta", index, delta: { type: "text_delta", text: step.text } }));
      } else if ("thinking" in step) {
        close();
        frames.push(sse({ type: "content_block_start", index: ++index, content_block: { type: "thinking", thinking: "" } }));
        frames.push(sse({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: step.thinking } }));
        frames.push(sse({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: `sig-${index}` } }));
        frames.push(sse({ type: "content_block_stop", index }));
      } else if ("toolCall" in step) {
        close();
        const id = step.toolCall.id ?? `toolu_fake_${calls++}`;
        frames.push(
          sse({
            type: "content_block_start",
            index: ++index,
            content_block: { type: "tool_use", id, name: step.toolCall.name, input: {} },
          }),
        );
        for (const part of halves(toolArgsText(step.toolCall))) {
          frames.push(sse({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } }));
        }
        frames.push(sse({ type: "content_block_stop", index }));
        stop ??= "tool_use";
      } else if ("delayMs" in step) frames.push({ delayMs: step.delayMs });
      else if ("disconnect" in step) return [...frames, { disconnect: true }];
      else if ("stop" in step) stop = STOP[step.stop];
      else if ("errorMidStream" in step) {
        const e = step.errorMidStream;
        const type = e.type ?? (e.status ? ERROR_TYPE[e.status] : undefined) ?? "overloaded_error";
        return [...frames, sse({ type: "error", error: { type, message: e.message ?? "Overloaded" } })];
      }
    }
    close();
    frames.push(
      sse({
        type: "message_delta",
        delta: { stop_reason: stop ?? "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.outputTokens },
      }),
    );
    frames.push(sse({ type: "message_stop" }));
    return frames;
  }
}
