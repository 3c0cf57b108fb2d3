# A panel's pen and touchscreen are two devices: without input.device signpad reads both (and not
# the usb-tablet), one stroke at a time; the pen, probed after signpad started, is added. While the
# pen hovers, the hand's touches draw nothing; the pen's signature does; then a tap on Clear on the
# touchscreen wipes it.
: > /tmp/signpad.log
: > /run/uinput.pids
panel=$(uinput_node /share/signature.evemu /tmp/evemu-panel.out)
start_signpad
pen=$(uinput_node /share/pen-near.evemu /tmp/evemu-pen.out)
for i in $(seq 50); do [ "$(taken pen 'signpad demo pen')" -gt 0 ] && break; sleep 0.1; done
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
say "PEN withdrawn=$(grep -c 'is taken back' /tmp/signpad.log) pen=$(taken pen 'signpad demo pen') touchscreen=$(taken touchscreen 'signpad demo touchscreen') tablet=$(taken '[a-z-]*' 'QEMU QEMU USB Tablet') alive=$(alive)"
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
pens=$(taken pen 'signpad demo pen')
start_signpad --set kiosk.idle_timeout=3
for i in $(seq 50); do [ "$(taken pen 'signpad demo pen')" -gt "$pens" ] && break; sleep 0.1; done
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
