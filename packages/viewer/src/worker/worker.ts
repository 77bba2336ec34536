/** The Web Worker that runs a scene for the page: files through HttpHost, messages to SceneSession. */
import { setHost } from 'sofa-ts/browser';
import { SceneSession } from '../session/scene-session.js';
import type { FromSimulation, ToSimulation } from '../session/protocol.js';
import { HttpHost } from './http-host.js';

interface WorkerScope {
  postMessage(msg: unknown, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent) => void) | null;
  location: { href: string };
}
const scope = self as unknown as WorkerScope;

const session = new SceneSession((msg: FromSimulation, transfer?: ArrayBuffer[]) => scope.postMessage(msg, transfer ?? []));
scope.onmessage = (e: MessageEvent) => {
  const msg = e.data as ToSimulation & { filesBase?: string };
  if (msg.type === 'open') setHost(new HttpHost(new URL(msg.filesBase ?? 'files/', scope.location.href).href));
  void session.handle(msg);
};
