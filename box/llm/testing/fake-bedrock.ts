// A local Bedrock runtime: `POST /model/{modelId}/converse-stream` answered with the AWS
// event-stream framing (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata, and
// modelled exceptions), errors as `x-amzn-errortype` + JSON, exactly as the SDK reads them.
import type { FakeRequest as IncomingMessage, FakeResponse as ServerResponse } from "./fake-server.ts";
import { FakeServer, type Frame } from "./fake-server.ts";
import { eventFrame, exceptionFrame } from "./event-stream.ts";
import { halves, scriptUsage, toolArgsText, type FakeOptions, type RecordedRequest, type Script } from "./script.ts";

const STOP = { end: "end_turn", tool_use: "tool_use", max_tokens: "max_tokens", other: "content_filtered" } as const;
const ERROR_NAME: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};
const STREAM_EXCEPTION: Record<number, string> = {
  400: "validationException",
  429: "throttlingException",
  500: "internalServerException",
  503: "serviceUnavailableException",
};

export class FakeBedrock extends FakeServer {
  constructor(options: FakeOptions = {}) {
    super(options, "h2c");
  }

  static async start(options: FakeOptions = {}): Promise<FakeBedrock> {
    return new FakeBedrock(options).listen();
  }

  /** The model id of the last call, decoded from the path. */
  lastModelId: string | undefined;

  protected handle(req: IncomingMessage, rec: RecordedRequest, res: ServerResponse): Promise<void> | void {
    const m = /^\/model\/([^/]+)\/converse-stream$/.exec(rec.path.split("?")[0]);
    if (req.method !== "POST" || !m) return this.error(res, 404, "UnknownOperationException");
    if (!String(req.headers.authorization ?? "").startsWith("AWS4-HMAC-SHA256"))
      return this.error(res, 403, "Missing Authentication Token");
    const modelId = decodeURIComponent(m[1]);
    this.lastModelId = modelId;
    const models = this.options.models ?? [];
    const model = models.find((x) => x.id === modelId);
    if (models.length > 0 && !model) return this.error(res, 400, "The provided model identifier is invalid.");
    const refusal = model?.refuse?.(rec.body ?? {});
    if (refusal) return this.error(res, 400, `The model returned the following errors: ${refusal}: Extra inputs are not permitted`);
    const script = this.nextScript();
    const first = script[0];
    if (first && "httpError" in first)
      return this.error(res, first.httpError, first.message ?? `fake error ${first.httpError}`, first.type);
    res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": "fake-request" });
    return this.play(res, this.frames(script, rec.body ?? {}));
  }

  private error(res: ServerResponse, status: number, message: string, name?: string): void {
    const type = name ?? ERROR_NAME[status] ?? "InternalServerException";
    this.json(res, status, { message }, { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
  }

  private frames(script: Script, body: any): Frame[] {
    const frames: Frame[] = [eventFrame("messageStart", { role: "assistant" })];
    let index = -1;
    let open: "text" | null = null;
    let stop: string | undefined;
    const close = () => {
      if (open) frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
      open = null;
    };
    for (const step of script) {
      if ("text" in step) {
        if (open !== "text") {
          close();
          index++;
          open = "text";
        }
        frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { text: step.text } }));
      } else if ("thinking" in step) {
        close();
        index++;
        frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: step.thinking } } }));
        frames.push(
          eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { signature: `sig-${index}` } } }),
        );
        frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
      } else if ("toolCall" in step) {
        close();
        index++;
        const toolUseId = step.toolCall.id ?? `tooluse_fake_${index}`;
        frames.push(
          eventFrame("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId, name: step.toolCall.name } } }),
        );
        for (const part of halves(toolArgsText(step.toolCall))) {
          frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: part } } }));
        }
        frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
        stop ??= "tool_use";
      } else if ("delayMs" in step) frames.push({ delayMs: step.delayMs });
      else if ("disconnect" in step) return [...frames, { disconnect: true }];
      else if ("stop" in step) stop = STOP[step.stop];
      else if ("errorMidStream" in step) {
        const e = step.errorMidStream;
        const type = e.type ?? (e.status ? STREAM_EXCEPTION[e.status] : undefined) ?? "modelStreamErrorException";
        return [...frames, exceptionFrame(type, e.message ?? "The model stream failed.")];
      }
    }
    close();
    frames.push(eventFrame("messageStop", { stopReason: stop ?? "end_turn" }));
    const u = scriptUsage(script, Math.ceil(JSON.stringify(body.messages ?? []).length / 4));
    frames.push(
      eventFrame("metadata", {
        usage: { inputTokens: u.inputTokens, outputTokens: u.outputTokens, totalTokens: u.inputTokens + u.outputTokens },
        metrics: { latencyMs: 1 },
      }),
    );
    return frames;
  }
}
