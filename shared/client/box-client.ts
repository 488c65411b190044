// Implements: Endpoints, the box plane: one method per route of box/app.ts's table (see
// `GET /openapi.json`). Each answers the spec's shape as the box sends it (the three `data`
// wrappers included) and throws AvatarApiError on a refusal, whatever its envelope.
import { ChatStream } from "./chat-stream.ts";
import { Credentials, type CredentialOption } from "./credentials.ts";
import { HttpCore, type FetchLike } from "./http.ts";
import { ToolRegistry } from "./tools.ts";
import type * as T from "./types.ts";
import type { ChatReply, ToolResultFrame } from "./wire.ts";

export interface BoxClientOptions {
  /** The box (or the one host in front of it); "" on a page served from it. */
  baseUrl: string;
  /** A token string, or a provider called whenever a fresh one is needed. */
  token?: CredentialOption;
  fetch?: FetchLike;
}

export class BoxClient {
  readonly http: HttpCore;
  /** Handlers of custom tools, per tool name (typed turns here; sockets in AvatarClient). */
  readonly tools = new ToolRegistry();

  constructor(options: BoxClientOptions) {
    this.http = new HttpCore(options.baseUrl, new Credentials(options.token), options.fetch);
  }

  /** Hands the client a fresh token (or a new provider); open sockets receive it as `auth`. */
  setToken(token: CredentialOption): void {
    this.http.credentials.set(token);
  }

  // ---- system -------------------------------------------------------------------------------
  root = () => this.http.json<T.RootInfo>("GET", "/");
  health = () => this.http.json<T.Health>("GET", "/health");
  /** Full key only. */
  stats = () => this.http.json<T.Stats>("GET", "/api/stats");
  openapi = () => this.http.json<Record<string, unknown>>("GET", "/openapi.json");
  /** Tears the live session down synchronously (with or without one). */
  disconnect = () => this.http.json<T.Ok>("POST", "/disconnect");
  /** Stops speech at the next frame; 200 whether or not anything was speaking. */
  interrupt = () => this.http.json<T.Ok>("POST", "/api/interrupt");

  // ---- tokens and readiness ---------------------------------------------------------------------
  /** Full key only: a stream-only session token for a browser (`{data: {token, expires_at, scope}}`). */
  createToken = (body: { ttl_seconds?: number } = {}) =>
    this.http.json<T.SessionTokenAnswer>("POST", "/v1/streaming.create_token", { json: body });
  chatStatus = () => this.http.json<T.Readiness>("GET", "/api/chat/status");

  // ---- settings ---------------------------------------------------------------------------------
  getSettings = () => this.http.json<T.SettingsEnvelope>("GET", "/api/settings");
  /** Full key only; any subset of the settable fields (`tools` written whole). */
  saveSettings = (patch: T.SettingsPatch) => this.http.json<T.SettingsWriteAnswer>("POST", "/api/settings", { json: patch });

  // ---- conversation and session -------------------------------------------------------------------
  /** One turn, one JSON body (no custom tools are offered: they need the stream). */
  chat = (body: T.ChatRequest) => this.http.json<ChatReply>("POST", "/api/chat", { json: body });
  /** One turn as NDJSON frames; custom tool calls are answered from `tools`. */
  chatStream = (body: T.ChatRequest, opts: { signal?: AbortSignal } = {}) => new ChatStream(this.http, this.tools, body, opts);
  /** Answers a typed turn's tool call yourself (chatStream does it for registered handlers). */
  sendToolResult = ({ type: _type, ...frame }: ToolResultFrame) =>
    this.http.json<T.ToolResultDisposition>("POST", "/api/chat/tool_result", { json: frame });
  talk = (body: T.TalkRequest) => this.http.json<T.TalkAnswer>("POST", "/api/talk", { json: body });
  resetChat = () => this.http.json<T.ChatResetAnswer>("POST", "/api/chat/reset");
  listConversations = (query: { limit?: number; cursor?: string } = {}) =>
    this.http.json<T.ConversationPage>("GET", "/conversations", { query });
  getConversation = (id: string) => this.http.json<T.Conversation>("GET", `/conversations/${encodeURIComponent(id)}`);
  deleteConversation = (id: string) => this.http.json<T.DeletedConversation>("DELETE", `/conversations/${encodeURIComponent(id)}`);

