"""`systemctl stop` ends the service and hands the screen back.

Its guest steps are stop.sh, beside this file; its host checks are check(run), here."""
from driver import white_share


def check(run):
    stopped = run.said('stopped')
    after = run.shot('sd-stopped')
    white = white_share(after) if after else 1
    run.check('S8 systemctl stop ends the service and hands the screen back', stopped['state'] == 'inactive/dead' and white < 0.05,
              f"{stopped['text']}; {100 * white:.1f}% of sampled pixels are white (the kiosk screen is mostly white)")
