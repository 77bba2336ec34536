import { DataParseError, printNumber, tokens, type DataType } from '@sofa-ts/core';

/** One joint of SOFA's JointSpringForceField, as its `spring` Data reads it. */
export interface JointSpring {
  m1: number;
  m2: number;
  /** Free axes: translations x, y, z, rotations x, y, z (1: free, soft stiffness; 0: hard). */
  freeMovements: [boolean, boolean, boolean, boolean, boolean, boolean];
  softStiffnessTrans: number;
  hardStiffnessTrans: number;
  softStiffnessRot: number;
  hardStiffnessRot: number;
  blocStiffnessRot: number;
  kd: number;
  /** Rotation limits (min x, max x, min y, max y, min z, max z), radians. */
  limitAngles: [number, number, number, number, number, number];
  /** Rest offset of the centres (world), REST_T. */
  initTrans: [number, number, number];
  /** Rest relative orientation (x, y, z, w), REST_R. */
  initRot: [number, number, number, number];
  /** REST_T was given: SOFA then takes both offsets from the initial positions. */
  restGiven: boolean;
}

const NO_LIMIT = 100000;

function newSpring(m1: number, m2: number): JointSpring {
  return {
    m1,
    m2,
    freeMovements: [false, false, false, true, true, true],
    softStiffnessTrans: 0,
    hardStiffnessTrans: 10000,
    softStiffnessRot: 0,
    hardStiffnessRot: 10000,
    blocStiffnessRot: 0,
    kd: 0,
    limitAngles: [-NO_LIMIT, NO_LIMIT, -NO_LIMIT, NO_LIMIT, -NO_LIMIT, NO_LIMIT],
    initTrans: [0, 0, 0],
    initRot: [0, 0, 0, 1],
    restGiven: false,
  };
}

const EXPECTED =
  "joints 'BEGIN_SPRING m1 m2 [FREE_AXIS 6×(0|1)] [KS_T soft hard] [KS_R soft hard] [KS_B k] [KD kd] [R_LIM_X|Y|Z min max] [REST_T x y z] [REST_R x y z w] END_SPRING' ...";

/** SOFA's JointSpring stream syntax (its operator>>), one BEGIN_SPRING … END_SPRING block per joint. */
export const JointSprings: DataType<JointSpring[]> = {
  name: 'vector<JointSpring<Rigid3d>>',
  parse(text: string): JointSpring[] {
    const t = tokens(text);
    const out: JointSpring[] = [];
    let i = 0;
    const num = (what: string): number => {
      const s = t[i++];
      if (s === undefined) throw new DataParseError(EXPECTED, `${what}: the text ended`);
      const v = Number(s);
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw new DataParseError(EXPECTED, `${what}: got '${s}'`);
      return v;
    };
    const index = (what: string): number => {
      const v = num(what);
      if (!Number.isInteger(v) || v < 0) throw new DataParseError(EXPECTED, `${what}: got '${t[i - 1]}'`);
      return v;
    };
    while (i < t.length) {
      if (t[i] !== 'BEGIN_SPRING') throw new DataParseError(EXPECTED, `got '${t[i]}' where BEGIN_SPRING was expected`);
      i++;
      const s = newSpring(index('m1'), index('m2'));
      for (;;) {
        const key = t[i++];
        if (key === undefined) throw new DataParseError(EXPECTED, 'END_SPRING is missing');
        if (key === 'END_SPRING') break;
        switch (key) {
          case 'FREE_AXIS':
            for (let k = 0; k < 6; k++) s.freeMovements[k] = num('FREE_AXIS') !== 0;
            break;
          case 'KS_T':
            s.softStiffnessTrans = num('KS_T');
            s.hardStiffnessTrans = num('KS_T');
            break;
          case 'KS_R':
            s.softStiffnessRot = num('KS_R');
            s.hardStiffnessRot = num('KS_R');
            break;
          case 'KS_B':
            s.blocStiffnessRot = num('KS_B');
            break;
          case 'KD':
            s.kd = num('KD');
            break;
          case 'R_LIM_X':
            s.limitAngles[0] = num('R_LIM_X');
            s.limitAngles[1] = num('R_LIM_X');
            break;
          case 'R_LIM_Y':
            s.limitAngles[2] = num('R_LIM_Y');
            s.limitAngles[3] = num('R_LIM_Y');
            break;
          case 'R_LIM_Z':
            s.limitAngles[4] = num('R_LIM_Z');
            s.limitAngles[5] = num('R_LIM_Z');
            break;
          case 'REST_T':
            for (let k = 0; k < 3; k++) s.initTrans[k] = num('REST_T');
            s.restGiven = true;
            break;
          case 'REST_R':
            for (let k = 0; k < 4; k++) s.initRot[k] = num('REST_R');
            break;
          default:
            throw new DataParseError(EXPECTED, `unknown attribute '${key}'`);
        }
      }
      if (s.blocStiffnessRot === 0) s.blocStiffnessRot = s.hardStiffnessRot / 100;
      for (let k = 0; k < 3; k++) if (s.limitAngles[2 * k] === s.limitAngles[2 * k + 1]) s.freeMovements[3 + k] = false;
      out.push(s);
    }
    return out;
  },
  print(springs: JointSpring[]): string {
    return springs
      .map((s) => {
        const p: string[] = [`BEGIN_SPRING ${s.m1} ${s.m2}`];
        p.push(`FREE_AXIS ${s.freeMovements.map((b) => (b ? 1 : 0)).join(' ')}`);
        p.push(`KS_T ${printNumber(s.softStiffnessTrans)} ${printNumber(s.hardStiffnessTrans)}`);
        p.push(`KS_R ${printNumber(s.softStiffnessRot)} ${printNumber(s.hardStiffnessRot)}`);
        p.push(`KS_B ${printNumber(s.blocStiffnessRot)}`);
        if (s.kd !== 0) p.push(`KD ${printNumber(s.kd)}`);
        const axes = ['X', 'Y', 'Z'];
        for (let k = 0; k < 3; k++) {
          if (s.limitAngles[2 * k] !== -NO_LIMIT || s.limitAngles[2 * k + 1] !== NO_LIMIT)
            p.push(`R_LIM_${axes[k]} ${printNumber(s.limitAngles[2 * k])} ${printNumber(s.limitAngles[2 * k + 1])}`);
        }
        if (s.restGiven) p.push(`REST_T ${s.initTrans.map(printNumber).join(' ')}`);
        if (s.initRot[3] !== 1) p.push(`REST_R ${s.initRot.map(printNumber).join(' ')}`);
        p.push('END_SPRING');
        return p.join('  ');
      })
      .join('\n');
  },
  clone: (v) =>
    v.map(
      (s) =>
        ({
          ...s,
          freeMovements: [...s.freeMovements],
          limitAngles: [...s.limitAngles],
          initTrans: [...s.initTrans],
          initRot: [...s.initRot],
        }) as JointSpring,
    ),
};
