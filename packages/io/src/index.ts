// @sofa-ts/io: SOFA's state files (WriteState format), regression lists, reference file names and
// the regression comparison rule.
export { SOFA_PRECISION, formatCppNumber, formatSofaNumber, parseSofaNumber, roundLikeSofa, roundToSignificant } from './number-format.js';
export { formatSofaVector, formatStateFrame, StateWriter, writeStateFile } from './write-state.js';
export type { StateFileMark, StateWriterOptions } from './write-state.js';
export { readStateFile, parseStateText, decodeStateBytes, isGzip } from './read-state.js';
export type { StateFrame } from './read-state.js';
export { stateLayoutOf, defaultDerivScalars } from './state-layout.js';
export type { StateLayout } from './state-layout.js';
export { compareStates, TIME_TOLERANCE_DT } from './compare.js';
export { CompareStateRun, type CompareStateRunResult, type CurrentStateLayout } from './compare-state-run.js';
export type { StateFrameLike, StateSeries, ErrorLocation, FrameComparison, StateComparison, ComparisonResult } from './compare.js';
export { formatComparison } from './compare-report.js';
export { readRegressionList, parseRegressionList } from './regression-list.js';
export type { RegressionEntry, RegressionList } from './regression-list.js';
export {
  referenceBase,
  referenceMarkerPath,
  referenceStatePath,
  parseReferenceStateFileName,
  listReferenceStates,
  hasReferenceMarker,
} from './reference-names.js';
export type { ReferenceStateFile } from './reference-names.js';
export { WriteState } from './playback/WriteState.js';
export { ReadState } from './playback/ReadState.js';
export { CompareState } from './playback/CompareState.js';
export { FrameCursor } from './playback/frame-cursor.js';
export { ioComponents } from './components.js';
export { default as ioModule } from './module.js';
export {
  TOPOLOGY_KINDS,
  formatTopologyFrame,
  parseTopologyText,
  readTopologyFile,
  TopologyWriter,
  compareTopologies,
  referenceTopologyPath,
  hasReferenceTopologies,
} from './topology-file.js';
export type { TopologyLists, TopologyFrame, TopologyComparison, TopologyKindKey } from './topology-file.js';
export * as exporters from './export/index.js';
