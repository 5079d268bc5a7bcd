/**
 * Order per candidate (docs/api.md §3.1, "Order and pools per candidate"): the paper's questions
 * already come in the candidate's order; a choice question's `options` stay in the exam's order
 * and `optionOrder` (with the exam's option shuffle) gives their indexes in display order.
 * Answers name options by their text, so showing them in another order changes no answer.
 */

/**
 * The question's options in the order to show them: [{index, option}], `index` the option's
 * position in `question.options` (the exam's order). Without a valid `optionOrder`, the exam's order.
 * @param {{options?: string[], optionOrder?: number[]}} question
 * @returns {{index: number, option: string}[]}
 */
export function optionsInOrder(question) {
  const options = Array.isArray(question?.options) ? question.options : [];
  const order = question?.optionOrder;
  if (!isPermutation(order, options.length)) {
    return options.map((option, index) => ({ index, option }));
  }
  return order.map((index) => ({ index, option: options[index] }));
}

function isPermutation(order, n) {
  if (!Array.isArray(order) || order.length !== n) return false;
  const seen = new Set();
  for (const i of order) {
    if (!Number.isInteger(i) || i < 0 || i >= n || seen.has(i)) return false;
    seen.add(i);
  }
  return true;
}
