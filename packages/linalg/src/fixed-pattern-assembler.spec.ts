import { expect } from 'chai';
import { csrCheck, csrFindSlot, csrNnz, csrToDense } from './csr.js';
import { ELEMENT_BATCH, FixedPatternAssembler } from './fixed-pattern-assembler.js';
import { expectMatrixClose, randInt, rng } from './test-support.js';

// A tetrahedral-mesh-like set of elements: 4 distinct nodes each, 3 DOFs per node.
interface Mesh {
  nodes: number;
  elements: number[][];
}

function randomMesh(r: () => number, nodes: number, elements: number): Mesh {
  const els: number[][] = [];
  for (let e = 0; e < elements; e++) {
    const s = new Set<number>();
    while (s.size < 4) s.add(randInt(r, nodes));
    els.push([...s]);
  }
  return { nodes, elements: els };
}

// Element "stiffness" blocks: 12x12 per element, fresh values from r.
function elementBlocks(r: () => number, mesh: Mesh): Float64Array[] {
  return mesh.elements.map(() => {
    const K = new Float64Array(144);
    for (let k = 0; k < 144; k++) K[k] = r() * 2 - 1;
    return K;
  });
}

// Emits every element as 16 node-pair 3x3 blocks (the order a FEM force field would use).
function emit(asm: FixedPatternAssembler, mesh: Mesh, blocks: Float64Array[]): void {
  const b = new Float64Array(9);
  mesh.elements.forEach((el, e) => {
    const K = blocks[e];
    for (let a = 0; a < 4; a++) {
      for (let c = 0; c < 4; c++) {
        for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) b[3 * i + j] = K[(3 * a + i) * 12 + 3 * c + j];
        asm.addBlock(3 * el[a], 3 * el[c], 3, b);
      }
    }
  });
}

// The oracle: plain dense summation of the same element matrices.
function denseSum(mesh: Mesh, blocks: Float64Array[]): number[][] {
  const n = 3 * mesh.nodes;
  const D = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  mesh.elements.forEach((el, e) => {
    for (let a = 0; a < 12; a++) {
      const ra = 3 * el[Math.floor(a / 3)] + (a % 3);
      for (let c = 0; c < 12; c++) {
        const rc = 3 * el[Math.floor(c / 3)] + (c % 3);
        D[ra][rc] += blocks[e][a * 12 + c];
      }
    }
  });
  return D;
}

