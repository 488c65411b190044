/** @jsxImportSource hono/jsx */
// Implements: the live page of the studio (issue 13 item 2): the avatar stream pinned with the
// typed box (chat or talk), the microphone (with its level meter) and the Camera / Share screen
// toggles (issue 27: a small preview over the avatar's video) beneath it, the state, then
// pickers, the persona panel (system prompt, models, reasoning, emotion, system and custom
// tools), readiness in words, and the latency and event log folded away. The server renders the
// skeleton; the script (portal/studio/browser/live) fills it from the box.
import { Shell } from "./layout.tsx";

/** What each system tool lets the avatar do (System tools; System-tool wire frames). */
export const SYSTEM_TOOL_WORDS: [name: string, title: string, sentence: string][] = [
  ["end_call", "End the call", "The avatar may end the call itself, for example when the person says goodbye."],
  [
    "skip_turn",
    "Wait for more",
    "The avatar may stay silent and keep listening when the person has not finished (after “let me think”, or words cut off mid-sentence).",
  ],
  [
    "pause_conversation",
    "Pause",
    "The avatar may pause the conversation for up to 90 seconds when asked to wait; speaking or Resume ends the pause.",
  ],
  [
    "change_language",
    "Change language",
    "The avatar may switch to another language when asked (English, Spanish, French, German, Italian, Portuguese, Hindi, Japanese), changing voice if it must.",
  ],
];

/** What the Camera and Share screen toggles send, and where (shown while both are off). */
export const CAMERA_WORDS =
  "Camera or screen: a picture every half second goes to the avatar's box only (with your words to the chosen model if it reads images); nothing is stored.";

/** The persona: prompt, models, reasoning, emotion, system tools and custom tools (filled by the script). */
function PersonaCard() {
  return (
    <section class="card persona" aria-labelledby="persona-h">
      <details id="persona-panel">
        <summary>
          <h2 id="persona-h">Persona</h2>
          <span class="hint">Prompt, models and tools</span>
        </summary>
        <form id="persona-form" novalidate>
          <p id="persona-status" class="result" role="status">
            Loading the persona…
          </p>
          <div class="field">
            <label for="persona-prompt">System prompt</label>
            <textarea
              id="persona-prompt"
              rows={6}
              aria-describedby="persona-prompt-hint persona-prompt-count persona-prompt-error"
            ></textarea>
            <p id="persona-prompt-hint" class="hint">
              Everything the persona knows and how it behaves: the whole of its knowledge.
            </p>
            <p id="persona-prompt-count" class="hint counter" aria-live="off"></p>
            <p id="persona-prompt-error" class="field-error" hidden></p>
          </div>
          <div class="field">
            <label for="persona-model">Quality model</label>
            <select id="persona-model" aria-describedby="persona-model-facts persona-model-error"></select>
            <p id="persona-model-facts" class="hint"></p>
            <p id="persona-model-error" class="field-error" hidden></p>
          </div>
          <div class="field">
            <label for="persona-live-model">Live model</label>
            <select id="persona-live-model" aria-describedby="persona-live-model-facts persona-live-model-error"></select>
            <p id="persona-live-model-facts" class="hint"></p>
            <p id="persona-live-model-error" class="field-error" hidden></p>
            <p id="persona-models-note" class="hint"></p>
            <p id="persona-models-none" class="hint model-setup" hidden></p>
          </div>
          <div class="field">
            <label for="persona-reasoning">Reasoning level</label>
            <select id="persona-reasoning" aria-describedby="persona-reasoning-hint persona-reasoning-error"></select>
            <p id="persona-reasoning-hint" class="hint"></p>
            <p id="persona-reasoning-error" class="field-error" hidden></p>
          </div>
          <div class="check">
            <input id="persona-emotion" type="checkbox" aria-describedby="persona-emotion-hint persona-emotion-error" />
            <label for="persona-emotion">Emotion responsiveness</label>
          </div>
          <p id="persona-emotion-hint" class="hint check-hint">
            On: the avatar picks a delivery tone to suit what it says. Off: it always speaks neutrally.
          </p>
          <p id="persona-emotion-error" class="field-error" hidden></p>
          <fieldset id="persona-system-tools" class="persona-group" aria-describedby="persona-system-tools-hint persona-system-tools-error">
            <legend>System tools</legend>
            <p id="persona-system-tools-hint" class="hint">
              Offered in voice sessions (the microphone) only, never on typed turns.
            </p>
            {SYSTEM_TOOL_WORDS.map(([name, title, sentence]) => (
              <div class="check">
                <input id={`system-tool-${name}`} type="checkbox" name="system_tools" value={name} />
                <label for={`system-tool-${name}`}>
                  {title} <code>{name}</code>
                  <span class="check-sentence">{sentence}</span>
                </label>
              </div>
            ))}
            <p id="persona-system-tools-error" class="field-error" hidden></p>
          </fieldset>
          <div class="persona-group">
            <h3>Built-in tools</h3>
            <p id="persona-builtin-tools" class="hint">
              Tools that run on the box itself are switched on for everyone where the box is started (<code>BOX_BUILTIN_TOOLS</code>). The
              box does not report which are on, so none are listed here.
            </p>
          </div>
          <fieldset class="persona-group" aria-describedby="persona-tools-hint">
            <legend>Custom tools</legend>
            <p id="persona-tools-hint" class="hint">
              Tools your application answers. On this page, each is answered with the JSON you set for it (at most 10 tools).
            </p>
            <p id="persona-tools-empty" class="hint">
              No custom tools yet.
            </p>
            <ol id="persona-tools" class="tool-list"></ol>
            <p id="persona-tools-error" class="field-error" hidden></p>
            <button type="button" id="add-tool" aria-describedby="add-tool-hint">
              Add a tool
            </button>
            <p id="add-tool-hint" class="hint"></p>
          </fieldset>
          <div class="actions">
            <button type="submit" id="save-persona" class="primary">
              Save the persona
            </button>
          </div>
          <p id="persona-result" class="result" role="status"></p>
        </form>
      </details>
    </section>
  );
}

