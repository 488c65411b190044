/** @jsxImportSource hono/jsx */
// Implements: the studio's Voices page (issue 13 item 2; spec "Voice settings (portal)", "Box:
// voices"). The server renders one card per engine and the engine choice from the catalogue's
// constants only (no settings, no key, no hint); the script (browser/voices.ts) fills them from
// `GET /auth/voice/settings` and the box's `GET /api/voices`, and saves through `/auth/voice/*`.
// "Your voice" is the person's own default voice of their engine (the settings record's voice
// slot, `POST /api/settings`), picked with the studio's searchable voice picker.
import { BUILT_IN_LABEL, PROVIDER_LABELS } from "../voice-keys/providers.ts";
import { BUILT_IN_ENGINE, HOSTED_PROVIDERS, VOICE_KEY_MAX_CHARS, type HostedProvider } from "../voice-keys/schema.ts";
import { ConfirmDialog } from "./dialog.tsx";
import { Shell } from "./layout.tsx";

/** Where a person makes a key (plain links; the portal never fetches them). */
export const KEY_PAGES: Readonly<Record<HostedProvider, { url: string; where: string }>> = {
  elevenlabs: { url: "https://elevenlabs.io/app/settings/api-keys", where: "the ElevenLabs dashboard (Developers, API keys)" },
  cartesia: { url: "https://play.cartesia.ai/keys", where: "the Cartesia dashboard (API keys)" },
};

const ABOUT: Record<string, string> = {
  [BUILT_IN_ENGINE]: "The box's own voice: speaks with no account and no key, in many languages.",
  chatterbox: "The box's self-hosted engine: its predefined voices and voices cloned from a clip. Pick its voices on the live page.",
  elevenlabs: "Hosted voices on your own ElevenLabs account, billed to it.",
  cartesia: "Hosted voices on your own Cartesia account, billed to it.",
};

/** What the box says about one engine, filled by the script. */
function LiveState(props: { id: string }) {
  return (
    <div class="voice-fact">
      <dt>On the box now</dt>
      <dd>
        <span class="voice-state" data-role="state" data-state="checking">
          Checking…
        </span>{" "}
        <span data-role="reason" id={`voice-reason-${props.id}`}></span>
      </dd>
    </div>
  );
}

function SampleRow(props: { id: string; label: string }) {
  return (
    <div class="voice-sample">
      <button type="button" data-role="sample" disabled aria-describedby={`voice-reason-${props.id}`}>
        Play a sample
      </button>
      <audio data-role="audio" controls hidden aria-label={`Sample of ${props.label}`}></audio>
    </div>
  );
}

function BoxEngineCard(props: { id: string; label: string; hidden?: boolean }) {
  return (
    <section
      class="card voice-card"
      id={`voice-card-${props.id}`}
      data-provider={props.id}
      aria-labelledby={`voice-h-${props.id}`}
      hidden={props.hidden}
    >
      <div class="card-head">
        <h3 id={`voice-h-${props.id}`}>{props.label}</h3>
        <span class="badge own" data-role="chosen" hidden>
          Your engine
        </span>
      </div>
      <p class="hint">{ABOUT[props.id]}</p>
      <dl class="voice-facts">
        <LiveState id={props.id} />
      </dl>
      <SampleRow id={props.id} label={props.label} />
      <p class="result" data-role="result" role="status" aria-live="polite"></p>
    </section>
  );
}

function HostedCard(props: { id: HostedProvider }) {
  const { id } = props;
  const label = PROVIDER_LABELS[id];
  const page = KEY_PAGES[id];
  return (
    <section class="card voice-card" id={`voice-card-${id}`} data-provider={id} aria-labelledby={`voice-h-${id}`}>
      <div class="card-head">
        <h3 id={`voice-h-${id}`}>{label}</h3>
        <span class="badge own" data-role="chosen" hidden>
          Your engine
        </span>
      </div>
      <p class="hint">{ABOUT[id]}</p>
      <dl class="voice-facts">
        <div class="voice-fact">
          <dt>Your key</dt>
          <dd data-role="key">Checking…</dd>
        </div>
        <LiveState id={id} />
      </dl>
      <form class="voice-key-form" data-role="key-form" novalidate>
        <label for={`voice-key-${id}`} data-role="key-label">
          {label} API key
        </label>
        <div class="inline-form">
          <input
            id={`voice-key-${id}`}
            name="key"
            type="password"
            class="grow"
            autocomplete="off"
            spellcheck={false}
            autocapitalize="off"
            maxlength={VOICE_KEY_MAX_CHARS}
            aria-describedby={`voice-key-hint-${id}`}
          />
          <button type="submit" class="primary" data-role="save">
            Save key
          </button>
        </div>
        <p class="result" data-role="key-result" role="status" aria-live="polite"></p>
        <p id={`voice-key-hint-${id}`} class="hint">
          Make one on <a href={page.url}>{page.where}</a>. The portal checks it with {label} before saving, keeps it encrypted and never
          shows it again (only its last characters).
        </p>
      </form>
      <div class="voice-actions">
        <SampleRow id={id} label={label} />
        <button type="button" class="danger-outline" data-role="remove" hidden>
          Remove key
        </button>
      </div>
      <p class="result" data-role="result" role="status" aria-live="polite"></p>
    </section>
  );
}

