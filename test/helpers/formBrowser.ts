/** A browser without script, for the web app's pages over HTTP: one origin's cookie jar, forms posted with an Origin, redirects not followed. */
export class FormBrowser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  async get(path: string) {
    return this.request('GET', path);
  }

  async post(path: string, form: Record<string, string>, options: { origin?: string | null; accept?: string } = {}) {
    return this.request('POST', path, new URLSearchParams(form).toString(), options.origin === undefined ? this.origin : options.origin, options.accept);
  }

  private async request(method: string, path: string, body?: string, origin?: string | null, accept?: string) {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
    if (accept) headers.accept = accept;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (origin) headers.origin = origin;
    const response = await fetch(`${this.origin}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (attributes.some((attribute) => /max-age=0|expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
  }

  /** The value of a hidden field the page's form carries. */
  static field(html: string, name: string): string {
    return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  }

  /** Signs in with the sign-in form (its token first), coming back to `next`; the answer to the form. */
  async signIn(email: string, password: string, next = '/app/') {
    const form = await this.get(`/app/sign-in?next=${encodeURIComponent(next)}`);
    return this.post('/app/sign-in', { csrf: FormBrowser.field(form.html, 'csrf'), next, email, password });
  }
}

/** A browser signed in with a password (the sign-in must succeed). */
export async function signedInBrowser(origin: string, email: string, password: string): Promise<FormBrowser> {
  const browser = new FormBrowser(origin);
  const done = await browser.signIn(email, password);
  if (done.status !== 303) throw new Error(`sign-in of ${email} answered ${done.status}: ${done.html.slice(0, 300)}`);
  return browser;
}
