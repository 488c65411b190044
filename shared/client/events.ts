// Typed events with one callback map: `on({ reply_chunk, tool_call, ... })` returns its own off.
// A throwing callback never breaks the library: its error is rethrown on a fresh task.

export type Handlers<E> = { [K in keyof E]?: (payload: E[K]) => void };

export class Emitter<E> {
  private readonly maps = new Set<Handlers<E>>();

  /** Subscribes every callback of the map; the returned function removes them all. */
  on(map: Handlers<E>): () => void {
    const own = { ...map };
    this.maps.add(own);
    return () => void this.maps.delete(own);
  }

  /** Resolves with the next payload of `type` (rejects after `timeoutMs` when given). */
  next<K extends keyof E>(type: K, timeoutMs?: number): Promise<E[K]> {
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs === undefined
          ? null
          : setTimeout(() => (off(), reject(new Error(`no ${String(type)} within ${timeoutMs} ms`))), timeoutMs);
      const off = this.on({ [type]: (p: E[K]) => (off(), timer && clearTimeout(timer), resolve(p)) } as unknown as Handlers<E>);
    });
  }

  emit<K extends keyof E>(type: K, payload: E[K]): void {
    for (const map of [...this.maps]) {
      const fn = map[type];
      if (!fn) continue;
      try {
        fn(payload);
      } catch (err) {
        setTimeout(() => {
          throw err;
        });
      }
    }
  }
}
