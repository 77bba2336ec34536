import { CompareState } from './playback/CompareState.js';
import { ReadState } from './playback/ReadState.js';
import { WriteState } from './playback/WriteState.js';

/** Every component of @sofa-ts/io (SOFA's Playback module), registered by module.ts. */
export const ioComponents = [WriteState, ReadState, CompareState] as const;
