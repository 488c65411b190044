/** @jsxImportSource hono/jsx */
// Implements: the studio's Portraits page (issue 13 item 2): describe a persona, generate,
// regenerate, approve (bound to the image's byte digest) and make it a box avatar in one step.
// The server renders the skeleton; the script (portal/studio/browser/portraits.ts) does the rest
// through `/auth/portraits*` and the box's `POST /api/avatar`.
import { ConfirmDialog } from "./dialog.tsx";
import { Shell } from "./layout.tsx";

/** The longest description the portal takes (docs/api-notes.md "Portal: Portraits"). */
export const DESCRIPTION_MAX = 1000;

/** Descriptions in the words the embedded drawing reads (shared/face-drawing/describe-words.ts). */
export const EXAMPLES = [
  "a woman with short red hair and glasses, smiling",
  "an elderly man with grey hair, a beard and a navy jacket, calm",
  "a young Black woman with curly hair, brown eyes and a green sweater, cheerful",
  "a bald middle-aged man with a moustache and a white shirt, serious",
];

/** What the embedded generator understands, family by family. */
const VOCABULARY: [string, string][] = [
  [
    "Hair",
    "a colour (black, brown, chestnut, auburn, red or ginger, blonde, platinum, grey, white, salt-and-pepper, even pink or blue) and a style (long, short, in a bun or ponytail, curly or an afro, bald or shaved)",
  ],
  ["Skin", "pale, fair, light, olive, tanned, brown, dark, deep; or “a Black woman”, “a white man”"],
  ["Eyes", "blue, green, hazel, brown, grey, amber eyes"],
  ["Age", "young, teenage, middle-aged, elderly, “45-year-old”, “in her fifties”"],
  ["Glasses", "glasses, spectacles, sunglasses"],
  ["Face hair", "a beard, goatee, moustache, stubble, or clean-shaven"],
  ["Freckles", "freckles, freckled"],
  [
    "Clothes",
    "a colour and a garment: “a red shirt”, “green jacket”, “navy hoodie” (shirts, jackets and suits get a collar; t-shirts, sweaters and dresses a round neck)",
  ],
  ["Mood", "smiling, cheerful or friendly; serious or stern; calm; sad"],
];

export function PortraitsPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Portraits" page="portraits" email={props.email} admin={props.admin} data={{ admin: props.admin ? "1" : "0" }}>
      <main id="main" class="page-width">
        <h1>Portraits</h1>
        <p class="lead">
          Describe a person and the portal draws a portrait of them. Regenerate until you like one, approve it, then make it an avatar on
          the box in one step: it can talk at once. Every portrait is kept under its own id; regenerating never replaces one.
        </p>
        <div id="notices" class="notices" aria-live="polite"></div>
        <div class="portrait-layout">
          <section class="card" aria-labelledby="describe-h">
            <h2 id="describe-h">Describe the person</h2>
            <form id="describe-form">
              <div class="field">
                <label for="description">Description</label>
                <textarea
                  id="description"
                  name="description"
                  rows={4}
                  maxlength={DESCRIPTION_MAX}
                  required
                  autocomplete="off"
                  placeholder={EXAMPLES[0]}
                  aria-describedby="description-hint"
                ></textarea>
                <p id="description-hint" class="hint">
                  One line, up to {DESCRIPTION_MAX} characters. “no”, “not” or “without” cancel the next feature (“without glasses”).
                  Anything the drawing does not know is left to chance.
                </p>
              </div>
              <div class="actions portrait-actions">
                <button id="generate" type="submit" class="primary">
                  Generate
                </button>
              </div>
              <p id="describe-result" class="result" role="status" aria-live="polite"></p>
            </form>
            <h3 id="examples-h" class="portrait-examples-h">
              Examples <span class="hint">(press one to put it in the description)</span>
            </h3>
            <ul class="portrait-examples" aria-labelledby="examples-h">
              {EXAMPLES.map((e) => (
                <li>
                  <button type="button" class="quiet portrait-example" data-example={e}>
                    {e}
                  </button>
                </li>
              ))}
            </ul>
            <details class="portrait-vocabulary">
              <summary>What the drawing understands</summary>
              <dl>
                {VOCABULARY.map(([family, words]) => (
                  <>
                    <dt>{family}</dt>
                    <dd>{words}</dd>
                  </>
                ))}
              </dl>
              <p class="hint">An image provider configured on the portal (PORTAL_IMAGE_BASE_URL) reads any description instead.</p>
            </details>
          </section>

          <section id="current" class="card" aria-labelledby="current-h" aria-busy="false">
            <h2 id="current-h">Portrait</h2>
            <div class="portrait-frame">
              <img id="portrait-img" alt="" hidden />
              <p id="portrait-empty" class="portrait-empty">
                No portrait yet: describe someone and press Generate.
              </p>
            </div>
            <p id="portrait-facts" class="hint portrait-facts"></p>
            <div class="actions portrait-actions">
              <button id="regenerate" type="button" disabled aria-describedby="regenerate-hint">
                Regenerate
              </button>
              <button id="approve" type="button" disabled>
                Approve…
              </button>
            </div>
            <p id="regenerate-hint" class="hint">
              Regenerate draws a new variation (with the description above, if you changed it); this one stays in the list below.
            </p>
            <div class="portrait-make">
              <h3>Make it an avatar</h3>
              <div class="field">
                <label for="avatar-name">Avatar name</label>
                <input
                  id="avatar-name"
                  name="avatar-name"
                  maxlength={48}
                  autocomplete="off"
                  spellcheck={false}
                  aria-describedby="avatar-name-hint"
                />
                <p id="avatar-name-hint" class="hint">
                  Becomes the avatar's id (lower case, dashes). Giving a name you already used replaces that avatar of yours. Left empty,
                  the portrait's id is used.
                </p>
              </div>
              <button id="make-avatar" type="button" class="primary" disabled aria-describedby="make-avatar-hint">
                Make it an avatar
              </button>
              <p id="make-avatar-hint" class="hint">
                Needs the portrait approved. The box receives exactly the approved image with your approval, so it can build the avatar's
                clips at once.
              </p>
            </div>
            <div id="portrait-result" class="result" role="status" aria-live="polite"></div>
            <div id="avatar-made" class="portrait-made" hidden>
              <a id="avatar-live-link" href="/studio">
                Talk to it in the live studio
              </a>
              <a href="/studio/library">See it in your avatars</a>
            </div>
          </section>
        </div>

        <section aria-labelledby="list-h" class="portrait-made-list">
          <h2 id="list-h">Your portraits</h2>
          <p class="hint">
            Every portrait you made, newest first, with its variations. Pick one to look at it again, approve it or make it an avatar.
          </p>
          <p id="portrait-list-empty" class="empty">
            None yet.
          </p>
          <ul id="portrait-list" class="portrait-list"></ul>
        </section>

        <ConfirmDialog
          name="approve"
          title="Approve this portrait?"
          keep="Not yet"
          act={{ value: "approve", label: "Approve", tone: "primary" }}
        >
          <img class="portrait-approve-thumb" alt="The portrait you are approving" />
          <div id="approve-what">
            <p>
              You confirm that you looked at this image and want it used as an avatar. Your approval covers exactly this picture: no other
              image, not even a changed copy of this one, can be made into an avatar with it.
            </p>
          </div>
        </ConfirmDialog>
      </main>
    </Shell>
  );
}
