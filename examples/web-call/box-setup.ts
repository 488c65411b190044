// What the example's backend does with its API key before it serves the page: waits for the box
// (the portal's local box may still be starting), declares the page's custom tool in the key's
// settings (the model is only offered tools that are declared there; the page answers them), and
// asks whether the box lets the page's origin in (BOX_ALLOWED_ORIGINS).
import { AvatarApiError, type BoxClient, type CustomToolInput } from "avatar-service/client";

/** The tool the page registers a handler for (public/app.js). */
export const PAGE_TOOL: CustomToolInput = {
  name: "lookup_order",
  description: "Looks up one of the person's orders by its number and says where it is.",
  parameters: {
    type: "object",
    properties: { order_id: { type: "string", description: "The order number, e.g. A17" } },
    required: ["order_id"],
  },
  mode: "await_result",
  timeout_seconds: 8,
};

/** Resolves once the box answers /health; `box_not_running` and network errors are waited out. */
export async function waitForBox(box: BoxClient, baseUrl: string, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let told = false;
  for (;;) {
    try {
      await box.health();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      if (!told) console.log(`web-call example: waiting for the box at ${baseUrl} (${(err as Error).message})`);
      told = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/**
 * Adds PAGE_TOOL to the key's settings record, keeping the key's other tools (`tools` is written
 * whole). A session token minted by this key uses the same record, so the page's turns offer it.
 */
export async function declarePageTool(box: BoxClient): Promise<void> {
  const { settings } = await box.getSettings();
  const others = (settings.tools ?? []).filter((t) => t.name !== PAGE_TOOL.name);
  await box.saveSettings({ tools: [...others, PAGE_TOOL] });
}

/** True when the box answers `origin` with CORS headers (a page there can call it). */
export async function boxAllowsOrigin(baseUrl: string, origin: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/health`, { headers: { origin } });
    await res.body?.cancel();
    return res.headers.get("access-control-allow-origin") === origin;
  } catch {
    return false;
  }
}

/** One sentence for a refusal at start (a wrong key is the usual one). */
export function describeFailure(err: unknown): string {
  if (err instanceof AvatarApiError && err.status === 401)
    return `the box refused AVATAR_API_KEY (${err.code}): make a key at /studio/keys and pass its secret.`;
  return err instanceof Error ? err.message : String(err);
}
