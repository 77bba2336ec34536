/**
 * The core of sofa-ts, what every plugin builds on: the scene graph (Node, Simulation), Data and
 * their types, links, the component registry and `@sofaComponent`, errors located in the scene,
 * and the base classes of each kind of component — BaseForceField, BaseMass, BaseMapping,
 * BaseProjectiveConstraint, BaseLagrangianConstraint, BaseOdeSolver — with the contract of every
 * method they ask for. A plugin's default export is `componentModule(name, [classes])`.
 *
 * @module @sofa-ts/core
 */
export * from '@sofa-ts/core';
