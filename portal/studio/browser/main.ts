// The studio's one browser script (bundled by Bun.build, served at /studio/app.js): runs the part
// for the page it is on, named by <body data-page>.
import { startKeys } from "./keys.ts";
import { startLive } from "./live/index.ts";
import { signOut } from "./portal-api.ts";
import { startSignIn } from "./sign-in.ts";

const pages: Record<string, () => void> = { "sign-in": startSignIn, keys: startKeys, live: startLive };

document.getElementById("sign-out")?.addEventListener("click", () => void signOut());
pages[document.body.dataset.page ?? ""]?.();