const ENGINES: { id: string; label: string }[] = [
  { id: BUILT_IN_ENGINE, label: BUILT_IN_LABEL },
  ...HOSTED_PROVIDERS.map((p) => ({ id: p, label: PROVIDER_LABELS[p] })),
];

export function VoicesPage(props: { email: string; admin: boolean }) {
  return (
    <Shell title="Voices" page="voices" email={props.email} admin={props.admin} data={{ admin: props.admin ? "1" : "0" }}>
      <main id="main" class="page-width medium">
        <h1>Voices</h1>
        <p class="lead">
          Choose the engine your avatar speaks with. The built-in voice needs nothing; ElevenLabs and Cartesia speak with your own account
          once you save its API key here.
        </p>
        <div id="voice-notices" class="notices" aria-live="polite"></div>

        <section class="card" aria-labelledby="engine-h">
          <h2 id="engine-h">Engine for your sessions</h2>
          <form id="engine-form" novalidate>
            <fieldset aria-describedby="engine-hint">
              <legend>Which engine speaks by default</legend>
              <div class="engine-options">
                {ENGINES.map((e) => (
                  <label class="engine-option" for={`engine-${e.id}`}>
                    <input
                      type="radio"
                      name="engine"
                      id={`engine-${e.id}`}
                      value={e.id}
                      disabled
                      aria-describedby={`engine-note-${e.id}`}
                    />
                    <span class="engine-text">
                      <span class="engine-name">{e.label}</span>
                      <span class="hint" id={`engine-note-${e.id}`} data-role="note">
                        Checking…
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <p id="engine-hint" class="hint">
              A voice picked on the live page wins for that session. When your key cannot be used, the box's own voice speaks instead and
              says so.
            </p>
            <div class="actions">
              <button type="submit" class="primary" id="engine-save" disabled>
                Use this engine
              </button>
            </div>
          </form>
          <p id="engine-result" class="result" role="status" aria-live="polite"></p>
        </section>

        <section class="card" aria-labelledby="own-voice-h">
          <h2 id="own-voice-h">Your voice</h2>
          <p id="own-voice-hint" class="hint">
            The voice of <span id="own-voice-engine">your engine</span> that speaks in your sessions. With “The face's own voice” each
            avatar speaks with a voice that fits it. A voice picked for an avatar on the live page wins there.
          </p>
          <div class="field">
            <label for="own-voice">Voice</label>
            <select id="own-voice" aria-describedby="own-voice-hint" disabled></select>
          </div>
          <p id="own-voice-result" class="result" role="status" aria-live="polite"></p>
        </section>

        <section aria-labelledby="box-engines-h">
          <div class="voices-head">
            <h2 id="box-engines-h">The box's own engines</h2>
            <button type="button" id="voices-recheck" class="quiet">
              Check again
            </button>
          </div>
          <div class="voice-grid">
            <BoxEngineCard id={BUILT_IN_ENGINE} label={BUILT_IN_LABEL} />
            <BoxEngineCard id="chatterbox" label="Chatterbox (self-hosted)" hidden />
          </div>
        </section>
        <section aria-labelledby="own-engines-h">
          <h2 id="own-engines-h" class="voices-title">
            Your own accounts
          </h2>
          <div class="voice-grid">
            {HOSTED_PROVIDERS.map((p) => (
              <HostedCard id={p} />
            ))}
          </div>
        </section>

        <ConfirmDialog
          name="remove-key"
          title={
            <>
              Remove your <span class="remove-label"></span> key?
            </>
          }
          keep="Keep the key"
          act={{ value: "remove", label: "Remove key", tone: "danger" }}
        >
          <p id="remove-key-what">
            The key <code class="remove-masked"></code> is deleted from the portal and the box stops using it.{" "}
            <span class="remove-fallback"></span>
          </p>
        </ConfirmDialog>
      </main>
    </Shell>
  );
}
