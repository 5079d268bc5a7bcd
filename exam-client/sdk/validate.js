/**
 * Client-side checks of an answer value against its question (docs/api.md §4.4 "Answer
 * values"), so that a typo in a page never turns into a 400 that blocks a whole batch.
 * The server checks again; this is a courtesy, not the rule.
 */
export const QUESTION_TYPES = Object.freeze(['SINGLE', 'MULTIPLE', 'TRUE_FALSE', 'FILL', 'NUMERIC', 'ESSAY']);
export const DEFAULT_MAX_VALUE_BYTES = 64 * 1024;

/** @returns {string|null} a reason when invalid */
export function invalidReason(question, value, maxValueBytes = DEFAULT_MAX_VALUE_BYTES) {
  if (value === null) return null;
  const options = Array.isArray(question.options) ? question.options : null;
  switch (question.type) {
    case 'SINGLE':
      if (typeof value !== 'string') return 'SINGLE expects an option string';
      if (options && !options.includes(value)) return 'not one of the options';
      break;
    case 'MULTIPLE':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'MULTIPLE expects an array of option strings';
      if (options && value.some((v) => !options.includes(v))) return 'not one of the options';
      if (new Set(value).size !== value.length) return 'an option is chosen twice';
      break;
    case 'TRUE_FALSE':
      if (typeof value !== 'boolean') return 'TRUE_FALSE expects a boolean';
      break;
    case 'NUMERIC':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'NUMERIC expects a finite number';
      break;
    case 'FILL':
    case 'ESSAY':
      if (typeof value !== 'string') return `${question.type} expects a string`;
      break;
    default:
      return `unknown question type ${question.type}`;
  }
  if (utf8Length(JSON.stringify(value)) > maxValueBytes) return `answer larger than ${maxValueBytes} bytes`;
  return null;
}

export function utf8Length(text) {
  return new TextEncoder().encode(text).length;
}
