import { expect } from 'chai';
import * as path from 'node:path';
import { el, find, initScene, tempFiles, type TestState } from '../scene-test-support.js';
import { arr, close, one } from '../engine-test-support.js';
import { quatFromEulerDeg, quatMul, quatRotate } from '../rigid-math.js';
import type { DifferenceEngine } from './DifferenceEngine.js';
import type { DisplacementMatrixEngine, DisplacementTransformEngine } from './DisplacementTransformEngine.js';
import type { IndexValueMapper } from './IndexValueMapper.js';
import type { SmoothMeshEngine } from './SmoothMeshEngine.js';
import type { TransformEngine } from './TransformEngine.js';
import type { InvertTransformMatrixEngine, RotateTransformMatrixEngine } from './TransformMatrixEngine.js';
import type { TransformPosition } from './TransformPosition.js';
import type { Vertex2Frame } from './Vertex2Frame.js';

const s2 = Math.SQRT1_2;

describe('Engine.Transform', () => {
  describe('TransformEngine', () => {
    it('applies scale, then rotation, then translation: p′ = t + R·(s∘p)', () => {
      // R = rotation of 90° about z: (x, y, z) → (−y, x, z)
      const t = one<TransformEngine>('TransformEngine', {
        input_position: '1 2 3  -1 0 2',
        scale: '2 3 4',
        rotation: '0 0 90',
        translation: '10 20 30',
      });
      // s∘p = (2 6 12) → R → (−6 2 12) → + t
      expect(close(t.outputPosition.value, [4, 22, 42, 10, 18, 38])).to.equal(true);
    });

    it('composes the Euler angles about x, then y, then z, and a quaternion after them', () => {
      const t = one<TransformEngine>('TransformEngine', { input_position: '1 0 0  0 1 0', rotation: '90 90 0' });
      // Rx(90) then Ry(90): x → x → −z;  y → z → x
      expect(close(t.outputPosition.value, [0, 0, -1, 1, 0, 0])).to.equal(true);
      const q = one<TransformEngine>('TransformEngine', { input_position: '1 0 0', rotation: '0 0 90', quaternion: `${s2} 0 0 ${s2}` });
      // Rz(90): x → y, then the quaternion (90° about x): y → z
      expect(close(q.outputPosition.value, [0, 0, 1])).to.equal(true);
    });

    it('with inverse undoes the transform', () => {
      const attrs = { scale: '2 0.5 3', rotation: '10 20 30', quaternion: '0.1 0.2 0.3 0.927361849549570', translation: '1 -2 3' };
      const fwd = one<TransformEngine>('TransformEngine', { input_position: '0.3 -1 2  4 5 6', ...attrs });
      const back = one<TransformEngine>('TransformEngine', { input_position: fwd.outputPosition.print(), ...attrs, inverse: '1' });
      expect(close(back.outputPosition.value, [0.3, -1, 2, 4, 5, 6], 1e-12)).to.equal(true);
    });

    it('turns rigid frames: centre rotated, orientation r ⊗ q', () => {
      const t = one<TransformEngine>('TransformEngine', {
        template: 'Rigid3',
        input_position: '1 0 0  0 0 0 1',
        rotation: '0 0 90',
        translation: '0 0 5',
      });
      const qz = quatFromEulerDeg([0, 0, 90]);
      expect(close(t.outputPosition.value, [0, 1, 5, ...quatMul(qz, [0, 0, 0, 1])])).to.equal(true);
      const r2 = one<TransformEngine>('TransformEngine', { template: 'Rigid2', input_position: '1 0 0.5', rotation: '0 0 90' });
      expect(close(r2.outputPosition.value, [0, 1, 0.5 + Math.PI / 2])).to.equal(true);
    });

    it('follows its input lazily: a new input gives a new output at the next read', () => {
      const t = one<TransformEngine>('TransformEngine', { input_position: '1 1 1', translation: '1 0 0' });
      expect(arr(t.outputPosition.value)).to.deep.equal([2, 1, 1]);
      t.inputPosition.read('0 0 0  5 5 5');
      expect(arr(t.outputPosition.value)).to.deep.equal([1, 0, 0, 6, 5, 5]);
      t.translation.read('0 0 -1');
      expect(arr(t.outputPosition.value)).to.deep.equal([0, 0, -1, 5, 5, 4]);
    });
  });

  describe('TransformPosition', () => {
    const input = '1 2 3  -1 0 4';
    it('projects on a plane, translates, scales about the origin, rotates', () => {
      const p = one<TransformPosition>('TransformPosition', {
        input_position: input,
        method: 'projectOnPlane',
        origin: '0 0 1',
        normal: '0 0 2',
      });
      expect(arr(p.outputPosition.value)).to.deep.equal([1, 2, 1, -1, 0, 1]);
      expect(
        arr(
          one<TransformPosition>('TransformPosition', { input_position: input, method: 'translation', translation: '1 1 1' }).outputPosition
            .value,
        ),
      ).to.deep.equal([2, 3, 4, 0, 1, 5]);
      expect(
        arr(
          one<TransformPosition>('TransformPosition', { input_position: input, method: 'scale', origin: '1 0 0', scale: '2 3 4' })
            .outputPosition.value,
        ),
      ).to.deep.equal([1, 6, 12, -3, 0, 16]);
      const r = one<TransformPosition>('TransformPosition', { input_position: input, method: 'rotation', rotation: '0 0 90' });
      expect(close(r.outputPosition.value, [-2, 1, 3, 0, -1, 4])).to.equal(true);
      const srt = one<TransformPosition>('TransformPosition', {
        input_position: input,
        method: 'scaleRotationTranslation',
        scale: '2 1 1',
        rotation: '0 0 90',
        translation: '0 0 1',
      });
      expect(close(srt.outputPosition.value, [-2, 2, 4, 0, -2, 5])).to.equal(true);
    });

    it('applies an affine matrix, from the scene or a .tfm/.trm/.xfm file, and keeps fixedIndices', () => {
      const m = '0 -1 0 1  1 0 0 2  0 0 1 3  0 0 0 1';
      const a = one<TransformPosition>('TransformPosition', { input_position: input, method: 'affine', matrix: m, fixedIndices: '1' });
      expect(arr(a.outputPosition.value)).to.deep.equal([-1, 3, 6, -1, 0, 4]);
      const dir = tempFiles({
        't.tfm':
          '#Insight Transform File V1.0\nTransform: AffineTransform_double_3_3\nParameters: 0 -1 0 1 0 0 0 0 1 3 2 1\nFixedParameters: 0 0 0\n',
        't.trm': '1 2 3\n0 -1 0\n1 0 0\n0 0 1\n',
        't.xfm': `${m.split('  ').join('\n')}\n`,
      });
      for (const f of ['t.tfm', 't.trm', 't.xfm']) {
        const t = one<TransformPosition>('TransformPosition', { input_position: input, method: 'fromFile', filename: path.join(dir, f) });
        // .tfm stores the translation reversed (SOFA reads it from the last value back)
        expect(arr(t.outputPosition.value), f).to.deep.equal([-1, 3, 6, 1, 1, 7]);
      }
    });

    it('displaces randomly within ±maxRandomDisplacement, the same for the same seed', () => {
      const a = one<TransformPosition>('TransformPosition', {
        input_position: input,
        method: 'random',
        maxRandomDisplacement: '0.1',
        seedValue: '7',
      });
      const b = one<TransformPosition>('TransformPosition', {
        input_position: input,
        method: 'random',
        maxRandomDisplacement: '0.1',
        seedValue: '7',
      });
      expect(arr(a.outputPosition.value)).to.deep.equal(arr(b.outputPosition.value));
      const d = arr(a.outputPosition.value).map((v, i) => v - [1, 2, 3, -1, 0, 4][i]);
      expect(Math.max(...d.map(Math.abs)))
        .to.be.at.most(0.1)
        .and.above(0);
    });
  });

  describe('Vertex2Frame', () => {
    it('gives frames whose z axis is the normal, x ⟂ to y0 = (0,1,0)', () => {
      const v = one<Vertex2Frame>('Vertex2Frame', { position: '1 2 3  0 0 0', normals: '0 0 2  1 0 0' });
      const f = v.frames.value;
      const axes = (o: number): number[][] =>
        [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ].map((e) => {
          const r = [0, 0, 0];
          quatRotate(f.subarray(o + 3, o + 7), e[0], e[1], e[2], r);
          return r;
        });
      expect(arr(f.subarray(0, 3))).to.deep.equal([1, 2, 3]);
      const [x0, y0, z0] = axes(0);
      expect(close(z0!, [0, 0, 1])).to.equal(true);
      // x = y0 × z / |…| = (1, 0, 0), y = z × x = (0, 1, 0)
      expect(close(x0!, [1, 0, 0])).to.equal(true);
      expect(close(y0!, [0, 1, 0])).to.equal(true);
      const [x1, , z1] = axes(7);
      expect(close(z1!, [1, 0, 0], 1e-12)).to.equal(true);
      expect(close(x1!, [0, 0, -1], 1e-12)).to.equal(true);
    });

    it('without normals points x to the next vertex; the last frame copies the one before', () => {
      const v = one<Vertex2Frame>('Vertex2Frame', { position: '0 0 0  0 1 0  0 1 1', useNormals: '0' });
      const f = v.frames.value;
      const x = [0, 0, 0];
      quatRotate(f.subarray(3, 7), 1, 0, 0, x);
      expect(close(x, [0, 1, 0])).to.equal(true);
      quatRotate(f.subarray(10, 14), 1, 0, 0, x);
      expect(close(x, [0, 0, 1])).to.equal(true);
      expect(arr(f.subarray(17, 21))).to.deep.equal(arr(f.subarray(10, 14)));
    });
  });

  describe('matrix engines', () => {
    it('compose the input on the right (outT = inT·A) and invert', () => {
      const root = initScene([
        el('TranslateTransformMatrixEngine', { name: 'T1', translation: '10 11 12' }),
        el('ScaleTransformMatrixEngine', { name: 'T2', inT: '@T1.outT', scale: '2 3 4' }),
        el('RotateTransformMatrixEngine', { name: 'T3', inT: '@T2.outT', rotation: '0 0 90' }),
        el('InvertTransformMatrixEngine', { name: 'T4', inT: '@T3.outT' }),
      ]);
      // T·S·Rz(90): x ↦ (10 − 2y, 11 + 3x, 12 + 4z)
      expect(
        close(find<RotateTransformMatrixEngine>(root, 'T3').outT.value, [0, -2, 0, 10, 3, 0, 0, 11, 0, 0, 4, 12, 0, 0, 0, 1], 1e-14),
      ).to.equal(true);
      // inverse: y = (10 − x')/2, x = (y' − 11)/3, z = (z' − 12)/4
      expect(
        close(
          find<InvertTransformMatrixEngine>(root, 'T4').outT.value,
          [0, 1 / 3, 0, -11 / 3, -0.5, 0, 0, 5, 0, 0, 0.25, -3, 0, 0, 0, 1],
          1e-14,
        ),
      ).to.equal(true);
    });

    it('DisplacementTransformEngine: D = M(x)·M(x0)⁻¹ maps the rest frame onto the current one', () => {
      const q = quatFromEulerDeg([0, 0, 90]);
      const x0 = '1 0 0 0 0 0 1',
        x = `2 3 4 ${q.join(' ')}`;
      const d = one<DisplacementTransformEngine>('DisplacementTransformEngine', { template: 'Rigid3,Mat4x4', x0, x });
      const D = d.displacements.value;
      // D·(1, 0, 0, 1) = (2, 3, 4, 1): the rest centre goes to the current one; D·(2,0,0,1) = centre + R·(1,0,0)
      const apply = (p: number[]): number[] =>
        [0, 1, 2].map((i) => D[4 * i] * p[0] + D[4 * i + 1] * p[1] + D[4 * i + 2] * p[2] + D[4 * i + 3]);
      expect(close(apply([1, 0, 0]), [2, 3, 4], 1e-15)).to.equal(true);
      expect(close(apply([2, 0, 0]), [2, 4, 4], 1e-15)).to.equal(true);
      const r = one<DisplacementTransformEngine>('DisplacementTransformEngine', { template: 'Rigid3,Rigid3', x0, x });
      expect(close(r.displacements.value, [2, 2, 4, ...q], 1e-15)).to.equal(true);
      const m = one<DisplacementMatrixEngine>('DisplacementMatrixEngine', { x0: '0 0 0 0 0 0 1', x: '1 0 0 0 0 0 1', scales: '2 2 2' });
      expect(arr(m.findData('displaceMats')!.value as Float64Array)).to.deep.equal([2, 0, 0, 1, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]);
    });
  });

  describe('value engines', () => {
    it('IndexValueMapper writes the value at the indices, growing the list with defaultValue', () => {
      const m = one<IndexValueMapper>('IndexValueMapper', { inputValues: '5 5', indices: '1 4', value: '9', defaultValue: '-1' });
      expect(arr(m.outputValues.value)).to.deep.equal([5, 9, -1, -1, 9]);
    });

    it('DifferenceEngine subtracts value by value', () => {
      const d = one<DifferenceEngine>('DifferenceEngine', { input: '1 2 3  4 5 6', substractor: '1 1 1  0 0 7' });
      expect(arr(d.output.value)).to.deep.equal([0, 1, 2, 4, 5, -1]);
    });

    it('SmoothMeshEngine moves each point to the mean of its edge neighbours', () => {
      const root = initScene([
        el('TestTopology', { name: 'topo', edges: '0 1  1 2  2 3' }),
        el('SmoothMeshEngine', { name: 's', input_position: '0 0 0  1 3 0  2 0 0  3 0 0', nb_iterations: '1' }),
      ]);
      const s = find<SmoothMeshEngine>(root, 's');
      expect(arr(s.outputPosition.value)).to.deep.equal([1, 3, 0, 1, 0, 0, 2, 1.5, 0, 2, 0, 0]);
      s.inputIndices.read('1');
      expect(arr(s.outputPosition.value)).to.deep.equal([0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0]);
    });
  });

  it('an engine fed by a state follows the state', () => {
    const root = initScene([
      el('TestState', { name: 'dofs', position: '0 0 0' }),
      el('TransformEngine', { name: 't', input_position: '@dofs.rest_position', translation: '1 2 3' }),
    ]);
    const t = find<TransformEngine>(root, 't');
    expect(arr(t.outputPosition.value)).to.deep.equal([1, 2, 3]);
    find<TestState>(root, 'dofs').restPosition.value = Float64Array.of(1, 1, 1);
    expect(arr(t.outputPosition.value)).to.deep.equal([2, 3, 4]);
  });
});
