/**
 * Rich question content (docs/api.md §4.5): a question with `format: "markdown"` has its prompt
 * and options in CommonMark with LaTeX formulas ($…$ inline, $$…$$ display) and fenced code.
 * session-service refused anything unsafe when the exam was created; this is the second line:
 *
 *  1. markdown-it (the CommonMark preset) with raw HTML off (`html: false`: a tag is shown as
 *     text), images only of the exam's figures (`![what it shows](figure:<id>)`, drawn as an
 *     <img> without a src: the bytes come through the SDK with the session's token, as a blob:
 *     URL; any other image is its alt text), links to http(s)/mailto only, nesting capped;
 *  2. DOMPurify over its HTML, with an allow-list of the few elements and attributes the
 *     renderer makes, returning nodes (never a string for innerHTML);
 *  3. KaTeX draws each formula into its element with `render()` — styles set through the CSSOM,
 *     which the page's CSP (no 'unsafe-inline', no eval) allows — with `trust: false`, a
 *     `maxExpand` and `maxSize`, and a fresh macro table per formula; a formula it refuses
 *     (a macro bomb, a syntax error) is shown as its TeX source;
 *  4. highlight.js colours code blocks of a known language, its class-only spans checked again.
 *
 * The math delimiters follow session-service's MathInlineParser exactly.
 */
import markdownit from '/vendor/markdown-it/markdown-it.esm.min.mjs';
import katex from '/vendor/katex/katex.mjs';
import DOMPurify from '/vendor/dompurify/purify.es.mjs';
import hljs from '/vendor/highlight/highlight.min.js';

export const KATEX_OPTIONS = Object.freeze({
  throwOnError: true, // an error is shown as the source, never with KaTeX's inline-styled error span
  trust: false, // no \href, \url, \includegraphics, \html*
  strict: 'ignore',
  maxExpand: 200, // a macro bomb stops here
  maxSize: 10, // em: \rule{1000em}{…} cannot cover the page
  output: 'htmlAndMathml', // the MathML is what screen readers read
});

const ALLOWED_TAGS = ['p', 'br', 'hr', 'em', 'strong', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a', 'span'];
// the renderer's classes, and highlight.js's (hljs-keyword, "title function_")
const ALLOWED_CLASS = /^(math-inline|math-display|language-[A-Za-z0-9_+#.-]{1,40}|hljs-[a-z-]{1,40}|[a-z]{1,20}_{1,3})$/;
const SAFE_URL = /^(https?:\/\/|mailto:)/i;
const FIGURE = /^figure:([0-9a-f]{64})$/;

function isSpace(c) {
  return c === undefined || /\s/.test(c);
}

/** The inline rule: `$$…$$` display, `$…$` inline (opening not before a space, closing not after one nor before a digit). */
function mathRule(state, silent) {
  const src = state.src;
  const max = state.posMax;
  const start = state.pos;
  if (src.charCodeAt(start) !== 0x24 /* $ */) return false;
  const display = src.charCodeAt(start + 1) === 0x24 && start + 1 < max;
  const from = start + (display ? 2 : 1);
  if (!display && (from >= max || isSpace(src[from]) || src[from] === '$')) return false;
  let i = from;
  while (i < max) {
    const c = src[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '$') {
      let end;
      if (display) {
        if (!(i + 1 < max && src[i + 1] === '$') || src.slice(from, i).trim() === '') return false;
        end = i + 2;
      } else {
        const after = i + 1 < max ? src[i + 1] : undefined;
        if (isSpace(src[i - 1]) || (after >= '0' && after <= '9')) return false;
        end = i + 1;
      }
      if (!silent) {
        const token = state.push(display ? 'math_display' : 'math_inline', 'span', 0);
        token.content = src.slice(from, i);
        token.markup = display ? '$$' : '$';
      }
      state.pos = end;
      return true;
    }
    i++;
  }
  return false;
}

function createMarkdown() {
  const md = markdownit('commonmark', { html: false, linkify: false, typographer: false, maxNesting: 20 });
  md.validateLink = (url) => SAFE_URL.test(url.trim()) || FIGURE.test(url.trim());
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const alt = self.renderInlineAsText(token.children, options, env);
    const figure = FIGURE.exec(token.attrGet('src') || '');
    return figure ? `<img data-figure="${figure[1]}" alt="${md.utils.escapeHtml(alt)}">` : md.utils.escapeHtml(alt);
  };
  md.inline.ruler.before('escape', 'math', mathRule);
  const span = (cls) => (tokens, idx) => `<span class="${cls}">${md.utils.escapeHtml(tokens[idx].content)}</span>`;
  md.renderer.rules.math_inline = span('math-inline');
  md.renderer.rules.math_display = span('math-display');
  return md;
}

let md = null;
let purifyConfigured = false;

function purify() {
  if (!purifyConfigured) {
    purifyConfigured = true;
    DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
      if (data.attrName === 'class' && !data.attrValue.split(' ').every((c) => ALLOWED_CLASS.test(c))) data.keepAttr = false;
      if (data.attrName === 'href' && !SAFE_URL.test(data.attrValue)) data.keepAttr = false;
    });
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank'); // never navigate the exam away
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }
  return DOMPurify;
}

