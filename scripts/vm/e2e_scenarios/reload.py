"""SIGHUP: broken, misfitting and good configurations; the console never the daemon's terminal.

Its guest steps are reload.sh, beside this file; its host checks are check(run), here."""
import os, re

from driver import W, dark_pixels, read_png, region_diff


def check(run):
    shots, check, markers, all_logs = run.shots, run.check, run.markers, run.all_logs
    args, expected_signed, box, whole = run.args, run.expected_signed, run.box, run.whole
    # SIGHUP: a broken file is refused (file and line named); a good one waits for the customer's
    # Clear, then the same process starts again and draws exactly what the new file draws offscreen.
    # A refusal's line: "… reason=FILE:LINE: key: why [SignpadDaemon] not reloading; …".
    refusals = [l for l in all_logs.splitlines() if 'not reloading' in l]
    refused = next((m for m in (re.search(r'reason=(\S+signpad\.toml:\d+)', l) for l in refusals) if m), None)
    # "RELOAD READY <ready: lines> PIDS <pid before> <pid after>"
    reload = next((m.split() for m in markers if m.startswith('RELOAD READY')), [])
    ready, pids = (reload[2], reload[4:]) if len(reload) > 4 else ('?', [])
    expected_reloaded = read_png(os.path.join(args.expected, 'reloaded.png'))
    if shots['waiting'] and shots['reloaded']:
        waiting_ink = dark_pixels(shots['waiting'][2], W, box)
        waiting_same = region_diff(shots['waiting'][2], expected_signed[2], W, box)
        # At 16 the new background (47 from white in red) counts: a missed reload differs almost everywhere.
        d = region_diff(shots['reloaded'][2], expected_reloaded[2], W, whole, threshold=16)
        check('9 SIGHUP: a broken configuration is refused; a good one waits for the customer, then applies in the same process',
              refused is not None and 'reloading once nobody is at the pad' in all_logs and waiting_ink > 500 and waiting_same < 0.002 and
              ready == '2' and len(pids) == 2 and pids[0] == pids[1] and d < 0.01,
              f"refused: {refused.group(1) if refused else 'NOT LOGGED'}; while signing: {waiting_ink} ink pixels, {100 * waiting_same:.3f}% of the box differs "
              f"from before the signal; after Clear: ready {ready} times, pid {' then '.join(pids) or '?'}, {100 * d:.3f}% of pixels differ from the new configuration offscreen")
    else:
        check('9 SIGHUP: a broken configuration is refused; a good one waits for the customer, then applies in the same process', False, 'no screendumps')
    # "RELOAD MODE refused=<n> ready=<n> alive=yes": a mode the panel lacks is refused before the screen is handed back.
    mode = next((dict(w.split('=', 1) for w in m.split()[2:]) for m in markers if m.startswith('RELOAD MODE')), {})
    check('9 SIGHUP: a configuration naming a mode the panel does not have is refused, and the kiosk goes on',
          mode.get('refused') == '1' and mode.get('ready') == '1' and mode.get('alive') == 'yes',
          f"{mode or 'no RELOAD MODE line'}; {next((l.split('reason=', 1)[-1] for l in refusals if 'has no mode 1234x567' in l), 'not logged')}")
    image = next((dict(w.split('=', 1) for w in m.split()[2:]) for m in markers if m.startswith('RELOAD IMAGE')), {})
    check('9 SIGHUP: a configuration whose background image does not load is refused, and the kiosk goes on',
          image.get('refused') == '1' and image.get('ready') == '1' and image.get('alive') == 'yes',
          f"{image or 'no RELOAD IMAGE line'}; {next((l.split('reason=', 1)[-1] for l in refusals if 'reason=kiosk.background_image: /share/no-such-brand.png' in l), 'not logged')}")
    # /proc/PID/stat: the session (the PID itself for a session leader) and tty_nr (0: no terminal).
    ttys = [m.split()[-3:] for m in markers if m.startswith('CTTY')]
    check('5 the console stays no terminal of the daemon (O_NOCTTY)', len(ttys) == 2 and all(p == sid and tty == '0' for p, sid, tty in ttys),
          "signpad holding /dev/tty1, at start and after a reload: " + '; '.join(f'pid {p} session {sid} tty_nr {tty}' for p, sid, tty in ttys))
