// Test photos: real photographs shipped in @vladmandic/face-api's demo/ folder (a devDependency
// kept for exactly this), cut and combined with sharp, plus bad files made by hand.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";

const demoDir = join(dirname(createRequire(import.meta.url).resolve("@vladmandic/face-api/package.json")), "demo");

/** sample1..sample6.jpg: 1920 px wide group photos of 3 to 5 people. */
export function demoPhoto(n: 1 | 2 | 3 | 4 | 5 | 6): Uint8Array {
  return new Uint8Array(readFileSync(join(demoDir, `sample${n}.jpg`)));
}

const jpeg = async (s: Sharp) => new Uint8Array(await s.jpeg({ quality: 92 }).toBuffer());

/** One person looking at the camera, a closed-lips smile with a little teeth (from sample6). */
export function singlePhoto(): Promise<Uint8Array> {
  return jpeg(sharp(demoPhoto(6)).extract({ left: 540, top: 150, width: 520, height: 900 }));
}

/** One person with a wide smile, teeth showing (from sample3). */
export function smilingPhoto(): Promise<Uint8Array> {
  return jpeg(sharp(demoPhoto(3)).extract({ left: 890, top: 0, width: 480, height: 900 }));
}

/**
 * Two people side by side: the smiling one at half scale on the left, the single one at full
 * scale on the right (so the largest face is singlePhoto's, at the same scale as there).
 */
export async function twoPeoplePhoto(): Promise<Uint8Array> {
  const small = await sharp(await smilingPhoto())
    .resize(240, 450)
    .toBuffer();
  const big = await singlePhoto();
  return jpeg(
    sharp({ create: { width: 800, height: 900, channels: 3, background: "#c8c0b0" } }).composite([
      { input: small, left: 10, top: 300 },
      { input: Buffer.from(big), left: 280, top: 0 },
    ]),
  );
}

/** A landscape without people: sky, hills and a sun (made with sharp from SVG). */
export function landscapePhoto(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6aa0d8"/><stop offset="1" stop-color="#dce9f5"/></linearGradient></defs>
    <rect width="800" height="600" fill="url(#s)"/><circle cx="620" cy="120" r="50" fill="#fff3b0"/>
    <path d="M0 420 Q200 300 420 400 T800 380 V600 H0Z" fill="#5c8a3a"/><path d="M0 500 Q300 440 800 520 V600 H0Z" fill="#3f6b2a"/></svg>`;
  return jpeg(sharp(Buffer.from(svg)));
}

/** A solid grey PNG. */
export async function solidPhoto(): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width: 640, height: 480, channels: 3, background: "#808080" } })
      .png()
      .toBuffer(),
  );
}

/** The first half of a real JPEG. */
export function truncatedJpeg(): Uint8Array {
  const whole = demoPhoto(6);
  return whole.subarray(0, Math.floor(whole.length / 2));
}

/** A zip archive (one stored file) named as if it were a PNG. */
export function zipBytes(): Uint8Array {
  const name = Buffer.from("photo.png");
  const body = Buffer.from("not a photo at all");
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc32(body), 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(body.length, 22);
  local.writeUInt16LE(name.length, 26);
  return new Uint8Array(Buffer.concat([local, name, body]));
}

/**
 * A PNG of under 200 bytes whose header claims 20000x20000 RGB pixels (1.2 GB decoded): a decompression
 * bomb's header. Its pixel data is one row, so anything that tried to decode it would fail with
 * a different (truncation) error than the size refusal.
 */
export function bombPng(side = 20000): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const b = Buffer.alloc(12 + data.length);
    b.writeUInt32BE(data.length, 0);
    b.write(type, 4, "latin1");
    data.copy(b, 8);
    b.writeUInt32BE(crc32(b.subarray(4, 8 + data.length)), 8 + data.length);
    return b;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.alloc(side * 3 + 1))), chunk("IEND", Buffer.alloc(0))]),
  );
}

/**
 * `photo` stored turned a quarter turn anticlockwise with EXIF orientation 6 ("turn 90 degrees
 * clockwise to display"): upright only for a decoder that honours EXIF.
 */
export async function exifTurned(photo: Uint8Array): Promise<Uint8Array> {
  return jpeg(sharp(await sharp(photo).rotate(270).toBuffer()).withMetadata({ orientation: 6 }));
}

// Hard photos (issue 25 "Bad input"): real faces made hard with sharp. Coordinates are
// singlePhoto's (520x900): mouth corners at about (184,406) and (264,401), upper lip top
// (206,399), nose base (202,380), eye centres about (162,306) and (250,297).

/** singlePhoto lit hard from the image's left: a gradient multiply down to a fifth on the right. */
export async function sideLitPhoto(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0.2" stop-color="#ffffff"/><stop offset="0.55" stop-color="#5a5a5a"/><stop offset="0.75" stop-color="#333333"/></linearGradient></defs>
    <rect width="520" height="900" fill="url(#g)"/></svg>`;
  return jpeg(sharp(await singlePhoto()).composite([{ input: Buffer.from(svg), blend: "multiply" }]));
}

