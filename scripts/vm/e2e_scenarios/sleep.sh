# An idle screen is switched off; a tap in the box wakes it and draws no dot.
: > /tmp/signpad.log
start_signpad --set 'input.device="signpad demo touchscreen"' --set kiosk.sleep_after=2
for i in $(seq 50); do grep -q "the screen is off" /tmp/signpad.log && break; sleep 0.1; done
sleep 0.5
ask "screendump asleep"
play /share/tap-box.evemu
say "SLEEP off=$(grep -c "the screen is off" /tmp/signpad.log) on=$(grep -c "the screen is on" /tmp/signpad.log) alive=$(alive)"
ask "screendump awake"
stop_signpad
say "LOG BEGIN"; cat /tmp/signpad.log; say "LOG END"
