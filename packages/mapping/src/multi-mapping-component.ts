import { BaseMapping, Bool, Node, canonicalTemplate, isMechanicalState, type BaseMechanicalState, type StateType } from '@sofa-ts/core';

function isStateOrNode(o: unknown): o is BaseMechanicalState | Node {
  return isMechanicalState(o) || o instanceof Node;
}

/**
 * Base of the multi-mappings (SOFA MultiMapping<In, Out>): several input states, given as a
 * multi-link `input="@a @b"` (a node stands for its state, searched up from it), one output state
 * `output="@c"` (default: the state of the mapping's node). Every input has the same template In.
 *   x_out = φ(x_in_0, x_in_1, …),   v_out = Σ_i J_i·v_in_i,   f_in_i += J_iᵀ·f_out.
 * getFrom() returns the inputs in the order the scene gave them; getJ(i) is J_i.
 */
export abstract class MultiMappingComponent extends BaseMapping {
  readonly input = this.initLink<BaseMechanicalState | Node>({
    name: 'input',
    help: 'input objects to map (several paths separated by spaces)',
    accepts: isStateOrNode,
    expected: 'MechanicalObjects',
    multi: true,
  });
  readonly output = this.initLink<BaseMechanicalState | Node>({
    name: 'output',
    help: 'output object (default: the state of this node)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject',
    multi: true,
  });
  readonly mapForces = this.initData({ name: 'mapForces', type: Bool, default: true, help: 'are forces mapped ?' });
  readonly mapConstraints = this.initData({ name: 'mapConstraints', type: Bool, default: true, help: 'are constraints mapped ?' });
  readonly mapMasses = this.initData({ name: 'mapMasses', type: Bool, default: true, help: 'are masses mapped ?' });
  readonly mapMatrices = this.initData({ name: 'mapMatrices', type: Bool, default: false, help: 'are matrix explicit mapped?' });
  readonly applyRestPosition = this.initData({
    name: 'applyRestPosition',
    type: Bool,
    default: false,
    help: 'set to true to apply this mapping to restPosition at init',
  });

  /** The input states, in scene order (after init). */
  protected froms: BaseMechanicalState[] = [];
  /** The output state (after init). */
  protected to!: BaseMechanicalState;
  /** Scratch list of the inputs' position arrays for apply. */
  private readonly inputXs: Float64Array[] = [];

  getFrom(): readonly BaseMechanicalState[] {
    return this.froms;
  }

  getTo(): BaseMechanicalState | undefined {
    return this.to;
  }

  /** Resolves the links (a node means its state); call first in a subclass's init. */
  protected resolveEnds(minInputs: number): void {
    const ins = this.input.getAll();
    if (ins.length === 0) throw this.error('no input states', 'set input="@path1 @path2 ..."');
    const froms: BaseMechanicalState[] = [];
    for (const l of ins) {
      const s = l instanceof Node ? l.getObject(isMechanicalState, 'up') : l;
      if (!s) throw this.error(`no MechanicalObject in node '${(l as Node).getName()}' or above`);
      froms.push(s);
    }
    if (froms.length < minInputs) throw this.error(`${froms.length} input state(s) given, ${minInputs} expected`);
    // States get their size at init: an input whose node comes later in the scene is not sized yet.
    const late = froms.find((s) => s.hasContext && s.componentState === 'undefined');
    if (late)
      throw this.error(
        `input ${late.describe()} is initialised after this mapping (its node comes later in the scene)`,
        "place the mapping's node after, or below, the nodes of all its inputs",
      );
    const outs = this.output.getAll();
    if (outs.length > 1) throw this.error(`${outs.length} outputs given; sofa-ts multi-mappings have one output state`);
    const outLink = outs[0];
    const outNode = outLink instanceof Node ? outLink : outLink === undefined ? this.context : undefined;
    const to = outNode ? outNode.getObject(isMechanicalState, 'local') : (outLink as BaseMechanicalState);
    if (!to)
      throw this.error(
        outLink
          ? `no MechanicalObject in node '${(outLink as Node).getName()}'`
          : 'no output: set output="@path" or put a MechanicalObject in this node',
      );
    if (froms.includes(to)) throw this.error(`output ${to.describe()} is also an input`);
    this.froms = froms;
    this.to = to;
    this.input.setAll(froms);
    this.output.setAll([to]);
  }

  /** State type of the inputs (all the same, checked by checkTemplates). */
  protected inType(): StateType {
    return this.froms[0].stateType;
  }

  protected outType(): StateType {
    return this.to.stateType;
  }

  /** Checks that the inputs share one type and that `In,Out` is accepted (and matches `template`). */
  protected checkTemplates(accepted: readonly string[]): void {
    const tin = this.inType();
    const odd = this.froms.find((s) => s.stateType !== tin);
    if (odd)
      throw this.error(
        `the inputs must have one template: ${this.froms[0].describe()} is ${tin.name}, ${odd.describe()} is ${odd.stateType.name}`,
      );
    const actual = `${tin.name},${this.outType().name}`;
    if (this.template && canonicalTemplate(this.template) !== actual) {
      throw this.error(
        `template '${this.template}' does not match the states: inputs are ${tin.name}, output ${this.to.describe()} is ${this.outType().name}`,
      );
    }
    if (!accepted.includes(actual))
      throw this.error(`cannot map ${tin.name} to ${this.outType().name}; supported input,output pairs: ${accepted.join(', ')}`);
    this.template = actual;
  }

  /** Makes the output hold n points (at init only). */
  protected resizeOutput(n: number): void {
    if (this.to.size === n) return;
    const resizable = this.to as BaseMechanicalState & { resize?: (n: number) => void };
    if (typeof resizable.resize !== 'function')
      throw this.error(`output ${this.to.describe()} has ${this.to.size} points, the mapping gives ${n}`);
    resizable.resize(n);
  }

  /** The end of a subclass's init: output positions and velocities (SOFA MultiMapping::init), rest positions on request. */
  protected initialApply(): void {
    this.apply();
    this.applyJ(
      this.to.v,
      this.froms.map((s) => s.v),
    );
    if (this.applyRestPosition.value)
      this.mapPositions(
        this.to.x0,
        this.froms.map((s) => s.x0),
      );
  }

  apply(): void {
    // The inputs' x arrays, refilled (states may rebind their storage), not reallocated.
    const xs = this.inputXs;
    xs.length = this.froms.length;
    for (let i = 0; i < xs.length; i++) xs[i] = this.froms[i].x;
    this.mapPositions(this.to.x, xs);
    this.to.touch();
  }

  /** out = φ(ins) on coordinate arrays. */
  protected abstract mapPositions(out: Float64Array, ins: readonly Float64Array[]): void;
}