describe('FixedPatternAssembler', () => {
  it('symbolic pass assembles the dense sum of random element contributions', () => {
    const r = rng(1);
    const mesh = randomMesh(r, 30, 25);
    const blocks = elementBlocks(r, mesh);
    const asm = new FixedPatternAssembler(90, 90);
    asm.beginSymbolic();
    emit(asm, mesh, blocks);
    const A = asm.endSymbolic();
    csrCheck(A);
    expect(asm.emissionCount).to.equal(25 * 144);
    expectMatrixClose(csrToDense(A), denseSum(mesh, blocks), 1e-14);
    // The pattern is exactly the set of emitted positions.
    const expected = denseSum(
      mesh,
      blocks.map((B) => B.map(() => 1)),
    );
    let count = 0;
    for (const row of expected) for (const v of row) if (v !== 0) count++;
    expect(csrNnz(A)).to.equal(count);
  });

  it('numeric refills with new values give the new dense sums, in the same matrix object', () => {
    const r = rng(2);
    const mesh = randomMesh(r, 40, 30);
    const asm = new FixedPatternAssembler(120, 120);
    asm.beginSymbolic();
    emit(asm, mesh, elementBlocks(r, mesh));
    const A = asm.endSymbolic();
    const values = A.values;
    for (let step = 0; step < 4; step++) {
      const blocks = elementBlocks(r, mesh);
      asm.beginNumeric();
      emit(asm, mesh, blocks);
      expect(asm.endNumeric()).to.equal(true);
      expect(asm.matrix).to.equal(A);
      expect(A.values).to.equal(values);
      expect(asm.patternVersion).to.equal(1);
      expectMatrixClose(csrToDense(A), denseSum(mesh, blocks), 1e-14);
    }
  });

  it('a changed emission order is detected (valid = false), and the symbolic rerun recovers', () => {
    const r = rng(3);
    const mesh = randomMesh(r, 20, 12);
    const blocks = elementBlocks(r, mesh);
    const asm = new FixedPatternAssembler(60, 60);
    asm.beginSymbolic();
    emit(asm, mesh, blocks);
    asm.endSymbolic();

    // Same entries, elements visited in reverse order: the sum is the same but the sequence is not.
    const reversed: Mesh = { nodes: mesh.nodes, elements: [...mesh.elements].reverse() };
    const revBlocks = [...blocks].reverse();
    asm.beginNumeric();
    emit(asm, reversed, revBlocks);
    expect(asm.valid).to.equal(false);
    expect(asm.endNumeric()).to.equal(false);

    // Protocol: rerun the symbolic pass with the new sequence.
    asm.beginSymbolic();
    emit(asm, reversed, revBlocks);
    const A2 = asm.endSymbolic();
    expect(asm.patternVersion).to.equal(2);
    expectMatrixClose(csrToDense(A2), denseSum(mesh, blocks), 1e-14);
    asm.beginNumeric();
    emit(asm, reversed, revBlocks);
    expect(asm.endNumeric()).to.equal(true);
  });

  it('detects extra, missing and moved emissions', () => {
    const asm = new FixedPatternAssembler(3, 3);
    asm.beginSymbolic();
    asm.add(0, 0, 1);
    asm.add(1, 2, 2);
    asm.add(0, 0, 3); // duplicate position: summed
    asm.endSymbolic();
    expect(csrToDense(asm.matrix!)).to.deep.equal([
      [4, 0, 0],
      [0, 0, 2],
      [0, 0, 0],
    ]);

    asm.beginNumeric();
    asm.add(0, 0, 1);
    asm.add(1, 2, 1);
    asm.add(0, 0, 1);
    expect(asm.endNumeric()).to.equal(true);

    asm.beginNumeric(); // one emission too many
    asm.add(0, 0, 1);
    asm.add(1, 2, 1);
    asm.add(0, 0, 1);
    asm.add(0, 0, 1);
    expect(asm.endNumeric()).to.equal(false);

    asm.beginNumeric(); // one missing
    asm.add(0, 0, 1);
    asm.add(1, 2, 1);
    expect(asm.endNumeric()).to.equal(false);

    asm.beginNumeric(); // right row, wrong column
    asm.add(0, 0, 1);
    asm.add(1, 1, 1);
    asm.add(0, 0, 1);
    expect(asm.endNumeric()).to.equal(false);

    asm.beginNumeric(); // nothing is written after the first mismatch
    asm.add(0, 1, 5);
    asm.add(1, 2, 7);
    asm.add(0, 0, 9);
    expect(asm.endNumeric()).to.equal(false);
    expect(Array.from(asm.matrix!.values)).to.deep.equal([0, 0]);
  });

  it('a numeric pass before any symbolic pass is invalid', () => {
    const asm = new FixedPatternAssembler(2, 2);
    asm.beginNumeric();
    asm.add(0, 0, 1);
    expect(asm.endNumeric()).to.equal(false);
    expect(asm.matrix).to.equal(null);
  });

  it('withDiagonal forces the whole diagonal (zeros) without disturbing slots', () => {
    const asm = new FixedPatternAssembler(4, 5, { withDiagonal: true });
    asm.beginSymbolic();
    asm.add(3, 4, 1);
    asm.add(1, 1, 2);
    asm.add(0, 3, 3);
    const A = asm.endSymbolic();
    csrCheck(A);
    for (let i = 0; i < 4; i++) expect(csrFindSlot(A, i, i) >= 0, `diag ${i}`).to.equal(true);
    expect(csrNnz(A)).to.equal(6); // 4 diagonal + (3,4) + (0,3)
    expect(csrToDense(A)).to.deep.equal([
      [0, 0, 0, 3, 0],
      [0, 2, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 1],
    ]);
    asm.beginNumeric();
    asm.add(3, 4, 10);
    asm.add(1, 1, 20);
    asm.add(0, 3, 30);
    expect(asm.endNumeric()).to.equal(true);
    expect(csrToDense(A)).to.deep.equal([
      [0, 0, 0, 30, 0],
      [0, 20, 0, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 0, 0, 10],
    ]);
  });

  it('addRectBlock emits row-major; symbolic adds are range-checked; phases are enforced', () => {
    const asm = new FixedPatternAssembler(3, 4);
    asm.beginSymbolic();
    asm.addRectBlock(1, 1, 2, 3, [1, 2, 3, 4, 5, 6]);
    asm.endSymbolic();
    expect(csrToDense(asm.matrix!)).to.deep.equal([
      [0, 0, 0, 0],
      [0, 1, 2, 3],
      [0, 4, 5, 6],
    ]);
    asm.beginNumeric(); // column-major order is a different sequence
    for (let j = 0; j < 3; j++) for (let i = 0; i < 2; i++) asm.add(1 + i, 1 + j, 1);
    expect(asm.endNumeric()).to.equal(false);

    asm.beginSymbolic();
    expect(() => asm.add(3, 0, 1)).to.throw(/outside/);
    expect(() => asm.add(0, -1, 1)).to.throw(/outside/);
    const fresh = new FixedPatternAssembler(2, 2);
    expect(() => fresh.add(0, 0, 1)).to.throw(/outside beginSymbolic/);
    expect(() => fresh.endNumeric()).to.throw();
  });

  it('grows its recording buffers beyond the initial capacity', () => {
    const asm = new FixedPatternAssembler(50, 50);
    asm.beginSymbolic();
    const D = Array.from({ length: 50 }, () => new Array<number>(50).fill(0));
    for (let k = 0; k < 5000; k++) {
      const i = (k * 7) % 50;
      const j = (k * 13) % 50;
      asm.add(i, j, k);
      D[i][j] += k;
    }
    expectMatrixClose(csrToDense(asm.endSymbolic()), D, 0);
  });
});

