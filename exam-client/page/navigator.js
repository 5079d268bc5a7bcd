/**
 * The candidate's overview: a navigator with one link per question (answered, not answered,
 * flagged for review; following it moves focus to the question), a progress count, and the
 * summary the submit confirmation lists. Every state is in words for screen readers; colour
 * and the flag mark only repeat them.
 */

/** {total, answered, unanswered: [{n, id}], flagged: [{n, id}]} of the questions in paper order. */
export function summarize(questions, isAnswered, isFlagged) {
  const unanswered = [];
  const flagged = [];
  questions.forEach((q, i) => {
    if (!isAnswered(q.id)) unanswered.push({ n: i + 1, id: q.id });
    if (isFlagged(q.id)) flagged.push({ n: i + 1, id: q.id });
  });
  return { total: questions.length, answered: questions.length - unanswered.length, unanswered, flagged };
}

export function progressText({ total, answered, flagged }) {
  return `${answered} of ${total} answered${flagged.length ? `, ${flagged.length} flagged for review` : ''}`;
}

/** A value that counts as an answer: not null, not an empty string or list. */
export function isAnswerValue(v) {
  return v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
}

export class Navigator {
  /**
   * @param {{list: HTMLOListElement, progress: HTMLElement, jump: (n: number) => void}} parts
   */
  constructor({ list, progress, jump }) {
    this.list = list;
    this.progress = progress;
    this.jump = jump;
    this.links = [];
    this.lastProgress = '';
  }

  render(questions) {
    this.links = questions.map((q, i) => {
      const n = i + 1;
      const link = document.createElement('a');
      link.href = `#question-${n}`;
      link.id = `nav-${n}`;
      link.dataset.questionId = q.id;
      const number = document.createElement('span');
      number.className = 'nav-number';
      number.setAttribute('aria-hidden', 'true');
      number.textContent = String(n);
      const words = document.createElement('span');
      words.className = 'visually-hidden';
      link.append(number, words);
      link.addEventListener('click', (event) => {
        event.preventDefault();
        this.jump(n);
      });
      const item = document.createElement('li');
      item.append(link);
      return { link, words, n };
    });
    this.list.replaceChildren(...this.links.map((l) => l.link.parentElement));
  }

  /** @param {{answered: number, total: number, unanswered: Array<{n:number}>, flagged: Array<{n:number}>}} summary */
  update(summary) {
    const open = new Set(summary.unanswered.map((u) => u.n));
    const flagged = new Set(summary.flagged.map((f) => f.n));
    for (const { link, words, n } of this.links) {
      const answered = !open.has(n);
      link.dataset.state = answered ? 'answered' : 'unanswered';
      link.dataset.flagged = flagged.has(n) ? 'true' : 'false';
      words.textContent = `Question ${n}: ${answered ? 'answered' : 'not answered'}${flagged.has(n) ? ', flagged for review' : ''}`;
    }
    // Written only when it changes: the region is polite and must not repeat itself on every keystroke.
    const text = progressText(summary);
    if (text !== this.lastProgress) {
      this.lastProgress = text;
      this.progress.textContent = text;
    }
  }

  /** The link of the question shown as current (aria-current), e.g. the one with focus. */
  setCurrent(n) {
    for (const { link, n: m } of this.links) {
      if (m === n) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
  }
}
