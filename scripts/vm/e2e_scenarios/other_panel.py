"""Another panel without the kiosk's size (virtio-gpu only), and one without the configured mode."""
from driver import W, H, region_diff, white_share

GUEST = r'''
# Another panel, without a mode of the kiosk's size, plugged in where the kiosk's was (virtio-gpu
# only: QEMU changes its modes when a VNC viewer resizes the display): signpad lets the display go
# and takes it anew at the new panel's size, with the touch panel mapped to it.
say "resize 1000x700"; read -r resized
if [ "$resized" = ok ]; then
    : > /tmp/signpad.log
    start_signpad --set 'input.device="signpad demo touchscreen"' --set 'display.mode=""'
    ask "screendump other-panel"
    echo off > "$status"
    for i in $(seq 50); do grep -q "reports no panel" /tmp/signpad.log && break; sleep 0.1; done
    ask "resize 1024x768"
    echo detect > "$status"
    for i in $(seq 150); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
    sleep 0.5
    say "NEWPANEL without=$(grep -c "again, without 1000x700" /tmp/signpad.log) lost=$(grep -c "the display is lost" /tmp/signpad.log) ready=$(grep -c "ready:" /tmp/signpad.log) alive=$(alive)"
    ask "screendump taken-anew"
    play /share/signature.evemu
    ask "screendump anew-signed"
    stop_signpad
    say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
    # With the mode named in the configuration, a panel without it is waited out: signpad stays
    # up, names the mode it waits for, and takes the panel that has it when that is back.
    : > /tmp/signpad.log
    say "resize 1000x700"; read -r resized
    start_signpad --set 'input.device="signpad demo touchscreen"' --set 'display.mode="1000x700"'
    echo off > "$status"
    for i in $(seq 50); do grep -q "reports no panel" /tmp/signpad.log && break; sleep 0.1; done
    ask "resize 1024x768"
    echo detect > "$status"
    for i in $(seq 100); do grep -q "waiting for a display: .*1000x700" /tmp/signpad.log && break; sleep 0.1; done
    # Past the next try, which must wait again rather than fail.
    sleep 2.5
    waited=$(grep -c "waiting for a display: .*1000x700" /tmp/signpad.log) waiting_alive=$(alive)
    echo off > "$status"
    ask "resize 1000x700"
    echo detect > "$status"
    for i in $(seq 150); do [ "$(grep -c "ready:" /tmp/signpad.log)" -ge 2 ] && break; sleep 0.1; done
    sleep 0.5
    say "PINNED waited=$waited alive=$waiting_alive ready=$(grep -c "ready:" /tmp/signpad.log)"
    ask "screendump pinned-back"
    stop_signpad
    say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
    say "resize 1024x768"; read -r resized
fi
'''


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
