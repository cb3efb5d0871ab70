// SPDX-License-Identifier: MIT
// The rules page of the web build: docs/rules.md as HTML, run by `make web`
// (mk/web.mk), which copies the diagrams it shows (docs/diagrams/*.svg)
// beside it. The page's footer links it (issue 49: it linked the Markdown
// itself, which a browser shows as plain text with no pictures).
//
//   node examples/web/rules-page.mjs docs/rules.md > build/web/rules.html
//
// The Markdown of that page only, no library: headings, paragraphs, lists,
// tables, fenced code, and inline code, emphasis, links and images. Links
// to other pages of docs/, which the web build does not serve, become
// their text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const slug = (s) => s.toLowerCase().replace(/<[^>]*>/g, '').replace(/[^a-z0-9 -]/g, '').trim().replace(/ +/g, '-');

/** Inline Markdown of one paragraph's text, as HTML. */
function inline(text) {
  const code = [];
  let s = escape(text).replace(/`([^`]+)`/g, (_, c) => `\u0000${code.push(c) - 1}\u0000`);
  s = s.replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt, src) => `<img src="${src}" alt="${alt}">`)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, t, href) =>
      (href.startsWith('#') || /^https?:/.test(href) ? `<a href="${href}">${t}</a>` : t))
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/(^|[\s(])_([^_\s][^_]*)_/g, '$1<em>$2</em>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${code[i]}</code>`);
}

const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());

/** The HTML of the Markdown text `md`. */
export function toHtml(md) {
  const lines = md.split('\n');
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const body = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++)
        body.push(lines[i]);
      i++;
      out.push(`<pre><code>${escape(body.join('\n'))}</code></pre>`);
    } else if (/^#{1,6} /.test(line)) {
      const n = line.match(/^#+/)[0].length;
      const h = inline(line.slice(n + 1));
      out.push(`<h${n} id="${slug(h)}">${h}</h${n}>`);
      i++;
    } else if (/^\|/.test(line)) {
      const rows = [];
      for (; i < lines.length && /^\|/.test(lines[i]); i++)
        rows.push(cells(lines[i]));
      const [head, , ...body] = rows;
      out.push(`<table><thead><tr>${head.map((c) => `<th>${inline(c)}</th>`).join('')}</tr></thead><tbody>` +
        body.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`).join('') + '</tbody></table>');
    } else if (/^(- |\d+\. )/.test(line)) {
      const ordered = /^\d/.test(line);
      const items = [];
      for (; i < lines.length && (/^(- |\d+\. )/.test(lines[i]) || /^ {2,}\S/.test(lines[i])); i++) {
        if (/^(- |\d+\. )/.test(lines[i]))
          items.push(lines[i].replace(/^(- |\d+\. )/, ''));
        else
          items[items.length - 1] += ` ${lines[i].trim()}`;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((t) => `<li>${inline(t)}</li>`).join('')}</${tag}>`);
    } else if (line.trim() === '') {
      i++;
    } else {
      const para = [];
      for (; i < lines.length && lines[i].trim() !== '' && !/^(```|#{1,6} |\||- |\d+\. )/.test(lines[i]); i++)
        para.push(lines[i]);
      const onlyImages = para.every((l) => /^!\[[^\]]*\]\([^)]+\)$/.test(l.trim()));
      out.push(`<p${onlyImages ? ' class="diagrams"' : ''}>${inline(para.join('\n'))}</p>`);
    }
  }
  return out.join('\n');
}

const STYLE = `body { max-width: 50rem; margin: 0 auto; padding: 0.5rem 1rem 2rem; line-height: 1.5;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2321; background: #f7f6f1; }
a { color: #1864ab; }
nav { font-size: 0.9rem; margin: 0.5rem 0; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; background: #ecebe4; padding: 0 0.2em; border-radius: 0.2em; }
pre { background: #ecebe4; padding: 0.6rem 0.8rem; overflow-x: auto; border-radius: 0.3rem; line-height: 1.2; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 0.6rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #bbb; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
p.diagrams { display: flex; flex-wrap: wrap; gap: 0.5rem; }
img { max-width: 100%; height: auto; }
p.diagrams img { width: 15rem; }`;

export function page(md) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The rules of BALL</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<style>
${STYLE}
</style>
</head>
<body>
<nav><a href="./">← back to the game</a></nav>
${toHtml(md)}
</body>
</html>
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href)
  process.stdout.write(page(readFileSync(process.argv[2], 'utf8')));
