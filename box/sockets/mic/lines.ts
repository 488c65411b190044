// Fixed lines the persona says for system tools, per call language.
import type { Language } from "../../../shared/wire/tones.ts";

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  es: "Spanish",
  fr: "French",
  de: "German",
  it: "Italian",
  pt: "Portuguese",
  hi: "Hindi",
  ja: "Japanese",
};

const CONFIRM: Record<Language, string> = {
  en: "Sure, let's continue in English.",
  es: "Claro, sigamos en español.",
  fr: "D'accord, continuons en français.",
  de: "Gern, sprechen wir auf Deutsch weiter.",
  it: "Certo, continuiamo in italiano.",
  pt: "Claro, vamos continuar em português.",
  hi: "ठीक है, अब हम हिंदी में बात करते हैं।",
  ja: "はい、にほんごでつづけましょう。",
};

const REFUSE: Record<Language, string> = {
  en: "Sorry, I can't speak that language.",
  es: "Lo siento, no puedo hablar ese idioma.",
  fr: "Désolé, je ne peux pas parler cette langue.",
  de: "Entschuldigung, diese Sprache kann ich nicht sprechen.",
  it: "Mi dispiace, non posso parlare questa lingua.",
  pt: "Desculpe, não consigo falar essa língua.",
  hi: "माफ़ कीजिए, मैं वह भाषा नहीं बोल सकता।",
  ja: "ごめんなさい、そのことばははなせません。",
};

const GOODBYE: Record<Language, string> = {
  en: "Goodbye, and thanks for talking with me.",
  es: "Adiós, y gracias por hablar conmigo.",
  fr: "Au revoir, et merci pour cette conversation.",
  de: "Auf Wiedersehen, und danke für das Gespräch.",
  it: "Arrivederci, e grazie per la conversazione.",
  pt: "Adeus, e obrigado pela conversa.",
  hi: "अलविदा, बात करने के लिए धन्यवाद।",
  ja: "さようなら、おはなしありがとうございました。",
};

const HOLD: Record<Language, string> = {
  en: "Sure, take your time.",
  es: "Claro, tómate tu tiempo.",
  fr: "Bien sûr, prenez votre temps.",
  de: "Klar, lass dir Zeit.",
  it: "Certo, prenditi il tuo tempo.",
  pt: "Claro, leve o tempo que precisar.",
  hi: "ज़रूर, आराम से सोचिए।",
  ja: "はい、ごゆっくりどうぞ。",
};

export const lines = { confirm: CONFIRM, refuse: REFUSE, goodbye: GOODBYE, hold: HOLD };

export const ACTION_LABELS = {
  end_call: "Ending the call",
  skip_turn: "Listening",
  pause_conversation: "Pausing the conversation",
  change_language: "Changing language",
} as const;
