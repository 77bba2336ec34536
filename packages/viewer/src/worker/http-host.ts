import { createPosixPath, type Host } from 'sofa-ts/browser';

/**
 * The host of a scene running in a Web Worker: its files are those the page's server (or static
 * host) serves under `filesBase`, read with synchronous requests (allowed in workers; the
 * loaders read synchronously, as in Node). Paths are virtual and POSIX: `/scene/...` is the
 * scene's folder, `/data/<i>/...` the i-th data path. Written files stay in memory (`written`).
 */
export class HttpHost implements Host {
  readonly path = createPosixPath(() => '/scene');
  readonly written = new Map<string, string | Uint8Array>();
  private readonly present = new Map<string, boolean>();
  private readonly bytes = new Map<string, Uint8Array>();

  constructor(private readonly filesBase: string) {}

  private url(p: string): string {
    const abs = this.path.resolve(p);
    return new URL(abs.slice(1).split('/').map(encodeURIComponent).join('/'), this.filesBase).href;
  }

  isFile(p: string): boolean {
    const abs = this.path.resolve(p);
    if (this.written.has(abs)) return true;
    let known = this.present.get(abs);
    if (known === undefined) {
      const r = new XMLHttpRequest();
      r.open('HEAD', this.url(abs), false);
      try {
        r.send();
        known = r.status === 200;
      } catch {
        known = false;
      }
      this.present.set(abs, known);
    }
    return known;
  }

  exists(p: string): boolean {
    return this.isFile(p);
  }

  readBytes(p: string): Uint8Array {
    const abs = this.path.resolve(p);
    const w = this.written.get(abs);
    if (w !== undefined) return typeof w === 'string' ? new TextEncoder().encode(w) : w;
    let b = this.bytes.get(abs);
    if (!b) {
      const r = new XMLHttpRequest();
      r.open('GET', this.url(abs), false);
      r.responseType = 'arraybuffer';
      r.send();
      if (r.status !== 200) throw Object.assign(new Error(`ENOENT: no such file '${abs}' (HTTP ${r.status})`), { code: 'ENOENT' });
      b = new Uint8Array(r.response as ArrayBuffer);
      this.bytes.set(abs, b);
      this.present.set(abs, true);
    }
    return b;
  }

  readText(p: string, encoding: 'utf8' | 'latin1' = 'utf8'): string {
    return new TextDecoder(encoding === 'latin1' ? 'latin1' : 'utf-8').decode(this.readBytes(p));
  }

  realpath(p: string): string {
    return this.path.resolve(p);
  }

  writeFile(p: string, content: string | Uint8Array, options?: { append?: boolean }): void {
    const abs = this.path.resolve(p);
    const prev = this.written.get(abs);
    if (options?.append && prev !== undefined) {
      this.written.set(abs, typeof prev === 'string' && typeof content === 'string' ? prev + content : content);
    } else this.written.set(abs, content);
  }

  env(): string | undefined {
    return undefined;
  }

  cwd(): string {
    return '/scene';
  }
}
