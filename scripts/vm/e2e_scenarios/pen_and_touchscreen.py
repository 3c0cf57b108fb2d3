"""A panel's pen and touchscreen read together: a hand taken back when the pen comes near, touches
ignored while it hovers, the eraser, a pen put down, a customer pausing with the pen raised."""
import os

from driver import W, dark_pixels, read_png, region_diff

GUEST = r'''
# A panel's pen and touchscreen are two devices: without input.device signpad reads both (and not
# the usb-tablet), one stroke at a time; the pen, probed after signpad started, is added. While the
# pen hovers, the hand's touches draw nothing; the pen's signature does; then a tap on Clear on the
# touchscreen wipes it.
: > /tmp/signpad.log
: > /run/uinput.pids
panel=$(uinput_node /share/signature.evemu /tmp/evemu-panel.out)
start_signpad
pen=$(uinput_node /share/pen-near.evemu /tmp/evemu-pen.out)
for i in $(seq 50); do grep -q '"signpad demo pen" as pen' /tmp/signpad.log && break; sleep 0.1; done
# A hand lands and moves before the pen comes near: when it does, the hand's ink is taken back.
evemu-play "$panel" < /share/palm-down.evemu
sleep 0.5
ask "screendump palm-inked"
evemu-play "$pen" < /share/pen-near.evemu
sleep 0.5
ask "screendump palm-withdrawn"
evemu-play "$panel" < /share/palm-up.evemu
sleep 0.3
evemu-play "$pen" < /share/pen-hover.evemu &
hovering=$!
evemu-play "$panel" < /share/signature.evemu
wait $hovering
sleep 1
ask "screendump pen-hover"
evemu-play "$pen" < /share/pen-away.evemu
sleep 1.5
evemu-play "$pen" < /share/pen-signature.evemu
sleep 1
ask "screendump pen-signed"
evemu-play "$pen" < /share/pen-eraser.evemu
sleep 1
ask "screendump pen-erased"
# Past the second after the pen left in which touches are still taken for its hand.
sleep 1.5
evemu-play "$panel" < /share/tap-clear.evemu
sleep 1
reads=$(signpad devices | tail -1)
say "PEN withdrawn=$(grep -c 'is taken back' /tmp/signpad.log) pen=$(grep -c '"signpad demo pen" as pen' /tmp/signpad.log) touchscreen=$(grep -c '"signpad demo touchscreen" as touchscreen' /tmp/signpad.log) tablet=$(grep -c '"QEMU QEMU USB Tablet" as' /tmp/signpad.log) alive=$(alive)"
# signpad devices ends with the devices signpad reads: the same two.
say "PEN LISTED pen=$(echo "$reads" | grep -c 'signpad reads.*"signpad demo pen"') touchscreen=$(echo "$reads" | grep -c 'signpad reads.*"signpad demo touchscreen"') tablet=$(echo "$reads" | grep -c 'QEMU')"
ask "screendump pen-cleared"
# A pen put down near the glass: once it has lain still for 5 s, touches draw again.
evemu-play "$pen" < /share/pen-near.evemu
sleep 5.5
evemu-play "$panel" < /share/signature.evemu
sleep 0.5
ask "screendump pen-put-down"
say "PUTDOWN told=$(grep -c 'draws though a pen is near' /tmp/signpad.log) withdrawn=$(grep -c 'is taken back' /tmp/signpad.log) alive=$(alive)"
stop_signpad
# A customer pauses with the pen raised and moving, for twice the idle timeout: the signature
# stays. Then the pen lies still near the glass: the signature is wiped on time.
pens=$(grep -c '"signpad demo pen" as pen' /tmp/signpad.log)
start_signpad --set kiosk.idle_timeout=3
for i in $(seq 50); do [ "$(grep -c '"signpad demo pen" as pen' /tmp/signpad.log)" -gt "$pens" ] && break; sleep 0.1; done
evemu-play "$pen" < /share/pen-signature.evemu
evemu-play "$pen" < /share/pen-pause.evemu
ask "screendump pen-paused"
sleep 4
ask "screendump pen-laid"
evemu-play "$pen" < /share/pen-away.evemu
say "PAUSE alive=$(alive)"
stop_signpad
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
'''


