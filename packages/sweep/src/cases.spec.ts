import { expect } from 'chai';
import { buildCases } from './cases.js';
import { geomspace, linspace, parseParam } from './param-spec.js';
import { Random } from './random.js';
import { parseRecord } from './record-spec.js';

describe('sweep parameters and cases', () => {
  it('Random is xoshiro128**: the reference outputs from the state (1, 2, 3, 4)', () => {
    // the algorithm's published C code, compiled and run from this state, prints these
    const r = Random.fromState([1, 2, 3, 4]);
    expect(Array.from({ length: 6 }, () => r.nextUint32())).to.deep.equal([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('Random: doubles in [0, 1), uniform (chi-square over 20 bins), the same sequence for the same seed', () => {
    const a = new Random(42),
      b = new Random(42),
      c = new Random(43);
    const bins = new Array<number>(20).fill(0);
    const n = 20000;
    let differ = false,
      same = true,
      inRange = true;
    for (let i = 0; i < n; i++) {
      const x = a.next();
      if (!(x >= 0 && x < 1)) inRange = false;
      if (b.next() !== x) same = false;
      if (c.next() !== x) differ = true;
      bins[Math.floor(x * 20)]++;
    }
    expect([inRange, same, differ]).to.deep.equal([true, true, true]);
    const e = n / 20;
    const chi2 = bins.reduce((s, o) => s + ((o - e) * (o - e)) / e, 0);
    // 19 degrees of freedom: P(chi2 > 43.8) = 0.001
    expect(chi2).to.be.below(43.8);
  });

  it('lists keep the attribute text; numbers are the values of the table', () => {
    const a = parseParam('/Beam/FEM.youngModulus=1e3, 2500 ,abc');
    expect(a.kind).to.equal('grid');
    if (a.kind !== 'grid') return;
    expect(a.path).to.equal('/Beam/FEM.youngModulus');
    expect(a.values).to.deep.equal([
      { text: '1e3', value: 1000 },
      { text: '2500', value: 2500 },
      { text: 'abc', value: 'abc' },
    ]);
  });

  it('lin and log ranges: numpy.linspace and numpy.geomspace values, the ends exact, the text the shortest exact form', () => {
    expect(linspace(0, 1, 5)).to.deep.equal([0, 0.25, 0.5, 0.75, 1]);
    expect(linspace(2, 3, 1)).to.deep.equal([2]);
    // numpy 2.4: geomspace(1e-3, 1e3, 7) prints 0.001, 0.01, …, 1000.0 (its pow may differ from
    // V8's in the last bit inside the range: compared to 1e-15 there, exactly at the ends)
    const g = geomspace(1e-3, 1e3, 7);
    expect(g[0]).to.equal(1e-3);
    expect(g[6]).to.equal(1e3);
    for (let i = 0; i < 7; i++) expect(g[i] / 10 ** (i - 3)).to.be.closeTo(1, 1e-15);
    // numpy 2.4: linspace(0.001, 0.01, 4) = [0.001, 0.004, 0.007000000000000001, 0.01]
    const a = parseParam('/root.dt=lin:0.001:0.01:4');
    if (a.kind !== 'grid') throw new Error('grid expected');
    expect(a.values.map((v) => v.value)).to.deep.equal([0.001, 0.004, 0.007000000000000001, 0.01]);
    for (const v of a.values) expect(Number(v.text)).to.equal(v.value);
  });

  it('templates put each value inside a text: vectors and response parameters', () => {
    const g = parseParam('/root.gravity=0 {lin:-20:0:3} 0');
    if (g.kind !== 'grid') throw new Error('grid expected');
    expect(g.values).to.deep.equal([
      { text: '0 -20 0', value: -20 },
      { text: '0 -10 0', value: -10 },
      { text: '0 0 0', value: 0 },
    ]);
    const mu = parseParam('/response.responseParams=mu={0,0.3}');
    if (mu.kind !== 'grid') throw new Error('grid expected');
    expect(mu.values.map((v) => v.text)).to.deep.equal(['mu=0', 'mu=0.3']);
  });

  it('refuses malformed parameters with the argument named', () => {
    expect(() => parseParam('youngModulus=1')).to.throw(/not a Data path/);
    expect(() => parseParam('/a/b.c')).to.throw(/PATH=SPEC/);
    expect(() => parseParam('/a/b.c=log:0:1:3')).to.throw(/A > 0/);
    expect(() => parseParam('/a/b.c=lin:0:1:0')).to.throw(/positive integer/);
    expect(() => parseParam('/a/b.c=lhs:2:1')).to.throw(/greater/);
    expect(() => parseParam('/a/b.c=1,,2')).to.throw(/empty value/);
    expect(() => parseParam('/a/b.c=x{1,2')).to.throw(/without its/);
  });

  it('the grid: every combination once, the first parameter slowest', () => {
    const cases = buildCases([parseParam('/a/x.p=1,2'), parseParam('/a/y.q=lin:0:1:3')], undefined, 1);
    expect(cases.map((c) => c.params.map((p) => p.value.value))).to.deep.equal([
      [1, 0],
      [1, 0.5],
      [1, 1],
      [2, 0],
      [2, 0.5],
      [2, 1],
    ]);
    expect(cases.map((c) => c.index)).to.deep.equal([0, 1, 2, 3, 4, 5]);
  });

  it('Latin hypercube: each of the N strata of every lhs parameter holds exactly one case; log strata in log', () => {
    const n = 50;
    const cases = buildCases([parseParam('/a/x.p=lhs:10:20'), parseParam('/a/y.q=loglhs:1e-2:1e2')], n, 7);
    expect(cases).to.have.length(n);
    const strata = (k: number, f: (v: number) => number): number[] =>
      cases.map((c) => Math.floor(f(c.params[k].value.value as number) * n)).sort((a, b) => a - b);
    const all = Array.from({ length: n }, (_, i) => i);
    expect(strata(0, (v) => (v - 10) / 10)).to.deep.equal(all);
    expect(strata(1, (v) => (Math.log10(v) + 2) / 4)).to.deep.equal(all);
    // the same seed, the same cases; another seed, others
    expect(buildCases([parseParam('/a/x.p=lhs:10:20')], 5, 7).map((c) => c.params[0].value)).to.deep.equal(
      buildCases([parseParam('/a/x.p=lhs:10:20')], 5, 7).map((c) => c.params[0].value),
    );
    expect(buildCases([parseParam('/a/x.p=lhs:10:20')], 5, 8)[0].params[0].value).to.not.deep.equal(
      buildCases([parseParam('/a/x.p=lhs:10:20')], 5, 7)[0].params[0].value,
    );
  });

  it('grid times samples: the same draws at every grid point; --samples is checked', () => {
    const cases = buildCases([parseParam('/a/x.p=1,2'), parseParam('/a/y.q=rand:0:1')], 3, 1);
    expect(cases).to.have.length(6);
    expect(cases.slice(0, 3).map((c) => c.params[1].value)).to.deep.equal(cases.slice(3).map((c) => c.params[1].value));
    expect(() => buildCases([parseParam('/a/y.q=rand:0:1')], undefined, 1)).to.throw(/--samples/);
    expect(() => buildCases([parseParam('/a/x.p=1,2')], 3, 1)).to.throw(/sampled parameters/);
    expect(() => buildCases([parseParam('/a/x.p=1,2'), parseParam('/a/x.p=3')], undefined, 1)).to.throw(/twice/);
    expect(() => buildCases([parseParam('/a/x.p=lin:0:1:10000'), parseParam('/a/y.p=lin:0:1:10000')], undefined, 1)).to.throw(/at most/);
  });

  it('records: Data paths with items and periods, keywords', () => {
    expect(parseRecord('/finger/dofs.position[12,13]:5')).to.deep.equal({
      kind: 'data',
      path: '/finger/dofs.position',
      select: [12, 13],
      every: 5,
      text: '/finger/dofs.position[12,13]',
    });
    expect(parseRecord('states:10')).to.deep.equal({ kind: 'states', every: 10, text: 'states' });
    expect(parseRecord('wall')).to.deep.equal({ kind: 'wall', every: 0, text: 'wall' });
    expect(() => parseRecord('position')).to.throw(/Data path/);
    expect(() => parseRecord('states:0')).to.throw(/positive/);
  });
});
