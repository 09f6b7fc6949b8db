(function () {
const NS = 'http://www.w3.org/2000/svg';
function el(tag, attrs, text, ns) {
  const e = ns ? document.createElementNS(NS, tag) : document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function key(a) { return a[0] + ':' + a[1] + ':' + a[2]; }
function draw(words, arcs, other, gold, marked, undirected, labels) {
  const xs = [20]; let x = 20 + (undirected ? 7.2 * 6 + 14 : 0);
  for (const w of words) { const wd = Math.max(7.2 * w.length, 28); xs.push(x + wd / 2); x += wd + 14; }
  const width = x + 10;
  const spans = [...new Set(arcs.filter(a => a[1] !== 0 || undirected).map(a => Math.abs(a[0] - a[1])))].sort((a, b) => a - b);
  const level = new Map(spans.map((d, k) => [d, k + 1]));
  const step = Math.max(8, Math.min(22, 200 / Math.max(1, spans.length)));
  const base = step * (spans.length + 1) + 32, height = base + 40;
  const svg = el('svg', {width: width, height: height, class: 'parse', 'font-size': 12, 'font-family': 'sans-serif'}, undefined, true);
  const others = other ? new Set(other.map(key)) : null, golds = gold ? new Set(gold.map(key)) : null;
  const named = a => a[0] + ':' + a[1] + ':' + labels[a[2]];
  if (undirected) svg.appendChild(el('text', {x: xs[0], y: base + 16, fill: '#888'}, 'WALL', true));
  words.forEach((w, i) => {
    const t = el('text', {x: xs[i + 1], y: base + 16, 'text-anchor': 'middle', class: marked[i] ? 'word miss' : 'word'}, w, true);
    if (marked[i]) { t.setAttribute('fill', '#d62728'); t.setAttribute('text-decoration', 'underline'); }
    svg.appendChild(t);
  });
  for (const a of arcs) {
    const changed = others && !others.has(key(a)), wrong = golds && !golds.has(named(a));
    const colour = changed ? '#d62728' : '#445';
    const g = el('g', {class: 'arc' + (changed ? ' changed' : '') + (wrong ? ' wrong' : '')}, undefined, true);
    const label = labels[a[2]];
    g.appendChild(el('title', {}, label + ': ' + (a[0] ? words[a[0] - 1] : 'WALL') + ' - ' + (a[1] ? words[a[1] - 1] : (undirected ? 'WALL' : 'ROOT')), true));
    const dash = wrong ? {'stroke-dasharray': '4 3'} : {};
    if (a[1] === 0 && !undirected) {
      const x0 = xs[a[0]];
      g.appendChild(el('line', Object.assign({x1: x0, y1: 8, x2: x0, y2: base, stroke: colour, 'stroke-width': 1.5}, dash), undefined, true));
      g.appendChild(el('text', {x: x0 + 4, y: 16, fill: colour}, label, true));
    } else {
      const xa = (a[0] || !undirected) ? xs[a[0]] : xs[0];
      const x1 = Math.min(xa, xs[a[1]]) + 4, x2 = Math.max(xa, xs[a[1]]) - 4;
      const y = base - step * level.get(Math.abs(a[0] - a[1]));
      const r = Math.min(8, (x2 - x1) / 2);
      g.appendChild(el('path', Object.assign({d: `M${x1},${base} L${x1},${y + r} Q${x1},${y} ${x1 + r},${y} L${x2 - r},${y} Q${x2},${y} ${x2},${y + r} L${x2},${base}`, fill: 'none', stroke: colour, 'stroke-width': 1.5}, dash), undefined, true));
      if (!undirected) { const xd = a[0] < a[1] ? x1 : x2; g.appendChild(el('path', {d: `M${xd - 4},${base - 7} L${xd},${base} L${xd + 4},${base - 7}`, fill: colour}, undefined, true)); }
      g.appendChild(el('text', {x: (x1 + x2) / 2, y: y - 3, 'text-anchor': 'middle', fill: colour}, label, true));
    }
    svg.appendChild(g);
  }
  return svg;
}
function scrollTo(box, x) {
  // a drawing whose point X is out of view opens scrolled so that X stands about 200 px
  // in, at the left edge of a word: no word is cut (the first one read "'hat" for
  // "What" when the box was scrolled by a few pixels)
  if (x + 60 <= box.clientWidth) { box.scrollLeft = 0; return; }
  const most = Math.min(x - 200, box.scrollWidth - box.clientWidth);
  let left = 0;
  for (const t of box.querySelectorAll('text.word')) {
    const b = t.getBBox();
    if (b.x - 6 <= most) left = Math.max(left, b.x - 6);
  }
  box.scrollLeft = left;
}
function alignment(noisy, clean, pairs) {
  // the noisy words above the clean ones, a line for each aligned pair; a word with no
  // partner (added above, missing below) or another form is red
  const pos = ws => { const xs = []; let x = 10; for (const w of ws) { const wd = Math.max(7.2 * w.length, 28); xs.push(x + wd / 2); x += wd + 14; } return [xs, x + 10]; };
  const [xn, wn] = pos(noisy), [xc, wc] = pos(clean);
  const svg = el('svg', {width: Math.max(wn, wc), height: 70, class: 'alignment', 'font-size': 12, 'font-family': 'sans-serif'}, undefined, true);
  const up = new Map(pairs.map(([i, j]) => [i, j])), down = new Map(pairs.map(([i, j]) => [j, i]));
  noisy.forEach((w, i) => svg.appendChild(el('text', {x: xn[i], y: 14, 'text-anchor': 'middle', fill: up.has(i) && clean[up.get(i)] === w ? '#445' : '#d62728', class: up.has(i) ? 'word' : 'word added'}, w, true)));
  clean.forEach((w, j) => svg.appendChild(el('text', {x: xc[j], y: 64, 'text-anchor': 'middle', fill: down.has(j) ? '#445' : '#d62728', class: down.has(j) ? 'word' : 'word missing'}, w, true)));
  for (const [i, j] of pairs) {
    const moved = pairs.some(([a, b]) => (a - i) * (b - j) < 0);  // crosses another pair
    svg.appendChild(el('line', {x1: xn[i], y1: 19, x2: xc[j], y2: 51, stroke: moved ? '#d62728' : '#999', class: moved ? 'pair moved' : 'pair'}, undefined, true));
  }
  return svg;
}
function mapArcs(arcs, pairs, reverse) {
  // ARCS over one side's words, renumbered to the other side's through the alignment;
  // an arc whose word has no partner is dropped
  const m = new Map(pairs.map(([i, j]) => reverse ? [j + 1, i + 1] : [i + 1, j + 1]));
  const out = [];
  for (const [d, h, l] of arcs) if (m.has(d) && (h === 0 || m.has(h))) out.push([m.get(d), h === 0 ? 0 : m.get(h), l]);
  return out;
}
function browser(root) {
  const D = JSON.parse(root.querySelector('.pb-data').textContent);
  const page = +root.dataset.page, f = {};
  for (const s of root.querySelectorAll('select, input')) f[s.name] = s;
  const opt = (sel, value, text) => sel.appendChild(el('option', {value: value}, text));
  opt(f.parser, '', 'any'); D.parsers.forEach((p, i) => opt(f.parser, i, p));
  const levels = [...new Set(D.versions.map(v => v.level))];
  opt(f.level, '', 'any'); levels.forEach(l => opt(f.level, l, l));
  const reps = [...new Set(D.versions.map(v => v.seed))];
  opt(f.replicate, '', 'any'); reps.forEach((s, i) => opt(f.replicate, s, String(i + 1) + ' (seed ' + s + ')'));
  const moved = e => e && !Array.isArray(e);
  const types = [...new Set(D.noise.flatMap(v => v.flatMap(e => moved(e) ? e.t : [])))].sort();
  if (f.etype) {
    opt(f.etype, '', 'any'); types.forEach(t => opt(f.etype, t, t));
    if (!types.length) f.etype.parentNode.style.display = 'none';
  }
  const edits = e => moved(e) ? (e.t.length || 1) : e.length;
  // the parses that changed first, until a header is clicked; numbers the largest first
  let start = 0, hits = [], sortBy = 'status', sortDir = 1, open = null;
  const RANK = {changed: 0, failed: 1, unchanged: 2}, DOWN = new Set(['errors', 'changed']);
  function sortKey(col, h) {
    const [p, v, k] = h;
    if (col === 'k') return k;
    if (col === 'parser') return D.parsers[p].toLowerCase();
    if (col === 'level') return levels.indexOf(D.versions[v].level);
    if (col === 'replicate') return D.versions[v].seed;
    if (col === 'errors') return edits(D.noise[v][k]);
    if (col === 'changed') { const c = changedArcs(p, v, k); return c === null ? -1 : c; }
    if (col === 'status') return RANK[status(p, v, k)];
    return noisyWords(v, k)[0].join(' ').toLowerCase();
  }
  function sortHits() {
    const keyed = hits.map((h, i) => [sortKey(sortBy, h), i, h]);
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0) * sortDir || a[1] - b[1]);
    hits = keyed.map(x => x[2]);
    for (const th of root.querySelectorAll('th[data-sort]'))
      th.setAttribute('aria-sort', th.dataset.sort !== sortBy ? 'none' : sortDir > 0 ? 'ascending' : 'descending');
  }
  function noisyArcs(p, v, k) {
    const n = D.noisy[p][v][k], c = D.clean[p][k];
    if (n === 0) return c;
    if (n === 'F' || Array.isArray(n)) return n;
    const byWord = new Map(c.map(a => [a[0], a]));
    for (const a of n.d) byWord.set(a[0], a);
    return [...byWord.values()];
  }
  function status(p, v, k) {
    const n = D.noisy[p][v][k];
    if (n === 'F' || (n === 0 && D.clean[p][k] === 'F')) return 'failed';
    // words moved: changed when an arc changed through the alignment
    return n === 0 || (moved(D.noise[v][k]) && changedArcs(p, v, k) === 0) ? 'unchanged' : 'changed';
  }
  function changedArcs(p, v, k) {
    const n = D.noisy[p][v][k], c = D.clean[p][k], e = D.noise[v][k];
    if (n === 0 || n === 'F' || c === 'F') return n === 0 ? 0 : null;
    if (moved(e)) {
      const a = new Set(c.map(key));
      return noisyArcs(p, v, k).filter(x => !a.has(key(mapArcs([x], e.a, false)[0] || [-1, -1, -1]))).length;
    }
    if (n.d) return n.d.length;
    const a = new Set(c.map(key)); let d = 0;
    for (const x of n) if (!a.has(key(x))) d++;
    return d + Math.max(0, c.length - n.length);
  }
  function refilter() {
    const word = f.word.value.trim().toLowerCase();
    hits = [];
    for (let p = 0; p < D.parsers.length; p++) {
      if (f.parser.value !== '' && +f.parser.value !== p) continue;
      for (let v = 0; v < D.versions.length; v++) {
        if (f.level.value && D.versions[v].level !== f.level.value) continue;
        if (f.replicate.value && String(D.versions[v].seed) !== f.replicate.value) continue;
        for (let k = 0; k < D.words.length; k++) {
          const e = D.noise[v][k], m = edits(e);
          if (f.errors.value && (f.errors.value === '3+' ? m < 3 : m !== +f.errors.value)) continue;
          if (f.etype && f.etype.value && !(moved(e) && e.t.includes(f.etype.value))) continue;
          if (f.status.value && status(p, v, k) !== f.status.value) continue;
          if (word && !D.words[k].some(w => w.toLowerCase() === word) && !(moved(e) ? e.w.some(w => w.toLowerCase() === word) : e.some(x => x[1].toLowerCase() === word))) continue;
          hits.push([p, v, k]);
        }
      }
    }
    sortHits(); start = 0; render();
  }
  function noisyWords(v, k) {
    const e = D.noise[v][k];
    if (moved(e)) {
      // marked: a word with no clean partner, another form, or moved (its pair crosses
      // another: a swap)
      const up = new Map(e.a.map(([i, j]) => [i, j]));
      const crosses = i => e.a.some(([a, b]) => (a - i) * (b - up.get(i)) < 0);
      return [e.w, e.w.map((x, i) => !up.has(i) || D.words[k][up.get(i)] !== x || crosses(i))];
    }
    const w = D.words[k].slice(), marked = w.map(() => false);
    for (const [i, x] of D.noise[v][k]) { w[i] = x; marked[i] = true; }
    return [w, marked];
  }
  function render() {
    // the drawing open stays open under its row while the row is shown
    const body = root.querySelector('tbody'), reopen = open ? open.dataset.of : null;
    body.textContent = ''; open = null;
    root.querySelector('.count').textContent = hits.length + ' of ' + (D.parsers.length * D.versions.length * D.words.length) + ' parses shown';
    for (const [p, v, k] of hits.slice(start, start + page)) {
      const [w, marked] = noisyWords(v, k), ch = changedArcs(p, v, k);
      const tr = el('tr', {class: 'row', 'data-p': p, 'data-v': v, 'data-k': k, tabindex: 0, 'aria-expanded': 'false'});
      const e = D.noise[v][k];
      for (const c of [k + 1, D.parsers[p], D.versions[v].level, 'seed ' + D.versions[v].seed, moved(e) ? e.t.join(' ') || edits(e) : e.length, ch === null ? 'n/a' : ch, status(p, v, k)]) tr.appendChild(el('td', {}, String(c)));
      const td = el('td', {class: 'text'});
      w.forEach((x, i) => { td.appendChild(el(marked[i] ? 'mark' : 'span', {}, x)); td.appendChild(document.createTextNode(' ')); });
      tr.appendChild(td);
      tr.addEventListener('click', () => pick(p, v, k, tr));
      tr.addEventListener('keydown', ev => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); pick(p, v, k, tr); }
      });
      body.appendChild(tr);
    }
    const again = reopen && [...body.children].find(tr => tr.dataset.p + ':' + tr.dataset.v + ':' + tr.dataset.k === reopen);
    if (again) pick(+again.dataset.p, +again.dataset.v, +again.dataset.k, again, true);
    root.querySelector('.pager span').textContent = hits.length ? (start + 1) + '-' + Math.min(hits.length, start + page) + ' of ' + hits.length : 'none';
  }
  function pick(p, v, k, tr, still) {
    // the drawing opens in a row of its own under the row clicked, and comes into view;
    // a second click (or Enter) on the row closes it
    const id = p + ':' + v + ':' + k, was = open ? open.dataset.of : null;
    if (open) { open.previousSibling.setAttribute('aria-expanded', 'false'); open.remove(); open = null; }
    if (was === id) return;
    const detail = el('tr', {class: 'detail', 'data-of': id}), td = el('td', {colspan: tr.children.length});
    const out = el('div', {class: 'picked'});
    out.style.width = Math.max(200, root.querySelector('.rowswrap').clientWidth - 24) + 'px';
    td.appendChild(out); detail.appendChild(td); tr.after(detail);
    tr.setAttribute('aria-expanded', 'true'); open = detail;
    const c = D.clean[p][k], n = noisyArcs(p, v, k);
    const undirected = D.kinds[p] === 'links', gold = D.gold && D.kinds[p] === 'deps' ? D.gold[k] : null;
    const labels = D.labels[p];
    out.appendChild(el('h4', {}, D.parsers[p] + ': sentence ' + (k + 1) + ', ' + D.versions[v].level + ' (seed ' + D.versions[v].seed + ')'));
    const [w, marked] = noisyWords(v, k), e = D.noise[v][k];
    let cOther = n, nOther = c, cMarked = D.words[k].map(() => false), gold2 = gold;
    if (moved(e)) {
      // the parses are over different words: each is compared with the other's arcs
      // carried over through the alignment, and the alignment is drawn between them
      const down = new Set(e.a.map(x => x[1]));
      cMarked = D.words[k].map((_, j) => !down.has(j));
      cOther = n === 'F' ? 'F' : mapArcs(n, e.a, false);
      nOther = c === 'F' ? 'F' : mapArcs(c, e.a, true);
      out.appendChild(el('p', {}, 'alignment (' + (e.t.join(', ') || 'no type') + ')'));
      const box = el('div', {class: 'drawn aligned'}); box.appendChild(alignment(w, D.words[k], e.a)); out.appendChild(box);
    }
    for (const [name, arcs, other, words, m, g] of [['clean', c, cOther, D.words[k], cMarked, gold], ['noisy', n, nOther, w, marked, moved(e) ? null : gold2]]) {
      out.appendChild(el('p', {}, name));
      if (arcs === 'F') { out.appendChild(el('p', {class: 'failed'}, 'the parse failed')); continue; }
      const box = el('div', {class: 'drawn ' + name});
      box.appendChild(draw(words, arcs, other === 'F' ? null : other, g === 'F' ? null : g, m, undirected, labels));
      out.appendChild(box);
    }
    // a long sentence opens scrolled to its first misspelled word, both drawings alike
    const miss = out.querySelector('text.miss');
    if (miss) for (const box of out.querySelectorAll('.drawn')) scrollTo(box, +miss.getAttribute('x'));
    if (!still) detail.scrollIntoView({block: detail.getBoundingClientRect().height > innerHeight ? 'start' : 'nearest'});
  }
  for (const s of Object.values(f)) s.addEventListener(s.tagName === 'INPUT' ? 'input' : 'change', refilter);
  for (const th of root.querySelectorAll('th[data-sort]')) th.querySelector('button').addEventListener('click', () => {
    const col = th.dataset.sort;
    sortDir = col === sortBy ? -sortDir : (DOWN.has(col) ? -1 : 1); sortBy = col;
    sortHits(); start = 0; render();
  });
  root.querySelector('[name=prev]').addEventListener('click', () => { start = Math.max(0, start - page); render(); });
  root.querySelector('[name=next]').addEventListener('click', () => { if (start + page < hits.length) { start += page; render(); } });
  refilter();
}
for (const root of document.querySelectorAll('.browser')) browser(root);
// a long drawn sentence of the examples opens scrolled to its first error
  for (const box of document.querySelectorAll('.drawn[data-scroll]')) scrollTo(box, +box.dataset.scroll + 200);
})();
