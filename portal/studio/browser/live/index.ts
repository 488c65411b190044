// The live page: one AvatarClient on this origin whose credential is minted by the portal
// (`POST /auth/session/credential`) and renewed before it ages out; the page never holds a key.
// `window.avatarStudio.registerTool(name, handler)` lets an integrator answer a custom tool from
// the console (it returns the unregister function). The stage (video, typed box, microphone) is
// kept in view (live/viewport.ts), and clicking the video starts the call.
import { AvatarClient, portalCredentialProvider, type TokenProvider } from "../../../../shared/client/index.ts";
import { byId, Notices } from "../dom.ts";
import { toSignIn } from "../portal-api.ts";
import { explain } from "../words.ts";
import { Call } from "./call.ts";
import { CameraControl } from "./camera.ts";
import { earlyThenMint } from "./early-credential.ts";
import { MicControl } from "./mic.ts";
import { NO_MODEL, setModelWords } from "./model-words.ts";
import { ModeChoice } from "./modes.ts";
import { Captions, CallState, EventLog, Latency } from "./panels.ts";
import { PersonaPanel } from "./persona.ts";
import { askPickerLists, type PickerLists, Pickers } from "./pickers.ts";
import { ReadinessWatch } from "./readiness.ts";
import { PageTools, ToolView } from "./tools.ts";
import { TypedTurns } from "./turns.ts";
import { pinStage, videoStartsCall } from "./viewport.ts";

export function startLive(): void {
  pinStage();
  const admin = document.body.dataset.admin === "1";
  const notices = new Notices(byId("notices"));
  const log = new EventLog(byId("event-log"));
  const latency = new Latency(byId("latency"));
  const captions = new Captions(byId("captions"), byId("partial"));
  const startBtn = byId<HTMLButtonElement>("start-call");
  const endBtn = byId<HTMLButtonElement>("end-call");
  const interruptBtn = byId<HTMLButtonElement>("interrupt");
  const startFromPage = () => {
    notices.clear("problem");
    void call.start(pickers.face()).catch(problem);
  };
  const startable = videoStartsCall(() => state.shown === "off", startFromPage);
  const state = new CallState(byId("call-state"), (s) => {
    startBtn.disabled = s === "connecting";
    startBtn.textContent = s === "off" || s === "connecting" ? "Start call" : "Restart call";
    endBtn.disabled = interruptBtn.disabled = s === "off" || s === "connecting";
    startable(s === "off");
    if (s !== "off" && s !== "hearing") log.add(`State: ${s}.`);
  });
  startable(true);

  // The first credential was asked for by /studio/early.js while this script loaded.
  const mint = earlyThenMint(portalCredentialProvider());
  const token: TokenProvider = async (current) => {
    const grant = await mint(current);
    const expiresIn = typeof grant === "object" ? grant.credential?.expires_in : undefined;
    if (expiresIn) latency.text("credential", new Date(Date.now() + expiresIn * 1000).toTimeString().slice(0, 5));
    log.add(
      `${current ? "Renewed" : "Got"} a box credential from the portal${expiresIn ? ` (valid ${Math.round(expiresIn / 60)} min)` : ""}.`,
    );
    return grant;
  };
  const client = new AvatarClient({ baseUrl: "", token });
  // Renewal ahead of expiry runs while the page is open, not only while a socket holds it.
  client.http.credentials.hold();
  client.http.credentials.onError((err) => problem(err));
  // The pickers' lists are asked for before the panels are built: building them takes the thread
  // for tens of ms, and the avatar picker is what a first click waits for.
  const firstLists = askPickerLists(client);

  const voiceNotice = (notice: string) => {
    if (notice) notices.set("voice", "warning", notice);
    else notices.clear("voice");
  };
  function problem(err: unknown): void {
    if (readiness.boxStopped(err)) return;
    const p = explain(err);
    if (p.kind === "signed_out") {
      notices.set("auth", "error", p.text, [{ label: "Sign in again", run: toSignIn }]);
      return;
    }
    if (p.kind === "chat_not_configured") {
      notices.set(
        "problem",
        "error",
        [document.createTextNode(`${NO_MODEL} `), ...setModelWords()],
        [{ label: "Dismiss", run: () => notices.clear("problem") }],
      );
      return;
    }
    notices.set("problem", "error", p.text, [{ label: "Dismiss", run: () => notices.clear("problem") }]);
  }

  // Custom tools: one registry for typed turns and the microphone socket, filled before any call.
  const toolView = new ToolView(captions, log);
  const pageTools = new PageTools(client, toolView);
  window.avatarStudio = { registerTool: (name, handler) => pageTools.registerFromConsole(name, handler) };
  const persona = new PersonaPanel(client, pageTools, log, problem);

  // Camera and screen: one slot in every call's offer; a toggle mid-call swaps the track in it.
  const camera: CameraControl = new CameraControl({ send: (track) => call.setCamera(track), notices, log });
  const call = new Call(client, { state, log, latency, problem, boxLooks: (looks) => camera.setBoxLooks(looks) }, () => camera.track);
  let mic: MicControl | null = null;
  const pickers = new Pickers(
    client,
    log,
    (face) => {
      mic?.configure();
      if (call.live && face !== call.face) {
        log.add(`Switching the call to ${face}.`);
        void call.start(face).catch(problem);
      }
    },
    voiceNotice,
  );
  const loadPickers = (lists?: PickerLists) =>
    pickers.load(lists).catch((err) => {
      pickers.unavailable(
        `The avatars and voices appear here when the box answers. ${explain(err).kind === "box_stopped" ? "" : explain(err).text}`.trim(),
      );
      problem(err);
    });
  const boxUp = () => {
    void loadPickers();
    void persona.load();
  };
  const modes = new ModeChoice();
  let chatPossible = true;
  const readiness = new ReadinessWatch(client, byId("readiness"), notices, log, admin, boxUp, problem, voiceNotice, (possible) => {
    chatPossible = possible;
    modes.setChatPossible(possible);
  });
  const turns = new TypedTurns({
    client,
    call,
    pickers,
    captions,
    state,
    log,
    latency,
    problem,
    voiceNotice,
    tools: toolView,
    modes,
    chatPossible: () => chatPossible,
  });
  mic = new MicControl({ client, call, pickers, captions, state, log, latency, notices, voiceNotice, tools: toolView, problem });
  byId("voice").addEventListener("change", () => mic?.configure());

  startBtn.addEventListener("click", startFromPage);
  // Latency and the event log are folded away on a phone (the page stays short), open beside the call on a wide screen.
  byId<HTMLDetailsElement>("diagnostics-panel").open = window.matchMedia("(min-width: 900px)").matches;
  endBtn.addEventListener("click", () => {
    turns.abort();
    mic?.stop();
    void call.end();
  });
  interruptBtn.addEventListener("click", () => {
    turns.abort();
    void call.interrupt().catch(problem);
  });
  byId("clear-log").addEventListener("click", () => log.clear());
  window.addEventListener("pagehide", () => {
    void camera.stop();
    call.drop();
    call.unprepare();
  });
  log.add("Studio opened.");
  void readiness.check();
  void loadPickers(firstLists);
  void persona.load();
  // The first call's offer is made while the person looks at the page (after the requests above
  // are out: a first peer connection takes the thread for 20-30 ms); each later one when the call
  // before it ends.
  call.prepare();
}
