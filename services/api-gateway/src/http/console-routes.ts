import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Request, type Response } from 'express';

/** Where the console's built files are, and where its page may open the gateway. */
export interface ConsoleOptions {
  /** The console workspace's build output (index.html and assets/). */
  dir: string;
  /** The gateway's public WebSocket URL (the dispatcher's), allowed in `connect-src`. */
  gatewayUrl: () => Promise<string>;
}

/**
 * The Content-Security-Policy of every console answer: nothing but its own files runs
 * (no inline script or style, no eval), it talks to its own origin (the public and admin
 * APIs) and to the gateway's WebSocket origin only, shows images of its own origin
 * (attachments) and nothing can frame it. Bot content is rendered as DOM text, so a
 * `<script>` or an `onerror=` in it is text; this policy is the second wall.
 */
export function consolePolicy(gatewayOrigin: string | undefined): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "media-src 'self'",
    `connect-src 'self'${gatewayOrigin ? ` ${gatewayOrigin}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origin of a ws:/wss: URL, or undefined for anything else (never echoed into the policy). */
export function webSocketOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return undefined;
    return parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * Serves the console (the `console` workspace's static build) at `/console/`: its page
 * and hashed assets, each under the policy above, the page never cached (a new build is
 * seen at once), the assets for a year (their names change with their content). Answers
 * whether it is served: not when its build is missing (`npm run build` makes it).
 */
export function mountConsole(app: Express, options: ConsoleOptions): boolean {
  const indexFile = join(options.dir, 'index.html');
  if (!existsSync(indexFile)) return false;
  const page = readFileSync(indexFile);
  let gatewayOrigin: string | undefined;
  const policy = async (): Promise<string> => {
    gatewayOrigin ??= webSocketOrigin(await options.gatewayUrl().catch(() => ''));
    return consolePolicy(gatewayOrigin);
  };
  const common = (res: Response, csp: string): void => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  };
  const sendPage = async (_req: Request, res: Response): Promise<void> => {
    common(res, await policy());
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', page.length);
    res.end(page);
  };
  // Express matches `/console` and `/console/` alike (non-strict routing): only the first redirects.
  app.get('/console', (req, res, next) =>
    req.path === '/console' ? res.redirect(301, '/console/') : next(),
  );
  app.get(['/console/', '/console/index.html'], sendPage);
  app.use(
    '/console/assets',
    (_req, res, next) => {
      common(res, consolePolicy(gatewayOrigin));
      next();
    },
    express.static(join(options.dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      fallthrough: true,
    }),
  );
  return true;
}