/** singlePhoto at a fifth of its size in a 1280x960 grey room: a face about 55 pixels tall. */
export async function tinyFacePhoto(): Promise<Uint8Array> {
  const small = await sharp(await singlePhoto())
    .resize(104, 180)
    .toBuffer();
  return jpeg(
    sharp({ create: { width: 1280, height: 960, channels: 3, background: "#9a968c" } }).composite([{ input: small, left: 700, top: 380 }]),
  );
}

/** A real face turned about 30 degrees to the image's right (sample4's left-most person). */
export function turnedPhoto(): Promise<Uint8Array> {
  return jpeg(sharp(demoPhoto(4)).extract({ left: 20, top: 40, width: 560, height: 820 }));
}

/** singlePhoto with a hand-like skin-coloured shape (blurred, shaded) over the mouth's image-right corner. */
export async function handPhoto(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="900">
    <defs><radialGradient id="s" cx="0.45" cy="0.4" r="0.7"><stop offset="0" stop-color="#e2b79c"/><stop offset="0.7" stop-color="#c99479"/><stop offset="1" stop-color="#9c6a55"/></radialGradient></defs>
    <g transform="rotate(-25 282 430)"><ellipse cx="282" cy="430" rx="34" ry="70" fill="url(#s)"/>
    <ellipse cx="318" cy="450" rx="26" ry="62" fill="url(#s)"/></g></svg>`;
  const hand = await sharp(Buffer.from(svg)).blur(2.5).png().toBuffer();
  return jpeg(sharp(await singlePhoto()).composite([{ input: hand }]));
}

/** singlePhoto with drawn glasses: dark frames round both eyes, a bridge and the temples. */
export async function glassesPhoto(): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="900">
    <g fill="none" stroke="#1c1a1a" stroke-width="6" stroke-linejoin="round">
    <rect x="126" y="282" width="66" height="48" rx="14" transform="rotate(-6 159 306)"/>
    <rect x="216" y="272" width="68" height="48" rx="14" transform="rotate(-6 250 296)"/>
    <path d="M191 300 Q204 290 217 296"/><path d="M127 304 L112 300"/><path d="M283 290 L330 282"/></g></svg>`;
  return jpeg(sharp(await singlePhoto()).composite([{ input: Buffer.from(svg) }]));
}

/** singlePhoto with a moustache: short dark strands in a band from the nose over the upper lip. */
export async function moustachePhoto(): Promise<Uint8Array> {
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const strands: string[] = [];
  for (let i = 0; i < 900; i++) {
    const t = rnd();
    const x = 172 + t * 104;
    const arch = 10 * Math.sin(Math.PI * t); // the band arches over the lip
    const y = 384 - arch + rnd() * (20 + 6 * Math.sin(Math.PI * t));
    const dx = (t - 0.5) * 10 + (rnd() - 0.5) * 4;
    const shade = 20 + Math.floor(rnd() * 40);
    strands.push(
      `<path d="M${x.toFixed(1)} ${y.toFixed(1)} l${dx.toFixed(1)} ${(6 + rnd() * 6).toFixed(1)}" stroke="rgb(${shade},${shade - 6},${shade - 10})"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="900"><g stroke-width="1.6" stroke-linecap="round" opacity="0.92">${strands.join("")}</g></svg>`;
  return jpeg(sharp(await singlePhoto()).composite([{ input: Buffer.from(svg) }]));
}