describe('FixedPatternAssembler: the recording by items (scalars, blocks, elements)', () => {
  // A mix of every emission kind on a 3x3-block-unaligned layout: scalars (some inside a block,
  // some repeated), blocks at unaligned rows and columns, full and symmetric elements, a repeated
  // node; the oracle is a plain dense sum in emission order and the set of emitted positions.
  type Emit = (asm: FixedPatternAssembler | undefined, D: number[][] | undefined, seen: Set<number> | undefined) => void;
  const N = 23;
  function emissions(r: () => number): Emit[] {
    const out: Emit[] = [];
    const at = (D: number[][] | undefined, seen: Set<number> | undefined, i: number, j: number, v: number) => {
      if (D) D[i][j] += v;
      seen?.add(i * N + j);
    };
    for (let t = 0; t < 60; t++) {
      const kind = randInt(r, 4);
      if (kind === 0) {
        const i = randInt(r, N),
          j = randInt(r, N),
          v = r() - 0.5;
        out.push((asm, D, seen) => {
          asm?.add(i, j, v);
          at(D, seen, i, j, v);
        });
      } else if (kind === 1) {
        const i = randInt(r, N - 2),
          j = randInt(r, N - 2),
          f = r() + 0.5;
        const B = Float64Array.from({ length: 9 }, () => r() - 0.5);
        out.push((asm, D, seen) => {
          asm?.addBlock3(i, j, B, 0, f);
          for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) at(D, seen, i + p, j + q, f * B[3 * p + q]);
        });
      } else {
        // an element of 3 nodes at rows 3·node (+1: unaligned), possibly with a repeated node
        const shift = randInt(r, 2);
        const nodes = [randInt(r, 7), randInt(r, 7), randInt(r, 7)];
        const starts = nodes.map((n) => 3 * n + shift);
        const f = r() + 0.5;
        const U = Float64Array.from({ length: 54 }, () => r() - 0.5);
        const symmetric = kind === 3;
        out.push((asm, D, seen) => {
          const K = new Float64Array(81);
          for (let i = 0, u = 0; i < 3; i++)
            for (let j = i; j < 3; j++, u += 9)
              for (let p = 0; p < 3; p++)
                for (let q = 0; q < 3; q++) {
                  K[(3 * i + p) * 9 + 3 * j + q] = U[u + 3 * p + q];
                  if (j > i) K[(3 * j + q) * 9 + 3 * i + p] = U[u + 3 * p + q];
                }
          if (symmetric) asm?.addSymmetricElementBlocks3(starts, 3, U, f);
          else asm?.addElementBlocks3(starts, 3, K, f);
          for (let i = 0; i < 3; i++)
            for (let j = 0; j < 3; j++)
              for (let p = 0; p < 3; p++)
                for (let q = 0; q < 3; q++) at(D, seen, starts[i] + p, starts[j] + q, f * K[(3 * i + p) * 9 + 3 * j + q]);
        });
      }
    }
    return out;
  }

  for (const withDiagonal of [false, true])
    for (const recordValues of [true, false])
      it(`the pattern and values of a plain dense sum (withDiagonal ${withDiagonal}, recordValues ${recordValues})`, () => {
        const r = rng(11 + Number(withDiagonal) + 2 * Number(recordValues));
        const list = emissions(r);
        const asm = new FixedPatternAssembler(N, N, { withDiagonal, recordValues });
        // the caller's protocol: a numeric pass without pattern (it counts), the symbolic pass, and without recorded values a refill
        asm.beginNumeric();
        for (const e of list) e(asm, undefined, undefined);
        expect(asm.endNumeric()).to.equal(false);
        asm.beginSymbolic();
        for (const e of list) e(asm, undefined, undefined);
        const A = asm.endSymbolic();
        if (!recordValues) {
          asm.beginNumeric();
          for (const e of list) e(asm, undefined, undefined);
          expect(asm.endNumeric()).to.equal(true);
        }
        csrCheck(A);
        const D = Array.from({ length: N }, () => new Array<number>(N).fill(0));
        const seen = new Set<number>();
        for (const e of list) e(undefined, D, seen);
        if (withDiagonal) for (let i = 0; i < N; i++) seen.add(i * N + i);
        // the pattern: exactly the emitted positions (and the diagonal), each row's columns increasing
        const pattern = new Set<number>();
        for (let i = 0; i < N; i++)
          for (let q = A.rowPtr[i]; q < A.rowPtr[i + 1]; q++) {
            if (q > A.rowPtr[i]) expect(A.colInd[q]).to.be.greaterThan(A.colInd[q - 1]);
            pattern.add(i * N + A.colInd[q]);
          }
        expect([...pattern].sort((a, b) => a - b)).to.deep.equal([...seen].sort((a, b) => a - b));
        // the values: the dense sums to the bit (the same terms in the same order)
        expect(csrToDense(A)).to.deep.equal(D);
        // a refill with other values gives their sums too
        const again = emissions(rng(11 + Number(withDiagonal) + 2 * Number(recordValues)));
        asm.beginNumeric();
        for (const e of again) e(asm, undefined, undefined);
        expect(asm.endNumeric()).to.equal(true);
        expect(csrToDense(A)).to.deep.equal(D);
      });
});

