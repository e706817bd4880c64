import nodemailer from "nodemailer";
import type { Logger } from "./log";

export interface Mailer {
  send(to: string, subject: string, text: string): Promise<void>;
}

/** SMTP through nodemailer when `smtpUrl` is set; otherwise the message is written to the log (development). */
export function createMailer(opts: { smtpUrl: string | null; from: string; log: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(to, subject, text) {
        opts.log.info(`mail to ${to} (no SMTP_URL configured): ${subject}\n${text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from: opts.from, to, subject, text });
    },
  };
}
