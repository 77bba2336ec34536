import { countAtMost, MAX_POINTS, sofaComponent, UInt } from '@sofa-ts/core';
import { MeshLoader, emptyMeshBuffers, type MeshBuffers } from './MeshLoader.js';

/** The most points of a chain: 3 coordinates each in a plain array of at most 2^27 − 1 numbers. */
export const MAX_STRING_POINTS = Math.floor((2 ** 27 - 1) / 3);

/**
 * SOFA's StringMeshCreator (from the Compliant plugin, now in Sofa.Component.IO.Mesh): a
 * procedural one-dimensional mesh, a chain of `resolution` points evenly spaced from (0, 0, 0) to
 * (1, 0, 0),
 *   p_i = (i / (resolution − 1), 0, 0),   edges (i − 1, i) for i = 1 … resolution − 1,
 * then transformed like any MeshLoader's points (scale3d, rotation, translation or
 * transformation): a string of particles of length scale3d.x along x, for chains and ropes.
 * It reads no file; changing `resolution` rebuilds the mesh for its readers.
 */
@sofaComponent({
  name: 'StringMeshCreator',
  category: 'Loader',
  module: 'Sofa.Component.IO.Mesh',
  description: 'Procedural creation of a one-dimensional mesh (a chain of points along x).',
})
export class StringMeshCreator extends MeshLoader {
  readonly resolution = this.initData({
    name: 'resolution',
    type: UInt,
    default: 2,
    range: countAtMost(MAX_POINTS),
    help: 'number of vertices (at least 2)',
  });

  constructor() {
    super();
    this.addInput(this.resolution);
  }

  protected override needsFile(): boolean {
    return false;
  }

  /** Builds the chain (no file is read). */
  protected override updateOutputs(): void {
    const buf = emptyMeshBuffers();
    this.readMesh('', buf);
    this.finishMesh(buf);
  }

  protected readMesh(_path: string, out: MeshBuffers): void {
    const n = this.resolution.value;
    if (n < 2) throw this.error(`resolution is ${n}, expected at least 2 points`);
    // The loader's buffers are plain arrays (3 numbers per point): past 2^27 numbers V8 aborts.
    if (n > MAX_STRING_POINTS) throw this.error(`resolution is ${n}, more points than a mesh loader holds (${MAX_STRING_POINTS})`);
    for (let i = 0; i < n; i++) out.positions.push(i / (n - 1), 0, 0);
    for (let i = 1; i < n; i++) out.edges.push(i - 1, i);
  }
}
