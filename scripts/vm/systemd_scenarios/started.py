"""The packaged, enabled unit at boot: active, waiting for a DRM driver that loads after it, then the
kiosk on the DRM card, the console in graphics mode.

Its guest steps are started.sh, beside this file; its host checks are check(run), here."""
from driver import W, H, region_diff


def check(run):
    # "active/running pid N restarts N result R": what `systemctl show` said at each step.
    started = run.said('started')
    run.check('S1 signpad.service is active/running (Type=notify: READY=1 reached systemd)',
              started['state'] == 'active/running', started['text'])
    late = run.said('latecard')
    waiting = run.statuses.get('waiting', '')
    # The journal's lines (guest.sh's journal: "[seconds] message details") that say why a start failed.
    why = [l.split('] ', 1)[-1] for l in run.journal.splitlines() if 'permission denied' in l.lower() or 'Main process exited' in l][:2]
    run.check('S32 a DRM driver that loads after signpad started: signpad waits for its card and shows it, no restart',
              waiting.startswith('waiting for a display') and late['state'] == 'active/running'
              and late.get('pid') == late.get('waited') and late.get('restarts') == '0',
              f"before the driver: {waiting!r}; after: {late['text']}" + (f" — {' / '.join(why)}" if why else ''))
    initial = run.shot('sd-initial')
    d = region_diff(initial, run.expected['initial'], W, (0, 0, W, H)) if initial else 1
    run.check('S2 the hardened unit opens the DRM card: the kiosk layout is on the screen', d < 0.005,
              f'{100 * d:.3f}% of pixels differ from the offscreen screen')
    console = run.said('console')
    console_ok = console.get('kdsetmode_failed') == '0' and console.get('open_failed') == '0'
    complaint = next((l.split('] ', 1)[-1] for l in run.journal.splitlines() if 'hide the console' in l or 'KDSETMODE' in l), '')
    run.check('S3 the hardened unit puts the console in graphics mode', console_ok, console['text'] + (f' — {complaint}' if complaint else ''))