describe('FixedPatternAssembler.addBlock3', () => {
  const block = Float64Array.from({ length: 12 }, (_, i) => i + 1);
  const viaBlocks = (a: FixedPatternAssembler, f: number) => {
    a.addBlock3(0, 3, block, 3, f);
    a.add(1, 1, 5);
    a.addBlock3(3, 0, block, 0, f);
  };
  const viaAdds = (a: FixedPatternAssembler, f: number) => {
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) a.add(i, 3 + j, f * block[3 + 3 * i + j]);
    a.add(1, 1, 5);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) a.add(3 + i, j, f * block[3 * i + j]);
  };

  it('assembles the same matrix as the 9 adds in row-major order, symbolic and refilled', () => {
    const a = new FixedPatternAssembler(6, 6),
      b = new FixedPatternAssembler(6, 6);
    a.beginSymbolic();
    viaBlocks(a, 2);
    a.endSymbolic();
    b.beginSymbolic();
    viaAdds(b, 2);
    b.endSymbolic();
    expect(Array.from(a.matrix!.values)).to.deep.equal(Array.from(b.matrix!.values));
    a.beginNumeric();
    viaBlocks(a, -1);
    expect(a.endNumeric()).to.equal(true);
    b.beginNumeric();
    viaAdds(b, -1);
    b.endNumeric();
    expect(Array.from(a.matrix!.values)).to.deep.equal(Array.from(b.matrix!.values));
    expect(Array.from(a.matrix!.colInd)).to.deep.equal(Array.from(b.matrix!.colInd));
  });

  it('invalidates a refill whose block lands elsewhere, or that replaces a block by single adds', () => {
    const a = new FixedPatternAssembler(6, 6);
    a.beginSymbolic();
    viaBlocks(a, 1);
    a.endSymbolic();
    a.beginNumeric();
    a.addBlock3(0, 0, block, 3, 1);
    expect(a.endNumeric()).to.equal(false);
    a.beginNumeric();
    viaAdds(a, 1);
    expect(a.endNumeric()).to.equal(true); // the same entries one by one still match, entry by entry
    const b = new FixedPatternAssembler(6, 6);
    b.beginSymbolic();
    viaAdds(b, 1);
    b.endSymbolic();
    b.beginNumeric();
    viaBlocks(b, 1);
    expect(b.endNumeric()).to.equal(false); // no recorded block start there
  });
});

