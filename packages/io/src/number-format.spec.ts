import { expect } from 'chai';
import { formatSofaNumber, parseSofaNumber, roundLikeSofa } from './number-format.js';

// Expected strings were produced by C's printf("%g") (glibc, through python3's '%g' operator).
const C_PRINTF_G: Array<[number, string]> = [
  [0.1531, '0.1531'],
  [-1.09682, '-1.09682'],
  [1e-5, '1e-05'],
  [1234567, '1.23457e+06'],
  [100000, '100000'],
  [1e6, '1e+06'],
  [0.0001, '0.0001'],
  [0.00001234, '1.234e-05'],
  [2.5, '2.5'],
  [0.5, '0.5'],
  [1e-300, '1e-300'],
  [5e-324, '4.94066e-324'],
  [1.7976931348623157e308, '1.79769e+308'],
  [3.29967, '3.29967'],
  [0.02999, '0.02999'],
  [1.09573e-7, '1.09573e-07'],
  [-0.338526, '-0.338526'],
  [2.99, '2.99'],
  [0.1 + 0.2, '0.3'],
  [1 / 3, '0.333333'],
  [2 / 3, '0.666667'],
  [123.456789, '123.457'],
  [0.000123456789, '0.000123457'],
  [99999.95, '99999.9'],
  [999999.4, '999999'],
  [0.00099999995, '0.001'],
  [1e100, '1e+100'],
  [1e-100, '1e-100'],
  [12345678, '1.23457e+07'],
  [4.15432e-7, '4.15432e-07'],
  [2 ** -16, '1.52588e-05'],
  [0.125, '0.125'],
  [1.0000005, '1'],
  [8.5, '8.5'],
  [0.0001234565, '0.000123457'],
  [3.0000005e-5, '3e-05'],
  [2 ** 53 + 2, '9.0072e+15'],
  [9.999995, '10'],
  [0.9999995, '1'],
  [1e21, '1e+21'],
  [1.5e-7, '1.5e-07'],
  [12.5, '12.5'],
  [2 ** 70, '1.18059e+21'],
  [9.9999999e-5, '0.0001'],
  [9.9999949e-5, '9.99999e-05'],
  [9.99999e-5, '9.99999e-05'],
  [2 ** -20, '9.53674e-07'],
];

// Values exactly halfway between two 6-digit decimals: glibc rounds them to even.
const C_PRINTF_G_TIES: Array<[number, string]> = [
  [123456.5, '123456'],
  [100000.5, '100000'],
  [1234565, '1.23456e+06'],
  [1234575, '1.23458e+06'],
  [999999.5, '1e+06'],
  [-999999.5, '-1e+06'],
  [9999995, '1e+07'],
  [100.0625, '100.062'],
  [100.1875, '100.188'],
  [1024.0625, '1024.06'],
];

describe('formatSofaNumber', () => {
  it('prints like printf %g with 6 significant digits', () => {
    for (const [x, expected] of C_PRINTF_G) expect(formatSofaNumber(x), String(x)).to.equal(expected);
  });

  it('rounds exact ties to even as glibc does', () => {
    for (const [x, expected] of C_PRINTF_G_TIES) expect(formatSofaNumber(x), String(x)).to.equal(expected);
  });

  it('prints zero, negative zero, infinities and nan as C++ streams do', () => {
    expect(formatSofaNumber(0)).to.equal('0');
    expect(formatSofaNumber(-0)).to.equal('-0');
    expect(formatSofaNumber(Infinity)).to.equal('inf');
    expect(formatSofaNumber(-Infinity)).to.equal('-inf');
    expect(formatSofaNumber(NaN)).to.equal('nan');
  });
});

describe('parseSofaNumber', () => {
  it('reads decimal, scientific and special spellings', () => {
    expect(parseSofaNumber('0.1531')).to.equal(0.1531);
    expect(parseSofaNumber('-1.09682')).to.equal(-1.09682);
    expect(parseSofaNumber('1e-05')).to.equal(1e-5);
    expect(parseSofaNumber('+.5')).to.equal(0.5);
    expect(parseSofaNumber('3.')).to.equal(3);
    expect(parseSofaNumber('inf')).to.equal(Infinity);
    expect(parseSofaNumber('-inf')).to.equal(-Infinity);
    expect(parseSofaNumber('nan')).to.be.NaN;
    expect(Object.is(parseSofaNumber('-0'), -0)).to.equal(true);
  });

  it('rejects what is not a number', () => {
    for (const bad of ['', 'abc', '1e', '0x10', '1,5', '--1', '.', 'e5', '1.2.3']) {
      expect(parseSofaNumber(bad), bad).to.equal(undefined);
    }
  });
});

describe('roundLikeSofa', () => {
  it('keeps what a 6-digit text round trip keeps', () => {
    expect(roundLikeSofa(0.15310049)).to.equal(0.1531);
    expect(roundLikeSofa(-1.0968249)).to.equal(-1.09682);
    expect(roundLikeSofa(1234567)).to.equal(1234570);
    expect(roundLikeSofa(0.1531)).to.equal(0.1531);
  });
});
