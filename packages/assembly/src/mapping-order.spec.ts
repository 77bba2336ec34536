import { expect } from 'chai';
import { Vec1d, type BaseMapping } from '@sofa-ts/core';
import { mechanicalMappingOrder } from './mapping-order.js';
import { LinearTestMapping, TestState } from './test-support.js';

const state = (name: string) => new TestState(Vec1d, 1, name);
const map = (inputs: TestState[], out: TestState) =>
  new LinearTestMapping(
    inputs,
    out,
    inputs.map(() => [[1]]),
  );
const names = (ms: readonly BaseMapping[]) => ms.map((m) => (m as LinearTestMapping).out.name.value);

describe('mechanicalMappingOrder', () => {
  it('puts a mapping after the mappings producing its inputs; ready ones keep their visit order', () => {
    const a = state('a'),
      b = state('b'),
      c = state('c'),
      d = state('d'),
      e = state('e');
    // visit order: d ← (b, c), b ← a, c ← a, e ← a (a multi-mapping listed before its inputs' mappings)
    const mappings = [map([b, c], d), map([a], b), map([a], c), map([a], e)];
    const order = mechanicalMappingOrder(mappings, [a], () => new Error('unexpected'));
    expect(names(order)).to.deep.equal(['b', 'c', 'd', 'e']);
  });

  it('hands an input that no master nor mapping provides (a cycle, or a state outside) to `unresolved`', () => {
    const a = state('a'),
      b = state('b'),
      c = state('c');
    const seen: string[] = [];
    const cycle = () =>
      mechanicalMappingOrder([map([c], b), map([b], c)], [a], (m, missing) => {
        seen.push(`${(m as LinearTestMapping).out.name.value} needs ${missing.name.value}`);
        return new Error('cycle');
      });
    expect(cycle).to.throw('cycle');
    expect(seen).to.deep.equal(['b needs c']);
  });
});
