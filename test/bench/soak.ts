import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from './context';
import { round } from './lib/stats';

type Context = Pick<BenchContext, 'report' | 'log'>;

const BENCH = 'soak';
const CONFIG = 'test/bench/soak.vitest.config.ts';
// Linux's clock ticks a second, the unit of /proc's CPU times.
const TICKS = 100;

interface VitestJson {
  testResults: Array<{
    assertionResults: Array<{ fullName: string; status: string; duration?: number | null }>;
  }>;
}

/** CPU seconds of this process's children that have ended (Linux's /proc; 0 elsewhere). */
function childrenCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command's closing parenthesis; cutime and cstime are 16th and 17th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * soak. The `*.soak.ts` files through Vitest (`soak.vitest.config.ts`): each test a row
 * that passes or fails as the test does, with its time; the run's CPU time beside.
 */
export async function soaks({ report, log }: Context): Promise<void> {
  log('soak: the *.soak.ts files through Vitest');
  const dir = mkdtempSync(join(tmpdir(), 'bench-soak-'));
  const output = join(dir, 'results.json');
  try {
    const cpuBefore = childrenCpuSeconds();
    const started = performance.now();
    const args = ['vitest', 'run', '--configLoader', 'runner', '--config', CONFIG];
    const code = await new Promise<number | null>((resolve, reject) => {
      // Vitest's own report on the console (why a test failed), the JSON one for the table.
      const reporters = ['--reporter=default', '--reporter=json', `--outputFile.json=${output}`];
      const child = spawn('npx', [...args, ...reporters], {
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = childrenCpuSeconds() - cpuBefore;
    const results = JSON.parse(readFileSync(output, 'utf8')) as VitestJson;
    const tests = results.testResults.flatMap((file) => file.assertionResults);
    if (tests.length === 0) throw new Error(`no soak ran (vitest exited ${code})`);
    for (const test of tests) {
      const time = `${round((test.duration ?? 0) / 1000, 1)} s`;
      report.budget(BENCH, test.fullName, time, 'passes', test.status === 'passed');
    }
    report.info(
      BENCH,
      'the run: wall / CPU (vitest and its workers)',
      `${round(seconds, 1)} s / ${round(cpu, 1)} s`,
    );
    report.set('soak', { seconds, cpuSeconds: cpu, exitCode: code, tests });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
