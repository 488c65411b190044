/** @jsxImportSource hono/jsx */
// Implements: the studio's GPU page for administrators (issue 13 item 2): the GPU record in words
// (state, machine, uptime, cost, the box's readiness), refreshed while the page is visible, and
// start / stop / launch / terminate (after a confirmation). The server renders the skeleton; the
// script (portal/studio/browser/gpu.ts) reads `/auth/gpu/*`. A person who is not an administrator
// gets a sentence saying whom to ask, and no controls.
import { ConfirmDialog } from "./dialog.tsx";
import { Shell } from "./layout.tsx";

export function NotAdmin(props: { hidden: boolean }) {
  return (
    <section id="not-admin" class="card" aria-labelledby="not-admin-h" hidden={props.hidden}>
      <h2 id="not-admin-h">This page is for administrators</h2>
      <p>
        Only this portal's administrators can start, stop, launch or terminate the machine the box runs on (it costs money while it runs).
        If the box is stopped, ask whoever runs this portal to start it: its administrators are the addresses listed in{" "}
        <code>PORTAL_ADMIN_EMAILS</code> (or <code>PORTAL_OWNER_EMAILS</code>), and they can add yours there too.
      </p>
      <p>
        <a href="/studio">Back to the live studio</a>
      </p>
    </section>
  );
}

export function GpuPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="GPU" page="gpu" email={props.email} admin={props.admin} data={{ admin: props.admin ? "1" : "0" }}>
      <main id="main" class="page-width medium">
        <h1>GPU</h1>
        <p class="lead">
          The box runs on one machine. It costs money while it runs: start it when people need the avatar, stop it when they are done.
        </p>
        <NotAdmin hidden={props.admin} />
        {props.admin ? (
          <div id="gpu-admin">
            <div id="notices" class="notices" aria-live="polite"></div>
            <section class="card" aria-labelledby="gpu-h">
              <div class="card-head">
                <h2 id="gpu-h">The machine</h2>
                <span id="gpu-checked" class="hint"></span>
              </div>
              <p id="gpu-state" class="gpu-state" data-state="loading" role="status">
                <span class="dot" aria-hidden="true"></span>
                <span class="gpu-state-text">Asking the portal…</span>
              </p>
              <dl id="gpu-facts" class="gpu-facts"></dl>
              <div id="gpu-launch-choice" class="gpu-launch-choice" hidden>
                <div class="field">
                  <label for="gpu-region">Region</label>
                  <select id="gpu-region" name="region"></select>
                </div>
                <div class="field">
                  <label for="gpu-type">Machine type</label>
                  <select id="gpu-type" name="instance_type"></select>
                </div>
              </div>
              <div class="actions gpu-actions">
                <button id="gpu-launch" type="button" class="primary" hidden>
                  Launch a box
                </button>
                <button id="gpu-start" type="button" class="primary" hidden>
                  Start
                </button>
                <button id="gpu-stop" type="button" hidden>
                  Stop
                </button>
                <button id="gpu-terminate" type="button" class="danger-outline" hidden>
                  Terminate…
                </button>
              </div>
              <p id="gpu-result" class="result" role="status" aria-live="polite"></p>
            </section>
            <section class="card" aria-labelledby="box-h">
              <h2 id="box-h">The box</h2>
              <ul id="box-readiness" class="readiness" aria-live="polite">
                <li class="wait">
                  <span class="mark" aria-hidden="true">
                    …
                  </span>
                  <span>Checking…</span>
                </li>
              </ul>
            </section>
            <details id="gpu-diagnostics" class="card gpu-diagnostics">
              <summary>Diagnostics</summary>
              <div id="diagnostics-body" class="gpu-diagnostics-body">
                <p class="hint">Opening this asks the portal for the machine's status checks and what its address resolves to.</p>
              </div>
              <button id="diagnostics-refresh" type="button" class="quiet">
                Check again
              </button>
            </details>
            <ConfirmDialog
              name="terminate"
              title="Terminate the box?"
              keep="Keep the box"
              act={{ value: "terminate", label: "Terminate", tone: "danger" }}
            >
              <div id="terminate-what"></div>
            </ConfirmDialog>
          </div>
        ) : null}
      </main>
    </Shell>
  );
}
