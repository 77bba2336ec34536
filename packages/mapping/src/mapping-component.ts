import {
  BaseMapping,
  Bool,
  Node,
  Vec3d,
  canonicalTemplate,
  isMechanicalState,
  isNonMechanicalState,
  type BaseMechanicalState,
  type BaseObject,
  type Data,
  type StateType,
} from '@sofa-ts/core';

/**
 * A visual model or any component whose `position` Data (n × 3) a mapping can drive, or a
 * non-mechanical state (MappedObject: positions and velocities of its own template).
 */
export interface PositionTarget extends BaseObject {
  findData(name: string): Data<unknown> | undefined;
}

/**
 * A link naming a node (`input="@.."`) means, as in SOFA, the node's state, searched in the node
 * and then its ancestors when the node holds none.
 */
function isStateOrNode(o: unknown): o is BaseMechanicalState | Node {
  return isMechanicalState(o) || o instanceof Node;
}

function isTargetOrNode(o: unknown): o is PositionTarget | Node {
  return isPositionTarget(o) || o instanceof Node;
}

function isPositionTarget(o: unknown): o is PositionTarget {
  if (isMechanicalState(o)) return true;
  if (typeof o !== 'object' || o === null || typeof (o as BaseObject).findData !== 'function') return false;
  return (o as BaseObject).findData('position')?.value instanceof Float64Array;
}

/**
 * Base of the single-input mapping components (SOFA Mapping<In, Out>): the `input` and `output`
 * links (old names object1 / object2), SOFA's map* flags, and access to the output positions
 * whether the output is a MechanicalObject (a mechanical mapping) or a visual model.
 * Defaults as in SOFA: output = the state of the mapping's node (a mechanical one, else a
 * MappedObject, else a visual model), input = the mechanical state of the parent node.
 */
export abstract class MappingComponent extends BaseMapping {
  readonly input = this.initLink<BaseMechanicalState | Node>({
    name: 'input',
    help: 'input object to map (default: the state of the parent node)',
    accepts: isStateOrNode,
    expected: 'a MechanicalObject',
    aliases: ['object1'],
  });
  readonly output = this.initLink<PositionTarget | Node>({
    name: 'output',
    help: 'output object to map (default: the state of this node)',
    accepts: isTargetOrNode,
    expected: 'a MechanicalObject or a visual model',
    aliases: ['object2'],
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

  /** The input state (after init). */
  protected from!: BaseMechanicalState;
  /** The output target (after init). */
  protected to!: PositionTarget;

  getFrom(): readonly BaseMechanicalState[] {
    return [this.from];
  }

  getTo(): BaseMechanicalState | undefined {
    return isMechanicalState(this.to) ? this.to : undefined;
  }

  /** A non-mechanical state's velocities follow: v_out = J·v_in (SOFA's UpdateMappingVisitor). */
  override applyVelocity(): void {
    if (!isNonMechanicalState(this.to)) return;
    this.applyJ(this.to.v, [this.from.v]);
    this.to.touch();
  }

  /** Resolves the links with SOFA's defaults; call first in a subclass's init. */
  protected resolveEnds(): void {
    const inLink = this.input.get();
    const inNode = inLink instanceof Node ? inLink : inLink === undefined ? this.context.parent : undefined;
    const from = inNode ? inNode.getObject(isMechanicalState, 'up') : (inLink as BaseMechanicalState);
    if (!from)
      throw this.error(
        inLink
          ? `no MechanicalObject in node '${(inLink as Node).getName()}' or above`
          : 'no input state: set input="@path" or put a MechanicalObject in the parent node',
      );
    const outLink = this.output.get();
    const outNode = outLink instanceof Node ? outLink : outLink === undefined ? this.context : undefined;
    const to = outNode
      ? (outNode.getObject(isMechanicalState, 'local') ??
        outNode.getObject(isNonMechanicalState, 'local') ??
        outNode.getObject(isPositionTarget, 'local'))
      : (outLink as PositionTarget);
    if (!to)
      throw this.error(
        outLink
          ? `no MechanicalObject or visual model in node '${(outLink as Node).getName()}'`
          : 'no output: set output="@path" or put a MechanicalObject in this node',
      );
    if (to === from) throw this.error('input and output are the same state');
    this.from = from;
    this.to = to;
    this.input.set(from);
    this.output.set(to);
  }

  /** Output positions (n × coordSize of the output; n × 3 for a visual model). */
  protected outputPositions(): Float64Array {
    if (isMechanicalState(this.to) || isNonMechanicalState(this.to)) return this.to.x;
    return this.to.findData('position')!.value as Float64Array;
  }

  /** Resizes a visual output's position array to n points (mechanical outputs are sized by their state). */
  protected ensureVisualOutputSize(n: number): void {
    if (isMechanicalState(this.to)) return;
    if (isNonMechanicalState(this.to)) {
      if (this.to.size !== n) this.to.resize(n);
      return;
    }
    const d = this.to.findData('position') as Data<Float64Array>;
    if (d.value.length !== 3 * n) {
      const a = new Float64Array(3 * n);
      a.set(d.value.subarray(0, Math.min(d.value.length, a.length)));
      d.value = a;
    }
  }

  /** Number of output points. */
  protected outputSize(): number {
    if (isMechanicalState(this.to) || isNonMechanicalState(this.to)) return this.to.size;
    return (this.to.findData('position')!.value as Float64Array).length / 3;
  }

  /** State type of the input (after resolveEnds). */
  protected inType(): StateType {
    return this.from.stateType;
  }

  /** State type of the output: the output state's (mechanical or not), or Vec3d for a visual model. */
  protected outType(): StateType {
    return isMechanicalState(this.to) || isNonMechanicalState(this.to) ? this.to.stateType : Vec3d;
  }

  /**
   * Checks the input/output state types against the accepted `In,Out` pairs and against the
   * `template` attribute when the scene gave one; the template becomes the actual pair.
   */
  protected checkTemplates(accepted: readonly string[]): void {
    const actual = `${this.inType().name},${this.outType().name}`;
    if (this.template && canonicalTemplate(this.template) !== actual) {
      throw this.error(
        `template '${this.template}' does not match the states: input ${this.from.describe()} is ${this.inType().name}, output ${this.to.describe()} is ${this.outType().name}`,
      );
    }
    if (!accepted.includes(actual)) {
      throw this.error(`cannot map ${this.inType().name} to ${this.outType().name}; supported input,output pairs: ${accepted.join(', ')}`);
    }
    this.template = actual;
  }

  /**
   * Makes the output hold n points (SOFA resizes the output state): a MechanicalObject through its
   * resize(n), a visual model by reallocating its position array. Call at init only.
   */
  protected resizeOutput(n: number): void {
    if (!isMechanicalState(this.to)) return this.ensureVisualOutputSize(n);
    if (this.to.size === n) return;
    const resizable = this.to as BaseMechanicalState & { resize?: (n: number) => void };
    if (typeof resizable.resize !== 'function')
      throw this.error(`output ${this.to.describe()} has ${this.to.size} points, the mapping gives ${n}`);
    resizable.resize(n);
  }

  /** Tells followers of the output's position that it changed. */
  protected touchOutput(): void {
    if (isMechanicalState(this.to) || isNonMechanicalState(this.to)) this.to.touch();
    else this.to.findData('position')!.touch();
  }
}
