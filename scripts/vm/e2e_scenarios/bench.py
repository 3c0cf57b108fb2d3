"""signpad bench on the panel, and a signal ending it hands the console back in text mode."""
import os

from driver import W, region_diff

GUEST = r'''
# The bench on the panel itself: every strategy presents to the dumb buffer and calls DirtyFB.
signpad bench --on-screen --config /etc/signpad/signpad.toml --recording /share/signature.evemu > /tmp/bench.txt 2>&1
say "BENCH EXIT $?"
say "PHASE bench"
say "FILE bench.txt"; base64 /tmp/bench.txt; say "END"
# SIGTERM (or Ctrl-C) in the middle of `bench --on-screen`: the run ends early and hands the
# console back in text mode, so what is then written to it shows. (A process the signal ended
# while it held the screen would leave the console in graphics mode, where nothing written to it
# is drawn. SIGTERM, as a background job of this shell ignores SIGINT.)
signpad bench --on-screen --config /etc/signpad/signpad.toml --recording /share/signature.evemu > /tmp/bench-stopped.txt 2>&1 &
bench_pid=$!
for i in $(seq 100); do grep -q "signpad: display" /tmp/bench-stopped.txt && break; sleep 0.1; done
sleep 0.5
kill -TERM $bench_pid
wait $bench_pid
say "BENCH STOPPED EXIT $?"
sleep 0.5
ask "screendump console-before"
printf '\033[2J\033[H' > /dev/tty0
for i in $(seq 20); do echo "################ the console is back ################" > /dev/tty0; done
sleep 0.5
ask "screendump console-after"
say "FILE bench-stopped.txt"; base64 /tmp/bench-stopped.txt; say "END"
'''


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
