/**
 * The viewer page: a 3D view of the scene, its controls (play/pause, step, reset, dt), live
 * statistics and charts, the scene-graph tree and the Data panel. The simulation runs in a Web
 * Worker (or, with --server, in the server process over a WebSocket).
 */
import type { DrawCategory } from '../session/draw-items.js';
import type { FromSimulation, ToSimulation } from '../session/protocol.js';
import { Charts } from './charts.js';
import { socketConnection, workerConnection, type Connection } from './connection.js';
import { renderData, renderTree } from './panel.js';
import { View3D } from './view3d.js';

interface PageConfig {
  scene: string;
  dataPaths: string[];
  mode: 'worker' | 'server';
  title: string;
}

const config = JSON.parse(document.getElementById('sofa-config')!.textContent!) as PageConfig;
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const conn: Connection =
  config.mode === 'server'
    ? socketConnection(new URL('ws', location.href.replace(/^http/, 'ws')).href)
    : workerConnection(new URL('assets/worker.js', location.href).href, new URL('files/', location.href).href);
const send = (m: ToSimulation): void => conn.send(m);

const view = new View3D($<HTMLCanvasElement>('view'), {
  pick: (origin, dir) => send({ type: 'pick', origin, dir }),
  drag: (target) => send({ type: 'drag', target }),
  release: () => send({ type: 'release' }),
  // frames are acknowledged when drawn: the worker sends no more than the page draws
  consumed: () => send({ type: 'frameAck' }),
});
if (config.mode === 'worker') view.filesBase = new URL('files/', location.href).href;
const charts = new Charts($('charts'));

/** What tests and scripts can read: the page's state. */
const state = {
  loaded: false,
  playing: false,
  step: 0,
  time: 0,
  framesReceived: 0,
  errors: [] as string[],
  warnings: [] as string[],
  selected: '',
  get fps(): number {
    return view.fps;
  },
  get framesDrawn(): number {
    return view.framesDrawn;
  },
  lastSample: undefined as unknown,
  toScreen: (p: [number, number, number]): [number, number] => view.toScreen(p),
  /** The point the last shift-click picked. */
  picked: undefined as { path: string; index: number } | undefined,
};
(window as unknown as { sofaViewer: typeof state }).sofaViewer = state;

let items: { id: number; category: DrawCategory }[] = [];
const shown = new Set<number>();
let lastDataRequest = 0;

function requestData(): void {
  if (!state.selected) return;
  lastDataRequest = performance.now();
  send({ type: 'getData', path: state.selected });
}

function select(path: string): void {
  state.selected = path;
  for (const e of document.querySelectorAll('.selected')) e.classList.remove('selected');
  document.querySelector(`[data-path="${CSS.escape(path)}"]`)?.classList.add('selected');
  requestData();
}

function message(text: string, kind: 'error' | 'warning'): void {
  const m = document.createElement('div');
  m.className = kind;
  m.textContent = text;
  $('messages').append(m);
}

