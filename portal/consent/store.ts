// Upload attestations in the shared database (`upload_attestations`): the portal writes them, the
// box looks a `consent_token` up by primary key and compares the digest with the uploaded bytes.
import type { LibSQLDatabase } from "drizzle-orm/libsql";
import { drizzle } from "drizzle-orm/libsql/web";
import type { Client } from "@libsql/client";
import { uploadAttestations, type UploadAttestationRow } from "../../shared/avatar-tables/schema.ts";

export class UploadAttestationStore {
  readonly #db: LibSQLDatabase;

  constructor(client: Client) {
    this.#db = drizzle(client);
  }

  async insert(row: UploadAttestationRow): Promise<void> {
    await this.#db.insert(uploadAttestations).values(row);
  }
}