def check(run):
    shots, fields, check, args = run.shots, run.fields, run.check, run.args
    expected_initial, box, against_replay = run.expected_initial, run.box, run.against_replay
    pen = fields('PEN')
    name = '3 a panel\'s pen and touchscreen are read together; touches are ignored while the pen hovers'
    if shots['palm-inked'] and shots['palm-withdrawn']:
        palm = dark_pixels(shots['palm-inked'][2], W, box)
        gone = region_diff(shots['palm-withdrawn'][2], expected_initial[2], W, box)
        told = len(pen) >= 1 and pen[0].get('withdrawn') == '1'
        check('3 a hand on the glass when the pen comes near is taken back', told and palm > 100 and gone < 0.001,
              f"a touch stroke half drawn: {palm} ink pixels; the pen comes near: {100 * gone:.3f}% of the box differs from the blank box; {pen[:1]}")
    else:
        check('3 a hand on the glass when the pen comes near is taken back', False, f'no screendump; {pen[:1]}')
    if shots['pen-hover'] and shots['pen-signed'] and shots['pen-cleared']:
        hover = region_diff(shots['pen-hover'][2], expected_initial[2], W, box)
        d, ink = against_replay(shots['pen-signed'])
        cleared = region_diff(shots['pen-cleared'][2], expected_initial[2], W, box)
        # The second marker is what `signpad devices` says signpad reads.
        told = len(pen) == 2 and pen[0].get('alive') == 'yes' and \
            all(m.get('pen') == '1' and m.get('touchscreen') == '1' and m.get('tablet') == '0' for m in pen)
        check(name, told and hover < 0.001 and d < 0.002 and ink > 500 and cleared < 0.001,
              f"the demo signature on the touchscreen while the pen hovers: {100 * hover:.3f}% of the box differs from the blank box; "
              f"the pen's signature: {ink} ink pixels, {100 * d:.3f}% differs from signpad replay; a tap on Clear on the touchscreen: "
              f"{100 * cleared:.3f}% differs from the blank box; {pen}")
    else:
        check(name, False, f'no screendump; {pen}')
    expected_erased = os.path.join(args.expected, 'erased.png')
    if shots['pen-erased'] and shots['pen-signed'] and os.path.exists(expected_erased):
        d = region_diff(shots['pen-erased'][2], read_png(expected_erased)[2], W, box)
        before, after = dark_pixels(shots['pen-signed'][2], W, box), dark_pixels(shots['pen-erased'][2], W, box)
        check("3 the pen's eraser end takes away the stroke it passes over", d < 0.002 and after < before - 100,
              f"{before} ink pixels before, {after} after; {100 * d:.3f}% of the box differs from signpad replay of the same events")
    else:
        check("3 the pen's eraser end takes away the stroke it passes over", False, 'no screendump or no expected erased.png')
    putdown = fields('PUTDOWN')
    name = '3 a pen lying still near the glass is taken as put down: touches draw again'
    if shots['pen-put-down']:
        d, ink = against_replay(shots['pen-put-down'])
        told = len(putdown) == 1 and putdown[0].get('told') == '1' and putdown[0].get('withdrawn') == '1' and putdown[0].get('alive') == 'yes'
        check(name, told and d < 0.002 and ink > 500,
              f"the pen near and still for 5.5 s, the demo signature on the touchscreen: {ink} ink pixels, "
              f"{100 * d:.3f}% of the box differs from signpad replay; {putdown}")
    else:
        check(name, False, f'no screendump; {putdown}')
    pause = fields('PAUSE')
    name = '5 a customer pausing with the pen raised keeps the signature; a pen lying still near the glass does not'
    if shots['pen-paused'] and shots['pen-laid']:
        d, ink = against_replay(shots['pen-paused'])
        wiped = region_diff(shots['pen-laid'][2], expected_initial[2], W, box)
        told = len(pause) == 1 and pause[0].get('alive') == 'yes'
        check(name, told and d < 0.002 and ink > 500 and wiped < 0.001,
              f"idle_timeout 3 s: the pen's signature, then 6 s of the pen moving above the box: {ink} ink pixels, "
              f"{100 * d:.3f}% of the box differs from signpad replay; the pen then still near the glass for 4 s: "
              f"{100 * wiped:.3f}% differs from the blank box; {pause}")
    else:
        check(name, False, f'no screendump; {pause}')