/**
 * The sanitised nodes of `markdown` (a DocumentFragment), formulas drawn, code coloured and figures filled in by
 * `options.figure(id)` (a Promise of the image's Blob: ExamClient.figure); without it a figure shows its alt text.
 */
export function renderMarkdown(markdown, options = {}) {
  md ??= createMarkdown();
  const html = md.render(String(markdown ?? ''));
  const fragment = purify().sanitize(html, {
    ALLOWED_TAGS: [...ALLOWED_TAGS, 'img'],
    ALLOWED_ATTR: ['href', 'class', 'start', 'alt', 'data-figure'],
    ALLOWED_URI_REGEXP: SAFE_URL,
    RETURN_DOM_FRAGMENT: true,
  });
  for (const el of fragment.querySelectorAll('span.math-inline, span.math-display')) drawFormula(el);
  for (const code of fragment.querySelectorAll('pre > code')) highlight(code);
  for (const img of fragment.querySelectorAll('img')) showFigure(img, options.figure);
  return fragment;
}

const figureUrls = new Map(); // figure id → Promise of its blob: URL, one fetch per figure for the page's life

/** An <img> of a figure gets its bytes as a blob: URL (the page's CSP allows img-src blob:); else its alt text stays. */
function showFigure(img, load) {
  const id = img.getAttribute('data-figure');
  const alt = img.getAttribute('alt') || '';
  if (!/^[0-9a-f]{64}$/.test(id || '') || typeof load !== 'function') {
    img.replaceWith(document.createTextNode(alt));
    return;
  }
  img.classList.add('figure');
  img.setAttribute('decoding', 'async');
  if (!figureUrls.has(id)) {
    const url = Promise.resolve().then(() => load(id)).then((blob) => URL.createObjectURL(blob));
    url.catch(() => figureUrls.delete(id)); // asked again at the next rendering
    figureUrls.set(id, url);
  }
  figureUrls.get(id).then((url) => img.setAttribute('src', url), () => {
    const missing = document.createElement('span');
    missing.className = 'figure-missing';
    missing.textContent = `[figure: ${alt} — it could not be loaded]`;
    img.replaceWith(missing);
  });
}

function drawFormula(el) {
  const tex = el.textContent;
  try {
    katex.render(tex, el, { ...KATEX_OPTIONS, displayMode: el.classList.contains('math-display'), macros: {} });
  } catch {
    el.textContent = tex;
    el.classList.add('math-error');
    el.title = 'This formula could not be drawn; it is shown as written.';
  }
}

function highlight(code) {
  const language = /(?:^|\s)language-([A-Za-z0-9_+#.-]+)/.exec(code.className)?.[1];
  if (!language || !hljs.getLanguage(language)) return;
  const html = hljs.highlight(code.textContent, { language, ignoreIllegals: true }).value;
  code.replaceChildren(purify().sanitize(html, { ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'], RETURN_DOM_FRAGMENT: true }));
  code.classList.add('hljs');
}

/**
 * Fills `target` with a question text: Markdown rendered as above when `format` is "markdown" (`options.figure`: see
 * renderMarkdown), otherwise the text itself (textContent), exactly as it came.
 */
export function showContent(target, text, format, options = {}) {
  if (format === 'markdown') {
    target.classList.add('md');
    target.replaceChildren(renderMarkdown(text, options));
  } else {
    target.textContent = String(text ?? '');
  }
  return target;
}
