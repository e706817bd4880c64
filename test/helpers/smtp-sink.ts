/**
 * A real SMTP server on 127.0.0.1:<random port> that keeps every message it receives, so tests can
 * read the codes the service mails. Point SMTP_URL at `sink.url`.
 */
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

export interface SunkMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

function parse(raw: string, envelope: { from: string; to: string[] }): SunkMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  let body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  if (/quoted-printable/i.test(header("Content-Transfer-Encoding"))) body = decodeQuotedPrintable(body);
  if (/base64/i.test(header("Content-Transfer-Encoding"))) body = Buffer.from(body, "base64").toString("utf8");
  return { ...envelope, subject: header("Subject"), text: body, raw };
}

export class SmtpSink {
  readonly messages: SunkMail[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        this.messages.push(parse(Buffer.concat(chunks).toString("utf8"), envelope));
        callback();
      });
    },
  });
  private port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Mails sent to `to`, oldest first. */
  to(to: string): SunkMail[] {
    return this.messages.filter((m) => m.to.includes(to));
  }

  /** Waits (polling, with a deadline) for the n-th mail to `to` and returns the 6-digit code in it. */
  async codeFor(to: string, nth = 1, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const mail = this.to(to)[nth - 1];
      const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (code) return code;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no mail #${nth} to ${to} within ${timeoutMs} ms (got ${this.to(to).length})`);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
