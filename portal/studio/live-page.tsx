/** @jsxImportSource hono/jsx */
// Implements: the live page of the studio (issue 13 item 2): the avatar stream, pickers, the typed
// box (chat or talk), the microphone, state, readiness in words, latency and the event log. The
// server renders the skeleton; the script (portal/studio/browser/live) fills it from the box.
import { Shell } from "./layout.tsx";

export function LivePage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Live" page="live" email={props.email} admin={props.admin} data={{ admin: props.admin ? "1" : "0" }}>
      <main id="main" class="page-width live">
        <h1 class="visually-hidden">Live studio</h1>
        <div id="notices" class="notices" aria-live="polite"></div>
        <div class="live-grid">
          <section class="stage" aria-labelledby="call-h">
            <h2 id="call-h" class="visually-hidden">
              Call
            </h2>
            <div class="video-frame">
              <video id="avatar-video" playsinline aria-label="The avatar, live"></video>
              <div id="video-overlay" class="video-overlay">
                <p>Start a call to see and hear the avatar.</p>
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
            <form id="turn-form" class="card turn-form">
              <fieldset class="modes">
                <legend>Mode</legend>
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
              <div class="field">
                <label for="turn-text">Message</label>
                <textarea id="turn-text" name="text" rows={3} maxlength={4000} aria-describedby="turn-hint" required></textarea>
                <p id="turn-hint" class="hint">
                  Enter sends, Shift+Enter starts a new line. Sending starts the call if it is not on.
                </p>
              </div>
              <button type="submit" class="primary" id="send-turn">
                Send
              </button>
            </form>
            <section class="card mic" aria-labelledby="mic-h">
              <h2 id="mic-h">Microphone</h2>
              <div class="mic-buttons">
                <button type="button" id="open-mic" aria-pressed="false">
                  Open mic
                </button>
                <button type="button" id="hold-to-talk" aria-describedby="hold-hint">
                  Hold to talk
                </button>
              </div>
              <p id="hold-hint" class="hint">
                Hold the button (or Space while it has focus) while you speak; let go to hear the answer.
              </p>
              <p id="mic-status" class="result" role="status">
                The microphone is off.
              </p>
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
            <section class="card" aria-labelledby="ready-h">
              <h2 id="ready-h">Readiness</h2>
              <ul id="readiness" class="readiness">
                <li>Checking the box…</li>
              </ul>
            </section>
            <section class="card" aria-labelledby="latency-h">
              <h2 id="latency-h">Latency</h2>
              <dl id="latency" class="latency"></dl>
            </section>
            <section class="card" aria-labelledby="log-h">
              <div class="card-head">
                <h2 id="log-h">Event log</h2>
                <button type="button" id="clear-log" class="quiet">
                  Clear
                </button>
              </div>
              <ol id="event-log" class="event-log" aria-labelledby="log-h" tabindex={0}></ol>
            </section>
          </div>
        </div>
      </main>
    </Shell>
  );
}
