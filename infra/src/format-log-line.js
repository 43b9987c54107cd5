'use strict';
/**
 * Turns the services' pino JSON lines into one readable line each:
 * `23:04:05 command-registry | INFO  command created application_id=… name=ping`.
 * Lines that are not pino JSON (a stack trace, a library writing to stderr) keep their
 * text behind the same prefix.
 */

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS = { TRACE: 90, DEBUG: 90, INFO: 32, WARN: 33, ERROR: 31, FATAL: 31 };
/** Distinct colours for service names, assigned in order. */
const NAME_COLORS = [36, 35, 33, 34, 32, 96, 95, 93, 94, 92];
/** Fields every pino line carries that the prefix already shows (or that nobody reads). */
const HIDDEN_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'service', 'name', 'msg', 'v']);

const paint = (useColor, code, text) => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);

/** `HH:MM:SS` in local time, from pino's ISO or epoch-millisecond `time`. */
function clock(time) {
  const date = time === undefined ? new Date() : new Date(time);
  if (Number.isNaN(date.getTime())) return clock(undefined);
  return date.toTimeString().slice(0, 8);
}

function formatValue(value) {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/**
 * @param {object} options
 * @param {string[]} options.names   every name that will be printed (sets the column width and colours)
 * @param {boolean} options.useColor
 * @returns {(name: string, line: string) => string}
 */
function createLogFormatter({ names, useColor }) {
  const width = Math.max(...names.map((n) => n.length));
  const colorOf = new Map(names.map((n, i) => [n, NAME_COLORS[i % NAME_COLORS.length]]));

  return (name, line) => {
    const prefix = (time) =>
      `${paint(useColor, 90, clock(time))} ${paint(useColor, colorOf.get(name) ?? 37, name.padEnd(width))} |`;
    let entry;
    try {
      entry = line.startsWith('{') ? JSON.parse(line) : undefined;
    } catch {
      entry = undefined;
    }
    if (!entry || typeof entry !== 'object' || entry.level === undefined) return `${prefix()} ${line}`;

    const level = LEVELS[entry.level] ?? String(entry.level).toUpperCase();
    const fields = [];
    let stack;
    for (const [key, value] of Object.entries(entry)) {
      if (HIDDEN_FIELDS.has(key)) continue;
      if (key === 'err' && value && typeof value === 'object') {
        fields.push(`err=${formatValue(value.message ?? value.type ?? value)}`);
        stack = typeof value.stack === 'string' ? value.stack : undefined;
        continue;
      }
      fields.push(`${key}=${formatValue(value)}`);
    }
    const text = [entry.msg ?? '', ...fields.map((f) => paint(useColor, 90, f))].filter(Boolean).join(' ');
    const head = `${prefix(entry.time)} ${paint(useColor, LEVEL_COLORS[level] ?? 37, level.padEnd(5))} ${text}`;
    if (!stack) return head;
    const indent = ' '.repeat(width + 14);
    return [
      head,
      ...stack
        .split('\n')
        .slice(1)
        .map((l) => `${indent}${paint(useColor, 90, l.trim())}`),
    ].join('\n');
  };
}

/** Whether a stream should get colours: a TTY, unless NO_COLOR is set, or FORCE_COLOR. */
function shouldUseColor(stream) {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

module.exports = { createLogFormatter, shouldUseColor };