describe('FixedPatternAssembler.addSymmetricElementBlocks3', () => {
  // Elements of 4 nodes on 7 points (the last one repeats a node), with upper blocks U whose
  // diagonal blocks are not symmetric, as computed element stiffnesses are to the last bit.
  const elems = [
    [0, 1, 2, 3],
    [2, 3, 4, 5],
    [6, 1, 4, 0],
    [5, 2, 5, 6],
  ];
  const upperIndex = (i: number, j: number) => i * 4 - ((i * (i - 1)) >> 1) + j - i;
  const full = (U: Float64Array) => {
    const K = new Float64Array(144);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++)
        for (let p = 0; p < 3; p++)
          for (let q = 0; q < 3; q++)
            K[36 * i + 12 * p + 3 * j + q] = j >= i ? U[9 * upperIndex(i, j) + 3 * p + q] : U[9 * upperIndex(j, i) + 3 * q + p];
    return K;
  };
  const uppers = (seed: number) => {
    const r = rng(seed);
    return elems.map(() => Float64Array.from({ length: 90 }, () => r() * 2 - 1));
  };
  const emitFull = (a: FixedPatternAssembler, Us: Float64Array[], f: number) =>
    elems.forEach((el, e) =>
      a.addElementBlocks3(
        el.map((n) => 3 * n),
        4,
        full(Us[e]),
        f,
      ),
    );
  const emitSym = (a: FixedPatternAssembler, Us: Float64Array[], f: number) =>
    elems.forEach((el, e) =>
      a.addSymmetricElementBlocks3(
        el.map((n) => 3 * n),
        4,
        Us[e],
        f,
      ),
    );
  const bits = (a: FixedPatternAssembler) => Array.from(a.matrix!.values, (v) => (Object.is(v, -0) ? '-0' : String(v)));

  it('emits the same sequence and the same bits as the full element matrix, refilled either way', () => {
    const a = new FixedPatternAssembler(21, 21),
      b = new FixedPatternAssembler(21, 21);
    const U1 = uppers(3),
      U2 = uppers(4);
    a.beginSymbolic();
    emitSym(a, U1, 0.3);
    a.endSymbolic();
    b.beginSymbolic();
    emitFull(b, U1, 0.3);
    b.endSymbolic();
    expect(Array.from(a.matrix!.colInd)).to.deep.equal(Array.from(b.matrix!.colInd));
    expect(bits(a)).to.deep.equal(bits(b));
    a.beginNumeric();
    emitSym(a, U2, -1.7);
    expect(a.endNumeric()).to.equal(true);
    b.beginNumeric();
    emitFull(b, U2, -1.7);
    expect(b.endNumeric()).to.equal(true);
    expect(bits(a)).to.deep.equal(bits(b));
    // the two forms are the same emission: each refills the other's pattern
    a.beginNumeric();
    emitFull(a, U1, 0.3);
    expect(a.endNumeric()).to.equal(true);
    b.beginNumeric();
    emitSym(b, U1, 0.3);
    expect(b.endNumeric()).to.equal(true);
    expect(bits(a)).to.deep.equal(bits(b));
    // against the dense sum of the full matrices
    const D = Array.from({ length: 21 }, () => new Array<number>(21).fill(0));
    elems.forEach((el, e) => {
      const K = full(U1[e]);
      for (let r = 0; r < 12; r++)
        for (let c = 0; c < 12; c++) D[3 * el[(r / 3) | 0] + (r % 3)][3 * el[(c / 3) | 0] + (c % 3)] += 0.3 * K[12 * r + c];
    });
    expectMatrixClose(csrToDense(a.matrix!), D, 1e-14);
  });

  it('a refill on other nodes is detected', () => {
    const a = new FixedPatternAssembler(21, 21);
    const U = uppers(5);
    a.beginSymbolic();
    emitSym(a, U, 1);
    a.endSymbolic();
    a.beginNumeric();
    a.addSymmetricElementBlocks3([0, 3, 6, 12], 4, U[0], 1);
    expect(a.endNumeric()).to.equal(false);
  });
});

