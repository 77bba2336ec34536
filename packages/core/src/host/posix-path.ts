/**
 * POSIX path rules ('/' separated), for hosts without Node's `path` (a browser's virtual file tree).
 * Same results as Node's `path.posix` for the functions the loaders use.
 */
import type { PathRules } from './host.js';

function normalizeParts(parts: readonly string[], absolute: boolean): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(p);
  }
  return out;
}

export function createPosixPath(cwd: () => string): PathRules {
  const isAbsolute = (p: string): boolean => p.startsWith('/');
  const normalize = (p: string): string => {
    if (p === '') return '.';
    const abs = isAbsolute(p);
    const s = normalizeParts(p.split('/'), abs).join('/');
    const out = abs ? `/${s}` : s || '.';
    // a trailing separator is kept, as Node's path.posix.normalize does
    return p.endsWith('/') && s !== '' ? `${out}/` : out;
  };
  const join = (...parts: string[]): string => normalize(parts.filter((p) => p !== '').join('/'));
  const resolve = (...parts: string[]): string => {
    let acc = '';
    for (let i = parts.length - 1; i >= 0 && !isAbsolute(acc); i--) if (parts[i]) acc = acc ? `${parts[i]}/${acc}` : parts[i];
    if (!isAbsolute(acc)) acc = `${cwd()}/${acc}`;
    const n = normalize(acc);
    return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
  };
  const dirname = (p: string): string => {
    const t = p.replace(/\/+$/, '');
    if (t === '') return p.startsWith('/') ? '/' : '.';
    const i = t.lastIndexOf('/');
    return i < 0 ? '.' : i === 0 ? '/' : t.slice(0, i);
  };
  const basename = (p: string, ext?: string): string => {
    const b = p.replace(/\/+$/, '').split('/').pop() ?? '';
    return ext && b.endsWith(ext) && b !== ext ? b.slice(0, -ext.length) : b;
  };
  const extname = (p: string): string => {
    const b = basename(p);
    const i = b.lastIndexOf('.');
    return i <= 0 ? '' : b.slice(i);
  };
  const relative = (from: string, to: string): string => {
    const a = resolve(from).split('/').filter(Boolean);
    const b = resolve(to).split('/').filter(Boolean);
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
  };
  return { sep: '/', delimiter: ':', isAbsolute, normalize, join, resolve, dirname, basename, extname, relative };
}
