import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadSceneFromString } from 'sofa-ts';
const dir = path.resolve(new URL('..', import.meta.url).pathname, 'scenes/softrobots');
const file = path.join(dir, 'diamond.scn');
const xml = fs.readFileSync(file, 'utf8').replace('<RequiredPlugin name="SoftRobots"/>', '<RequiredPlugin name="Sofa.Component.LinearSolver.Preconditioner"/>\n    <RequiredPlugin name="SoftRobots"/>').replace(/<SparseLDLSolver ([^/]*)\/>/, `<WarpPreconditioner linearSolver="@ldl" update_step="12"/>\n        <SparseLDLSolver name="ldl" $1/>`);
const scene = await loadSceneFromString(xml, { dataPaths: [dir], fileName: file });
scene.step(3);
const t = [];
for (let i = 0; i < 1200; i++) { const t0 = performance.now(); scene.step(); t.push(performance.now() - t0); }
t.sort((a, b) => a - b); console.log('median', t[600].toFixed(3));
