// A fake OpenID identity provider for tests: serves its JWKS over HTTP on loopback (the real wire
// protocol jose fetches) and mints ID tokens, good and bad.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, base64url, type JWK, type CryptoKey } from "jose";

export interface MintOptions {
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  /** Key id in the header; default the published key's. */
  kid?: string;
  /** Sign with a key that is not in the JWKS. */
  foreignKey?: boolean;
  extraClaims?: Record<string, unknown>;
}

export class FakeIdentityProvider {
  readonly audience = "avatar-portal-test";
  private constructor(
    private readonly server: Server,
    readonly issuer: string,
    private readonly key: CryptoKey,
    private readonly foreign: CryptoKey,
    readonly kid: string,
    /** How many times the JWKS was fetched. */
    public jwksFetches = 0,
  ) {}

  get jwksUrl(): string {
    return `${this.issuer}/.well-known/jwks.json`;
  }

  static async start(): Promise<FakeIdentityProvider> {
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const { privateKey: foreign } = await generateKeyPair("RS256");
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "test-key-1", alg: "RS256", use: "sig" };
    let idp: FakeIdentityProvider | null = null;
    const server = createServer((req, res) => {
      if (req.url === "/.well-known/jwks.json") {
        if (idp) idp.jwksFetches++;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    idp = new FakeIdentityProvider(server, issuer, privateKey, foreign, jwk.kid!);
    return idp;
  }

  async mint(email: string, opts: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ email, email_verified: true, ...opts.extraClaims })
      .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? this.kid, typ: "JWT" })
      .setIssuer(opts.issuer ?? this.issuer)
      .setAudience(opts.audience ?? this.audience)
      .setSubject(`sub-${email}`)
      .setIssuedAt(now - 60)
      .setExpirationTime(now + (opts.expiresIn ?? 600))
      .sign(opts.foreignKey ? this.foreign : this.key);
  }

  /** An unsecured JWT (`alg: none`) with otherwise valid claims. */
  mintUnsigned(email: string): string {
    const now = Math.floor(Date.now() / 1000);
    const enc = (o: object) => base64url.encode(JSON.stringify(o));
    const payload = { email, email_verified: true, iss: this.issuer, aud: this.audience, iat: now, exp: now + 600 };
    return `${enc({ alg: "none", typ: "JWT" })}.${enc(payload)}.`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