  /** Every conversation row, page after page. */
  async *conversations(pageSize?: number): AsyncGenerator<T.ConversationRow> {
    let cursor: string | undefined;
    do {
      const page = await this.listConversations({ limit: pageSize, cursor });
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  // ---- signalling -------------------------------------------------------------------------------
  /** The raw SDP exchange; AvatarClient.connect() does the whole browser side. */
  connectOffer = (body: T.ConnectRequest) => this.http.json<T.ConnectAnswer>("POST", "/connect", { json: body });
  /** One-shot session: lip-syncs an uploaded clip or a reply (`audio`) on `avatar`. */
  offer = (body: T.OfferRequest) => this.http.json<T.OfferAnswer>("POST", "/offer", { json: body });

  // ---- avatars and clips --------------------------------------------------------------------------
  avatars = () => this.http.json<T.LoadedAvatars>("GET", "/api/avatars");
  videos = () => this.http.json<T.VideoList>("GET", "/api/videos");
  /** PNG still; 404 for an unknown avatar or one not yet prepared (retryable, told apart by code). */
  avatarPreview = (avatar: string) => this.http.blob("/api/avatar/preview", { avatar });
  /** Full key only. */
  uploadAvatar = (upload: T.AvatarUpload) => this.http.json<T.AvatarUploadAnswer>("POST", "/api/avatar", { body: avatarForm(upload) });
  /** Full key only; uploaded avatars only (a stock face is 400). */
  deleteAvatar = (avatar: string) => this.http.json<T.AvatarDeleteAnswer>("POST", "/api/avatar/delete", { json: { avatar } });
  /** Full key only; holds the connection until every clip rendered (minutes). */
  createPhotoAvatar = (upload: T.PhotoAvatarUpload) =>
    this.http.json<T.PhotoAvatarAnswer>("POST", "/v1/photo_avatar.create", { body: avatarForm(upload, { avatar_id: upload.avatar_id }) });
  avatarClips = (avatar: string) => this.http.json<T.ClipList>("GET", "/api/avatar/clips", { query: { avatar } });
  retryClip = (body: { avatar: string; tone: string }) =>
    this.http.json<T.ClipRetryAnswer>("POST", "/api/avatar/clips/retry", { json: body });
  /** MP4 of one tone's idle clip. */
  avatarClip = (query: { avatar: string; tone?: string }) => this.http.blob("/api/avatar/clip", query);

  // ---- audio for /offer ---------------------------------------------------------------------------
  /** Full key only. */
  uploadAudio = (upload: T.AudioUpload) =>
    this.http.json<T.AudioUploadAnswer>("POST", "/api/upload", {
      body: form(upload.file, upload.filename, { name: upload.name, transcript: upload.transcript, tone: upload.tone }),
    });
  audios = () => this.http.json<T.AudioList>("GET", "/api/audios");

  // ---- voices ------------------------------------------------------------------------------------
  voices = (query: { refresh?: boolean } = {}) =>
    this.http.json<T.VoiceCatalogue>("GET", "/api/voices", { query: { refresh: query.refresh ? "true" : undefined } });
  /** WAV of a short fixed sentence. */
  voicePreview = (query: { voice?: string; provider?: string } = {}) => this.http.blob("/api/voice/preview", query);
  /** Full key only; self-hosted engine only. */
  uploadVoice = (upload: { file: Blob; filename?: string; name?: string }) =>
    this.http.json<T.VoiceUploadAnswer>("POST", "/api/voice/upload", { body: form(upload.file, upload.filename, { name: upload.name }) });
  /** Full key only; the engine's answer passed through. */
  prepareVoice = (voice: string) => this.http.json<unknown>("POST", "/api/voice/prepare", { json: { voice } });
}

function form(file: Blob, filename: string | undefined, fields: Record<string, string | undefined>): FormData {
  const fd = new FormData();
  fd.append("file", file, filename ?? (file as { name?: string }).name ?? "upload");
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.append(k, v);
  return fd;
}

function avatarForm(u: T.AvatarUpload | T.PhotoAvatarUpload, extra: Record<string, string> = {}): FormData {
  const truthy = u.ai_generated === undefined ? undefined : typeof u.ai_generated === "boolean" ? String(u.ai_generated) : u.ai_generated;
  const fd = form(u.file, u.filename, {
    ...extra,
    tones: Array.isArray(u.tones) ? u.tones.join(",") : u.tones,
    consent_token: u.consent_token,
    framing: u.framing,
    gesture_amplitude: u.gesture_amplitude,
    ai_generated: truthy,
  });
  for (const [tone, takes] of Object.entries(("takes" in u && u.takes) || {})) {
    const list = Array.isArray(takes) ? takes : [takes];
    list.forEach((take, i) =>
      fd.append(i === 0 ? `take__${tone}` : `take__${tone}__${i + 1}`, take, (take as { name?: string }).name ?? `${tone}-${i + 1}.webm`),
    );
  }
  return fd;
}