export function LivePage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Live" page="live" early email={props.email} admin={props.admin} data={{ admin: props.admin ? "1" : "0" }}>
      <main id="main" class="page-width live">
        <h1 class="visually-hidden">Live studio</h1>
        <div class="live-grid">
          <section id="stage" class="stage" aria-labelledby="call-h">
            <h2 id="call-h" class="visually-hidden">
              Call
            </h2>
            <div id="notices" class="notices" aria-live="polite"></div>
            <div class="video-wrap">
              <div id="video-frame" class="video-frame">
                <video id="avatar-video" playsinline aria-label="The avatar, live"></video>
                <div id="video-overlay" class="video-overlay">
                  <span class="play-mark" aria-hidden="true"></span>
                  <p>Click here or press Start call to see and hear the avatar.</p>
                </div>
                <video
                  id="camera-preview"
                  class="camera-preview"
                  muted
                  playsinline
                  hidden
                  aria-label="Your camera or screen, as the avatar sees it"
                ></video>
              </div>
            </div>
            <div class="call-bar">
              <p id="call-state" class="state" data-state="off" role="status">
                <span class="dot" aria-hidden="true"></span>
                <span class="state-text">Not connected</span>
              </p>
              <div class="call-buttons">
                <button type="button" id="start-call" class="primary">
                  Start call
                </button>
                <button type="button" id="sound-on" class="primary" hidden>
                  Turn the sound on
                </button>
                <button type="button" id="interrupt" disabled>
                  Interrupt
                </button>
                <button type="button" id="end-call" class="danger" disabled>
                  End call
                </button>
              </div>
            </div>
            <div id="captions" class="captions" role="log" aria-live="polite" aria-label="Captions" tabindex={0}>
              <p class="placeholder">Captions of what you say and what the avatar says appear here.</p>
            </div>
            <p id="partial" class="partial" aria-hidden="true" hidden></p>
            <form id="turn-form" class="turn-form">
              <fieldset class="modes" aria-describedby="chat-unavailable">
                <legend class="visually-hidden">Mode</legend>
                <label class="mode">
                  <input type="radio" name="mode" value="chat" checked />
                  <span>
                    <strong>Chat</strong> <span class="hint">the model answers</span>
                  </span>
                </label>
                <label class="mode">
                  <input type="radio" name="mode" value="talk" />
                  <span>
                    <strong>Talk</strong> <span class="hint">says it as written</span>
                  </span>
                </label>
              </fieldset>
              <p id="chat-unavailable" class="mode-note" hidden></p>
              <div class="composer">
                <label for="turn-text" class="visually-hidden">
                  Message
                </label>
                <textarea
                  id="turn-text"
                  name="text"
                  rows={2}
                  maxlength={4000}
                  placeholder="Type a message…"
                  aria-describedby="turn-error turn-hint"
                  required
                ></textarea>
                <button type="submit" class="primary" id="send-turn">
                  Send
                </button>
              </div>
              <div id="turn-error" class="turn-error" aria-live="assertive"></div>
              <p id="turn-hint" class="hint turn-hint">
                Enter sends, Shift+Enter starts a new line. Sending starts the call if it is not on.
              </p>
            </form>
            <section class="mic" aria-labelledby="mic-h">
              <h2 id="mic-h" class="visually-hidden">
                Microphone
              </h2>
              <div class="mic-row">
                <button type="button" id="open-mic" aria-pressed="false">
                  Open mic
                </button>
                <button type="button" id="hold-to-talk" aria-describedby="hold-hint">
                  Hold to talk
                </button>
                <div
                  id="mic-meter"
                  class="mic-meter"
                  role="meter"
                  aria-label="Microphone level"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={0}
                  data-on="false"
                >
                  <span class="mic-meter-fill"></span>
                </div>
              </div>
              <p id="hold-hint" class="visually-hidden">
                Hold the button (or Space while it has focus) while you speak; let go to hear the answer.
              </p>
              <p id="mic-status" class="mic-status" role="status">
                The microphone is off.
              </p>
            </section>
            <section class="camera" aria-labelledby="camera-h">
              <h2 id="camera-h" class="visually-hidden">
                Camera and screen
              </h2>
              <div class="camera-row">
                <button type="button" id="camera-toggle" aria-pressed="false" aria-describedby="camera-status">
                  Camera
                </button>
                <button type="button" id="screen-toggle" aria-pressed="false" aria-describedby="camera-status">
                  Share screen
                </button>
                <p id="camera-status" class="camera-status" role="status">
                  {CAMERA_WORDS}
                </p>
              </div>
            </section>
          </section>
          <div class="side">
            <section class="card" aria-labelledby="avatar-h">
              <h2 id="avatar-h">Avatar</h2>
              <fieldset id="avatar-picker" class="avatar-grid">
                <legend class="visually-hidden">Avatar</legend>
                <p class="hint">Loading the avatars…</p>
              </fieldset>
              <div class="field">
                <label for="tone">Tone</label>
                <select id="tone" aria-describedby="tone-hint"></select>
                <p id="tone-hint" class="hint">
                  The face at rest, and how Talk says things. Changing avatar or tone during a call reconnects it.
                </p>
              </div>
            </section>
            <section class="card" aria-labelledby="voice-h">
              <h2 id="voice-h">Voice</h2>
              <div class="field">
                <label for="provider">Voice engine</label>
                <select id="provider" aria-describedby="provider-note"></select>
                <div id="provider-note" class="hint provider-note"></div>
              </div>
              <div class="field">
                <label for="voice">Voice</label>
                <div class="inline-form">
                  <select id="voice" class="grow"></select>
                  <button type="button" id="preview-voice">
                    Play a sample
                  </button>
                </div>
                <p id="voice-scope" class="hint"></p>
                <p id="preview-status" class="hint" role="status"></p>
                <audio id="preview-audio" hidden></audio>
              </div>
            </section>
            <PersonaCard />
            <section class="card" aria-labelledby="ready-h">
              <h2 id="ready-h">Readiness</h2>
              <ul id="readiness" class="readiness">
                <li>Checking the box…</li>
              </ul>
            </section>
            <section class="card diagnostics" aria-labelledby="diagnostics-h">
              <details id="diagnostics-panel">
                <summary>
                  <h2 id="diagnostics-h">Latency and event log</h2>
                </summary>
                <h3 id="latency-h">Latency</h3>
                <dl id="latency" class="latency" aria-labelledby="latency-h"></dl>
                <div class="card-head">
                  <h3 id="log-h">Event log</h3>
                  <button type="button" id="clear-log" class="quiet">
                    Clear
                  </button>
                </div>
                <ol id="event-log" class="event-log" aria-labelledby="log-h" tabindex={0}></ol>
              </details>
            </section>
          </div>
        </div>
      </main>
    </Shell>
  );
}
