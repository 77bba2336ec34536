/** The viewer's HTML page; `config` tells the page which scene to open and where the simulation runs. */
export interface PageConfig {
  /** Virtual path of the scene (`/scene/liver.scn`), or the real path with --server. */
  scene: string;
  dataPaths: string[];
  mode: 'worker' | 'server';
  title: string;
}

const css = `
html, body { margin: 0; height: 100%; background: #14171c; color: #ddd; font: 13px system-ui, sans-serif; }
#app { display: flex; height: 100%; }
#view { flex: 1; min-width: 0; height: 100%; display: block; cursor: crosshair; }
#side { width: 380px; overflow-y: auto; border-left: 1px solid #333; padding: 8px; box-sizing: border-box; }
#side h1 { font-size: 14px; margin: 0 0 6px; word-break: break-all; }
button { background: #2b3340; color: #eee; border: 1px solid #456; padding: 4px 10px; border-radius: 3px; cursor: pointer; }
button:hover { background: #364152; }
input, textarea { background: #1d222a; color: #eee; border: 1px solid #445; font: 12px ui-monospace, monospace; }
#dt { width: 80px; }
#stats { margin: 6px 0; font: 12px ui-monospace, monospace; }
#stats span { color: #9cf; }
#flags label { margin-right: 8px; white-space: nowrap; }
.section { margin-top: 8px; border-top: 1px solid #333; padding-top: 6px; }
#tree ul { list-style: none; margin: 0; padding-left: 14px; }
#tree details { padding-left: 8px; }
#tree summary, .tree-object { cursor: pointer; }
.class-name { color: #888; font-size: 11px; }
.selected { background: #2d4a6a; }
#data table { width: 100%; border-collapse: collapse; }
#data td { vertical-align: top; border-bottom: 1px solid #2a2a2a; padding: 2px; }
.data-name { color: #adf; white-space: nowrap; }
.data-type { color: #777; font-size: 11px; }
.watch { padding: 0 3px; margin-left: 3px; font-size: 10px; }
.data-value { max-height: 90px; overflow: auto; word-break: break-all; font: 11px ui-monospace, monospace; }
#data textarea { width: 100%; box-sizing: border-box; }
.data-title { font-weight: bold; margin-bottom: 4px; }
.error { color: #f88; } .warning { color: #fc6; }
.u-legend { font-size: 11px; } .u-title { font-size: 12px; }
`;

export function viewerPage(config: PageConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sofa-ts viewer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="assets/uPlot.min.css">
<style>${css}</style>
<script id="sofa-config" type="application/json">${json}</script>
</head><body><div id="app">
<canvas id="view"></canvas>
<aside id="side">
<h1 id="title"></h1>
<div id="controls"><button id="play">Play</button> <button id="step">Step</button> <button id="reset">Reset</button>
<label> dt <input id="dt" type="number" step="any" min="0"></label> <label title="simulated time does not run ahead of the wall clock"><input id="realtime" type="checkbox" checked> real time</label></div>
<div id="stats">step <span id="stat-step">0</span> · t <span id="stat-time">0</span> s · <span id="stat-ms">–</span> ms/step · iterations <span id="stat-it">–</span> · <span id="stat-fps">–</span> fps · <span id="status">loading…</span></div>
<div id="flags"><label><input type="checkbox" data-category="visual"> visual</label><label><input type="checkbox" data-category="behavior"> behavior</label><label><input type="checkbox" data-category="forcefield"> force fields</label><label><input type="checkbox" data-category="interaction"> interactions</label><label><input type="checkbox" data-category="collision"> collision</label><label><input type="checkbox" data-category="contact"> contacts</label></div>
<div style="font-size:11px;color:#888">drag: orbit · right-drag: pan · wheel: zoom · shift-drag: pull a point</div>
<div id="messages"></div>
<div class="section" id="charts"></div>
<div class="section" id="tree"></div>
<div class="section" id="data"></div>
</aside></div>
<script type="module" src="assets/main.js"></script>
</body></html>
`;
}
