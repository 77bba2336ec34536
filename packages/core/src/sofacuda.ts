import type { BaseObject } from './base-object.js';
import { sceneWarnings } from './scene-warnings.js';

/**
 * SofaCUDA on the CPU: sofa-ts has no GPU path, so SofaCUDA's components (CudaVec3f states read as
 * Vec3d, state-types.ts) are their CPU twins under SofaCUDA's names: the same equations, computed in
 * double precision where SofaCUDA computes in float.
 */
export function sofaCudaCpuNote(cpu: string): string {
  return `SofaCUDA's GPU kernels are not used: this is sofa-ts's ${cpu} on the CPU, in double precision (SofaCUDA's CudaVec3f computes in float, so its results differ at float precision)`;
}

/**
 * The twin's note, once per scene and twin kind: located at the first component of that kind, the
 * other ones of the scene say nothing more (the note is the same for each).
 */
export function warnSofaCudaTwin(component: BaseObject, cpu: string): void {
  const note = sofaCudaCpuNote(cpu);
  if (component.hasContext && sceneWarnings(component.context.root).some((w) => w.detail === note)) return;
  component.warn(note);
}
