// Implements: Resources: Session credential, the one bridge between planes: the portal mints it
// (`POST /auth/session/credential`), the box accepts it, the client library holds it.

export interface SessionCredential {
  secret: string;
  expires_at: number;
  expires_in: number;
  scope: "full";
}

/** `POST /auth/session/credential` (portal). */
export interface SessionCredentialAnswer {
  credential: SessionCredential;
}
