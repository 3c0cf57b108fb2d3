"""A hung daemon is killed by the watchdog and started again, showing the kiosk as it was.

Its guest steps are watchdog.sh, beside this file; its host checks are check(run), here."""
from driver import W, H, region_diff


def check(run):
    watchdog = run.said('watchdog')
    restarted = run.shot('sd-restarted')
    d = region_diff(restarted, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if restarted else 1
    restarted_ok = watchdog['state'] == 'active/running' and watchdog.get('pid') != watchdog.get('hung') and int(watchdog.get('restarts', 0)) > int(watchdog.get('restarts_before', 0))
    run.check('S7 a hung daemon is killed by the watchdog (WatchdogSec) and restarted (Restart=on-failure)',
              restarted_ok and 'watchdog timeout' in run.journal.lower() and d < 0.01,
              f"{watchdog['text']}; {100 * d:.3f}% of pixels differ from the reloaded screen after the restart")
