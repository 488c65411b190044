// The Avatars page: the person's own avatars (`GET /auth/avatars`, merged with what the running box
// says now) and the public library (`GET /auth/avatars/public`), the upload form, publishing and
// erasing. One AvatarClient on this origin whose credential the portal mints (the page holds no
// key). While a face is being prepared or a clip made, the page asks again every two seconds,
// and stops when nothing moves or the page is hidden. The clips of the tones ticked at upload are
// asked for as soon as the face is ready (remembered for the tab, so a reload still makes them).
import {
  AvatarApiError,
  AvatarClient,
  portalCredentialProvider,
  type AvatarUploadAnswer,
  type LoadedAvatars,
} from "../../../../shared/client/index.ts";
import { byId, h, Notices } from "../dom.ts";
import { portalJson, toSignIn } from "../portal-api.ts";
import { explain } from "../words.ts";
import { LibraryDialogs } from "./dialogs.ts";
import { anyPreparing, mergeAvatars, type AvatarView, type LibraryRecord, type PublicLibraryRecord } from "./model.ts";
import { AvatarRow } from "./rows.ts";
import { UploadForm } from "./upload.ts";

const POLL_MS = 2_000;
const CLIPS_WANTED_KEY = "studio.clipsWanted";

/** Avatar id → tones whose clips to make once its face is ready (null: every tone). Kept for the tab. */
function clipsWanted(): Map<string, string[] | null> {
  try {
    return new Map(Object.entries(JSON.parse(sessionStorage.getItem(CLIPS_WANTED_KEY) ?? "{}") as Record<string, string[] | null>));
  } catch {
    return new Map();
  }
}

function keepClipsWanted(wanted: ReadonlyMap<string, string[] | null>): void {
  try {
    sessionStorage.setItem(CLIPS_WANTED_KEY, JSON.stringify(Object.fromEntries(wanted)));
  } catch {
    // Storage refused: the clips are still asked for while this page stays open.
  }
}

