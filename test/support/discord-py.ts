import { execFileSync } from 'node:child_process';

/** A Python that can import discord.py: $DISCORD_PY_PYTHON, else Debian's, else the PATH's. */
function findPython(): string | undefined {
  const candidates = [process.env.DISCORD_PY_PYTHON, '/usr/bin/python3', 'python3'].filter((c): c is string =>
    Boolean(c),
  );
  return candidates.find((python) => {
    try {
      execFileSync(python, ['-c', 'import discord'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The Python that runs a discord.py test file, and its `describe`: without discord.py the
 * tests are skipped (with a line saying so), except under CI, where that is an error
 * (Debian's python3-discord; `.ci/run` installs it).
 */
export function discordPy(testName: string): {
  python: string | undefined;
  describeWithPython: typeof describe;
} {
  const python = findPython();
  if (!python && process.env.CI) {
    throw new Error('discord.py is not installed: apt-get install python3-discord (.ci/run does it)');
  }
  if (!python) {
    process.stderr.write(
      `${testName}: no Python with discord.py (apt-get install python3-discord); skipped\n`,
    );
  }
  return { python, describeWithPython: python ? describe : (describe.skip as typeof describe) };
}
