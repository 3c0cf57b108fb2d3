# Water that makes and breaks contact at one place for longer than the idle timeout: the
# unconfirmed signature is wiped all the same and the water then draws nothing; a finger signs after.
# Then a contact that stays down 6 s and jitters: that signature is wiped and the contact let go of.
: > /tmp/signpad.log
: > /run/uinput.pids
panel=$(uinput_node /share/water-flicker.evemu /tmp/evemu-flicker.out)
start_signpad --set 'input.device="signpad demo touchscreen"' --set kiosk.idle_timeout=3
evemu-play "$panel" < /share/signature.evemu
evemu-play "$panel" < /share/water-flicker.evemu
ask "screendump flicker-blank"
evemu-play "$panel" < /share/signature.evemu
sleep 0.5
ask "screendump flicker-signed"
letgo_before=$(grep -c 'down and still at the idle timeout' /tmp/signpad.log)
evemu-play "$panel" < /share/water-jitter.evemu
ask "screendump jitter-blank"
say "FLICKER held=$(grep -c 'keep landing and lifting' /tmp/signpad.log) letgo=$(( $(grep -c 'down and still at the idle timeout' /tmp/signpad.log) - letgo_before )) alive=$(alive)"
stop_signpad
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
