// The Portraits page (portal/studio/portraits-page.tsx renders its skeleton): describe → generate
// (`POST /auth/portraits`), look (the bytes of `GET /auth/portraits/{id}` as a blob: URL, their
// digest computed here), regenerate (a new id; the old one stays), approve after a dialog (bound to
// the digest of the bytes shown), and make it an avatar (`POST /api/avatar` with exactly those bytes
// and `consent_token` = the approval's `consent_id`, through the client library). The list is the
// person's portraits and their variations (`GET /auth/portraits`, newest first); a portrait's bytes
// are read when it is picked.
import { AvatarApiError, AvatarClient, portalCredentialProvider, type AvatarUploadAnswer } from "../../../shared/client/index.ts";
import { byId, h, Notices, say } from "./dom.ts";
import { portalJson, toSignIn } from "./portal-api.ts";
import { ago, explain, when } from "./words.ts";
import type { PortraitRecord } from "../../../shared/wire/portraits.ts";

/** A portrait as this page holds it: the record, and once looked at, the exact bytes shown and their digest. */
interface Shown {
  record: PortraitRecord;
  blob: Blob | null;
  /** A blob: URL of the bytes shown, or the record's URL while they are not read yet (list thumbnails). */
  src: string;
  sha256: string;
  /** The box avatar made of it on this visit. */
  avatar: string | null;
}

const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** Refusals of the portrait routes in words; null for anything `explain()` says well. */
export function portraitWords(err: unknown): string | null {
  if (!(err instanceof AvatarApiError)) return null;
  switch (err.code) {
    case "portrait_generator_unavailable":
      return `The portrait generator is not available right now: ${sentence(err.message)} Nothing was kept. Try again in a minute; if it stays like this, whoever runs the portal checks its image provider (PORTAL_IMAGE_BASE_URL) and the portal's log.`;
    case "portrait_generation_failed":
      return `The portrait could not be made: ${sentence(err.message)} Nothing was kept. Try again, or change the description.`;
    case "asset_store_failed":
      return `The portal's media store failed: ${sentence(err.message)} Try again shortly; if it keeps failing, tell whoever runs the portal.`;
    case "portrait_not_found":
      return "That portrait is not yours or is gone. Generate a new one.";
    case "portrait_digest_mismatch":
      return "The image on the portal is not the one this page showed, so nothing was approved. The page has loaded it again: look at it, then approve again.";
    case "invalid_body":
      return sentence(err.message);
    default:
      return null;
  }
}