describe('FixedPatternAssembler.addSymmetricElementsBatch (the WebAssembly refill)', () => {
  const nu = 90;
  const setup = (seed: number) => {
    const r = rng(seed);
    const points = 300,
      count = 700;
    const nodes: number[][] = [];
    for (let e = 0; e < count; e++) {
      const s = new Set<number>();
      while (s.size < 4) s.add(randInt(r, points));
      const el = [...s];
      if (e % 97 === 5) el[2] = el[0]; // a degenerate element: a repeated node
      nodes.push(el);
    }
    return { r, points, count, nodes };
  };
  const emit = (a: FixedPatternAssembler, nodes: number[][], U: Float64Array, factor: number, batched: boolean) => {
    for (let e0 = 0; e0 < nodes.length; e0 += ELEMENT_BATCH) {
      const count = Math.min(ELEMENT_BATCH, nodes.length - e0);
      if (!batched) {
        for (let k = 0; k < count; k++)
          a.addSymmetricElementBlocks3(
            nodes[e0 + k].map((v) => 3 * v),
            4,
            U,
            factor,
            0,
            (e0 + k) * nu,
          );
        continue;
      }
      const starts = a.elementStartsBuffer(4 * count);
      const buf = a.symmetricElementBuffer(4, count) ?? new Float64Array(count * nu);
      for (let k = 0; k < count; k++) {
        for (let i = 0; i < 4; i++) starts[4 * k + i] = 3 * nodes[e0 + k][i];
        buf.set(U.subarray((e0 + k) * nu, (e0 + k + 1) * nu), k * nu);
      }
      a.addSymmetricElementsBatch(starts, count, 4, buf, factor);
    }
  };
  const bits = (a: FixedPatternAssembler) => Array.from(a.matrix!.values, (v) => (Object.is(v, -0) ? '-0' : String(v)));

  it('refills bit for bit as element by element in JavaScript (degenerate elements included)', () => {
    const { r, points, nodes } = setup(51);
    const U = Float64Array.from({ length: nodes.length * nu }, () => r() * 2 - 1);
    const a = new FixedPatternAssembler(3 * points, 3 * points, { withDiagonal: true });
    const b = new FixedPatternAssembler(3 * points, 3 * points, { withDiagonal: true });
    a.beginSymbolic();
    emit(a, nodes, U, 0.7, true);
    a.endSymbolic();
    b.beginSymbolic();
    emit(b, nodes, U, 0.7, false);
    b.endSymbolic();
    expect(a.symmetricElementBuffer(4, ELEMENT_BATCH), 'the kernel runs').to.not.equal(undefined);
    for (const factor of [-1.3, 2.5]) {
      for (let k = 0; k < U.length; k++) U[k] = r() * 2 - 1;
      a.beginNumeric();
      emit(a, nodes, U, factor, true);
      expect(a.endNumeric()).to.equal(true);
      b.beginNumeric();
      emit(b, nodes, U, factor, false);
      expect(b.endNumeric()).to.equal(true);
      expect(bits(a)).to.deep.equal(bits(b));
    }
  });

  it('detects an element on other nodes in a batch', () => {
    const { r, points, nodes } = setup(52);
    const U = Float64Array.from({ length: nodes.length * nu }, () => r());
    const a = new FixedPatternAssembler(3 * points, 3 * points);
    a.beginSymbolic();
    emit(a, nodes, U, 1, true);
    a.endSymbolic();
    const moved = nodes.map((el) => [...el]);
    moved[100][1] = (moved[100][1] + 1) % points;
    if (new Set(moved[100]).size < 4) moved[100][1] = (moved[100][1] + 1) % points;
    a.beginNumeric();
    emit(a, moved, U, 1, true);
    expect(a.endNumeric()).to.equal(false);
    a.beginNumeric();
    emit(a, nodes, U, 1, true);
    expect(a.endNumeric()).to.equal(true);
  });
});
