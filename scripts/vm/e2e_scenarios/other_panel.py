"""Another panel without the kiosk's size (virtio-gpu only), and one without the configured mode.

Its guest steps are other_panel.sh, beside this file; its host checks are check(run), here."""
from driver import W, H, region_diff, white_share


def check(run):
    shots, fields, check, args = run.shots, run.fields, run.check, run.args
    expected_initial, whole, against_replay = run.expected_initial, run.whole, run.against_replay
    newpanel = fields('NEWPANEL')
    if args.gpu == 'virtio':
        other, anew, signed_anew = shots['other-panel'], shots['taken-anew'], shots['anew-signed']
        if other and anew and signed_anew:
            white = white_share(other[2])
            same = region_diff(anew[2], expected_initial[2], W, whole) if anew[:2] == (W, H) else 1
            ink_diff, ink = against_replay(signed_anew)
            told = len(newpanel) == 1 and newpanel[0].get('without') == '1' and newpanel[0].get('lost') == '1' and \
                newpanel[0].get('ready') == '2' and newpanel[0].get('alive') == 'yes'
            check("5 a panel without the kiosk's size is taken anew at its own", told and other[:2] == (1000, 700) and white > 0.5
                  and same < 0.005 and ink_diff < 0.002 and ink > 500,
                  f"the kiosk at {other[0]}x{other[1]} ({100 * white:.0f}% white); after a panel of {W}x{H} only, the kiosk at "
                  f"{anew[0]}x{anew[1]} ({100 * same:.3f}% differ from the offscreen screen), a signature: {ink} ink pixels, "
                  f"{100 * ink_diff:.3f}% of the box differs from signpad replay; {newpanel}")
        else:
            check("5 a panel without the kiosk's size is taken anew at its own", False, f'no screendump; {newpanel}')
        pinned, back = fields('PINNED'), shots['pinned-back']
        told = len(pinned) == 1 and pinned[0].get('waited') == '1' and pinned[0].get('alive') == 'yes' and pinned[0].get('ready') == '2'
        white = white_share(back[2]) if back else 0
        check('5 a panel without the configured mode is waited out until one with it is back',
              told and back is not None and back[:2] == (1000, 700) and white > 0.5,
              f"display.mode 1000x700, a panel of 1024x768 only: signpad waited, logging it once, and stayed up; "
              f"the panel of 1000x700 back: the kiosk at {back[0] if back else '?'}x{back[1] if back else '?'} ({100 * white:.0f}% white); {pinned}")
    else:
        print(f"[{args.gpu}] 5 a panel without the kiosk's size: not run (QEMU changes only virtio-gpu's modes while it runs)", flush=True)
