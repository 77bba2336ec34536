import { host, isMechanicalState, isTopology, sofaComponent, type BaseObject, type Node } from '@sofa-ts/core';
import { SimulationExporterBase } from './simulation-exporter.js';

/**
 * SOFA's VisualModelOBJExporter (aliases OBJExporter, ObjExporter): the visual models of the
 * exporter's node and of its subtree, as one Wavefront OBJ file (`<filename>.obj`) with its
 * material library (`<filename>.mtl`). Per model: a group `g <name>` with `usemtl <material>`,
 * its vertices `v x y z` (current positions), its normals `vn` when it has one per vertex, and
 * its faces `f` (triangles, then quads; 1-based indices offset by the vertices of the models
 * before it, `a//a` when normals are written). The material takes the model's `material` (its
 * Ambient, Diffuse, Specular colours and Shininess), its `color` (r g b [a] or a basic colour
 * name) replacing the diffuse colour.
 */
@sofaComponent({
  name: 'VisualModelOBJExporter',
  aliases: ['OBJExporter', 'ObjExporter'],
  category: 'Exporter',
  module: 'Sofa.Component.IO.Mesh',
  description:
    'Export the scene under the Wavefront OBJ format. When several frames are exported the file name have the following pattern: outfile00000.obj outfile00001.obj.',
})
export class VisualModelOBJExporter extends SimulationExporterBase {
  write(): void {
    const models = visualModels(this.context);
    if (models.length === 0) this.warn('no visual model in this node or below: the OBJ file is empty');
    const base = this.targetPath();
    const mtlName = host().path.basename(`${base}.mtl`);
    const obj = ['# exported by sofa-ts VisualModelOBJExporter', `mtllib ${mtlName}`];
    const mtl = ['# exported by sofa-ts VisualModelOBJExporter'];
    let offset = 0;
    models.forEach((m, k) => {
      const name = m.getName().replace(/\s+/g, '_');
      const material = `${name}_${k}`;
      const x = m.findData('position')!.value as Float64Array;
      const n = x.length / 3;
      const nrm = m.findData('normal')?.value;
      const withNormals = nrm instanceof Float64Array && nrm.length === x.length && n > 0;
      obj.push(`g ${name}`, `usemtl ${material}`);
      for (let i = 0; i < n; i++) obj.push(`v ${x[3 * i]} ${x[3 * i + 1]} ${x[3 * i + 2]}`);
      if (withNormals) for (let i = 0; i < n; i++) obj.push(`vn ${nrm[3 * i]} ${nrm[3 * i + 1]} ${nrm[3 * i + 2]}`);
      const face = (ids: ArrayLike<number>, at: number, size: number): string => {
        const parts: string[] = [];
        for (let j = 0; j < size; j++) {
          const v = ids[at + j] + 1 + offset;
          parts.push(withNormals ? `${v}//${v}` : String(v));
        }
        return `f ${parts.join(' ')}`;
      };
      for (const [data, size] of [
        ['triangles', 3],
        ['quads', 4],
      ] as const) {
        const ids = m.findData(data)?.value;
        if (!(ids instanceof Uint32Array)) continue;
        for (let t = 0; t < ids.length; t += size) obj.push(face(ids, t, size));
      }
      offset += n;
      mtl.push(...materialLines(material, m));
    });
    host().writeFile(`${base}.obj`, `${obj.join('\n')}\n`);
    host().writeFile(`${base}.mtl`, `${mtl.join('\n')}\n`);
  }
}

/** A visual model: a visual component with positions (n × 3) and triangles (as the viewer finds them). */
function isVisualModel(o: BaseObject): boolean {
  if (isMechanicalState(o) || isTopology(o)) return false;
  const info = (o.constructor as { componentInfo?: { category?: string } }).componentInfo;
  return (
    (info?.category === 'Visual' || /^(Ogl|Visual)Model$/.test(o.className)) &&
    o.findData('position')?.value instanceof Float64Array &&
    o.findData('triangles') !== undefined
  );
}

/** The visual models of a subtree, in visit order (inactive nodes apart). */
function visualModels(root: Node): BaseObject[] {
  const out: BaseObject[] = [];
  root.visit((n) => {
    if (!n.activated.value) return false;
    for (const o of n.objects) if (isVisualModel(o)) out.push(o);
    return true;
  });
  return out;
}

/** MTL lines of a model: SOFA's material string "name Diffuse on r g b a Ambient … Shininess on s", else its color. */
function materialLines(name: string, m: BaseObject): string[] {
  const lines = [`newmtl ${name}`];
  const tokens = String(m.findData('material')?.value ?? '')
    .trim()
    .split(/\s+/);
  const colour = (key: string): number[] | undefined => {
    const i = tokens.indexOf(key);
    if (i < 0 || i + 5 >= tokens.length + 1) return undefined;
    const v = tokens.slice(i + 2, i + 6).map(Number);
    return v.length === 4 && v.every(Number.isFinite) ? v : undefined;
  };
  // the model's color, when given, is its diffuse colour (as SOFA's OglModel sets its material)
  const diffuse = parseColor(String(m.findData('color')?.value ?? '')) ?? colour('Diffuse') ?? [0.75, 0.75, 0.75, 1];
  const ambient = colour('Ambient') ?? [0.2, 0.2, 0.2, 1];
  const specular = colour('Specular') ?? [1, 1, 1, 1];
  const s = tokens.indexOf('Shininess');
  const shininess = s >= 0 && Number.isFinite(Number(tokens[s + 2])) ? Number(tokens[s + 2]) : 45;
  lines.push(
    `Ka ${ambient.slice(0, 3).join(' ')}`,
    `Kd ${diffuse.slice(0, 3).join(' ')}`,
    `Ks ${specular.slice(0, 3).join(' ')}`,
    `Ns ${shininess}`,
    `d ${diffuse[3] ?? 1}`,
  );
  return lines;
}

const NAMED: Record<string, number[]> = {
  white: [1, 1, 1, 1],
  black: [0, 0, 0, 1],
  red: [1, 0, 0, 1],
  green: [0, 1, 0, 1],
  blue: [0, 0, 1, 1],
  cyan: [0, 1, 1, 1],
  magenta: [1, 0, 1, 1],
  yellow: [1, 1, 0, 1],
  gray: [0.5, 0.5, 0.5, 1],
  grey: [0.5, 0.5, 0.5, 1],
};

/** r g b [a] numbers or a basic colour name; undefined when empty or not understood. */
function parseColor(text: string): number[] | undefined {
  const t = text.trim().toLowerCase();
  if (!t) return undefined;
  if (NAMED[t]) return NAMED[t];
  const v = t.split(/\s+/).map(Number);
  if ((v.length === 3 || v.length === 4) && v.every(Number.isFinite)) return v.length === 3 ? [...v, 1] : v;
  return undefined;
}
