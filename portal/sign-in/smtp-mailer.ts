// SMTP transport (nodemailer) for sign-in mails: `PORTAL_SMTP_URL`, e.g. smtps://user:pass@host:465.
import nodemailer, { type Transporter } from "nodemailer";
import type { Mail, Mailer } from "./mailer.ts";

export class SmtpMailer implements Mailer {
  readonly #transport: Transporter;

  constructor(
    url: string,
    private readonly from = "Avatar portal <no-reply@localhost>",
  ) {
    this.#transport = nodemailer.createTransport(url);
  }

  async send(mail: Mail): Promise<void> {
    await this.#transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  close(): void {
    this.#transport.close();
  }
}