/** Hex SHA-256 of the bytes (the header when the browser has no WebCrypto: a page not on https). */
async function digestOf(bytes: ArrayBuffer, header: string | null): Promise<string> {
  if (globalThis.crypto?.subtle) {
    const d = await crypto.subtle.digest("SHA-256", bytes);
    return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  if (header && /^[0-9a-f]{64}$/.test(header)) return header;
  throw new Error(
    "This browser cannot check the image's digest here (no WebCrypto on a page that is not https), and the portal sent none.",
  );
}

/** The bytes of a portrait, as the portal serves them. */
async function fetchBytes(record: PortraitRecord): Promise<{ blob: Blob; sha256: string }> {
  let res: Response;
  try {
    res = await fetch(record.url, { credentials: "same-origin" });
  } catch (err) {
    throw new AvatarApiError(0, "network_error", `The portal could not be reached: ${(err as Error)?.message ?? String(err)}`, {
      source: "local",
      cause: err,
    });
  }
  if (!res.ok) throw await AvatarApiError.fromResponse(res);
  const bytes = await res.arrayBuffer();
  const sha256 = await digestOf(bytes, res.headers.get("x-portrait-sha256"));
  return { blob: new Blob([bytes], { type: record.content_type }), sha256 };
}

export function startPortraits(): void {
  const admin = document.body.dataset.admin === "1";
  const notices = new Notices(byId("notices"));
  const form = byId<HTMLFormElement>("describe-form");
  const description = byId<HTMLTextAreaElement>("description");
  const generateBtn = byId<HTMLButtonElement>("generate");
  const describeResult = byId("describe-result");
  const currentCard = byId("current");
  const img = byId<HTMLImageElement>("portrait-img");
  const empty = byId("portrait-empty");
  const facts = byId("portrait-facts");
  const regenerateBtn = byId<HTMLButtonElement>("regenerate");
  const approveBtn = byId<HTMLButtonElement>("approve");
  const nameInput = byId<HTMLInputElement>("avatar-name");
  const makeBtn = byId<HTMLButtonElement>("make-avatar");
  const result = byId("portrait-result");
  const made = byId("avatar-made");
  const liveLink = byId<HTMLAnchorElement>("avatar-live-link");
  const list = byId<HTMLUListElement>("portrait-list");
  const listEmpty = byId("portrait-list-empty");
  const dialog = byId<HTMLDialogElement>("approve-dialog");

  const client = new AvatarClient({ baseUrl: "", token: portalCredentialProvider() });
  const shown: Shown[] = [];
  let current: Shown | null = null;
  let drawing = false;
  let approving = false;
  let uploading = false;

  const sync = () => {
    const approved = Boolean(current?.record.consent_id);
    generateBtn.disabled = drawing;
    regenerateBtn.disabled = !current || drawing;
    approveBtn.disabled = !current || drawing || approving || approved;
    approveBtn.textContent = approved ? "Approved ✓" : "Approve…";
    makeBtn.disabled = !current || !approved || drawing || uploading;
    currentCard.setAttribute("aria-busy", String(drawing));
  };

  /** Says a failure where it happened; signed out and box stopped get their own notices. */
  const failed = (err: unknown, where: HTMLElement) => {
    const p = explain(err);
    if (p.kind === "signed_out") {
      say(where, "");
      notices.set("auth", "error", p.text, [{ label: "Sign in again", run: toSignIn }]);
      return;
    }
    if (p.kind === "box_stopped") {
      say(where, "");
      const text = (t: string) => document.createTextNode(t);
      const next = admin
        ? [text(" Start it on the "), h("a", { href: "/studio/gpu" }, "GPU page"), text(", then press Make it an avatar again.")]
        : [text(" Ask an administrator of this portal to start it, then press Make it an avatar again.")];
      notices.set("box", "error", [text(`${p.text} The portrait and its approval are kept.`), ...next]);
      return;
    }
    say(where, portraitWords(err) ?? p.text, "error");
  };

  const renderFacts = (s: Shown) => {
    const r = s.record;
    const kind = r.content_type === "image/png" ? "PNG" : "JPEG";
    const by = r.generator === "embedded" ? "the built-in drawing" : "the image provider";
    const approval = r.approved_at ? `approved ${when(r.approved_at)}` : "not approved yet";
    facts.replaceChildren(
      h("q", {}, r.description),
      ` · ${r.width}×${r.height} ${kind}, ${Math.max(1, Math.round(r.size_bytes / 1024))} KB, drawn by ${by}, ${when(r.created_at)} · `,
      h("strong", {}, approval),
      s.avatar ? ` · avatar “${s.avatar}”` : "",
    );
  };

  const renderList = () => {
    listEmpty.hidden = shown.length > 0;
    list.replaceChildren(
      ...shown.map((s) => {
        const r = s.record;
        const state = s.avatar ? `Avatar “${s.avatar}”` : r.consent_id ? "Approved" : "Not approved";
        const pick = h(
          "button",
          { type: "button", class: "portrait-pick", "aria-pressed": String(s === current), "data-portrait-id": r.portrait_id },
          h("img", { src: s.src, alt: "", width: 96, height: 96 }),
          h(
            "span",
            { class: "portrait-pick-text" },
            h("span", { class: "portrait-pick-desc" }, r.description),
            h(
              "span",
              { class: "portrait-pick-state" },
              `${state} · `,
              h("time", { datetime: new Date(r.created_at * 1000).toISOString(), title: when(r.created_at) }, ago(r.created_at)),
            ),
          ),
        );
        pick.addEventListener("click", () => void pickFrom(s));
        return h("li", {}, pick);
      }),
    );
  };

  function show(s: Shown): void {
    current = s;
    img.src = s.src;
    img.alt = `Portrait: ${s.record.description}`;
    img.hidden = false;
    empty.hidden = true;
    renderFacts(s);
    made.hidden = !s.avatar;
    if (s.avatar) liveLink.href = `/studio?avatar=${encodeURIComponent(s.avatar)}`;
    say(result, "");
    renderList();
    sync();
  }

  /** A portrait of the list: its bytes are read (and their digest taken) before it is shown. */
  const pickFrom = async (s: Shown) => {
    if (s.blob) return show(s);
    say(result, "Loading the portrait…");
    try {
      const { blob, sha256 } = await fetchBytes(s.record);
      Object.assign(s, { blob, sha256, src: URL.createObjectURL(blob) });
      show(s);
      if (currentCard.getBoundingClientRect().top < 0 || currentCard.getBoundingClientRect().top > innerHeight * 0.6)
        currentCard.scrollIntoView({ block: "start" });
    } catch (err) {
      failed(err, result);
    }
  };

  /** The person's portraits so far (a failure leaves the list empty and says so). */
  const loadList = async () => {
    try {
      const { portraits } = await portalJson<{ portraits: PortraitRecord[] }>("GET", "/auth/portraits");
      const known = new Set(shown.map((s) => s.record.portrait_id));
      for (const record of portraits)
        if (!known.has(record.portrait_id)) shown.push({ record, blob: null, src: record.url, sha256: "", avatar: null });
      renderList();
    } catch (err) {
      failed(err, describeResult);
    }
  };

  /** Loads a new record's bytes, waits until the browser decoded them, and shows it first in the list. */
  const adopt = async (record: PortraitRecord): Promise<Shown> => {
    const { blob, sha256 } = await fetchBytes(record);
    const s: Shown = { record, blob, src: URL.createObjectURL(blob), sha256, avatar: null };
    const probe = new Image();
    probe.src = s.src;
    await probe.decode().catch(() => {
      throw new Error("The browser could not show the portrait's image. Try Regenerate.");
    });
    shown.unshift(s);
    show(s);
    return s;
  };

  /** One line, as the portal wants it (no line breaks). */
  const typed = () => description.value.replace(/\s+/g, " ").trim();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (drawing) return;
    const text = typed();
    if (!text) {
      say(describeResult, "Describe the person first, for example: “a woman with short red hair and glasses, smiling”.", "error");
      description.focus();
      return;
    }
    drawing = true;
    sync();
    say(describeResult, "Drawing…");
    try {
      const { portrait } = await portalJson<{ portrait: PortraitRecord }>("POST", "/auth/portraits", { description: text });
      await adopt(portrait);
      say(describeResult, "Here it is. Regenerate for another variation, or approve it.", "ok");
      // On a phone the portrait is below the form: bring it up.
      if (currentCard.getBoundingClientRect().top > innerHeight * 0.6) currentCard.scrollIntoView({ block: "start" });
    } catch (err) {
      failed(err, describeResult);
    } finally {
      drawing = false;
      sync();
    }
  });
  // Enter draws (a description is one line); Shift+Enter too, since line breaks are not allowed.
  description.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  for (const b of document.querySelectorAll<HTMLButtonElement>("button.portrait-example")) {
    b.addEventListener("click", () => {
      description.value = b.dataset.example ?? "";
      description.focus();
    });
  }

  regenerateBtn.addEventListener("click", async () => {
    const from = current;
    if (!from || drawing) return;
    drawing = true;
    sync();
    say(describeResult, "");
    say(result, "Drawing another variation…");
    try {
      const text = typed();
      const body = text && text !== from.record.description ? { description: text } : {};
      const { portrait } = await portalJson<{ portrait: PortraitRecord }>(
        "POST",
        `/auth/portraits/${encodeURIComponent(from.record.portrait_id)}/regenerate`,
        body,
      );
      await adopt(portrait);
      say(result, "A new variation; the previous one is still in the list below.", "ok");
    } catch (err) {
      failed(err, result);
    } finally {
      drawing = false;
      sync();
    }
  });

  approveBtn.addEventListener("click", () => {
    if (!current || approving) return;
    dialog.querySelector<HTMLImageElement>(".portrait-approve-thumb")!.src = current.src;
    dialog.returnValue = "";
    dialog.showModal();
  });

  dialog.addEventListener("close", async () => {
    const s = current;
    if (dialog.returnValue !== "approve" || !s || approving) return;
    approving = true;
    sync();
    say(result, "Recording your approval…");
    try {
      const { portrait } = await portalJson<{ portrait: PortraitRecord; consent: { consent_id: string } }>(
        "POST",
        `/auth/portraits/${encodeURIComponent(s.record.portrait_id)}/approve`,
        { sha256: s.sha256 },
      );
      s.record = portrait;
      if (current === s) renderFacts(s);
      renderList();
      say(result, "Approved. Now you can make it an avatar.", "ok");
      makeBtn.focus();
    } catch (err) {
      if (err instanceof AvatarApiError && err.code === "portrait_digest_mismatch") {
        // Show what the portal has now; the person approves that, or not.
        try {
          const fresh = await fetchBytes(s.record);
          Object.assign(s, { blob: fresh.blob, sha256: fresh.sha256, src: URL.createObjectURL(fresh.blob) });
          if (current === s) show(s);
        } catch (again) {
          failed(again, result);
          return;
        }
      }
      failed(err, result);
    } finally {
      approving = false;
      sync();
    }
  });

  makeBtn.addEventListener("click", async () => {
    const s = current;
    if (!s?.blob || !s.record.consent_id || uploading) return;
    uploading = true;
    sync();
    notices.clear("box");
    say(result, "Sending the portrait to the box…");
    made.hidden = true;
    try {
      const ext = s.record.content_type === "image/jpeg" ? "jpg" : "png";
      const name = nameInput.value.trim() || s.record.portrait_id;
      const answer: AvatarUploadAnswer = await client.uploadAvatar({
        file: s.blob,
        filename: `${name}.${ext}`,
        consent_token: s.record.consent_id,
      });
      s.avatar = answer.avatar;
      const state = answer.status === "ready" ? "ready" : "being prepared (its progress shows under Your avatars)";
      const tones = answer.tones.length ? ` Tones coming: ${answer.tones.join(", ")}.` : "";
      say(result, `Avatar “${answer.avatar}” is on the box and ${state}.${tones}${answer.note ? ` ${sentence(answer.note)}` : ""}`, "ok");
      liveLink.href = `/studio?avatar=${encodeURIComponent(answer.avatar)}`;
      made.hidden = false;
      if (current === s) renderFacts(s);
      renderList();
    } catch (err) {
      failed(err, result);
    } finally {
      uploading = false;
      sync();
    }
  });

  sync();
  void loadList();
}
