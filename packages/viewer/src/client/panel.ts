import type { DataField, TreeNode } from '../session/scene-tree.js';

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = ''): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
};

/** The scene-graph tree: nodes fold, a click on a component (or node) selects it. */
export function renderTree(host: HTMLElement, root: TreeNode, select: (path: string) => void): void {
  host.replaceChildren();
  const build = (n: TreeNode, depth: number): HTMLElement => {
    const d = el('details');
    if (depth < 3) d.open = true;
    const s = el('summary');
    const label = el('span', { class: 'tree-node', 'data-path': n.path }, n.name || '(unnamed)');
    // the label selects the node; the marker beside it folds the node
    label.addEventListener('click', (e) => {
      e.preventDefault();
      select(n.path);
    });
    s.append(label);
    d.append(s);
    const ul = el('ul');
    for (const o of n.objects) {
      const li = el('li', { class: 'tree-object', 'data-path': o.path }, `${o.name}`);
      li.append(el('span', { class: 'class-name' }, ` ${o.className}${o.template ? `<${o.template}>` : ''}`));
      li.addEventListener('click', () => select(o.path));
      ul.append(li);
    }
    d.append(ul);
    for (const c of n.children) d.append(build(c, depth + 1));
    return d;
  };
  host.append(build(root, 0));
}

/**
 * The Data panel: every Data of the selected component; numbers are edited in place (the edit is
 * sent when the field loses focus or on Ctrl+Enter, and takes effect at the next step).
 */
export function renderData(
  host: HTMLElement,
  path: string,
  fields: DataField[],
  step: number,
  edit: (name: string, value: string) => void,
  watch?: (name: string) => void,
): void {
  const focused =
    document.activeElement instanceof HTMLTextAreaElement && host.contains(document.activeElement)
      ? document.activeElement.dataset['name']
      : undefined;
  if (host.dataset['path'] === path && focused) {
    // keep the field being edited; refresh the others
    for (const f of fields) {
      if (f.name === focused) continue;
      const t = host.querySelector<HTMLElement>(`[data-name="${CSS.escape(f.name)}"]`);
      if (t instanceof HTMLTextAreaElement) t.value = f.value;
      else if (t) t.textContent = f.value;
    }
    host.dataset['step'] = String(step);
    return;
  }
  host.replaceChildren();
  host.dataset['path'] = path;
  host.dataset['step'] = String(step);
  host.append(el('div', { class: 'data-title' }, path));
  const table = el('table');
  for (const f of fields) {
    const tr = el('tr');
    const name = el('td', { class: 'data-name', title: `${f.help}${f.linkedFrom ? ` (linked from ${f.linkedFrom})` : ''}` }, f.name);
    const td = el('td');
    if (f.editable && f.numeric) {
      const ta = el('textarea', {
        'data-name': f.name,
        id: `data-${f.name}`,
        rows: String(Math.min(6, Math.ceil(f.value.length / 40) || 1)),
        spellcheck: 'false',
      });
      ta.value = f.value;
      const commit = (): void => edit(f.name, ta.value);
      ta.addEventListener('change', commit);
      ta.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          commit();
        }
      });
      td.append(ta);
    } else {
      td.append(el('div', { 'data-name': f.name, id: `data-${f.name}`, class: 'data-value' }, f.value + (f.truncated ? ' …' : '')));
    }
    const type = el('td', { class: 'data-type' }, f.type);
    if (f.numeric && watch) {
      const b = el('button', { class: 'watch', title: 'chart this Data live (its value, or its norm)', 'data-watch': f.name }, '📈');
      b.addEventListener('click', () => watch(f.name));
      type.append(b);
    }
    tr.append(name, td, type);
    table.append(tr);
  }
  host.append(table);
}
