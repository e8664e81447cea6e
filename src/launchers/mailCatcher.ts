/**
 * A local mail catcher for `npm start` and the tests: a real SMTP server (smtp-server, from the nodemailer project)
 * that keeps what it receives in memory, and a web page listing it, so a developer reads the notifications the
 * service sent without any mail leaving the machine. Not for production: it takes any sender without a password.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
}

export interface MailCatcher {
  smtpUrl: string;
  /** The web page listing what arrived; null when started without one. */
  webUrl: string | null;
  readonly mails: readonly CaughtMail[];
  close(): Promise<void>;
}

/** The newest mails kept; older ones are dropped. */
const KEEP = 500;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(mails: readonly CaughtMail[]): string {
  const rows = [...mails]
    .reverse()
    .map(
      (m) =>
        `<article><h2>${escape(m.subject)}</h2><p><b>To</b> ${escape(m.to.join(', '))} · <b>From</b> ${escape(m.from)} · ${escape(m.receivedAt)}</p><pre>${escape(m.text)}</pre></article>`,
    );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Mail catcher</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}article{border-bottom:1px solid #ccc;padding:.5rem 0}pre{white-space:pre-wrap}</style></head>
<body><h1>Mail catcher</h1><p>${mails.length} message(s) sent by the service to this local SMTP server. This page refreshes itself.</p>${rows.join('') || '<p>Nothing yet.</p>'}</body></html>`;
}

const listen = (
  server: {
    listen(port: number, host: string, cb: () => void): unknown;
    once(event: 'error', cb: (err: Error) => void): unknown;
  },
  port: number,
) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });

/** Starts on 127.0.0.1; port 0 takes a free one. `webPort` null starts no page. */
export async function startMailCatcher(opts: { smtpPort: number; webPort: number | null }): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  let next = 1;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    // Closing does not wait for the service's pooled connections to leave.
    closeTimeout: 500,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          mails.push({
            id: next++,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            receivedAt: new Date().toISOString(),
          });
          if (mails.length > KEEP) mails.shift();
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await listen(smtp.server, opts.smtpPort);
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  let web: http.Server | null = null;
  if (opts.webPort !== null) {
    web = http.createServer((req, res) => {
      if (req.url === '/api/messages')
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails));
      else if (req.url === '/' || req.url === '')
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(mails));
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await listen(web, opts.webPort);
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    webUrl: web ? `http://127.0.0.1:${(web.address() as AddressInfo).port}` : null,
    mails,
    async close() {
      web?.closeAllConnections();
      await Promise.all([
        new Promise<void>((r) => smtp.close(() => r())),
        web ? new Promise((r) => web.close(r)) : null,
      ]);
    },
  };
}
