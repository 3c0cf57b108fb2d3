"""`systemctl reload` with an edited file applies it in the same process.

Its guest steps are reload.sh, beside this file; its host checks are check(run), here."""
from driver import W, H, region_diff


def check(run):
    # The new background differs from the old by 47 in red: the threshold must be below that.
    reload = run.said('reload')
    reloaded = run.shot('sd-reloaded')
    d = region_diff(reloaded, run.expected['reloaded'], W, (0, 0, W, H), threshold=16) if reloaded else 1
    reload_ok = reload['state'] == 'active/running' and reload.get('status') == '0' and reload.get('pid') == reload.get('first') and \
        int(reload.get('ready_after', 0)) == int(reload.get('ready_before', 0)) + 1
    run.check('S6 systemctl reload applies the edited file in the same process', reload_ok and d < 0.01,
              f"{reload['text']}; {100 * d:.3f}% of pixels differ from signpad replay of the new file")
