/**
 * Biovision Hierarchy (.bvh) motion files, as SOFA's BVHLoader reads them (ArticulatedSystemPlugin):
 *
 *   HIERARCHY
 *   ROOT name { OFFSET x y z  CHANNELS n c1 … cn  JOINT name { … }  End Site { OFFSET x y z } }
 *   MOTION
 *   Frames: F
 *   Frame Time: dt
 *   F lines of values, the channels of the joints in the order of the hierarchy
 *
 * The file is read word by word (whitespace separated, as fscanf("%s") does). Joints, End Sites
 * included, are numbered 0, 1, … in the order they appear. A channel other than X/Y/Z position or
 * rotation is kept as 'NOP' (its column read, not used). Each joint's motion is its columns,
 * frame by frame.
 */
export type BvhChannel = 'Xposition' | 'Yposition' | 'Zposition' | 'Xrotation' | 'Yrotation' | 'Zrotation' | 'NOP';

export interface BvhJoint {
  readonly name: string;
  readonly id: number;
  readonly endSite: boolean;
  offset: [number, number, number];
  channels: BvhChannel[];
  readonly children: BvhJoint[];
  /** motion[frame · channels.length + k]: value of channel k at that frame. */
  motion: Float64Array;
}

export interface BvhFile {
  readonly root: BvhJoint;
  readonly frameCount: number;
  readonly frameTime: number;
  /** Number of joints, End Sites included (SOFA's getNumJoints). */
  readonly numJoints: number;
}

const CHANNELS = new Set(['Xposition', 'Yposition', 'Zposition', 'Xrotation', 'Yrotation', 'Zrotation']);

/** Parses a BVH text; throws an Error saying what is wrong and where (word number). */
export function parseBvh(text: string): BvhFile {
  const words = text.split(/\s+/).filter((w) => w !== '');
  let i = 0;
  let lastId = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} (at word ${i + 1} of the file${i < words.length ? `, '${words[i]}'` : ', its end'})`);
  };
  const word = (): string => (i < words.length ? words[i++] : fail('unexpected end of file'));
  const num = (): number => {
    const w = word();
    const v = Number(w);
    if (!Number.isFinite(v)) (i--, fail('a number is expected'));
    return v;
  };
  const joint = (endSite: boolean): BvhJoint => {
    const name = endSite ? 'End Site' : word();
    const j: BvhJoint = { name, id: lastId++, endSite, offset: [0, 0, 0], channels: [], children: [], motion: new Float64Array(0) };
    if (word() !== '{') (i--, fail(`'{' is expected after joint '${name}'`));
    for (let w = word(); w !== '}'; w = word()) {
      if (w === 'OFFSET') j.offset = [num(), num(), num()];
      else if (w === 'CHANNELS') {
        const n = num();
        if (!Number.isInteger(n) || n < 0) (i--, fail('a channel count is expected'));
        for (let k = 0; k < n; k++) {
          const c = word();
          j.channels.push(CHANNELS.has(c) ? (c as BvhChannel) : 'NOP');
        }
      } else if (w === 'JOINT') j.children.push(joint(false));
      else if (w === 'End') {
        if (word() === 'Site') j.children.push(joint(true));
      }
    }
    return j;
  };
  let root: BvhJoint | undefined;
  let frameCount = -1,
    frameTime = NaN;
  while (i < words.length) {
    const w = words[i++];
    if (w === 'ROOT') root = joint(false);
    else if (w === 'MOTION') {
      if (!root) fail('MOTION before the ROOT joint');
      while (frameCount < 0 || Number.isNaN(frameTime)) {
        const v = word();
        if (v === 'Frames:') frameCount = num();
        else if (v === 'Time:') frameTime = num();
      }
      if (!Number.isInteger(frameCount)) fail('the number of frames is not an integer');
      const joints: BvhJoint[] = [];
      const collect = (j: BvhJoint): void => {
        joints.push(j);
        j.motion = new Float64Array(frameCount * j.channels.length);
        j.children.forEach(collect);
      };
      collect(root!);
      for (let f = 0; f < frameCount; f++)
        for (const j of joints) for (let k = 0; k < j.channels.length; k++) j.motion[f * j.channels.length + k] = num();
    }
  }
  if (!root) throw new Error('no ROOT joint');
  if (frameCount < 0) throw new Error('no MOTION section');
  return { root, frameCount, frameTime, numJoints: lastId };
}
