// Where sign-in mails go. The Web-standard core only knows this interface; the outbox (files) and
// SMTP (nodemailer) implementations are chosen by the entry point.
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Keeps mails in memory (tests of the core through `app.request()`). */
export class MemoryMailer implements Mailer {
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
}
