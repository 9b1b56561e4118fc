import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A project-local virtualenv holding the pinned Schemathesis (requirements.txt beside this file),
 * made on first use and again whenever the pins change. Where `python3 -m venv` is missing (Debian
 * without python3-venv), the packages go into a plain folder with `pip install --target`.
 */
export function ensureSchemathesis(root: string, log: (line: string) => void): { command: string; env: NodeJS.ProcessEnv } {
  const requirements = path.join(root, 'scripts/fuzz/requirements.txt');
  const pins = readFileSync(requirements, 'utf8');
  const venv = path.join(root, '.cache/fuzz-venv');
  const venvPython = path.join(venv, 'bin/python3');
  const targetDir = path.join(venv, 'site-packages');
  // The stamp records the pins installed and how, so a changed requirements.txt reinstalls.
  const stamp = path.join(venv, 'quire-installed.json');
  const launcher = (mode: string) => (mode === 'target' ? { command: 'python3', env: { ...process.env, PYTHONPATH: targetDir } } : { command: venvPython, env: process.env });
  const previous = existsSync(stamp) ? (JSON.parse(readFileSync(stamp, 'utf8')) as { pins: string; mode: string }) : undefined;
  if (previous?.pins === pins) return launcher(previous.mode);

  log(`installing Schemathesis into ${path.relative(root, venv)} (pinned in scripts/fuzz/requirements.txt)`);
  const quiet = ['--disable-pip-version-check', '--quiet'];
  let mode = 'venv';
  try {
    execFileSync('python3', ['-m', 'venv', '--clear', venv], { stdio: 'inherit' });
    execFileSync(venvPython, ['-m', 'pip', 'install', ...quiet, '-r', requirements], { stdio: 'inherit' });
  } catch (error) {
    log(`python3 -m venv failed (${(error as Error).message.split('\n')[0]}); installing with pip --target instead`);
    mode = 'target';
    rmSync(venv, { recursive: true, force: true });
    execFileSync('python3', ['-m', 'pip', 'install', ...quiet, '--target', targetDir, '-r', requirements], { stdio: 'inherit' });
  }
  writeFileSync(stamp, JSON.stringify({ pins, mode }));
  return launcher(mode);
}

/** Arguments that run the Schemathesis CLI with `command` from ensureSchemathesis. */
export const schemathesisModule = ['-m', 'schemathesis.cli'];
