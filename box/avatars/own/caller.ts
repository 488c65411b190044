// Implements: fact 8 (another's avatar answers 404) for callers that name an avatar by id alone
// (`registry.require(id)` in /connect, /offer, /api/chat): the route table runs every handler
// with its caller's credential subject in an AsyncLocalStorage, and the registry reads it there.
import { AsyncLocalStorage } from "node:async_hooks";
import type { RouteDef } from "../../http/route.ts";

const callers = new AsyncLocalStorage<string>();

/** The credential subject of the request being handled, or null outside any route handler. */
export function currentCaller(): string | null {
  return callers.getStore() ?? null;
}

export function runAsCaller<T>(subject: string, fn: () => T): T {
  return callers.run(subject, fn);
}

/** The same routes, each handler run as its caller (so avatar lookups see that caller's faces). */
export function withCallers(routes: RouteDef[]): RouteDef[] {
  return routes.map((def) => ({ ...def, handler: (ctx) => runAsCaller(ctx.principal.subject, () => def.handler(ctx)) }));
}
