#!/usr/bin/env node
// Finds hidden state a checkpoint misses: runs a scene K steps, restores a checkpoint of it into a
// fresh load, and lists the components' own fields (numbers, booleans, typed arrays, one level of
// nested objects) that differ between the two. Buffers the restored scene has not allocated yet
// (empty arrays) and write counters are left out; what remains is either scratch that the next
// step overwrites before reading it, or state the component must declare (docs/checkpoints.md).
//
//   node scripts/checkpoint-hidden-state.mjs SCENE K [--data-path DIR]...
import { loadScene } from 'sofa-ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: node scripts/checkpoint-hidden-state.mjs SCENE K [--data-path DIR]...
Runs SCENE K steps, restores a checkpoint of it into a fresh load and lists the components' fields
that differ (hidden state a checkpoint misses; docs/checkpoints.md).
  --data-path DIR   folder searched for meshes and includes (repeatable)
  -h, --help        print this and exit`);
  process.exit(0);
}

const args = process.argv.slice(2);
const dataPaths = [];
const rest = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--data-path') dataPaths.push(args[++i]);
  else rest.push(args[i]);
}
const [scene, k] = rest;
if (!scene || !(Number(k) > 0)) {
  console.error('usage: node scripts/checkpoint-hidden-state.mjs SCENE K [--data-path DIR]...');
  process.exit(2);
}
const options = { dataPaths, onDivergence: 'continue' };
const stepped = await loadScene(scene, options);
stepped.step(Number(k));
const restored = await loadScene(scene, options);
restored.restore(stepped.checkpoint().checkpoint);

const ignored = /counter|revision|lastStats|timings|timeMs|^_|owner|parent|spec|context/i;
const lines = [];
function compare(a, b, where, depth, seen) {
  if (depth > 2 || a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || seen.has(a)) return;
  seen.add(a);
  for (const key of Object.keys(a)) {
    if (ignored.test(key)) continue;
    const u = a[key],
      v = b[key];
    if (typeof u === 'number' || typeof u === 'boolean') {
      if (!Object.is(u, v)) lines.push(`${where}.${key}: ${u} (stepped) vs ${v} (restored)`);
    } else if (ArrayBuffer.isView(u) && !(u instanceof DataView)) {
      if (!ArrayBuffer.isView(v)) lines.push(`${where}.${key}: an array vs ${typeof v}`);
      else if (u.length !== v.length) {
        if (v.length !== 0) lines.push(`${where}.${key}: ${u.length} values vs ${v.length}`);
      } else {
        const i = u.findIndex((x, j) => !Object.is(x, v[j]));
        if (i >= 0) lines.push(`${where}.${key}[${i}]: ${u[i]} vs ${v[i]}`);
      }
    } else if (u && typeof u === 'object' && !('isMechanicalState' in u) && !('dataFields' in u))
      compare(u, v, `${where}.${key}`, depth + 1, seen);
  }
}
const a = [...stepped.root.subtreeObjects()],
  b = [...restored.root.subtreeObjects()];
for (let i = 0; i < a.length; i++) compare(a[i], b[i], `${a[i].context.path}/${a[i].getName()} (${a[i].className})`, 0, new Set());
console.log(lines.length ? lines.join('\n') : 'no own field differs');
