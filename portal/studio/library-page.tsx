/** @jsxImportSource hono/jsx */
// Implements: the studio's Avatars page (issue 13 item 2): upload from the computer or a webcam
// snapshot with the consent attestation, build progress, tones and clips, visibility with the
// publication terms, erase. The server renders the skeleton only (no avatar data, no secret);
// the script (portal/studio/browser/library/) fills it from `/auth/avatars*` and the box.
import { ConfirmDialog } from "./dialog.tsx";
import { Shell } from "./layout.tsx";

/** What the file input takes: the box's `POST /api/avatar` `file` part (PNG, JPG, MP4, MOV, WEBM). */
export const UPLOAD_ACCEPT = ".png,.jpg,.jpeg,.mp4,.mov,.webm,image/png,image/jpeg,video/mp4,video/quicktime,video/webm";

export function LibraryPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Avatars" page="library" email={props.email} admin={props.admin} data={{ admin: props.admin ? "1" : "0" }}>
      <main id="main" class="page-width medium library">
        <h1>Avatars</h1>
        <p class="lead">
          Make an avatar from a photo or a short video of one person. The box prepares a face from it, and then you can talk to it in the
          live studio. Your avatars are private unless you publish them.
        </p>
        <div id="notices" class="notices" aria-live="polite"></div>

        <section class="card" aria-labelledby="upload-h">
          <h2 id="upload-h">Add an avatar</h2>
          <form id="upload-form" novalidate>
            <div class="field">
              <label for="upload-file">Photo or video from this computer</label>
              <input id="upload-file" name="file" type="file" accept={UPLOAD_ACCEPT} aria-describedby="upload-file-hint" />
              <p id="upload-file-hint" class="hint">
                A PNG or JPG photo of one person looking at the camera, in good light; or an MP4, MOV or WEBM video of them. At most 50 MB.
                You name the avatar once the file is chosen.
              </p>
            </div>
            <div class="camera">
              <p class="hint camera-or">Or take a photo with this device's camera:</p>
              <div class="inline-form">
                <button type="button" id="camera-open">
                  Use the camera
                </button>
              </div>
              <div id="camera-panel" class="camera-panel" hidden>
                <video id="camera-video" playsinline muted aria-label="What the camera sees"></video>
                <div class="camera-buttons">
                  <button type="button" id="camera-snap" class="primary">
                    Take the photo
                  </button>
                  <button type="button" id="camera-close">
                    Close the camera
                  </button>
                </div>
              </div>
              <p id="camera-status" class="result" role="status"></p>
            </div>
            <div id="chosen" class="chosen" hidden aria-live="polite">
              <img id="chosen-still" alt="" hidden />
              <div class="chosen-facts">
                <p class="chosen-name"></p>
                <p class="hint chosen-what"></p>
              </div>
              <button type="button" id="chosen-clear" class="quiet">
                Choose another
              </button>
              <div class="field chosen-label">
                <label for="upload-name">Name of the avatar</label>
                <input
                  id="upload-name"
                  name="avatar-name"
                  type="text"
                  maxlength={120}
                  autocomplete="off"
                  aria-describedby="upload-name-hint"
                />
                <p id="upload-name-hint" class="hint">
                  Shown in your library and the live studio, and chosen now: a name cannot be changed later. A name you already used
                  replaces that avatar.
                </p>
              </div>
            </div>
            <fieldset class="field tone-choice" aria-describedby="tones-hint">
              <legend>Tones to build</legend>
              <div id="tone-boxes" class="tone-boxes">
                <p class="hint">Loading the tones…</p>
              </div>
              <p id="tones-hint" class="hint">
                Each tone is a resting expression of the same face (the live studio's Tone picker). Neutral is always built. The clip of
                each ticked tone is made as soon as the face is ready, without another press.
              </p>
            </fieldset>
            <div class="attest">
              <input id="attest" name="attest" type="checkbox" aria-describedby="attest-hint" />
              <label for="attest">
                I am the person in this photo or video, or I have their permission to make a talking avatar of them.
              </label>
            </div>
            <p id="attest-hint" class="hint attest-hint">
              Your agreement is recorded with a fingerprint (SHA-256) of exactly this file, before it is sent. Never upload someone who has
              not agreed.
            </p>
            <div class="actions start">
              <button type="submit" id="upload-submit" class="primary">
                Upload and prepare
              </button>
            </div>
            <p id="upload-result" class="result" role="status" aria-live="polite"></p>
          </form>
        </section>

        <section aria-labelledby="mine-h" class="library-section">
          <div class="card-head">
            <h2 id="mine-h">Your avatars</h2>
            <button type="button" id="refresh" class="quiet">
              Refresh
            </button>
          </div>
          <p id="list-result" class="result" role="status" aria-live="polite"></p>
          <div id="my-avatars">
            <p class="hint">Loading your avatars…</p>
          </div>
        </section>

        <section aria-labelledby="public-h" class="library-section">
          <h2 id="public-h">Public library</h2>
          <p class="hint">Avatars people of this portal have published. Their names and states are shown; nobody's e-mail address is.</p>
          <div id="public-avatars">
            <p class="hint">Loading the public library…</p>
          </div>
        </section>

        <dialog id="publish-dialog" aria-labelledby="publish-title" aria-describedby="publish-what">
          <form method="dialog" class="stack">
            <h2 id="publish-title">
              Publish <span class="publish-name"></span>?
            </h2>
            <p id="publish-what">
              A published avatar is listed in the public library, where everyone signed in to this portal can see it. You can make it
              private again at any time. Publishing needs your agreement to these terms:
            </p>
            <h3>
              Publication terms <span class="terms-version hint"></span>
            </h3>
            <div id="terms-text" class="terms-text" tabindex={0} role="document" aria-label="Publication terms">
              Loading the terms…
            </div>
            <div class="actions">
              <button value="cancel" type="submit" autofocus>
                Cancel
              </button>
              <button value="publish" type="submit" class="primary" id="publish-agree">
                I agree: publish
              </button>
            </div>
          </form>
        </dialog>

        <ConfirmDialog
          name="erase"
          title={
            <>
              Erase <span class="erase-name"></span> for good?
            </>
          }
          keep="Keep it"
          act={{ value: "erase", label: "Erase for good", tone: "danger" }}
        >
          <div id="erase-what">
            <p>This removes, for good:</p>
            <ul class="erase-list">
              <li>the avatar from your library;</li>
              <li>its listing in the public library, if it was ever published;</li>
              <li>the archived media: the photo or video it was made from and its generated clips;</li>
              <li>the prepared face on the box (at once while the box runs, otherwise when it next starts).</li>
            </ul>
            <p>This cannot be undone.</p>
          </div>
        </ConfirmDialog>
      </main>
    </Shell>
  );
}
