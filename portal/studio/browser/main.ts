// The studio's one browser script (bundled by Bun.build, served at /studio/app.js): runs the part
// for the page it is on, named by <body data-page>.
import { startGpu } from "./gpu.ts";
import { startKeys } from "./keys.ts";
import { startLibrary } from "./library.ts";
import { startLive } from "./live/index.ts";
import { signOut } from "./portal-api.ts";
import { startPortraits } from "./portraits.ts";
import { startSignIn } from "./sign-in.ts";
import { startVoices } from "./voices.ts";

const pages: Record<string, () => void> = {
  "sign-in": startSignIn,
  keys: startKeys,
  live: startLive,
  library: startLibrary,
  portraits: startPortraits,
  voices: startVoices,
  gpu: startGpu,
};

document.getElementById("sign-out")?.addEventListener("click", () => void signOut());
pages[document.body.dataset.page ?? ""]?.();
