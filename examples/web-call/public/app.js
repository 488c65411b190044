// The example page's script: one AvatarClient with a token provider that asks this page's own
// backend (never a key in the browser), the page's tool handler registered before connecting,
// connect() on the <video>, talk() (said as written, no model), chatStream() (a model turn whose
// tool calls this page answers), and every step said in words.
import { AvatarApiError, AvatarClient, ToolError } from "/avatar-client.js";

const $ = (id) => document.getElementById(id);
const video = $("avatar");
const talkButton = $("talk-form").querySelector("button");
const chatButton = $("chat-form").querySelector("button");

function logEvent(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("events").append(li);
  li.scrollIntoView({ block: "nearest" });
}

function say(who, text) {
  const li = document.createElement("li");
  li.textContent = `${who}: ${text}`;
  $("conversation").append(li);
  li.scrollIntoView({ block: "nearest" });
  return li;
}

function note(id, text, kind = "") {
  $(id).textContent = text;
  $(id).className = `note ${kind}`;
}

/** An error in words: the library throws AvatarApiError {status, code, message} for every refusal. */
function problem(err) {
  if (err instanceof AvatarApiError && err.code === "network_error") return `${err.message}. ${originHint}`;
  return err instanceof AvatarApiError ? `${err.message} (${err.code})` : String(err?.message ?? err);
}

const config = await (await fetch("/config")).json();
const originHint = `If the service runs, restart it with BOX_ALLOWED_ORIGINS=${config.origin} npm start so the box lets this page in.`;

// The provider is asked for the first token and again before one ages out (the sockets and calls renew themselves).
async function fetchToken() {
  const res = await fetch("/avatar-token", { method: "POST" });
  const body = await res.json();
  if (!res.ok) throw new Error(body.message ?? `this page's backend answered ${res.status}`);
  return body; // {data: {token, expires_at, scope}}: the box's own answer, read as it is
}

const client = new AvatarClient({ baseUrl: config.baseUrl, token: fetchToken });

// The page's tool: the backend declared it in the key's settings; the model calls it, this page answers.
const ORDERS = { A17: "shipped on Monday", B2: "being packed" };
client.registerTool("lookup_order", ({ order_id }) => {
  const id = String(order_id ?? "").toUpperCase();
  const status = ORDERS[id];
  if (!status) {
    logEvent(`lookup_order ${JSON.stringify({ order_id })}: this page answered that there is no such order.`);
    throw new ToolError(`There is no order ${id}.`); // sent to the model as written
  }
  logEvent(`lookup_order ${JSON.stringify({ order_id })}: this page answered "${status}".`);
  return { order_id: id, status };
});

let media = null;
let modelReady = false;
window.example = {
  client,
  get media() {
    return media;
  },
}; // to try things from the console

function setCall(state, text) {
  $("call-state").textContent = text;
  $("call-state").dataset.state = state;
  $("start").hidden = state === "on";
  $("start").disabled = state === "connecting";
  $("end").hidden = state !== "on";
  talkButton.disabled = state !== "on";
  chatButton.disabled = state !== "on" || !modelReady;
  if (state !== "on") $("sound").hidden = true;
}

/** Readiness of this credential's chat: says clearly when the box has no model. */
async function checkModel() {
  let r;
  try {
    r = await client.chatStatus();
  } catch (err) {
    note("model-note", `Could not ask the box whether a model is set: ${problem(err)}`, "problem");
    return;
  }
  modelReady = r.llm;
  if (r.llm) note("model-note", "Chat: the language model is ready.", "ok");
  else if (r.llm_state === "starting") {
    note("model-note", "Chat: the language model is being checked…");
    setTimeout(checkModel, 1000);
  } else {
    note(
      "model-note",
      `Chat needs a language model, and this box has none: ${r.llm_detail || r.reason || r.llm_state}. Start the service with BOX_OPENAI_BASE_URL set (e.g. Ollama at http://127.0.0.1:11434/v1). Talk works without one.`,
      "problem",
    );
  }
  chatButton.disabled = !(modelReady && media);
}

$("start").onclick = async () => {
  setCall("connecting", "Connecting…");
  try {
    media = await client.connect({
      video,
      on: {
        autoplay_blocked: () => {
          $("sound").hidden = false;
          logEvent("The browser held the sound back until a click: press Start sound.");
        },
        playing: ({ muted }) => logEvent(muted ? "The avatar plays (sound held back)." : "The avatar plays, with sound."),
        connection_state: ({ state }) => {
          logEvent(`Connection: ${state}.`);
          if (state !== "closed" && state !== "failed") return;
          media = null;
          setCall("off", state === "closed" ? "The call ended." : "The connection failed.");
        },
        timing: ({ mark, ms }) => mark === "first_frame" && logEvent(`First frame after ${ms} ms.`),
      },
    });
    logEvent(`Connected to the avatar "${media.answer.avatar}".`);
    setCall("on", "In a call.");
  } catch (err) {
    media = null;
    setCall("off", "Not connected.");
    logEvent(`Could not start the call: ${problem(err)}`);
  }
};

$("sound").onclick = async () => {
  await media?.resumeMedia();
  $("sound").hidden = true;
};

$("end").onclick = async () => {
  const ending = media;
  media = null;
  setCall("off", "The call ended.");
  await ending?.disconnect().catch((err) => logEvent(`Ending the call: ${problem(err)}`));
};

$("talk-form").onsubmit = async (e) => {
  e.preventDefault();
  const text = $("talk-text").value.trim();
  if (!text) return;
  say("You asked it to say", text);
  try {
    const { spoken } = await client.talk({ text });
    logEvent(`Said: ${spoken}`);
  } catch (err) {
    logEvent(`Talk refused: ${problem(err)}`);
  }
};

$("chat-form").onsubmit = async (e) => {
  e.preventDefault();
  const message = $("chat-text").value.trim();
  if (!message) return;
  say("You", message);
  const line = say("Avatar", "…");
  let text = "";
  // Read as a stream: only then are custom tools offered (their calls come on it and are answered for us).
  const stream = client.chatStream({ message });
  stream.on({
    reply_chunk: (f) => (line.textContent = `Avatar: ${(text += f.text)}`),
    tool_call_started: (f) => logEvent(`The model calls the tool ${f.name}.`),
    tool_call_completed: (f) => logEvent(`Tool ${f.name} completed in ${f.duration_ms} ms.`),
    tool_call_failed: (f) => logEvent(`Tool ${f.name} failed: ${f.reason}.`),
    tool_handler_error: (f) => logEvent(`The handler of ${f.name} failed; the model was told: ${f.sent}`),
  });
  try {
    line.textContent = `Avatar: ${(await stream.reply).reply}`;
  } catch (err) {
    line.textContent = `Avatar: (no answer: ${problem(err)})`;
  }
};

note(
  "box-note",
  config.originAllowed
    ? `Box: ${config.baseUrl}, which lets this page (${config.origin}) in.`
    : `The box at ${config.baseUrl} does not let this page (${config.origin}) in. ${originHint}`,
  config.originAllowed ? "" : "problem",
);
setCall("off", "Not connected.");
await checkModel();
