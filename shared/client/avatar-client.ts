// The one entry point an integrator needs: every box route (BoxClient), the live media
// (connect), the two sockets, and the custom-tool handlers they share. Register tool handlers
// before connecting: a call for a name with no handler is answered `ok: false` at once.
import { BoxClient, type BoxClientOptions } from "./box-client.ts";
import { connectMedia, prepareOffer, type ConnectOptions, type LiveMedia, type PreparedOffer } from "./connect.ts";
import type { ToolHandler } from "./tools.ts";
import { SessionSocket, type SessionSocketOptions } from "./session-socket.ts";
import type { SocketOptions, WebSocketCtor } from "./socket-base.ts";
import { VoiceSocket, type VoiceSocketOptions } from "./voice-socket.ts";

export interface AvatarClientOptions extends BoxClientOptions {
  /** Default WebSocket constructor for both sockets (the platform's when left out). */
  WebSocket?: WebSocketCtor;
  /** Default RTCPeerConnection for connect() (the platform's when left out). */
  RTCPeerConnection?: ConnectOptions["RTCPeerConnection"];
  /** Default reconnect policy of both sockets. */
  reconnect?: SocketOptions["reconnect"];
}

export class AvatarClient extends BoxClient {
  constructor(private readonly options: AvatarClientOptions) {
    super(options);
  }

  /** Registers the handler of one custom tool; answers its unregister. */
  registerTool<A extends Record<string, unknown> = Record<string, unknown>>(name: string, handler: ToolHandler<A>): () => void {
    return this.tools.register(name, handler);
  }

  /** Opens the live session in this browser and plays it on `video` (see LiveMedia's events). */
  connect(options: ConnectOptions = {}): Promise<LiveMedia> {
    return connectMedia(this.http, { RTCPeerConnection: this.options.RTCPeerConnection, ...options });
  }

  /** Makes the next connect()'s offer now (pass it as `prepared`): the click-to-picture time shrinks by the ICE gathering. */
  prepareConnect(options: Pick<ConnectOptions, "rtcConfiguration" | "iceGatheringTimeoutMs" | "camera"> = {}): PreparedOffer {
    return prepareOffer({ RTCPeerConnection: this.options.RTCPeerConnection, ...options });
  }

  /** The SDK control socket (`/api/session/ws`); call open() on it. */
  session(options: SessionSocketOptions = {}): SessionSocket {
    return new SessionSocket(this.http, this.tools, this.socketDefaults(options));
  }

  /** The microphone socket (`/api/voice/ws`); call open() on it, then startMicrophone() or sendPcm(). */
  voice(options: VoiceSocketOptions = {}): VoiceSocket {
    return new VoiceSocket(this.http, this.tools, this.socketDefaults(options));
  }

  private socketDefaults<O extends SocketOptions>(options: O): O {
    return { WebSocket: this.options.WebSocket, reconnect: this.options.reconnect, ...options };
  }
}
