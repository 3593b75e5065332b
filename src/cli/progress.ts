import type { Io } from './io.ts';

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB'];
const human = (bytes: number) => {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit ? value.toFixed(1) : value} ${SIZE_UNITS[unit]}`;
};

/**
 * A progress bar on standard error, drawn only when that is a terminal (a script's log gets no bar). `total` counts
 * `unit`s: bytes for uploads (shown as KB, MB…), items for jobs; without a total there is nothing to draw.
 */
export async function progressBar(io: Io, label: string, total: number | undefined, unit: 'bytes' | 'items') {
  if (!io.stderr.isTTY || !total) return { update: (_value: number) => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WriteStream,
      format: `${label} {bar} {percentage}% | {shown}`,
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const shown = (value: number) => (unit === 'bytes' ? `${human(value)} of ${human(total)}` : `${value} of ${total}`);
  bar.start(total, 0, { shown: shown(0) });
  let stopped = false;
  return {
    update: (value: number) => bar.update(value, { shown: shown(value) }),
    stop: () => {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