export function startLibrary(): void {
  const admin = document.body.dataset.admin === "1";
  const notices = new Notices(byId("notices"));
  const client = new AvatarClient({ baseUrl: "", token: portalCredentialProvider() });
  const mine = byId("my-avatars");
  const publicList = byId("public-avatars");
  const listResult = byId("list-result");
  const heading = byId("mine-h");
  const refreshBtn = byId<HTMLButtonElement>("refresh");
  const rows = new Map<string, AvatarRow>();
  const uploaded = new Map<string, { name: string; at: number }>();
  /** Erased here: a copy the running box could not drop yet is not shown again as a new avatar. */
  const erased = new Set<string>();
  const wanted = clipsWanted();
  const list = h("ul", { class: "avatar-list" });
  let records: LibraryRecord[] | null = null;
  let box: LoadedAvatars | null = null;
  let views: AvatarView[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let ticking = false;

  /** Signed out: to sign-in. Box stopped: one notice saying what still works. True when it was one of those. */
  function handled(err: unknown): boolean {
    const p = explain(err);
    if (p.kind === "signed_out") {
      toSignIn();
      return true;
    }
    if (p.kind !== "box_stopped") return false;
    const stopped = err instanceof AvatarApiError && err.code === "box_not_running" ? "The box is stopped." : p.text;
    const what = " Uploads, stills and clips need it; your library, publishing and erasing work without it.";
    notices.set(
      "box",
      "warning",
      admin
        ? [
            new Text(`${stopped}${what} `),
            h("a", { href: "/studio/gpu" }, "Start it on the GPU page"),
            new Text(" (you are an administrator), then press Refresh."),
          ]
        : `${stopped}${what} Ask an administrator of this portal to start it, then press Refresh.`,
    );
    return true;
  }

  async function loadBox(): Promise<void> {
    try {
      box = await client.avatars();
      notices.clear("box");
    } catch (err) {
      box = null;
      if (!handled(err)) notices.set("box", "error", `The box's avatars could not be read: ${explain(err).text}`);
    }
  }

  async function loadMine(): Promise<void> {
    try {
      records = (await portalJson<{ avatars: LibraryRecord[] }>("GET", "/auth/avatars")).avatars;
      notices.clear("library");
    } catch (err) {
      if (!handled(err))
        notices.set("library", "error", `Your library could not be read: ${explain(err).text} Press Refresh to try again.`);
    }
  }

  async function loadPublic(): Promise<void> {
    try {
      const { avatars } = await portalJson<{ avatars: PublicLibraryRecord[] }>("GET", "/auth/avatars/public");
      renderPublic(avatars);
    } catch (err) {
      if (!handled(err))
        publicList.replaceChildren(h("p", { class: "result error" }, `The public library could not be read: ${explain(err).text}`));
    }
  }

  function render(): void {
    if (records === null && box === null && uploaded.size === 0) return;
    for (const r of records ?? []) uploaded.delete(r.avatar_id);
    views = mergeAvatars(records ?? [], box, uploaded).filter((v) => v.record !== null || !erased.has(v.id));
    const seen = new Set<string>();
    for (const [i, v] of views.entries()) {
      seen.add(v.id);
      let row = rows.get(v.id);
      if (row) row.update(v);
      else {
        row = new AvatarRow(v, client, {
          publish: (r) => void dialogs.publish(r),
          unpublish: (r) => void dialogs.unpublish(r),
          erase: (r) => dialogs.erase(r),
          moving: () => schedule(),
        });
        rows.set(v.id, row);
      }
      const tones = wanted.get(v.id);
      if (tones !== undefined && v.state === "failed") wanted.delete(v.id);
      else if (tones !== undefined && row.buildClips(tones)) wanted.delete(v.id);
      keepClipsWanted(wanted);
      // Newest first, without moving rows that are already in place (focus stays put).
      if (list.children[i] !== row.li) list.insertBefore(row.li, list.children[i] ?? null);
    }
    for (const [id, row] of rows) {
      if (seen.has(id)) continue;
      row.dispose();
      row.li.remove();
      rows.delete(id);
    }
    if (views.length) {
      if (mine.firstElementChild !== list) mine.replaceChildren(list);
    } else {
      mine.replaceChildren(
        h(
          "div",
          { class: "empty-state" },
          h("p", {}, h("strong", {}, "You have no avatars yet.")),
          h(
            "p",
            {},
            "Add one above: choose a photo of one person looking at the camera (or take one with your camera), tick the consent box and press Upload and prepare. " +
              "The box prepares a face from it (the time it takes shows as it goes); then you can use it in the live studio.",
          ),
        ),
      );
    }
  }

  function renderPublic(avatars: PublicLibraryRecord[]): void {
    if (!avatars.length) {
      publicList.replaceChildren(h("p", { class: "empty" }, "Nobody has published an avatar yet."));
      return;
    }
    publicList.replaceChildren(
      h(
        "ul",
        { class: "public-list" },
        ...avatars.map((a) =>
          h(
            "li",
            { class: "public-item", "data-avatar-id": a.avatar_id },
            h("span", { class: "public-name" }, a.name || a.avatar_id),
            a.mine ? h("span", { class: "badge own" }, "Yours") : null,
            h(
              "span",
              { class: "hint" },
              a.mine ? "Published by you: manage it under Your avatars." : "Published by someone else: not available on this box.",
            ),
          ),
        ),
      ),
    );
  }

  /** Something moves (a face being prepared, a clip being made): ask again soon, unless hidden. */
  function moving(): boolean {
    return anyPreparing(views) || [...rows.values()].some((r) => r.clipsMoving);
  }

  function schedule(): void {
    if (timer || ticking || document.visibilityState === "hidden" || !moving()) return;
    timer = setTimeout(() => void tick(), POLL_MS);
  }

  async function tick(): Promise<void> {
    timer = null;
    if (ticking) return;
    ticking = true;
    try {
      await Promise.all([loadBox(), loadMine(), ...[...rows.values()].filter((r) => r.clipsMoving).map((r) => r.refreshClips())]);
      render();
    } finally {
      ticking = false;
    }
    schedule();
  }

  async function refreshAll(): Promise<void> {
    await Promise.all([loadBox(), loadMine(), loadPublic(), ...[...rows.values()].map((r) => r.refreshClips())]);
    render();
    schedule();
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      if (timer) clearTimeout(timer);
      timer = null;
    } else void tick();
  });

  refreshBtn.addEventListener("click", async () => {
    refreshBtn.disabled = true;
    try {
      await refreshAll();
    } finally {
      refreshBtn.disabled = false;
    }
  });

  const dialogs = new LibraryDialogs({
    client,
    handled,
    result: listResult,
    changed: async () => {
      await Promise.all([loadBox(), loadMine(), loadPublic()]);
      render();
    },
    erased: (id) => {
      erased.add(id);
      uploaded.delete(id);
    },
    afterErase: () => {
      heading.tabIndex = -1;
      heading.focus();
    },
    eraseUnfinished: (id, name, again) =>
      notices.set(`erase-${id}`, "warning", `Part of “${name}” could not be erased yet (its archived media). Erase it again to finish.`, [
        {
          label: "Erase again",
          run: async () => {
            try {
              await again();
              notices.clear(`erase-${id}`);
            } catch (err) {
              if (!handled(err)) notices.set(`erase-${id}`, "error", `It could not be finished: ${explain(err).text}`);
            }
          },
        },
      ]),
  });

  const form = new UploadForm({
    client,
    handled,
    sameName: (name) => views.some((v) => v.name === name),
    uploaded: (answer: AvatarUploadAnswer, filename: string, tones: string[] | null) => {
      erased.delete(answer.avatar);
      uploaded.set(answer.avatar, { name: filename, at: Math.floor(Date.now() / 1000) });
      if (tones === null || tones.length) wanted.set(answer.avatar, tones);
      keepClipsWanted(wanted);
      void tick();
    },
  });

  void form.loadTones();
  void refreshAll();
}
