# The same contact as a hand resting on the glass, and a finger that signs beside it at once, with
# the shipped idle timeout: the hand's dot is taken back as the finger writes, and every stroke of
# the signature is drawn as on a dry panel while the hand stays. Then the hand rests again (its dot
# lands in the signature) and a finger taps Done beside it: the signature is saved, dot taken back.
: > /tmp/signpad.log
: > /run/uinput.pids
panel=$(uinput_node /share/water-down.evemu /tmp/evemu-resting.out)
start_signpad --set 'input.device="signpad demo touchscreen"'
evemu-play "$panel" < /share/water-down.evemu
sleep 0.5
evemu-play "$panel" < /share/signature-second-finger.evemu
sleep 0.5
ask "screendump resting-signed"
evemu-play "$panel" < /share/water-up.evemu
rm -f /export/*
evemu-play "$panel" < /share/water-down.evemu
sleep 0.3
evemu-play "$panel" < /share/tap-done-second-finger.evemu
for i in $(seq 50); do ls /export/*.meta.json >/dev/null 2>&1 && break; sleep 0.2; done
evemu-play "$panel" < /share/water-up.evemu
sleep 0.3
say "RESTING withdrawn=$(grep -c 'is taken back, its ink' /tmp/signpad.log) letgo=$(grep -c 'down and still at the idle timeout' /tmp/signpad.log) saved=$(ls /export/*.meta.json 2>/dev/null | wc -l) strokes=$(cat /export/*.meta.json 2>/dev/null | tr -d ' \n' | grep -o '"strokes":[0-9]*' | grep -o '[0-9]*$') alive=$(alive)"
stop_signpad
rm -f /export/*
kill $(cat /run/uinput.pids) 2>/dev/null
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
