import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSceneFromString } from 'sofa-ts';
const dir = path.resolve(new URL('..', import.meta.url).pathname, 'scenes/softrobots');
const med = (a) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
for (const robot of ['diamond', 'trunk']) {
  const file = path.join(dir, robot + '.scn');
  const xml = fs.readFileSync(file, 'utf8');
  const par = xml.replace(/<SparseLDLSolver /, '<SparseLDLSolver parallelFactorization="true" ');
  const scenes = [await loadSceneFromString(xml, { dataPaths: [dir], fileName: file }), await loadSceneFromString(par, { dataPaths: [dir], fileName: file })];
  const t = [[], []];
  for (const s of scenes) s.step(3);
  for (let r = 0; r < 10; r++) for (let k = 0; k < 2; k++) for (let i = 0; i < 30; i++) { const t0 = performance.now(); scenes[k].step(); t[k].push(performance.now() - t0); }
  const pos = scenes.map((s) => s.get(`/${robot}/dofs`).position.value);
  let same = pos[0].length === pos[1].length; for (let i = 0; i < pos[0].length; i++) if (!Object.is(pos[0][i], pos[1][i])) same = false;
  const sol = scenes[1].root.children.find((c) => c.getName() === robot).objects.find((o) => o.className === 'SparseLDLSolver');
  console.log(robot, 'one thread', med(t[0]).toFixed(3), 'two', med(t[1]).toFixed(3), 'ratio', (med(t[1]) / med(t[0])).toFixed(3), 'bit for bit', same, 'split', JSON.stringify(sol.factorizationSplit));
  for (const s of scenes) s.dispose();
}
process.exit(0);
