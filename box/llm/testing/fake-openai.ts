// A local OpenAI-compatible server: `/v1/chat/completions` streamed as SSE chunks exactly as
// OpenAI (and Ollama/llama.cpp/vLLM) send them, `/v1/models`, scripted per test.
import type { FakeRequest as IncomingMessage, FakeResponse as ServerResponse } from "./fake-server.ts";
import { bearer, FakeServer, type Frame } from "./fake-server.ts";
import { halves, scriptUsage, toolArgsText, type FakeOptions, type RecordedRequest, type Script } from "./script.ts";

const FINISH = { end: "stop", tool_use: "tool_calls", max_tokens: "length", other: "content_filter" } as const;

export class FakeOpenAi extends FakeServer {
  static async start(options: FakeOptions = {}): Promise<FakeOpenAi> {
    return new FakeOpenAi(options).listen();
  }

  protected handle(req: IncomingMessage, rec: RecordedRequest, res: ServerResponse): Promise<void> | void {
    const path = rec.path.split("?")[0];
    if (this.options.apiKey && bearer(req) !== this.options.apiKey) {
      return this.error(res, 401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
    }
    if (req.method === "GET" && path === "/v1/models" && this.options.listModels !== false) {
      const data = (this.options.models ?? []).map((m) => ({ id: m.id, object: "model", created: 1700000000, owned_by: "fake" }));
      return this.json(res, 200, { object: "list", data });
    }
    if (req.method === "POST" && path === "/v1/chat/completions") return this.chat(rec, res);
    return this.error(res, 404, `Unknown route ${req.method} ${path}`, "invalid_request_error", "not_found");
  }

  private error(res: ServerResponse, status: number, message: string, type: string, code: string | null = null): void {
    this.json(res, status, { error: { message, type, param: null, code } });
  }

  private chat(rec: RecordedRequest, res: ServerResponse): Promise<void> | void {
    const body = rec.body ?? {};
    const models = this.options.models ?? [];
    const model = models.find((m) => m.id === body.model);
    if (models.length > 0 && !model) {
      return this.error(
        res,
        404,
        `The model \`${body.model}\` does not exist or you do not have access to it.`,
        "invalid_request_error",
        "model_not_found",
      );
    }
    const refusal = model?.refuse?.(body);
    if (refusal) return this.error(res, 400, `Unsupported parameter: ${refusal}`, "invalid_request_error", "unsupported_parameter");
    if (body.stream !== true) return this.error(res, 400, "this fake only streams", "invalid_request_error");
    const script = this.nextScript();
    const first = script[0];
    if (first && "httpError" in first) {
      return this.error(res, first.httpError, first.message ?? `fake error ${first.httpError}`, first.type ?? "server_error");
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    return this.play(res, this.frames(script, body));
  }

  private frames(script: Script, body: any): Frame[] {
    const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: body.model };
    const chunk = (delta: unknown, finish: string | null = null): string =>
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    const frames: Frame[] = [chunk({ role: "assistant", content: "" })];
    let calls = 0;
    let stop: string | undefined;
    for (const step of script) {
      if ("text" in step) frames.push(chunk({ content: step.text }));
      else if ("thinking" in step) frames.push(chunk({ reasoning_content: step.thinking }));
      else if ("delayMs" in step) frames.push({ delayMs: step.delayMs });
      else if ("disconnect" in step) return [...frames, { disconnect: true }];
      else if ("stop" in step) stop = FINISH[step.stop];
      else if ("toolCall" in step) {
        const index = calls++;
        const id = step.toolCall.id ?? `call_fake_${index}`;
        frames.push(chunk({ tool_calls: [{ index, id, type: "function", function: { name: step.toolCall.name, arguments: "" } }] }));
        for (const part of halves(toolArgsText(step.toolCall))) {
          frames.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
        }
      } else if ("errorMidStream" in step) {
        const e = step.errorMidStream;
        const error = {
          message: e.message ?? "The server had an error while processing your request.",
          type: e.type ?? "server_error",
          code: e.status ?? null,
        };
        return [...frames, `data: ${JSON.stringify({ error })}\n\n`];
      }
    }
    frames.push(chunk({}, stop ?? (calls > 0 ? "tool_calls" : "stop")));
    if (body.stream_options?.include_usage) {
      const u = scriptUsage(script, Math.ceil(JSON.stringify(body.messages ?? []).length / 4));
      const usage = { prompt_tokens: u.inputTokens, completion_tokens: u.outputTokens, total_tokens: u.inputTokens + u.outputTokens };
      frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    }
    frames.push("data: [DONE]\n\n");
    return frames;
  }
}
