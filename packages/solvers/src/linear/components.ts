import type { ComponentClass } from '@sofa-ts/core';
import { AMDOrderingMethod } from './AMDOrderingMethod.js';
import { BlockJacobiPreconditioner } from './BlockJacobiPreconditioner.js';
import { EigenSimplicialLDLT } from './EigenSimplicialLDLT.js';
import { EigenSimplicialLLT } from './EigenSimplicialLLT.js';
import { EigenSparseLU } from './EigenSparseLU.js';
import { EigenSparseQR } from './EigenSparseQR.js';
import { JacobiPreconditioner } from './JacobiPreconditioner.js';
import { MetisOrderingMethod } from './MetisOrderingMethod.js';
import { FillReducingOrdering } from './FillReducingOrdering.js';
import { NaturalOrderingMethod } from './NaturalOrderingMethod.js';
import { PCGLinearSolver } from './PCGLinearSolver.js';
import { ShewchukPCGLinearSolver } from './ShewchukPCGLinearSolver.js';
import { SparseCholeskySolver } from './SparseCholeskySolver.js';
import { SparseTAUCSLLtSolver } from './SparseTAUCSLLtSolver.js';
import { SparseTAUCSSolver } from './SparseTAUCSSolver.js';
import { SparseLUSolver } from './SparseLUSolver.js';
import { SSORPreconditioner } from './SSORPreconditioner.js';
import { AsyncSparseLDLSolver } from './AsyncSparseLDLSolver.js';
import { BTDLinearSolver } from './BTDLinearSolver.js';
import { CholeskySolver } from './CholeskySolver.js';
import { MinResLinearSolver } from './MinResLinearSolver.js';
import { SVDLinearSolver } from './SVDLinearSolver.js';
import { PrecomputedLinearSolver } from './PrecomputedLinearSolver.js';
import { PrecomputedMatrixSystem } from './PrecomputedMatrixSystem.js';
import { PrecomputedWarpPreconditioner } from './PrecomputedWarpPreconditioner.js';
import { CudaPrecomputedWarpPreconditioner } from './CudaPrecomputedWarpPreconditioner.js';
import { PreconditionedMatrixFreeSystem } from './PreconditionedMatrixFreeSystem.js';
import { RotationMatrixSystem } from './RotationMatrixSystem.js';
import { WarpPreconditioner } from './WarpPreconditioner.js';

/** Components of this folder, registered by the package's module.ts. */
export const linearComponents: readonly ComponentClass[] = [
  PCGLinearSolver,
  ShewchukPCGLinearSolver,
  JacobiPreconditioner,
  BlockJacobiPreconditioner,
  SSORPreconditioner,
  EigenSimplicialLDLT,
  EigenSimplicialLLT,
  EigenSparseLU,
  EigenSparseQR,
  SparseLUSolver,
  SparseCholeskySolver,
  SparseTAUCSLLtSolver,
  SparseTAUCSSolver,
  NaturalOrderingMethod,
  AMDOrderingMethod,
  MetisOrderingMethod,
  FillReducingOrdering,
  MinResLinearSolver,
  PrecomputedLinearSolver,
  PreconditionedMatrixFreeSystem,
  RotationMatrixSystem,
  WarpPreconditioner,
  PrecomputedMatrixSystem,
  PrecomputedWarpPreconditioner,
  CudaPrecomputedWarpPreconditioner,
  AsyncSparseLDLSolver,
  CholeskySolver,
  BTDLinearSolver,
  SVDLinearSolver,
];
