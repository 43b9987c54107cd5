'use strict';
/**
 * CPU time of processes, read from /proc/<pid>/stat (user + system, all threads), for
 * accounting a benchmark's load to the processes that carried it: snapshot before, snapshot
 * after, difference per process. Linux only; a process that has exited reads as undefined.
 * Resolution: one clock tick (10 ms at the usual CLK_TCK of 100).
 */
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

/** Clock ticks per second of /proc's times. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU milliseconds (user + system) `pid` has used so far, or undefined when it does not run. */
function cpuMsOf(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat(5) are utime and stime: 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Pids of the processes whose command name (/proc/<pid>/comm) is `comm`, e.g. nats-server. */
function pidsNamed(comm) {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A snapshot of the CPU time of groups of processes: `groups` maps a name to the pids it
 * sums (read when the snapshot is taken, so a group may be a function of the moment).
 * @param {Record<string, number[] | (() => number[])>} groups
 * @returns {{ at: number, cpu: Record<string, Map<number, number>> }}
 */
function snapshot(groups) {
  const cpu = {};
  for (const [name, pids] of Object.entries(groups)) {
    const list = typeof pids === 'function' ? pids() : pids;
    cpu[name] = new Map(
      list.flatMap((pid) => {
        const ms = cpuMsOf(pid);
        return ms === undefined ? [] : [[pid, ms]];
      }),
    );
  }
  return { at: performance.now(), cpu };
}

/**
 * CPU milliseconds each group used between two snapshots (a pid first seen in `after` counts
 * from 0: it started in between), and the wall milliseconds between them.
 */
function cpuBetween(before, after) {
  const used = {};
  for (const [name, pids] of Object.entries(after.cpu)) {
    let sum = 0;
    for (const [pid, ms] of pids) sum += ms - (before.cpu[name]?.get(pid) ?? 0);
    used[name] = sum;
  }
  return { wallMs: after.at - before.at, used };
}

/**
 * The stack's processes as groups of `snapshot`, by name (the replicas of one name summed).
 * @param {{ processes: { name: string, pid?: number }[] }} stack
 * @returns {Record<string, number[]>}
 */
function stackProcessGroups(stack) {
  const groups = {};
  for (const p of stack.processes) groups[p.name] = [...(groups[p.name] ?? []), p.pid ?? 0];
  return groups;
}

module.exports = { cpuMsOf, pidsNamed, snapshot, cpuBetween, stackProcessGroups, TICKS_PER_SECOND };
