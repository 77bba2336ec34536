import { expect } from 'chai';
import {
  Bool,
  DataParseError,
  Enum,
  IndexArray,
  Indices,
  Int,
  Real,
  RealArray,
  Str,
  UInt,
  Vec3,
  printNumber,
  tokens,
} from './data-types.js';

describe('DataTypes: SOFA attribute syntax', () => {
  it('splits on any whitespace (and tolerates commas)', () => {
    expect(tokens('  1 2\t3\n4 ')).to.deep.equal(['1', '2', '3', '4']);
    expect(tokens('1,2, 3')).to.deep.equal(['1', '2', '3']);
    expect(tokens('   ')).to.deep.equal([]);
  });

  it('parses reals in decimal and scientific notation, and SOFA infinities', () => {
    expect(Real.parse('-9.81')).to.equal(-9.81);
    expect(Real.parse(' 1e-5 ')).to.equal(1e-5);
    expect(Real.parse('.5')).to.equal(0.5);
    expect(Real.parse('inf')).to.equal(Infinity);
    expect(Real.parse('-inf')).to.equal(-Infinity);
    expect(() => Real.parse('abc')).to.throw(DataParseError, 'expected a number');
    expect(() => Real.parse('0x10')).to.throw(DataParseError);
    expect(() => Real.parse('1 2')).to.throw(DataParseError);
    expect(() => Real.parse('')).to.throw(DataParseError);
  });

  it('prints reals so that they parse back exactly', () => {
    for (const x of [0, -0.1, 1 / 3, 1e-300, 6.02214076e23, -9.81]) expect(Real.parse(printNumber(x))).to.equal(x);
    expect(printNumber(Infinity)).to.equal('inf');
  });

  it('parses booleans as 0/1/true/false and prints 0/1', () => {
    expect(Bool.parse('1')).to.equal(true);
    expect(Bool.parse('true')).to.equal(true);
    expect(Bool.parse('False')).to.equal(false);
    expect(Bool.parse('0')).to.equal(false);
    expect(Bool.print(true)).to.equal('1');
    expect(() => Bool.parse('yes')).to.throw(DataParseError, 'boolean');
  });

  it('parses integers, accepting integral reals, refusing fractions', () => {
    expect(Int.parse('-3')).to.equal(-3);
    expect(Int.parse('25.0')).to.equal(25);
    expect(() => Int.parse('2.5')).to.throw(DataParseError);
    expect(() => UInt.parse('-1')).to.throw(DataParseError, 'non-negative');
  });

  it('parses fixed vectors and checks their size', () => {
    expect(Array.from(Vec3.parse('0 -9.81 0'))).to.deep.equal([0, -9.81, 0]);
    expect(() => Vec3.parse('1 2')).to.throw(DataParseError, '3 numbers');
    expect(Vec3.print(Float64Array.of(1, 2.5, -3))).to.equal('1 2.5 -3');
  });

  it('parses arrays grouped in tuples', () => {
    const t = RealArray(3);
    expect(Array.from(t.parse('0 0 0 1 0 0'))).to.deep.equal([0, 0, 0, 1, 0, 0]);
    expect(() => t.parse('0 0 0 1')).to.throw(DataParseError, 'groups of 3');
    expect(t.parse('').length).to.equal(0);
    expect(Array.from(Indices.parse('0 5 7'))).to.deep.equal([0, 5, 7]);
    // SOFA's ranges in integer vectors: a-b and a-b-step, bounds included
    expect(Array.from(Indices.parse('0-3 7 10-14-2 5-3'))).to.deep.equal([0, 1, 2, 3, 7, 10, 12, 14, 5, 4, 3]);
    expect(() => IndexArray(2).parse('0 1 2')).to.throw(DataParseError);
    expect(() => Indices.parse('1 -2')).to.throw(DataParseError);
  });

  it('clones arrays so instances never share storage', () => {
    const t = RealArray(0);
    const a = Float64Array.of(1, 2);
    const b = t.clone(a);
    b[0] = 9;
    expect(a[0]).to.equal(1);
  });

  it('parses option groups by name (any case) or index', () => {
    const e = Enum(['small', 'large', 'polar'] as const);
    expect(e.parse('large')).to.equal('large');
    expect(e.parse('POLAR')).to.equal('polar');
    expect(e.parse('0')).to.equal('small');
    expect(() => e.parse('huge')).to.throw(DataParseError, "one of 'small', 'large', 'polar'");
    expect(Str.parse(' keep spaces ')).to.equal(' keep spaces ');
  });
});