conn.onMessage((msg: FromSimulation) => {
  switch (msg.type) {
    case 'loaded': {
      state.loaded = true;
      items = msg.items;
      shown.clear();
      for (const id of msg.shown) shown.add(id);
      if (shown.size === 0) {
        // nothing under the scene's display flags (no visual model): show its mechanics
        for (const it of msg.items) if (it.category === 'behavior' || it.category === 'forcefield') shown.add(it.id);
        message('nothing to show under the display flags of the scene: showing behavior models and force fields', 'warning');
      }
      view.load(msg);
      view.setShown(shown);
      syncFlags();
      $<HTMLInputElement>('dt').value = String(msg.dt);
      renderTree($('tree'), msg.tree, select);
      state.warnings = msg.warnings;
      for (const w of msg.warnings) message(w, 'warning');
      $('status').textContent = 'loaded';
      break;
    }
    case 'frame': {
      state.framesReceived++;
      view.setFrame(msg);
      state.step = msg.step;
      state.time = msg.time;
      state.playing = msg.playing;
      state.lastSample = msg.sample;
      $('play').textContent = msg.playing ? 'Pause' : 'Play';
      $('stat-step').textContent = String(msg.step);
      $('stat-time').textContent = msg.time.toPrecision(6);
      if (msg.sample) {
        $('stat-ms').textContent = msg.sample.ms.toFixed(2);
        $('stat-it').textContent = String(msg.sample.iterations + msg.sample.constraintIterations);
        if (msg.sample.step === msg.step) charts.add(msg.sample);
      } else charts.clear();
      if (!msg.playing || performance.now() - lastDataRequest > 500) requestData();
      break;
    }
    case 'data':
      if (msg.path === state.selected)
        renderData(
          $('data'),
          msg.path,
          msg.fields,
          state.step,
          (name, value) => send({ type: 'setData', path: msg.path, name, value }),
          (name) => send({ type: 'watch', path: msg.path, name }),
        );
      break;
    case 'watching':
      charts.setData(msg.names);
      break;
    case 'picked':
      state.picked = msg.path !== undefined && msg.index !== undefined ? { path: msg.path, index: msg.index } : undefined;
      view.picked(msg.path, msg.index, msg.point);
      break;
    case 'error':
      state.errors.push(msg.message);
      message(msg.message, 'error');
      break;
  }
});

setInterval(() => {
  $('stat-fps').textContent = view.fps.toFixed(0);
}, 500);

// Keys to the scene, as runSofa forwards them: Ctrl+key (a letter upper case), and the keys
// SoftRobots' controllers read without it: + - and the arrows (ASCII 18-21, SOFA's codes).
const arrowKeys: Record<string, string> = {
  ArrowLeft: String.fromCharCode(18),
  ArrowUp: String.fromCharCode(19),
  ArrowRight: String.fromCharCode(20),
  ArrowDown: String.fromCharCode(21),
};
function sceneKey(e: KeyboardEvent): string | undefined {
  if ((e.target as HTMLElement | null)?.closest?.('input, textarea')) return undefined;
  if (arrowKeys[e.key]) return arrowKeys[e.key];
  if (e.key === '+' || e.key === '-') return e.key;
  if (e.ctrlKey && e.key.length === 1) return e.key.toUpperCase();
  return undefined;
}
for (const [kind, pressed] of [
  ['keydown', true],
  ['keyup', false],
] as const) {
  window.addEventListener(kind, (e) => {
    const key = sceneKey(e);
    if (key === undefined) return;
    e.preventDefault();
    send({ type: 'key', key, pressed });
  });
}

$('play').addEventListener('click', () => send({ type: state.playing ? 'pause' : 'play' }));
$('step').addEventListener('click', () => send({ type: 'step' }));
$('reset').addEventListener('click', () => send({ type: 'reset' }));
$<HTMLInputElement>('realtime').addEventListener('change', (e) => send({ type: 'realTime', on: (e.target as HTMLInputElement).checked }));
$<HTMLInputElement>('dt').addEventListener('change', (e) => {
  const dt = Number((e.target as HTMLInputElement).value);
  if (dt > 0) send({ type: 'setDt', dt });
});

/** The display-flag checkboxes: one per category present in the scene. */
function syncFlags(): void {
  for (const box of document.querySelectorAll<HTMLInputElement>('#flags input[data-category]')) {
    const cat = box.dataset['category'] as DrawCategory;
    const ofCat = items.filter((i) => i.category === cat);
    box.parentElement!.style.display = ofCat.length ? '' : 'none';
    box.checked = ofCat.some((i) => shown.has(i.id));
    box.onchange = () => {
      for (const i of ofCat) box.checked ? shown.add(i.id) : shown.delete(i.id);
      view.setShown(shown);
    };
  }
}

document.title = `${config.title} — sofa-ts`;
$('title').textContent = config.title;
send({ type: 'open', scene: config.scene, dataPaths: config.dataPaths });
