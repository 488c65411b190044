// Implements: Resources: Session credential; Authentication: Plane B 4 (the one bridge between planes).
import { digestSecret, hintOf, newSecret } from "../../shared/key-table/secrets.ts";
import type { SessionCredential } from "../../shared/wire/credential.ts";
import type { CredentialStore } from "./store.ts";

/** Default lifetime of a portal-minted box credential, in seconds. */
export const CREDENTIAL_TTL_SECONDS = 3600;

export class CredentialService {
  constructor(
    private readonly store: CredentialStore,
    private readonly now: () => number,
    private readonly ttlSeconds = CREDENTIAL_TTL_SECONDS,
  ) {}

  async mint(owner: string): Promise<SessionCredential> {
    const secret = newSecret("session_credential");
    const createdAt = Math.floor(this.now() / 1000);
    const expiresAt = createdAt + this.ttlSeconds;
    const { hint, last4 } = hintOf(secret);
    await this.store.purgeExpired(owner, createdAt);
    await this.store.create({ id: await digestSecret(secret), hint, last4, owner, createdAt, expiresAt });
    return { secret, expires_at: expiresAt, expires_in: this.ttlSeconds, scope: "full" };
  }
}
