// The bundled stock avatars: colours and proportions on the 512x512 drawing canvas.
import type { FaceLook } from "../../../shared/face-drawing/svg-face.ts";

export const STOCK_LOOKS: FaceLook[] = [
  {
    id: "stock-ava",
    label: "Ava",
    bg: ["#e3eef6", "#8fb1cc"],
    skin: "#f3c9a8", skinShade: "#d49a7a", blush: "#ef8f80",
    hair: "#7a3420", hairLight: "#b2573a", hairStyle: "long",
    iris: "#4f8a5f", brow: "#6b3222", lash: "#2a1712",
    lipUpper: "#b65a62", lipLower: "#c87074",
    cloth: "#2f8589", clothShade: "#1f5f63", clothStyle: "scoop",
    geo: {
      cx: 256, hairline: 100, chin: 384, faceW: 222, jawW: 160,
      eyeY: 218, eyeDx: 50, eyeW: 48, eyeH: 18,
      browY: 186, browW: 56, browT: 7,
      noseY: 276, noseW: 42, mouthY: 318, mouthW: 86, neckW: 92,
    },
  },
  {
    id: "stock-ben",
    label: "Ben",
    bg: ["#f6ead6", "#cfa97c"],
    skin: "#b47a55", skinShade: "#8c5639", blush: "#b5614a",
    hair: "#1e1512", hairLight: "#4a3429", hairStyle: "short",
    iris: "#5b3a22", brow: "#21160f", lash: "#1a110d",
    lipUpper: "#8a4740", lipLower: "#9c5a50",
    cloth: "#34496f", clothShade: "#22314d", clothStyle: "collar",
    stubble: "#3b2a22",
    geo: {
      cx: 256, hairline: 98, chin: 392, faceW: 236, jawW: 184,
      eyeY: 222, eyeDx: 54, eyeW: 48, eyeH: 15,
      browY: 192, browW: 60, browT: 9,
      noseY: 282, noseW: 50, mouthY: 327, mouthW: 92, neckW: 112,
    },
  },
  {
    id: "stock-mei",
    label: "Mei",
    bg: ["#eef0e2", "#a9b89a"],
    skin: "#f1d0b0", skinShade: "#c99a78", blush: "#f09a8c",
    hair: "#17120f", hairLight: "#3d3129", hairStyle: "bun",
    iris: "#3b2618", brow: "#241a14", lash: "#140e0b",
    lipUpper: "#b05c60", lipLower: "#c2706f",
    cloth: "#d19a2a", clothShade: "#a4761a", clothStyle: "scoop",
    geo: {
      cx: 256, hairline: 112, chin: 386, faceW: 214, jawW: 152,
      eyeY: 226, eyeDx: 48, eyeW: 45, eyeH: 15,
      browY: 195, browW: 54, browT: 6,
      noseY: 280, noseW: 40, mouthY: 321, mouthW: 82, neckW: 88,
    },
  },
];
