// Reading the words in a picture for the e2e specs (what a vision model could read in it):
// tesseract.js (Tesseract's LSTM engine in WebAssembly, in a Node worker thread) with the English
// model of the npm package @tesseract.js-data/eng. Both come from node_modules: an explicit
// `langPath` keeps tesseract.js off its default CDN, and `cacheMethod: "none"` keeps it from
// writing `eng.traineddata` into the working folder.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createWorker, OEM } from "tesseract.js";

const require = createRequire(import.meta.url);

/** The English LSTM model, gzipped: `4.0.0_best_int` is the one tesseract.js itself takes for LSTM only. */
export const ENG_MODEL_DIR = join(dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int");

/** The text Tesseract reads in `image` (PNG or JPEG bytes), lines joined by newlines. */
export async function readText(image: Buffer): Promise<string> {
  const worker = await createWorker("eng", OEM.LSTM_ONLY, { langPath: ENG_MODEL_DIR, gzip: true, cacheMethod: "none" });
  try {
    return (await worker.recognize(image)).data.text;
  } finally {
    await worker.terminate();
  }
}
