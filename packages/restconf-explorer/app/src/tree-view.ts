import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { filterTree, type TreeNode, treeLine } from './schema-tree.js';

interface TreeProps {
  readonly nodes: readonly TreeNode[];
  readonly selected: TreeNode | undefined;
  readonly onSelect: (node: TreeNode) => void;
}

/** The schema as an RFC 8340-like tree, searchable; a click selects a node. */
export function TreeView({ nodes, selected, onSelect }: TreeProps) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<ReadonlySet<TreeNode>>(new Set());
  const shown = filterTree(nodes, query);
  const searching = query.trim() !== '';
  const toggle = (n: TreeNode): void => {
    const next = new Set(open);
    if (next.has(n)) next.delete(n);
    else next.add(n);
    setOpen(next);
  };
  const row = (n: TreeNode, depth: number): unknown => {
    if (!shown.has(n)) return null;
    const expanded = searching || open.has(n);
    return html`<li key=${n.template}>
      <div class=${`row ${n === selected ? 'selected' : ''}`} style=${`padding-left:${depth * 14}px`}>
        ${
          n.children.length > 0
            ? html`<button class="twist" aria-label=${`${expanded ? 'collapse' : 'expand'} ${n.yang.name}`} onClick=${() => toggle(n)}>${expanded ? '▾' : '▸'}</button>`
            : html`<span class="twist"></span>`
        }
        <button class=${`node kind-${n.yang.kind}`} title=${n.description ?? n.yang.path} onClick=${() => {
          onSelect(n);
          if (!open.has(n)) toggle(n);
        }}>${treeLine(n, depth === 0)}</button>
      </div>
      ${expanded && n.children.length > 0 ? html`<ul>${n.children.map((c) => row(c, depth + 1))}</ul>` : null}
    </li>`;
  };
  return html`<nav class="tree" aria-label="schema">
    <input type="search" placeholder="Search the schema" aria-label="search" value=${query}
      onInput=${(e: Event) => setQuery((e.target as HTMLInputElement).value)} />
    <ul>${nodes.map((n) => row(n, 0))}</ul>
  </nav>`;
}
