// The embedded mail transport: each mail is written as an RFC 5322 message (`.eml`) into a folder,
// where a developer (or a test) opens it. Node/Bun only.
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Mail, Mailer } from "./mailer.ts";

export class OutboxMailer implements Mailer {
  constructor(
    readonly folder: string,
    private readonly from = "Avatar portal <no-reply@localhost>",
    private readonly onWritten?: (path: string, mail: Mail) => void,
  ) {}

  async send(mail: Mail): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const name = `${stamp}-${crypto.randomUUID().slice(0, 8)}.eml`;
    const message = [
      `From: ${this.from}`,
      `To: ${mail.to}`,
      `Subject: ${mail.subject}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${crypto.randomUUID()}@portal.local>`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      mail.text.replace(/\r?\n/g, "\r\n"),
    ].join("\r\n");
    // Written then renamed, so a reader polling the folder never sees half a mail.
    const tmp = join(this.folder, `.${name}.tmp`);
    await writeFile(tmp, message, { mode: 0o600 });
    const path = join(this.folder, name);
    await rename(tmp, path);
    this.onWritten?.(path, mail);
  }
}

/** The sign-in link inside a mail's text (printed on the console beside the outbox file). */
export function signInLinkIn(text: string): string | null {
  return /(https?:\/\/\S+\/auth\/callback\?token=[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;
}
