// The example's backend (`npm run example`, Bun, no framework): holds the API key, mints a
// short-lived session token for the page on each ask (POST /v1/streaming.create_token), and
// serves the page with the client library bundled for the browser at start (never checked in).
// The key never reaches the browser.
import { join } from "node:path";
import { BoxClient } from "avatar-service/client";
import { boxAllowsOrigin, declarePageTool, describeFailure, PAGE_TOOL, waitForBox } from "./box-setup.ts";
import { readEnv } from "./env.ts";

const { apiKey, baseUrl, host, port } = readEnv();
const origin = `http://${host}:${port}`;
const PUBLIC = join(import.meta.dir, "public");

if (!apiKey) {
  console.error(
    `web-call example: set AVATAR_API_KEY. With \`npm start\` running, sign in at ${baseUrl}/studio/keys, make a key, then:\n` +
      `  AVATAR_API_KEY=ak_... npm run example\n` +
      `and start the service with this page's origin allowed: BOX_ALLOWED_ORIGINS=${origin} npm start`,
  );
  process.exit(1);
}

/** The client library as one ES module for the browser, built from the package's own entry. */
async function bundleClient(): Promise<string> {
  const built = await Bun.build({
    entrypoints: [Bun.resolveSync("avatar-service/client", import.meta.dir)],
    target: "browser",
    format: "esm",
  });
  if (!built.success) throw new Error(`bundling the client library failed: ${built.logs.join("\n")}`);
  return built.outputs[0].text();
}

const box = new BoxClient({ baseUrl, token: apiKey });
const clientJs = await bundleClient();
try {
  await waitForBox(box, baseUrl);
  await declarePageTool(box);
} catch (err) {
  console.error(`web-call example: ${describeFailure(err)}`);
  process.exit(1);
}
if (!(await boxAllowsOrigin(baseUrl, origin))) {
  console.warn(`web-call example: the box does not let ${origin} in yet; restart the service with BOX_ALLOWED_ORIGINS=${origin} npm start`);
}

const js = { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" };

Bun.serve({
  hostname: host,
  port,
  routes: {
    "/": () =>
      new Response(Bun.file(join(PUBLIC, "index.html")), {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      }),
    "/app.js": () => new Response(Bun.file(join(PUBLIC, "app.js")), { headers: js }),
    "/avatar-client.js": () => new Response(clientJs, { headers: js }),
    // Where the page finds the box, and whether the box lets this origin in (asked afresh).
    "/config": async () => Response.json({ baseUrl, origin, originAllowed: await boxAllowsOrigin(baseUrl, origin), tool: PAGE_TOOL.name }),
    // In your application: check your own user's session here before minting.
    "/avatar-token": {
      POST: async () => {
        try {
          return Response.json(await box.createToken({ ttl_seconds: 300 }));
        } catch (err) {
          return Response.json({ message: describeFailure(err) }, { status: 502 });
        }
      },
    },
  },
  fetch: () => new Response("Not found", { status: 404 }),
});

console.log(`web-call example: open ${origin}  (box: ${baseUrl}; tool "${PAGE_TOOL.name}" declared for this key)`);
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => process.exit(0));
