import { findDataFile, isMechanicalState, outputFilePath, type BaseMechanicalState, type BaseObject } from '@sofa-ts/core';

/** The mechanical state of the component's own node (SOFA's context getMechanicalState). */
export function localMechanicalState(obj: BaseObject): BaseMechanicalState {
  const state = obj.context.getObject(isMechanicalState, 'local');
  if (!state)
    throw obj.error('no mechanical state in this node', 'put the component in the node of the MechanicalObject it reads or writes');
  return state;
}

/** The state file a component reads, found as mesh files are (scene folder, data paths). */
export function inputFilePath(obj: BaseObject, name: string): string {
  if (name.trim() === '') throw obj.error('no state file given', "set filename='path/to/file.txt' (a file written by WriteState)");
  const found = findDataFile(obj, name.trim());
  if (!found)
    throw obj.error(`state file '${name.trim()}' not found`, 'relative names are looked up beside the scene, then in the data paths');
  return found;
}

export { outputFilePath };
