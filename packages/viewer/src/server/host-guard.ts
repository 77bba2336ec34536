/**
 * Which requests the viewer's servers answer. They listen on the loopback address, but a web page
 * the user visits can rebind its own name to 127.0.0.1 (DNS rebinding) and read the scene and the
 * data paths through it: such a request carries the page's name in its Host (and Origin) header.
 * So the HTTP server and the WebSocket answer only Host names that are loopback names (or given
 * with --allow-host), and only an Origin that is one of those names on this server's port (the
 * page's own origin); a request without Origin (a navigation, a same-origin GET) is judged by its
 * Host alone.
 */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export class HostGuard {
  private readonly names: ReadonlySet<string>;

  /** `allowHosts`: further host names answered (--allow-host), compared case-insensitively. */
  constructor(
    private readonly port: number,
    allowHosts: readonly string[] = [],
  ) {
    this.names = new Set([...LOOPBACK_HOSTS, ...allowHosts.map(normalHost)]);
  }

  /** Why a request with these headers is refused, or undefined when it is answered. */
  refusal(host: string | undefined, origin: string | undefined): string | undefined {
    if (host === undefined || host === '') return 'no Host header';
    const name = hostName(host);
    if (name === undefined || !this.names.has(name)) return `Host '${host}' is not a loopback name`;
    if (origin === undefined) return undefined;
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return `Origin '${origin}' is not this page's origin`;
    }
    const port = u.port === '' ? (u.protocol === 'https:' ? 443 : 80) : Number(u.port);
    if (u.protocol !== 'http:' || !this.names.has(u.hostname.toLowerCase()) || port !== this.port)
      return `Origin '${origin}' is not this page's origin`;
    return undefined;
  }
}

/** `Example.COM` → `example.com`; `::1` → `[::1]` (as a Host header and URL.hostname write it). */
function normalHost(name: string): string {
  const n = name.trim().toLowerCase();
  return n.includes(':') && !n.startsWith('[') ? `[${n}]` : n;
}

/** The name of a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower case; undefined when malformed. */
function hostName(host: string): string | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/.exec(host.trim());
  return m ? m[1].toLowerCase() : undefined;
}
