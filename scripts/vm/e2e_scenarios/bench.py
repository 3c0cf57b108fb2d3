"""signpad bench on the panel, and a signal ending it hands the console back in text mode.

Its guest steps are bench.sh, beside this file; its host checks are check(run), here."""
import os

from driver import W, region_diff


def check(run):
    shots, check, markers, phase_files = run.shots, run.check, run.markers, run.phase_files
    args, whole = run.args, run.whole
    bench = phase_files['bench'].get('bench.txt', b'').decode(errors='replace')
    open(os.path.join(args.out, 'bench.txt'), 'w').write(bench)
    rows = {l[0]: l.split() for l in bench.splitlines() if l[:2] in ('a ', 'b ', 'c ', 'd ')}
    targets = next((l for l in bench.splitlines() if l.startswith('targets:')), '')
    bench_exit = next((m.split()[-1] for m in markers if m.startswith('BENCH EXIT')), '?')
    # Counted from the end, as (b)'s name is three words: % frame is fifth from last, lag max last.
    on_panel = bench_exit == '0' and '/dev/dri/card0' in bench.splitlines()[0] and len(rows) == 4 and \
        float(rows['b'][-5]) == 100.0 and float(rows['d'][-5]) <= 0.5 and rows['d'][-1] == '0'
    check('7 bench on the panel: four strategies through the dumb buffer and DirtyFB', on_panel,
          f"(d) {rows['d'][-5]}% of a frame per event, lag max {rows['d'][-1]}; {targets[9:].split(';')[0].strip()} (TCG: not a speed figure)"
          if on_panel else f'exit {bench_exit}: {bench.strip()[:400]}')
    stopped = phase_files['bench'].get('bench-stopped.txt', b'').decode(errors='replace')
    stopped_exit = next((m.split()[-1] for m in markers if m.startswith('BENCH STOPPED EXIT')), '?')
    if shots['console-before'] and shots['console-after']:
        written = region_diff(shots['console-before'][2], shots['console-after'][2], W, whole)
        check('5 a signal ends bench --on-screen and hands the console back in text mode',
              stopped_exit == '1' and 'stopped by signal 15' in stopped and written > 0.002,
              f"exit {stopped_exit}: {stopped.strip().splitlines()[-1] if stopped.strip() else 'no output'}; "
              f"text written to the console changed {100 * written:.2f}% of the screen")
    else:
        check('5 a signal ends bench --on-screen and hands the console back in text mode', False, 'no screendumps')
