import { Str, sofaComponent, tokens, type DataType } from '@sofa-ts/core';
import type { CollisionModel } from '../model/CollisionModel.js';
import { CollisionResponse } from './CollisionResponse.js';

/** One rule: two model names (or group numbers, or * for any model) and a response. */
export interface ContactRule {
  readonly name1: string;
  readonly group1: number | undefined;
  readonly name2: string;
  readonly group2: number | undefined;
  readonly response: string;
}

const Rules: DataType<ContactRule[]> = {
  name: 'vector<Rule>',
  parse: (t) => {
    const ts = tokens(t);
    const rules: ContactRule[] = [];
    const part = (s: string): [string, number | undefined] => (/^-?\d+$/.test(s) ? ['', Number(s)] : [s, undefined]);
    for (let k = 0; k + 2 < ts.length; k += 3) {
      const [name1, group1] = part(ts[k]);
      const [name2, group2] = part(ts[k + 1]);
      rules.push({ name1, group1, name2, group2, response: ts[k + 2] });
    }
    return rules;
  },
  print: (v) => v.map((r) => `${r.name1 || r.group1} ${r.name2 || r.group2} ${r.response}`).join(' '),
  clone: (v) => v.map((r) => ({ ...r })),
};

/**
 * SOFA's RuleBasedContactManager: the response of a pair of models is the one of the first rule
 * matching the pair (either way round); a rule names each model by name, by one of its collision
 * groups (a number) or * for any. A response named by a model (contactResponse) comes first; with no
 * matching rule the default response applies; "nullptr" means no response.
 */
@sofaComponent({
  name: 'RuleBasedContactManager',
  aliases: ['RuleBasedCollisionResponse'],
  category: 'CollisionAlgorithm',
  module: 'Sofa.Component.Collision.Response.Contact',
  description: 'Create different responses to the collisions based on a set of rules.',
})
export class RuleBasedContactManager extends CollisionResponse {
  readonly variables = this.initData({
    name: 'variables',
    type: Str,
    default: '',
    help: 'define a list of variables to be used inside the rules (not supported by sofa-ts: rules must name responses directly)',
  });
  readonly rules = this.initData({
    name: 'rules',
    type: Rules,
    default: [],
    help: 'ordered list of rules, each a triplet: model 1 (name, group number or *), model 2, response',
  });

  override init(): void {
    super.init();
    if (this.variables.value.trim() !== '')
      throw this.error('rule variables are not supported yet', 'write the response names in the rules directly');
    for (const r of this.rules.value) this.checkResponse(r.response, 'rule response');
  }

  override getContactResponse(m1: CollisionModel, m2: CollisionModel): string {
    const r1 = m1.contactResponse.value,
      r2 = m2.contactResponse.value;
    if (r1) return r1;
    if (r2) return r2;
    for (const rule of this.rules.value) if (matches(rule, m1, m2) || matches(rule, m2, m1)) return rule.response;
    return super.getContactResponse(m1, m2);
  }
}

function matches(rule: ContactRule, m1: CollisionModel, m2: CollisionModel): boolean {
  const one = (name: string, group: number | undefined, m: CollisionModel): boolean =>
    name !== '' ? name === '*' || name === m.getName() : m.group.value.includes(group!);
  return one(rule.name1, rule.group1, m1) && one(rule.name2, rule.group2, m2);
}
